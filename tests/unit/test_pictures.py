"""Game pictures, score charts and resolution accounts, from the fixture bundles' records."""

from __future__ import annotations

import copy
import functools
import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from replay.bundle import load_bundle, play_scenario
from replay.state import MatchReplay
from web import games, svg
from web.games.grid_adaptation import picture as grid_picture
from web.games.grid_adaptation.picture import SEQUENCE_COLOURS
from web.games.vote import picture as vote_picture
from web.pictures import account, chart, picture

BUNDLES = Path(__file__).resolve().parents[2] / "fixtures" / "bundles"
HONEST = [
    "vote-basic",
    "six-nimmt-classic",
    "six-nimmt-even-odd",
    "six-nimmt-seeded",
    "apocalypse-bot-match",
    "picking-nine-six-bots",
    "picking-nine-seeded",
    "grid-adaptation-ec-vote",
]
TAMPERED = sorted(p.name.removesuffix(".bundle.json") for p in BUNDLES.glob("*.*.bundle.json"))
SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = "<script>alert(1)</script>"
SLY = "bo\"b&'x"


@functools.cache
def _loaded(name: str) -> tuple[dict[str, Any], ...]:
    return tuple(load_bundle((BUNDLES / f"{name}.bundle.json").read_bytes())["records"])


def records(name: str) -> list[dict[str, Any]]:
    return copy.deepcopy(list(_loaded(name)))


def parse(markup: Any) -> ET.Element:
    """Parse SVG output as XML: it must be well-formed and carry no inline style."""
    text = str(markup)
    assert "style=" not in text
    return ET.fromstring(text)  # noqa: S314 - the SVG our own code just drew


def groups(root: ET.Element, css: str) -> list[ET.Element]:
    """Elements whose class list holds ``css``."""
    return [e for e in root.iter() if css in (e.get("class") or "").split()]


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def resolved(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in recs if r["type"] == "StepResolved"]


def seq_of(recs: list[dict[str, Any]], kind: str, step: int) -> int:
    return next(r["seq"] for r in recs if r["type"] == kind and r["data"].get("step") == step)


# ---------------------------------------------------------------------------
# Every position of every fixture
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", HONEST + TAMPERED)
def test_every_position_of_every_bundle_draws_an_accessible_svg(name: str) -> None:
    # Every position of the honest bundles; of the tampered ones (which must not break the
    # page either) every seventh and the last.
    recs = records(name)
    board = MatchReplay(recs, snapshot_every=4)
    every = 1 if name in HONEST else 7
    for seq in [*range(0, len(recs), every), len(recs) - 1]:
        root = parse(picture(recs, seq, board=board))
        assert root.tag == f"{SVG}svg", seq
        assert root.get("role") == "img"
        assert root.get("aria-label")
        assert root[0].tag == f"{SVG}title"
        assert root[0].text == root.get("aria-label")
        assert "dr-picture" in root.get("class", "")


def test_a_picture_without_a_prepared_board_is_the_same() -> None:
    recs = records("six-nimmt-classic")
    board = MatchReplay(recs)
    for seq in (0, 9, 19, 100, len(recs) - 1):
        assert picture(recs, seq) == picture(recs, seq, board=board)


def test_a_position_outside_the_log_or_an_empty_log_is_a_clear_error() -> None:
    recs = records("vote-basic")
    with pytest.raises(IndexError, match="records 0 to 14"):
        picture(recs, len(recs))
    with pytest.raises(IndexError):
        picture(recs, -1)
    with pytest.raises(ValueError, match="MatchCreated"):
        picture([], 0)
    with pytest.raises(ValueError, match="MatchCreated"):
        chart([])


