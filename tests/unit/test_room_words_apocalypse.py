"""Apocalypse in the dealer room: the board from your seat and the words said to you.

The seat picture turns the board so your pieces are nearest you and makes every square a
hit region (``square a1`` .. ``square e5``); the words (what a turn did to you, the default,
the result, your situation, the glossary) are plain sentences with no rules keys in them.
States come from the real rules: played scenarios and positions resolved by ``RULES``.
"""

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

from domain.fairrand import Rng
from domain.public_log import PublicLog, PublicStep
from domain.rules import get_rules
from domain.rules.apocalypse import RULES
from domain.rules.base import play_step
from replay.bundle import load_bundle, play_scenario
from web.games import presentation
from web.games.apocalypse import room
from web.pictures import picture

SVG = "{http://www.w3.org/2000/svg}"
BUNDLES = Path(__file__).resolve().parents[2] / "fixtures" / "bundles"
WHITE, BLACK = "ana", "ben"
SQUARES = [f + r for r in "12345" for f in "abcde"]
SHOWN = PRESENTATION = presentation("apocalypse")
RAW = re.compile(r"[{}\[\]]|\b[a-z]+_[a-z_]+\b|None|True|False|'")


@functools.cache
def _bot_match() -> tuple[dict[str, Any], ...]:
    data = (BUNDLES / "apocalypse-bot-match.bundle.json").read_bytes()
    return tuple(load_bundle(data)["records"])


def bot_match() -> list[dict[str, Any]]:
    return copy.deepcopy(list(_bot_match()))


def played(*steps: dict[str, Any]) -> list[dict[str, Any]]:
    """The public records of an Apocalypse match between ana and ben played step by step."""
    scenario = {"game": "apocalypse", "options": {}, "players": [WHITE, BLACK], "steps": steps}
    return play_scenario(
        scenario,
        match_id=UUID(int=7),
        start_time=datetime(2026, 1, 1, tzinfo=UTC),
        seed=bytes(32),
    ).records


def last_step(records: list[dict[str, Any]]) -> PublicStep:
    steps = PublicLog.of(records).steps
    return steps[max(steps)]


def resolved_at(text: str, picks: dict[str, Any]) -> PublicStep:
    """One turn from the board text ``text`` resolved by the rules, as the public log tells it."""
    state = RULES.setup({}, [WHITE, BLACK])
    state["board"] = text
    before = RULES.public_view(state)
    play = play_step(
        get_rules("apocalypse"), state, Rng(bytes(32), str(UUID(int=7)), "step/1"), submit=picks
    )
    return PublicStep(
        number=1,
        kind="turn",
        submitters=(WHITE, BLACK),
        deadline=None,
        deal_source="none",
        deal={},
        opened_seq=1,
        view_at_open=before,
        outcome=play.resolution.outcome,
        view=RULES.public_view(play.resolution.state),
        resolved_seq=3,
    )


def parse(markup: Any) -> ET.Element:
    text = str(markup)
    assert "style=" not in text
    return ET.fromstring(text)  # noqa: S314 - the SVG our own code just drew


def hits(root: ET.Element) -> dict[str, ET.Element]:
    return {e.get("data-hit") or "": e for e in root.iter() if e.get("data-hit")}


def centre(element: ET.Element) -> tuple[float, float]:
    x, y = float(element.get("x") or 0), float(element.get("y") or 0)
    return x + float(element.get("width") or 0) / 2, y + float(element.get("height") or 0) / 2


def plain(sentences: list[str]) -> None:
    """Sentences a person reads: no JSON, no Python reprs, no snake_case keys."""
    for sentence in sentences:
        assert sentence.strip()
        assert not RAW.search(sentence.replace("'s ", " ").replace("s' ", " ")), sentence


# ------------------------------------------------------------------ the board from your seat


@pytest.mark.parametrize("seq", [2, 40, -1])
@pytest.mark.parametrize("player", [WHITE, BLACK])
def test_every_square_is_a_hit_region_from_either_seat(player: str, seq: int) -> None:
    records = bot_match()
    root = parse(picture(records, seq % len(records), seat=player))
    found = hits(root)
    assert sorted(found) == sorted(f"square {s}" for s in SQUARES)
    for name, element in found.items():
        assert element.tag == f"{SVG}rect"
        assert element.get("data-square") == name.removeprefix("square ")
        assert float(element.get("width") or 0) >= 110  # 44 px on a phone showing 680 as 280


