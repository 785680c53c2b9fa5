"""Grid Adaptation's dealer room in words and pictures: your seat, your round, the end.

Real rules states throughout: a three-player match played through the ``Match`` aggregate
(``play_scenario``), the six-player fixture bundle, and states built by the rules module.
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
from domain.public_log import PublicLog
from domain.rules import get_rules
from domain.rules.base import Deal, play_step
from domain.rules.grid_adaptation import ALL_CELLS, reserve_cost, reserve_price
from replay.bundle import load_bundle, play_scenario
from web.games import presentation
from web.games.grid_adaptation import room
from web.pictures import picture

BUNDLES = Path(__file__).resolve().parents[2] / "fixtures" / "bundles"
START = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)
THREE = ["ana", "ben", "cai"]
RULES = get_rules("grid-adaptation")
SVG = "{http://www.w3.org/2000/svg}"
RAW = re.compile(r"[a-z]+_[a-z]+|[{}\[\]\"]|None|True|False")


def _round(
    tiles: list[str], reserve: str | None = None, flip: int | None = None, buy: int = 0
) -> dict[str, Any]:
    return {"tiles": tiles, "reserve": reserve, "flip": flip, "buy_reserves": buy}


def _tied_scenario() -> dict[str, Any]:
    """Everyone ties: a 2x2 block of two 000 and two 111 tiles scores 6 for every sequence.

    Every other tile stands alone and vanishes. cai plays a reserve tile in round 2, flips
    bit 0 and buys a reserve tile in round 4; ben sends nothing in round 3. All three tie
    for the most and the fewest points, so all three vote for the EC: ben, by 2 votes to 1.
    """
    steps: list[dict[str, Any]] = [
        {
            "deal": {"sequences": {"ana": "000", "ben": "111", "cai": "011"}},
            "submit": {
                "ana": _round(["H7", "I8", "A1"]),
                "ben": _round(["I7", "H8", "O15"]),
                "cai": _round(["A15", "O1", "C13"]),
            },
        }
    ]
    for number in range(2, 9):
        submit = {"ana": _round(["A1"]), "ben": _round(["O15"]), "cai": _round(["A15"])}
        if number == 2:
            submit["cai"] = _round(["A15"], reserve="O1")
        if number == 3:
            del submit["ben"]
        if number == 4:
            submit["cai"] = _round(["A15"], flip=0, buy=1)
        steps.append({"submit": submit})
    steps.append(
        {"submit": {"ana": {"vote": "ben"}, "ben": {"vote": "ben"}, "cai": {"vote": "cai"}}}
    )
    return {
        "game": "grid-adaptation",
        "players": THREE,
        "options": {"garnets": {"cai": 10}},
        "seed": "00" * 32,
        "steps": steps,
    }


@functools.cache
def _tied_records() -> tuple[dict[str, Any], ...]:
    played = play_scenario(_tied_scenario(), match_id=UUID(int=16), start_time=START)
    return tuple(played.records)


def tied() -> list[dict[str, Any]]:
    return copy.deepcopy(list(_tied_records()))


@functools.cache
def _bundle() -> tuple[dict[str, Any], ...]:
    data = (BUNDLES / "grid-adaptation-ec-vote.bundle.json").read_bytes()
    return tuple(load_bundle(data)["records"])


def bundle() -> list[dict[str, Any]]:
    return copy.deepcopy(list(_bundle()))


def until(records: list[dict[str, Any]], kind: str, step: int) -> list[dict[str, Any]]:
    """The records before the ``kind`` record of step ``step``."""
    seq = next(r["seq"] for r in records if r["type"] == kind and r["data"].get("step") == step)
    return records[:seq]


def plain(words: list[str]) -> None:
    """No JSON, no Python reprs, no snake_case keys in anything a player reads."""
    for sentence in words:
        assert not RAW.search(sentence), sentence


def state_after_deal(garnets: dict[str, int] | None = None) -> dict[str, Any]:
    state = RULES.setup({"garnets": garnets or {}}, THREE)
    deal = Deal(
        private={"ana": {"sequence": "011"}, "ben": {"sequence": "100"}, "cai": {"sequence": "000"}}
    )
    return RULES.apply_deal(state, deal)


# --- The presentation ---------------------------------------------------------------------


def test_the_presentation_gives_the_room_its_hooks() -> None:
    shown = presentation("grid-adaptation")
    assert shown.seat_words is room.seat_words
    assert shown.for_you is room.for_you
    assert shown.default_for_you is room.default_for_you
    assert shown.result_words is room.result_words
    assert shown.seat_picture is not None
    terms = dict(shown.terms)
    assert {"EC", "ToL", "garnets", "sequence", "reserve tile", "flip"} <= set(terms)
    assert terms["EC"].startswith("Elimination Candidate")
    assert terms["ToL"].startswith("Token of Life")
    plain([meaning for _, meaning in shown.terms])


def test_the_garnets_term_quotes_the_rules_prices() -> None:
    garnets = dict(room.TERMS)["garnets"]
    first = [reserve_price(n) for n in range(3)]
    assert f"costs {first[0]} garnets" in garnets
    assert f"({first[0]}, {first[1]}, {first[2]}, …)" in garnets


# --- Your seat ----------------------------------------------------------------------------


def test_seat_words_say_the_sequence_score_reserves_and_garnets_plainly() -> None:
    state = state_after_deal({"ana": 6})
    public, private = RULES.public_view(state), RULES.private_view(state, "ana")
    words = room.seat_words(public, private, "ana")
    assert words[0].startswith("Your sequence is 011 (bit 0 is 0, bit 1 is 1, bit 2 is 1).")
    assert "Your score: 0 points; no round has been played yet." in words
    assert "Reserve tiles: 3 (you may play one a round besides the round's tiles)." in words
    assert "Garnets: 6 to spend on reserve tiles (the next reserve tile costs 2)." in words
    plain(words)
    assert not any("garnets_available" in w or '"011"' in w for w in words)


def test_seat_words_before_the_deal_and_with_the_next_price_when_known() -> None:
    state = RULES.setup({}, THREE)
    words = room.seat_words(RULES.public_view(state), RULES.private_view(state, "ben"), "ben")
    assert words[0] == "Your sequence is dealt when round 1 opens."
    private = {**RULES.private_view(state_after_deal(), "ben"), "reserves_bought": 2}
    words = room.seat_words({}, private, "ben")
    assert (
        f"Garnets: 0 to spend on reserve tiles (the next reserve tile costs {reserve_price(2)})."
        in words
    )


def test_seat_words_after_a_round_and_for_an_ec_voter() -> None:
    # The tied scenario played through the rules alone, up to its EC vote.
    state = RULES.setup(_tied_scenario()["options"], THREE)
    for step in _tied_scenario()["steps"][:8]:
        played = play_step(
            RULES,
            state,
            Rng(b"\0" * 32, "m", "resolve"),
            deal=step.get("deal"),
            submit=step["submit"],
        )
        state = played.resolution.state
    words = room.seat_words(RULES.public_view(state), RULES.private_view(state, "cai"), "cai")
    assert words[0].startswith("Your sequence is 111 ")  # flipped in round 4
    assert "Your score: 48 points after round 8 of 8." in words
    assert "Reserve tiles: 3 (you may play one a round besides the round's tiles)." in words
    # 10, less 2 for the one tile bought; the next costs 4
    assert "Garnets: 8 to spend on reserve tiles (the next reserve tile costs 4)." in words
    assert words[-1] == (
        "You won a ToL, so you vote for the EC among ana, ben and cai "
        "(they are tied for the fewest points)."
    )
    plain(words)


def test_nobody_else_gets_seat_words() -> None:
    assert room.seat_words({}, {}, "zed") == []


# --- Your round ---------------------------------------------------------------------------


def test_the_default_in_words() -> None:
    state = state_after_deal()
    round_default = RULES.default_pick(state, "ana")
    assert room.default_for_you(round_default) == (
        "you place no tile this round (no reserve tile, no flip, no purchase)"
    )
    assert room.default_for_you({"vote": None}) == "you abstain from the EC vote"


def test_a_sealed_round_says_your_pick_counted_and_what_the_life_step_did() -> None:
    log = PublicLog.of(until(tied(), "StepOpened", 3))
    words = room.for_you(log.steps[2], "cai")
    assert words == [
        "Your round 2 pick counted; what you chose stays sealed until the match ends.",
        "Round 2: 4 tiles placed, 0 born and 4 vanished in the Life step.",
        (
            "Points each sequence scored this round: "
            "000 6, 001 6, 010 6, 011 6, 100 6, 101 6, 110 6, 111 6."
        ),
    ]
    plain(words)


def test_a_missing_pick_is_told_as_the_default_it_got() -> None:
    log = PublicLog.of(until(tied(), "StepOpened", 4))
    assert room.for_you(log.steps[3], "ben")[0] == (
        "You sent nothing in time, so you placed no tile in round 3."
    )


def test_after_the_match_each_cell_is_told() -> None:
    log = PublicLog.of(tied())
    assert room.for_you(log.steps[2], "cai")[:2] == [
        "Your tile on A15 vanished in the Life step.",
        "Your reserve tile on O1 vanished in the Life step.",
    ]
    assert room.for_you(log.steps[4], "cai")[1:3] == [
        "You flipped bit 0 of your sequence.",
        "You bought 1 reserve tile.",
    ]
    first = room.for_you(log.steps[1], "ana")
    assert first[:3] == [
        "Your tile on H7 survived the Life step.",
        "Your tile on I8 survived the Life step.",
        "Your tile on A1 vanished in the Life step.",
    ]


def test_a_collision_says_the_tile_is_spent() -> None:
    log = PublicLog.of(bundle())
    words = room.for_you(log.steps[1], "ana")
    assert "Another player also chose E9, so no tile went there and your tile is spent." in words
    plain(words)


def test_the_ec_vote_is_told_to_voters_and_to_the_ec() -> None:
    log = PublicLog.of(tied())
    ben = room.for_you(log.steps[9], "ben")
    assert ben == [
        (
            "You are the Elimination Candidate (EC), chosen by the ToL winners' vote "
            "(ana 0 votes, ben 2 votes, cai 1 vote)."
        ),
        "You voted for ben.",
    ]
    # Someone who did not vote still learns who the EC is.
    six = PublicLog.of(bundle())
    assert room.for_you(six.steps[9], "cai")[0].startswith("You are the Elimination Candidate")
    assert room.for_you(six.steps[9], "ana")[0].startswith("cai is the Elimination Candidate")


def test_nothing_is_said_of_a_step_not_resolved() -> None:
    log = PublicLog.of(until(tied(), "StepSealed", 2))
    assert room.for_you(log.steps[2], "ana") == []


# --- The end ------------------------------------------------------------------------------


def test_the_result_of_a_three_way_tie_and_its_vote() -> None:
    log = PublicLog.of(tied())
    assert log.result is not None
    words = room.result_words(log.result, THREE)
    # Who won comes first (the room's banner starts with it), then the EC, then the scores.
    assert words == [
        "ana, ben and cai tied for the most points (48) and win one Token of Life (ToL) each.",
        (
            "ben is the Elimination Candidate (EC), chosen by the ToL winners' vote "
            "(ana 0 votes, ben 2 votes, cai 1 vote)."
        ),
        "Final scores: ana 48 points, ben 48 points, cai 48 points.",
        "The EC vote: ana voted for ben; ben voted for ben; cai voted for cai.",
        "Nobody earned garnets (the first comes at 200 points).",
        (
            "Sequences held: ana 000 in every round; ben 111 in every round; "
            "cai 011 in rounds 1–3, then 111 in rounds 4–8."
        ),
    ]
    plain(words)


def test_the_result_of_a_sole_winner_with_garnets_earned() -> None:
    log = PublicLog.of(bundle())
    assert log.result is not None
    words = room.result_words(log.result, log.players)
    assert words[0] == "eli has the most points (506) and wins two Tokens of Life (ToL)."
    assert words[2].startswith("Final scores: eli 506 points, ben 493 points")
    assert "Garnets earned: ana 6, ben 6, cai 3, dee 3, eli 7, fay 6." in words
    plain(words)


@pytest.mark.parametrize(
    ("ec_by", "said"),
    [
        ("fewest-points", "dee is the Elimination Candidate (EC), with the fewest points."),
        (
            "random",
            "dee is the Elimination Candidate (EC), drawn by fair randomness among the tied.",
        ),
    ],
)
def test_the_ec_without_a_vote(ec_by: str, said: str) -> None:
    result = {
        "player_scores": {"ana": 9, "dee": 1},
        "tokens": {"ana": 2},
        "ec": "dee",
        "ec_by": ec_by,
    }
    assert said in room.result_words(result, ["ana", "dee"])


def test_four_tied_for_first_win_no_tol() -> None:
    scores = dict.fromkeys(["ana", "ben", "cai", "dee"], 7)
    words = room.result_words({"player_scores": scores, "tokens": {}}, list(scores))
    assert "4 players tied for the most points (7), so nobody wins a Token of Life (ToL)." in words


# --- The picture --------------------------------------------------------------------------


def _hits(markup: object) -> dict[str, ET.Element]:
    root = ET.fromstring(str(markup))  # noqa: S314 - the SVG our own code just drew
    return {e.get("data-hit") or "": e for e in root.iter() if e.get("data-hit")}


def test_every_cell_is_a_hit_region_in_both_pictures() -> None:
    records = tied()
    seq = next(r["seq"] for r in records if r["type"] == "StepResolved")
    names = [f"cell {cell}" for cell in ALL_CELLS]
    for markup in (picture(records, seq), picture(records, seq, seat="ana")):
        hits = _hits(markup)
        assert sorted(hits) == sorted(names)
        assert all(e.tag == f"{SVG}rect" for e in hits.values())


def test_the_seat_picture_draws_cells_big_enough_to_tap() -> None:
    records = tied()
    hits = _hits(picture(records, len(records) - 1, seat="ana"))
    width = float(hits["cell H8"].get("width") or 0)
    # 46 units of 780: at the 760 px the room keeps on a phone, a cell is over 44 px.
    assert width * 760 / 780 >= 44
    # After the match the seat picture marks the player's own sequence and name.
    text = str(picture(records, len(records) - 1, seat="cai"))
    assert "cai (you)" in text
    assert "ana (you)" not in text


def test_the_rules_prices_are_the_closed_form_the_controls_use() -> None:
    # controls.js prices a purchase as 2 * 2^(bought+n) - 2 * 2^bought; so do the rules.
    for bought in range(9):
        for count in range(9 - bought):
            assert reserve_cost(bought, count) == 2 * 2 ** (bought + count) - 2 * 2**bought
    assert [reserve_price(n) for n in range(4)] == [2, 4, 8, 16]


def test_seat_words_once_the_match_is_over_keep_no_secret() -> None:
    log = PublicLog.of(tied())
    state = RULES.setup(_tied_scenario()["options"], THREE)
    for step in _tied_scenario()["steps"]:
        rng = Rng(b"\0" * 32, "m", "resolve")
        state = play_step(
            RULES, state, rng, deal=step.get("deal"), submit=step["submit"]
        ).resolution.state
    public = RULES.public_view(state)
    assert public["finished"] and log.result is not None
    words = room.seat_words(public, RULES.private_view(state, "ana"), "ana")
    assert words[0] == "Your sequence is 000 (bit 0 is 0, bit 1 is 0, bit 2 is 0)."
    assert "Reserve tiles: 3." in words


def test_the_picture_heading_says_which_round_is_under_way() -> None:
    records = tied()
    opened = next(r["seq"] for r in records if r["type"] == "StepOpened" and r["data"]["step"] == 2)
    resolved = next(r["seq"] for r in records if r["type"] == "StepResolved")
    vote = next(r["seq"] for r in records if r["type"] == "StepOpened" and r["data"]["step"] == 9)
    assert "Grid Adaptation · round 2 of 8 under way" in str(picture(records, opened, seat="ana"))
    assert "Grid Adaptation · 1 of 8 rounds played<" in str(picture(records, resolved))
    assert "8 of 8 rounds played · EC vote under way" in str(picture(records, vote))
    assert "8 of 8 rounds played · finished" in str(picture(records, len(records) - 1))