# ---------------------------------------------------------------------------
# 6 nimmt!
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["six-nimmt-classic", "six-nimmt-even-odd"])
def test_six_nimmt_rows_show_the_cards_of_the_view(name: str) -> None:
    recs = records(name)
    board = MatchReplay(recs)
    for record in resolved(recs):
        view = record["data"]["view"]
        root = parse(picture(recs, record["seq"], board=board))
        rows = {int(g.get("data-row")): g for g in groups(root, "row")}
        assert sorted(rows) == [0, 1, 2, 3]
        for index, cards in enumerate(view["rows"]):
            shown = [int(c.get("data-card")) for c in groups(rows[index], "card")]
            assert shown == cards, (record["seq"], index)
            numbers = [t for c in groups(rows[index], "card") for t in texts(c)]
            assert numbers == [str(c) for c in cards]
        marked = [(int(g.get("data-row")), g) for g in rows.values() if groups(g, "action-card")]
        if view["action_card"] is None:
            assert marked == []
        else:
            [(row, group)] = marked
            assert row == view["action_card"]["row"]
            assert (
                groups(group, "action-card")[0].get("data-parity") == view["action_card"]["parity"]
            )
        points = {g.get("data-player"): texts(g) for g in groups(root, "points")}
        assert set(points) == set(view["points"])
        for player, value in view["points"].items():
            assert any(str(value) in t for t in points[player])


def test_six_nimmt_cards_carry_their_bullheads() -> None:
    recs = records("six-nimmt-even-odd")
    root = parse(picture(recs, 2))  # the deal: rows 24, 7, 77, 102
    card = next(c for c in groups(root, "card") if c.get("data-card") == "77")
    assert card.find(f"{SVG}title").text == "77: 5 bullheads"
    assert len(list(card.iter(f"{SVG}path"))) == 5


def test_six_nimmt_shows_the_turn_in_progress_without_sealed_cards() -> None:
    recs = records("six-nimmt-classic")
    # After the three commitments of step 2, before any reveal: three card backs.
    sealed_at = seq_of(recs, "StepSealed", 2)
    root = parse(picture(recs, sealed_at))
    turn = groups(root, "turn")[0]
    assert len(groups(turn, "sealed")) == 3
    assert not groups(turn, "card") or all("sealed" in c.get("class") for c in groups(turn, "card"))
    # Once revealed, the cards show, and the pending decision is named.
    asked = seq_of(recs, "DecisionRequested", 2)
    root = parse(picture(recs, asked))
    turn = groups(root, "turn")[0]
    revealed = {
        r["data"]["payload"]["card"]
        for r in recs
        if r["type"] == "SubmissionRevealed" and r["data"]["step"] == 2
    }
    assert {int(c.get("data-card")) for c in groups(turn, "card")} == revealed
    assert any("must choose a row" in t for t in texts(turn))


def test_six_nimmt_chart_has_one_series_per_player_and_the_virtual_player() -> None:
    recs = records("six-nimmt-seeded")
    root = parse(chart(recs))
    series = {g.get("data-name"): g for g in groups(root, "series")}
    assert list(series) == ["ana", "ben", "cai", "virtual"]
    final = resolved(recs)[-1]["data"]["view"]["points"]
    for player, group in series.items():
        line = group.find(f"{SVG}polyline")
        assert len(line.get("points").split()) == len(resolved(recs)) + 1  # step 0 too
        assert str(final[player]) in texts(group)


def test_six_nimmt_account_says_where_each_card_went() -> None:
    recs = records("six-nimmt-even-odd")
    one = account(recs, 1)
    assert (
        "cai's 22 was lower than every row end it may enter; cai chose row 3: cai took 102 "
        "(1 bullhead) and 22 starts the row." in one
    )
    assert "The action card moved from row 1 to row 3 and shows Even." in one
    assert "The virtual player's 26 went to row 0 (after 24)." in one
    assert "ben's 31 went to row 0 (after 26)." in one
    two = account(recs, 2)
    assert (
        "cai's 47 was the sixth card of row 0: cai took 24, 26, 31, 39, 41 (5 bullheads) and "
        "47 starts the row." in two
    )
    three = account(recs, 3)
    assert any("ben chose no row in time, so the default row 1" in line for line in three)
    assert account(recs, 10)[-1] == "End of round 1: each row keeps only its rightmost card."
    assert account(recs, 99) == []