def test_the_board_is_turned_so_your_pieces_are_nearest_you() -> None:
    records = bot_match()
    white = hits(parse(picture(records, 2, seat=WHITE)))
    black = hits(parse(picture(records, 2, seat=BLACK)))
    # White: rank 1 at the bottom, file a on the left; Black: the board turned half a turn.
    assert centre(white["square a1"])[1] > centre(white["square a5"])[1]
    assert centre(white["square a1"])[0] < centre(white["square e1"])[0]
    assert centre(black["square a5"])[1] > centre(black["square a1"])[1]
    assert centre(black["square e5"])[0] < centre(black["square a5"])[0]
    assert centre(white["square c3"]) == centre(black["square c3"])


def test_the_seat_picture_names_you_and_your_colour_and_the_public_one_stays_turned() -> None:
    records = bot_match()
    seat = parse(picture(records, 2, seat=BLACK))
    words = " ".join(t.text or "" for t in seat.iter(f"{SVG}text"))
    assert "you play Black" in words
    assert "You (ben) · Black" in words
    assert "ana · White" in words
    yours = [g for g in seat.iter(f"{SVG}g") if "yours" in (g.get("class") or "").split()]
    assert yours  # your own pieces and your bar are marked
    public = parse(picture(records, 2))
    assert not hits(public)  # the public page's board is not a control


def test_the_finished_match_says_who_won_from_your_seat() -> None:
    records = bot_match()
    heads = {p: parse(picture(records, len(records) - 1, seat=p)) for p in (WHITE, BLACK)}
    said = {p: " ".join(t.text or "" for t in h.iter(f"{SVG}text")) for p, h in heads.items()}
    assert "finished: you win (no pawns left)" in said[WHITE]
    assert "finished: you lose (no pawns left)" in said[BLACK]


# ------------------------------------------------------------------ what a turn did to you


def test_your_legal_move_and_your_opponents_are_told_in_the_second_person() -> None:
    step = last_step(
        played({"submit": {WHITE: {"from": "b1", "to": "b2"}, BLACK: {"from": "a4", "to": "a3"}}})
    )
    assert room.for_you(step, WHITE) == [
        "You moved your pawn b1→b2.",
        "ben moved their pawn a4→a3.",
    ]
    assert room.for_you(step, BLACK) == [
        "ana moved their pawn b1→b2.",
        "You moved your pawn a4→a3.",
    ]


def test_an_illegal_move_and_a_missing_one_cost_a_penalty_point_and_say_so() -> None:
    step = last_step(played({"submit": {WHITE: {"from": "a1", "to": "a5"}}}))
    mine = room.for_you(step, WHITE)
    assert mine[0].startswith("Your move a1→a5 was illegal (a knight moves two squares")
    assert mine[0].endswith("it was not made and you earn a penalty point (1 of 2).")
    assert mine[1] == "ben sent no move, so earns a penalty point (1 of 2)."
    theirs = room.for_you(step, BLACK)
    assert theirs[0] == (
        "You sent no move in time, so you made none and earn a penalty point (1 of 2)."
    )
    assert theirs[1].startswith("ana's move a1→a5 was illegal (")
    plain(mine)


def test_a_forfeit_ends_the_match_in_your_words() -> None:
    records = played(
        {"submit": {WHITE: {"from": "b1", "to": "b2"}}},
        {"submit": {WHITE: {"from": "b2", "to": "b3"}}},
    )
    step = last_step(records)
    assert room.for_you(step, WHITE)[-1] == (
        "The match is over: you win, ben has two penalty points."
    )
    assert room.for_you(step, BLACK)[-1] == (
        "The match is over: you lose, you have two penalty points."
    )


def test_captures_collisions_and_swaps_are_told_to_each_side() -> None:
    swap = last_step(
        played(
            {"submit": {WHITE: {"from": "e2", "to": "e3"}, BLACK: {"from": "a5", "to": "b3"}}},
            {"submit": {WHITE: {"from": "a1", "to": "b3"}, BLACK: {"from": "b3", "to": "a1"}}},
        )
    )
    assert "so they swapped squares" in " ".join(room.for_you(swap, WHITE))
    records = bot_match()
    told = {
        p: [w for s in PublicLog.of(records).steps.values() for w in room.for_you(s, p)]
        for p in (WHITE, BLACK)
    }
    assert "Your pawn captured ben's pawn on a3." in told[WHITE]
    assert "ana's pawn captured your pawn on a3." in told[BLACK]
    assert (
        "Your knight and ben's pawn both moved to e1: your knight survives and ben's pawn is "
        "removed." in told[WHITE]
    )
    assert (
        "You moved your pawn a2→a1." in told[BLACK]
        and "Your pawn reached its last rank with two knights already on the board, so it went "
        "from a1 to its drop square e3."
        in told[BLACK]
    )
    assert (
        "ben moved their pawn b4→a3; your piece there had moved away, so it was not captured."
        in told[WHITE]
    )
    plain(told[WHITE] + told[BLACK])