def test_an_account_of_a_step_under_way_says_only_what_is_public() -> None:
    recs = records("six-nimmt-classic")
    before_reveal = recs[: seq_of(recs, "StepSealed", 2) + 1]
    words = account(before_reveal, 2)
    assert "3 of 3 picks committed, they stay sealed until the rules reveal them." in words[1]
    later = {
        r["data"]["payload"]["card"]
        for r in recs
        if r["type"] == "SubmissionRevealed" and r["data"]["step"] == 2
    }
    assert not any(re.search(rf"\b{card}\b", line) for line in words for card in later)
    asked = recs[: seq_of(recs, "DecisionRequested", 2) + 1]
    assert account(asked, 2)[-1] == "Waiting for cai to decide (take row); if not in time: row 3."


# ---------------------------------------------------------------------------
# Apocalypse
# ---------------------------------------------------------------------------


def board_of(text: str) -> dict[str, str]:
    return {
        f"{'abcde'[f]}{5 - r}": piece
        for r, line in enumerate(text.split())
        for f, piece in enumerate(line)
        if piece != "."
    }


def centre(root: ET.Element, square: str) -> tuple[float, float]:
    rect = next(r for r in groups(root, "square") if r.get("data-square") == square)
    return float(rect.get("x")), float(rect.get("y"))


def test_apocalypse_pieces_stand_on_the_view_s_squares() -> None:
    recs = records("apocalypse-bot-match")
    board = MatchReplay(recs)
    for record in resolved(recs):
        view = record["data"]["view"]
        root = parse(picture(recs, record["seq"], board=board))
        pieces = {g.get("data-square"): g.get("class").split() for g in groups(root, "piece")}
        expected = board_of(view["board"])
        assert set(pieces) == set(expected), record["seq"]
        for square, piece in expected.items():
            assert ("white" if piece.isupper() else "black") in pieces[square]
            assert ("knight" if piece in "Nn" else "pawn") in pieces[square]


def test_apocalypse_board_is_turned_so_white_moves_left() -> None:
    recs = records("apocalypse-bot-match")
    root = parse(picture(recs, 2))
    # Rank 5 (White's far side) is on the left, rank 1 on the right; file e on top.
    assert centre(root, "a5")[0] < centre(root, "a4")[0] < centre(root, "a1")[0]
    assert centre(root, "e3")[1] < centre(root, "a3")[1]
    assert centre(root, "a1")[1] == centre(root, "a5")[1]
    # Every White pawn step forward is drawn as an arrow pointing left, Black's right.
    checked = 0
    for record in resolved(recs):
        root = parse(picture(recs, record["seq"]))
        for arrow in groups(root, "move"):
            start, end = arrow.get("data-from"), arrow.get("data-to")
            line = arrow.find(f".//{SVG}line")
            dx = float(line.get("x2")) - float(line.get("x1"))
            forward = int(end[1]) - int(start[1])
            if "white" in arrow.get("class") and forward > 0:
                assert dx < 0
                checked += 1
            if "black" in arrow.get("class") and forward < 0:
                assert dx > 0
                checked += 1
    assert checked > 10


def test_apocalypse_draws_the_moves_of_the_turn_resolved_last() -> None:
    recs = records("apocalypse-bot-match")
    last = resolved(recs)[-1]
    for seq in (last["seq"], len(recs) - 1):  # the last turn, also after the match's end
        root = parse(picture(recs, seq))
        drawn = {
            a.get("class"): (a.get("data-from"), a.get("data-to")) for a in groups(root, "move")
        }
        moves = last["data"]["outcome"]["moves"]
        assert drawn == {
            "move white": (moves["ana"]["from"], moves["ana"]["to"]),
            "move black": (moves["ben"]["from"], moves["ben"]["to"]),
        }
    assert any("ana wins" in t for t in texts(root))


def test_apocalypse_chart_and_account() -> None:
    recs = records("apocalypse-bot-match")
    root = parse(chart(recs))
    assert [g.get("data-name") for g in groups(root, "series")] == ["ana", "ben"]
    assert account(recs, 5)[1:] == [
        "White (ana) moved the pawn b2→a3.",
        "White's pawn captured Black's pawn on a3.",
        (
            "Black (ben) moved the knight d3→b2; the enemy piece there had moved away, so nothing "
            "was captured."
        ),
    ]
    assert "White's pawn on a5 was promoted to a knight." in account(recs, 10)
    assert account(recs, 23)[1:] == [
        (
            "White's knight (from d3) and Black's pawn (from e2) both moved to e1: White's knight "
            "survives and the other is removed."
        ),
        "The match is over: White (ana) wins (no pawns left).",
    ]


# ---------------------------------------------------------------------------
# Picking Nine
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["picking-nine-six-bots", "picking-nine-seeded"])
def test_picking_nine_shows_the_pool_and_every_holding(name: str) -> None:
    recs = records(name)
    for record in resolved(recs):
        view, outcome = record["data"]["view"], record["data"]["outcome"]
        root = parse(picture(recs, record["seq"]))
        pool = list(groups(root, "pool-card"))
        assert [groups(g, "card")[0].get("data-card") for g in pool] == view["pool"]
        for g in pool:
            card = groups(g, "card")[0].get("data-card")
            if card == outcome["banned"]:
                assert "banned" in texts(g)
            for player, got in outcome["received"].items():
                if got == card:
                    assert player in texts(g)
        holdings = {g.get("data-player"): g for g in groups(root, "holding")}
        assert list(holdings) == recs[0]["data"]["players"]  # seat order
        for player, cards in view["holdings"].items():
            assert [c.get("data-card") for c in groups(holdings[player], "card")] == cards
            assert str(view["scores"][player]) in texts(holdings[player])
            quattro = [c.get("data-card") for c in groups(holdings[player], "quattro")]
            assert len(quattro) == (4 if view["scores"][player] else 0)


def test_picking_nine_chart_and_account() -> None:
    recs = records("picking-nine-seeded")
    root = parse(chart(recs))
    assert [g.get("data-name") for g in groups(root, "series")] == recs[0]["data"]["players"]
    words = account(recs, 1)
    assert "G7 was banned." in words
    assert "tog received Y4." in words
    assert (
        "Revealed after the match: tog wanted Y4, Y7, Y3, Y6, G7, 0, B2, banned Y3, priority 1."
        in words
    )
    # Before the end, want-lists, bans and priorities are sealed, so no account tells them.
    under_way = recs[: seq_of(recs, "StepOpened", 3)]
    assert not any("wanted" in line or "priority" in line for line in account(under_way, 1))
    sealed = recs[: seq_of(recs, "StepSealed", 3) + 1]
    assert account(sealed, 3)[2] == (
        "The step is not resolved yet: 6 of 6 picks committed, they stay sealed until the rules "
        "reveal them."
    )


# ---------------------------------------------------------------------------
# Grid Adaptation
# ---------------------------------------------------------------------------


def test_grid_adaptation_draws_every_cell_coloured_by_sequence() -> None:
    recs = records("grid-adaptation-ec-vote")
    for record in resolved(recs):
        grid = record["data"]["view"]["grid"]
        root = parse(picture(recs, record["seq"]))
        cells = groups(root, "cell")
        assert len(cells) == 15 * 15
        for cell in cells:
            column, row = (
                "ABCDEFGHIJKLMNO".index(cell.get("data-cell")[0]),
                int(cell.get("data-cell")[1:]),
            )
            char = grid[row - 1][column]
            bits = cell.get("data-bits")
            assert bits == (None if char == "." else format(int(char), "03b"))
            if bits:
                assert cell.find(f"{SVG}rect").get("fill") == SEQUENCE_COLOURS[bits]


def test_grid_adaptation_marks_the_last_round_and_the_results() -> None:
    recs = records("grid-adaptation-ec-vote")
    first = resolved(recs)[0]
    root = parse(picture(recs, first["seq"]))
    outlined = {
        c.get("data-cell")
        for c in groups(root, "cell")
        if c.find(f"{SVG}rect").get("stroke") != "none"
    }
    assert outlined == set(first["data"]["outcome"]["placed"])
    end = parse(picture(recs, len(recs) - 1))
    scores = {g.get("data-player"): texts(g) for g in groups(end, "player-score")}
    assert "506" in scores["eli"] and "ToL ★" in scores["eli"]
    assert "EC" in scores["cai"]


def test_grid_adaptation_chart_is_per_sequence_until_the_holders_are_revealed() -> None:
    recs = records("grid-adaptation-ec-vote")
    root = parse(chart(recs))
    series = {g.get("data-name"): texts(g) for g in groups(root, "series")}
    assert list(series) == recs[0]["data"]["players"]
    assert "459" in series["ana"]  # player_scores in the final view
    under_way = recs[: seq_of(recs, "StepOpened", 5)]
    root = parse(chart(under_way))
    assert [g.get("data-name") for g in groups(root, "series")] == list(SEQUENCE_COLOURS)