def test_a_promotion_and_a_lost_drop_square_are_told() -> None:
    # White's pawn c4 reaches c5 with two knights on the board: it names a drop square, b3,
    # which Black's knight takes during the moves, so the pawn is removed.
    step = resolved_at(
        "n...n ..P.. p...p ..... N...N",
        {WHITE: {"from": "c4", "to": "c5", "drop": "b3"}, BLACK: {"from": "a5", "to": "b3"}},
    )
    mine = room.for_you(step, WHITE)
    assert "Your pawn on c5 was removed (the drop square b3 was taken during the moves)." in mine
    assert "ana's pawn on c5 was removed (the drop square b3 was taken during the moves)." in (
        room.for_you(step, BLACK)
    )
    # With one knight the pawn becomes the second.
    upgraded = resolved_at(
        "n...n ..P.. p...p ..... N...P",
        {WHITE: {"from": "c4", "to": "c5"}, BLACK: {"from": "a3", "to": "a2"}},
    )
    assert room.for_you(upgraded, WHITE)[-1] == "Your pawn on c5 became a knight."
    assert room.for_you(upgraded, BLACK)[-1] == "ana's pawn on c5 became a knight."
    plain(mine)


# ------------------------------------------------------------------ the room's other words


def test_the_default_is_no_move_and_a_penalty_point() -> None:
    default = RULES.default_pick(RULES.setup({}, [WHITE, BLACK]), WHITE)
    words = SHOWN.default_for_you(default)
    assert words == "you make no move and earn a penalty point (two penalty points lose the match)"
    plain([words])


@pytest.mark.parametrize(
    ("result", "said"),
    [
        (
            {"outcome": "white", "winner": WHITE, "reason": "no-pawns"},
            "ana (White) wins: ben (Black) has no pawns left.",
        ),
        (
            {"outcome": "black", "winner": BLACK, "reason": "forfeit"},
            "ben (Black) wins: ana (White) has two penalty points.",
        ),
        (
            {"outcome": "draw", "winner": None, "reason": "forfeit"},
            (
                "A draw between ana (White) and ben (Black): both sides reached two penalty points "
                "on the same turn."
            ),
        ),
        (
            {"outcome": "draw", "winner": None, "reason": "no-legal-moves"},
            "A draw between ana (White) and ben (Black): neither side has a legal move.",
        ),
    ],
)
def test_the_result_in_words(result: dict[str, Any], said: str) -> None:
    assert SHOWN.result_words(result, [WHITE, BLACK]) == [said]
    plain(SHOWN.result_words(result, [WHITE, BLACK]))


def test_the_bot_match_s_result_in_words() -> None:
    records = bot_match()
    view = last_step(records).view or {}
    assert SHOWN.result_words(view["result"], [WHITE, BLACK]) == [
        "ana (White) wins: ben (Black) has no pawns left."
    ]


def test_your_seat_in_words() -> None:
    start = RULES.public_view(RULES.setup({}, [WHITE, BLACK]))
    white = SHOWN.seat_words(start, {}, WHITE)
    assert white[0].startswith("You play White: your pieces are nearest you")
    assert "towards rank 5" in white[0]
    assert white[1] == "Your opponent is ben, playing Black."
    assert white[2] == ("Penalty points: you have 0 of 2, ben has 0 of 2; a side with 2 loses.")
    assert white[3].startswith("On the board: you have 5 pawns and 2 knights; ben has 5 pawns")
    assert "two knights: a pawn of yours reaching rank 5 must be dropped" in white[4]
    black = SHOWN.seat_words(start, {}, BLACK)
    assert black[0].startswith("You play Black") and "towards rank 1" in black[0]
    plain(white + black)
    assert SHOWN.seat_words(start, {}, "cai") == []


def test_the_glossary_explains_penalties_and_drops() -> None:
    terms = dict(SHOWN.terms)
    assert {"penalty point", "illegal move", "drop square", "promotion", "collision"} <= set(terms)
    assert "Two penalty points lose the match" in terms["penalty point"]
    assert any("penalty point" in p for p in SHOWN.summary)
    plain(list(terms.values()))