def test_grid_adaptation_account() -> None:
    recs = records("grid-adaptation-ec-vote")
    words = account(recs, 1)
    assert "Chosen by two or more players, so no tile: E9." in words
    assert "Born in the Life step: C9, B12, L15." in words
    assert "Revealed after the match: eli chose B10, D10, B11." in words
    assert (
        "The EC vote: cai 1, dee 0; cai is the Elimination Candidate (decided by vote)."
        in account(recs, 9)
    )


# ---------------------------------------------------------------------------
# Vote, and a game this module does not know
# ---------------------------------------------------------------------------


def test_vote_bars_and_account() -> None:
    recs = records("vote-basic")
    root = parse(picture(recs, seq_of(recs, "StepResolved", 1)))
    bars = {g.get("data-candidate"): int(g.get("data-votes")) for g in groups(root, "bar")}
    assert bars == {"ana": 0, "ben": 2, "cai": 1}
    assert chart(recs) == ""
    words = account(recs, 1)
    assert "dee submitted nothing, so they abstain." in words
    assert "ana voted for ben." in words
    assert words[-1] == "Winner: ben."


def test_an_unknown_game_is_shown_as_a_table_of_its_view() -> None:
    recs = records("six-nimmt-classic")
    for record in recs:
        if record["type"] == "MatchCreated":
            record["data"]["game"] = "rock-paper-scissors"
    seq = resolved(recs)[2]["seq"]
    root = parse(picture(recs, seq))
    keys = [g.get("data-key") for g in groups(root, "entry")]
    assert keys == list(resolved(recs)[2]["data"]["view"])
    # Its chart finds the one entry mapping every player to a number: the points.
    series = [g.get("data-name") for g in groups(parse(chart(recs)), "series")]
    assert series == ["ana", "ben", "cai", "virtual"]
    assert any('"took": [40]' in line for line in account(recs, 2))


# ---------------------------------------------------------------------------
# Escaping hostile names
# ---------------------------------------------------------------------------

START = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
HOSTILE_SCENARIOS = [
    {
        "game": "vote",
        "players": [HOSTILE, SLY, "cai"],
        "steps": [{"submit": {HOSTILE: {"vote": SLY}, SLY: {"vote": HOSTILE}}}],
    },
    {
        "game": "six-nimmt",
        "players": [HOSTILE, SLY],
        "options": {"start_points": 3},
        "steps": [{}, {}, {}],
    },
    {
        "game": "apocalypse",
        "players": [HOSTILE, SLY],
        "steps": [
            {"submit": {HOSTILE: {"from": "b1", "to": "b2"}, SLY: {"from": "b5", "to": "b3"}}}
        ],
    },
    {"game": "picking-nine", "players": [HOSTILE, SLY, "cai"], "steps": [{}, {}]},
    {
        "game": "grid-adaptation",
        "players": [HOSTILE, SLY],
        "steps": [{"submit": {HOSTILE: {"tiles": ["A1", "B1", "A2"]}}}, *[{}] * 7],
    },
]


@pytest.mark.parametrize("scenario", HOSTILE_SCENARIOS, ids=lambda s: s["game"])
def test_hostile_player_names_are_escaped(scenario: dict[str, Any]) -> None:
    played = play_scenario({**scenario, "seed": "00" * 32}, match_id=UUID(int=9), start_time=START)
    recs = played.records
    outputs = [str(picture(recs, seq)) for seq in range(len(recs))] + [str(chart(recs))]
    for text in outputs:
        assert "<script" not in text
        assert 'bo"b' not in text
        if text:
            parse(text)
    assert any("&lt;script&gt;alert(1)&lt;/script&gt;" in t for t in outputs)
    assert any("bo&#34;b&amp;&#39;x" in t for t in outputs)
    # Accounts are plain text, escaped when a page renders them.
    assert any(HOSTILE in line for line in account(recs, 1))


# ---------------------------------------------------------------------------
# Legible pictures: text inside its boxes, none too small, captions that match the moment
# ---------------------------------------------------------------------------

LONG = [
    "Wolfeschlegelsteinhausenberger",
    "Maximiliana-Montgomery-Smythe",
    "Cai Long Name The Third",
]
LONG_SCENARIOS = [
    {
        "game": "vote",
        "players": LONG,
        "steps": [{"submit": {LONG[0]: {"vote": LONG[1]}, LONG[1]: {"vote": LONG[0]}}}],
    },
    {"game": "six-nimmt", "players": LONG[:2], "options": {"start_points": 3}, "steps": [{}] * 3},
    {
        "game": "apocalypse",
        "players": LONG[:2],
        "steps": [
            # White's knight a1→a5 is no knight's jump: illegal, a penalty point and its reason.
            {"submit": {LONG[0]: {"from": "a1", "to": "a5"}, LONG[1]: {"from": "b5", "to": "b4"}}},
            {"submit": {LONG[0]: {"from": "b1", "to": "b2"}}},
            {"submit": {LONG[0]: {"from": "c1", "to": "c2"}}},
        ],
    },
    {"game": "picking-nine", "players": LONG, "steps": [{}] * 5},
    {
        "game": "grid-adaptation",
        "players": LONG,
        "steps": [{"submit": {LONG[0]: {"tiles": ["A1", "B1", "A2"]}}}, *[{}] * 7],
    },
]


@functools.cache
def _long(game: str) -> tuple[dict[str, Any], ...]:
    scenario = next(s for s in LONG_SCENARIOS if s["game"] == game)
    played = play_scenario({**scenario, "seed": "00" * 32}, match_id=UUID(int=7), start_time=START)
    return tuple(played.records)


def extent(element: ET.Element) -> tuple[float, float]:
    """Where a text is drawn from and to, left to right (its width estimated for the font)."""
    size, x = float(element.get("font-size")), float(element.get("x"))
    width = svg.text_width(
        "".join(element.itertext()), size, bold=element.get("font-weight") == "bold"
    )
    anchor = element.get("text-anchor")
    left = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
    return left, left + width


def drawn_texts(root: ET.Element) -> list[ET.Element]:
    return [t for t in root.iter(f"{SVG}text") if "".join(t.itertext()).strip()]


def every_drawing(recs: list[dict[str, Any]], every: int = 1) -> list[tuple[str, ET.Element]]:
    """The public picture at every ``every``-th position, each seat's at the end, the chart."""
    board = MatchReplay(recs, snapshot_every=4)
    last = len(recs) - 1
    found = [
        (f"at {seq}", parse(picture(recs, seq, board=board)))
        for seq in [*range(0, last, every), last]
    ]
    found += [
        (f"{p}'s seat", parse(picture(recs, last, board=board, seat=p)))
        for p in recs[0]["data"]["players"]
    ]
    drawn = str(chart(recs))
    return found + ([("chart", parse(drawn))] if drawn else [])


@pytest.mark.parametrize("name", HONEST)
def test_every_text_of_every_picture_is_inside_the_drawing_and_at_least_11_units(name: str) -> None:
    # Grid Adaptation's "held at the end" ran past its 780 units; a card's colour letter in
    # Picking Nine and a cell's bits in Grid Adaptation were 9 units, so the timeline had to
    # draw the whole picture 1.4 times larger to show them at 12 px.
    for where, root in every_drawing(records(name)):
        width = float(root.get("viewBox").split()[2])
        for text in drawn_texts(root):
            left, right = extent(text)
            assert left >= 0 and right <= width, (where, text.text, left, right, width)
            assert float(text.get("font-size")) >= 11, (where, text.text)


@pytest.mark.parametrize("game", [s["game"] for s in LONG_SCENARIOS])
def test_long_names_are_cut_to_fit_the_drawing(game: str) -> None:
    recs = list(_long(game))
    for where, root in every_drawing(recs, every=2):
        width = float(root.get("viewBox").split()[2])
        status = root.find(f"{SVG}text[@y='44']")  # the status line under the heading
        for text in drawn_texts(root):
            if text is not status:
                left, right = extent(text)
                assert left >= 0 and right <= width, (where, text.text, right, width)


def inside(box: ET.Element, text: ET.Element, margin: float = 4) -> bool:
    """Whether ``text`` is drawn inside the rectangle ``box``, ``margin`` clear of its edges."""
    left, right = extent(text)
    x, y = float(box.get("x")), float(box.get("y"))
    w, h = float(box.get("width")), float(box.get("height"))
    size, base = float(text.get("font-size")), float(text.get("y"))
    return (
        x + margin <= left
        and right <= x + w - margin
        and y + margin <= base - 0.76 * size  # the tallest letters
        and base + 0.24 * size <= y + h - margin  # the descenders
    )


@pytest.mark.parametrize("name", ["apocalypse-bot-match", "long names"])
def test_apocalypse_side_cards_keep_every_line_inside_their_box(name: str) -> None:
    # "moved e1→d3" sat on the card's bottom border; an illegal move's reason ran out of it.
    recs = list(_long("apocalypse")) if name == "long names" else records(name)
    said = set()
    for seq in range(len(recs)):
        root = parse(picture(recs, seq))
        for card in groups(root, "side"):
            box = card.find(f"{SVG}rect")
            for text in drawn_texts(card):
                assert inside(box, text), (seq, text.text)
                said.add(text.text)
    assert {"moved b5→b4", "illegal a1→a5: penalty point"} <= said or name != "long names"
    assert any(t.startswith("moved ") for t in said)


def headings(recs: list[dict[str, Any]]) -> dict[tuple[str, int], str]:
    """The picture's heading after each step's opening and resolution: (record type, step)."""
    board = MatchReplay(recs)
    return {
        (r["type"], r["data"]["step"]): parse(picture(recs, r["seq"], board=board))[2].text or ""
        for r in recs
        if r["type"] in ("StepOpened", "StepResolved")
    }


def test_captions_name_the_turn_under_way_or_the_one_just_played() -> None:
    # Apocalypse said "turn 0" while turn 1 was being played; 6 nimmt! named the turn just
    # played while the next one was under way.
    apocalypse = records("apocalypse-bot-match")
    said = headings(apocalypse)
    assert said["StepOpened", 1] == "Apocalypse · turn 1 under way"
    assert said["StepResolved", 1] == "Apocalypse · after turn 1"
    assert said["StepOpened", 23] == "Apocalypse · turn 23 under way"
    assert parse(picture(apocalypse, 0))[2].text == "Apocalypse · before the first turn"
    end = parse(picture(apocalypse, len(apocalypse) - 1))
    assert end[2].text == "Apocalypse · finished after 23 turns"
    nimmt = records("six-nimmt-classic")
    said = headings(nimmt)
    assert said["StepOpened", 1] == "6 nimmt! · round 1, turn 1 of 10 under way"
    assert said["StepResolved", 1] == "6 nimmt! · after round 1, turn 1 of 10"
    assert said["StepOpened", 2] == "6 nimmt! · round 1, turn 2 of 10 under way"
    assert said["StepResolved", 10] == "6 nimmt! · after round 1, turn 10 of 10"
    assert said["StepOpened", 11] == "6 nimmt! · round 2, turn 1 of 10 under way"
    end = parse(picture(nimmt, len(nimmt) - 1))
    assert end[2].text == "6 nimmt! · finished after round 3 · winner cai"
    nine = records("picking-nine-seeded")
    before = parse(picture(nine, 0))
    assert "Pool of round 1: dealt when the round opens" in texts(before)
    assert "Picking Nine · 0 of 5 rounds played" in texts(before)


def test_chart_titles_name_what_is_plotted_after_each_round_or_turn() -> None:
    titles = {
        name: parse(chart(records(name))).find(f"{SVG}title").text
        for name in ("apocalypse-bot-match", "picking-nine-seeded", "six-nimmt-classic")
    }
    assert titles == {
        "apocalypse-bot-match": "Pieces on the board after each turn",
        "picking-nine-seeded": "Best Quattro score after each round",
        "six-nimmt-classic": "Points after each step",
    }


def test_the_pictures_are_laid_out_for_their_presentation_s_width() -> None:
    assert games.presentation("vote").width == vote_picture.WIDTH
    assert games.presentation("grid-adaptation").width == grid_picture.WIDTH
