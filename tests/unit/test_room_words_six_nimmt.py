"""6 nimmt! in the dealer room: what a turn did to you, your decision, your seat, the result.

Real rules states throughout: matches played through the ``Match`` aggregate
(``play_scenario``), the fixture bundles, and states built by the rules module. Rows are
numbered 0 to 3 in every sentence and drawing, as in the rules and the payload ``{"row": i}``.
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
from domain.rules.base import Resolution
from replay.bundle import load_bundle, play_scenario
from web.games import presentation
from web.games.six_nimmt import room
from web.pictures import account, picture

BUNDLES = Path(__file__).resolve().parents[2] / "fixtures" / "bundles"
START = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
THREE = ["ana", "ben", "cai"]
RULES = get_rules("six-nimmt")
SVG = "{http://www.w3.org/2000/svg}"
HANDS = {
    "ana": [2, 41, 42, 43, 44, 45, 46, 47, 48, 49],
    "ben": [21, 51, 52, 53, 54, 56, 57, 58, 59, 60],
    "cai": [11, 61, 62, 63, 64, 65, 66, 67, 68, 69],
    "virtual": [70, 71, 72, 73, 74, 75, 76, 77, 78, 79],
}
# Turn 1: ana's 2 is lower than every row end (10, 20, 30, 40): she takes row 3. Turn 2: cai
# sends nothing, so his lowest card, 61, is played. From turn 3 on nobody sends anything; cai's
# 62 is the sixth card of row 1. With 5 start points the match ends after the first round.
SCENARIO: dict[str, Any] = {
    "game": "six-nimmt",
    "players": THREE,
    "options": {"start_points": 5},
    "seed": "00" * 32,
    "steps": [
        {
            "deal": {"rows": [10, 20, 30, 40], "hands": HANDS},
            "submit": {"ana": {"card": 2}, "ben": {"card": 21}, "cai": {"card": 11}},
            "decide": {"ana": {"row": 3}},
        },
        {"submit": {"ana": {"card": 41}, "ben": {"card": 51}}},
        *[{}] * 8,
    ],
}


@functools.cache
def _played(key: str = "short") -> tuple[dict[str, Any], ...]:
    scenario = SCENARIO if key == "short" else EVEN_ODD_DECISION
    played = play_scenario(scenario, match_id=UUID(int=16), start_time=START)
    return tuple(played.records)


def played(key: str = "short") -> list[dict[str, Any]]:
    return copy.deepcopy(list(_played(key)))


@functools.cache
def _bundle(name: str) -> tuple[dict[str, Any], ...]:
    return tuple(load_bundle((BUNDLES / f"{name}.bundle.json").read_bytes())["records"])


def bundle(name: str) -> list[dict[str, Any]]:
    return copy.deepcopy(list(_bundle(name)))


def step_of(records: list[dict[str, Any]], number: int) -> Any:
    found = PublicLog.of(records).step(number)
    assert found is not None
    return found


def parse(markup: Any) -> ET.Element:
    text = str(markup)
    assert "style=" not in text
    return ET.fromstring(text)  # noqa: S314 - the SVG our own code just drew


def hits(root: ET.Element) -> list[str]:
    return [e.get("data-hit") or "" for e in root.iter() if e.get("data-hit") is not None]


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter() if t.tag in {f"{SVG}text", f"{SVG}title"}]


# ---------------------------------------------------------------------------
# The presentation
# ---------------------------------------------------------------------------


def test_the_presentation_gives_the_room_its_words_and_seat_picture() -> None:
    shown = presentation("six-nimmt")
    assert shown.for_you is room.for_you
    assert shown.default_for_you is room.default_for_you
    assert shown.decision_words is room.decision_words
    assert shown.result_words is room.result_words
    assert shown.seat_words is room.seat_words
    assert shown.seat_picture is not None
    assert shown.terms == room.TERMS


def test_the_terms_explain_bullheads_and_the_even_odd_card() -> None:
    terms = dict(room.TERMS)
    assert "55 has 7" in terms["bullheads"]
    assert "parity" in terms["Even/Odd action card"]
    assert "rows 0 to 3" in terms["taking a row"]
    for term, meaning in room.TERMS:
        assert "_" not in term + meaning
        assert meaning.endswith(".")


# ---------------------------------------------------------------------------
# What the latest turn did to you
# ---------------------------------------------------------------------------


def test_what_a_turn_did_to_you_a_card_placed_and_a_too_low_card_that_took_a_row() -> None:
    one = step_of(played(), 1)
    assert room.for_you(one, "ana") == [
        "Your 2 was lower than every row end: you took row 3, −3 points (now 2)."
    ]
    assert room.for_you(one, "ben") == ["You played 21 on row 1."]
    assert room.for_you(one, "cai") == ["You played 11 on row 0."]
    assert room.for_you(one, "dee") == []


def test_what_a_turn_did_to_you_a_missing_pick_and_a_sixth_card() -> None:
    records = played()
    assert room.for_you(step_of(records, 2), "cai") == [
        "You sent nothing in time, so your lowest card, 61, was played.",
        "You played 61 on row 1.",
    ]
    assert room.for_you(step_of(records, 3), "cai") == [
        "You sent nothing in time, so your lowest card, 62, was played.",
        "Your 62 was the sixth card of row 1: you took 20, 21, 41, 51, 61: −7 points (now −2).",
    ]


def test_the_last_turn_tells_you_the_match_is_over() -> None:
    last = step_of(played(), 10)
    assert room.for_you(last, "ana")[-1] == "The match is over: you win, with −8 points."
    assert room.for_you(last, "cai")[-1] == (
        "The match is over: ana won; you finished with −12 points."
    )


def test_the_end_of_a_round_says_your_points() -> None:
    ten = step_of(bundle("six-nimmt-even-odd"), 10)
    assert room.for_you(ten, "ana") == [
        "You played 21 on row 0.",
        "Round 1 is over: you have 65 points, and each row keeps only its last card.",
    ]


def test_with_the_even_odd_card_the_parity_that_blocked_your_card_is_named() -> None:
    records = bundle("six-nimmt-even-odd")
    assert room.for_you(step_of(records, 1), "cai") == [
        (
            "Your 22 was lower than every row end it may enter (row 1 takes only odd cards): "
            "you took row 3, −1 point (now 65)."
        ),
        "Your take moved the action card to row 3: it now shows Even.",
    ]
    # ben chose no row in time: the default row, the one with the fewest bullheads.
    assert room.for_you(step_of(records, 3), "ben")[0] == (
        "Your 5 was lower than every row end: you chose no row in time, so you took row 1 "
        "(the fewest bullheads), −1 point (now 65)."
    )


def test_a_step_not_resolved_yet_did_nothing_to_you() -> None:
    records = bundle("six-nimmt-even-odd")
    asked = next(r["seq"] for r in records if r["type"] == "DecisionRequested")
    assert room.for_you(step_of(records[: asked + 1], 1), "cai") == []


def test_what_a_missing_pick_means_for_you() -> None:
    state = _dealt(SCENARIO["options"])
    default = RULES.default_pick(state, "ana")
    assert room.default_for_you(default) == "you play your lowest card, 2"


# ---------------------------------------------------------------------------
# The row decision
# ---------------------------------------------------------------------------


def _decision(records: list[dict[str, Any]], step: int, index: int = 0) -> dict[str, Any]:
    request = step_of(records, step).requests[index]
    return {
        "index": index,
        "player": request.player,
        "kind": request.kind,
        "prompt": request.prompt,
        "deadline": None,
    }


def test_the_decider_is_told_why_a_row_must_be_taken_and_each_row_s_bullheads() -> None:
    asked = _decision(played(), 1)
    assert room.decision_words(asked, "ana") == (
        "Your 2 is lower than every row end, so you must take a row: its bullheads come off "
        "your points and your 2 starts it. Tap a row: row 0 has 3 bullheads, row 1 has 3 "
        "bullheads, row 2 has 3 bullheads, row 3 has 3 bullheads. If you choose none in time, "
        "you take row 0, the one with the fewest bullheads."
    )
    assert room.decision_words(asked, "ben") == (
        "Waiting for ana to choose a row to take: ana's 2 is lower than every row end."
    )


def test_the_decider_of_an_even_odd_match_is_told_which_parity_blocks_the_card() -> None:
    asked = _decision(bundle("six-nimmt-even-odd"), 1)
    words = room.decision_words(asked, "cai")
    assert words.startswith(
        "Your 22 is lower than every row end it may enter (row 1 takes only odd cards), so "
        "you must take a row"
    )
    assert "row 0 has 1 bullhead, row 1 has 1 bullhead, row 2 has 5 bullheads" in words


# The Even/Odd card starts on row 0 (11, odd). ana's 13 goes there first; ben's 14 is even, so
# it may not, and is lower than every other row end: ben decides on rows where 13 already lies.
EVEN_ODD_DECISION: dict[str, Any] = {
    "game": "six-nimmt",
    "players": ["ana", "ben"],
    "options": {"action_card": "even-odd", "virtual_player": False},
    "seed": "00" * 32,
    "steps": [
        {
            "deal": {
                "rows": [11, 20, 30, 40],
                "hands": {
                    "ana": [13, 41, 42, 43, 44, 45, 46, 47, 48, 49],
                    "ben": [14, 51, 52, 53, 54, 56, 57, 58, 59, 60],
                },
            },
            "submit": {"ana": {"card": 13}, "ben": {"card": 14}},
            "decide": {"ben": {"row": 2}},
        }
    ],
}


def test_during_a_decision_the_picture_shows_the_rows_as_they_stand_then() -> None:
    records = played("even-odd")
    asked = next(r["seq"] for r in records if r["type"] == "DecisionRequested")
    assert records[asked]["data"]["prompt"]["rows"][0] == [11, 13]
    for seat in (None, "ben"):
        root = parse(picture(records, asked, seat=seat))
        row_0 = next(g for g in root.iter() if g.get("data-row") == "0")
        assert [c.get("data-card") for c in row_0.iter() if c.get("data-card")] == ["11", "13"]
        assert "odd only" in texts(row_0)
        assert row_0.find(f"{SVG}g[@class='action-card']") is not None
    words = room.decision_words(_decision(records, 1), "ben")
    assert words.startswith(
        "Your 14 is lower than every row end it may enter (row 0 takes only odd cards)"
    )


def test_a_decision_the_words_cannot_read_is_still_said_plainly() -> None:
    odd = {"player": "ana", "kind": "take-row", "prompt": "rows?", "deadline": None}
    assert room.decision_words(odd, "ana") == "You must choose a row to take. Tap a row."
    assert room.decision_words(odd, "ben") == "Waiting for ana to choose a row to take."


# ---------------------------------------------------------------------------
# The result and your seat
# ---------------------------------------------------------------------------


def test_the_result_in_words() -> None:
    finished = next(r for r in played() if r["type"] == "MatchFinished")
    assert room.result_words(finished["data"]["result"], THREE) == [
        "ana wins with −8 points; ben −11, cai −12 (the virtual player, never ranked: −14).",
        "It ended when ana, ben, cai and the virtual player fell to 0 points or below.",
    ]
    fixture = next(r for r in bundle("six-nimmt-even-odd") if r["type"] == "MatchFinished")
    assert room.result_words(fixture["data"]["result"], THREE)[0] == (
        "ana wins with 41 points; cai 18, ben −26 (the virtual player, never ranked: 36)."
    )


def test_tied_winners_share_the_win() -> None:
    state = _dealt({})
    state["points"] = {"ana": 12, "ben": 12, "cai": -1, "virtual": 30}
    state["winners"] = ["ana", "ben"]
    assert room.result_words(RULES.result(state), THREE) == [
        "ana and ben share the win with 12 points; cai −1 (the virtual player, never ranked: 30).",
        "It ended when cai fell to 0 points or below.",
    ]
    assert room.result_words({}, THREE) == ["The match is over."]


def _dealt(options: dict[str, Any]) -> dict[str, Any]:
    state = RULES.setup(options, THREE)
    deal = RULES.check_deal(state, {"rows": [10, 20, 30, 40], "hands": HANDS})
    return RULES.apply_deal(state, deal)


def test_your_seat_in_words() -> None:
    state = _dealt({})
    words = room.seat_words(RULES.public_view(state), RULES.private_view(state, "ana"), "ana")
    assert words == [
        "You have 66 points.",
        "Your hand (10 cards): 2, 41, 42, 43, 44, 45, 46, 47, 48, 49.",
        (
            "Your card 2 is lower than every row end: playing one means taking a row (unless a "
            "lower card played this turn starts a row below it)."
        ),
    ]


def test_your_seat_with_the_even_odd_card_mid_round() -> None:
    state = _dealt({"action_card": "even-odd"})  # the card goes on row 0 (10): even
    resolved = RULES.resolve(
        state,
        {"ana": {"card": 41}, "ben": {"card": 21}, "cai": {"card": 61}},
        [],
        Rng(b"\0" * 32, "m", "resolve"),
    )
    assert isinstance(resolved, Resolution)
    public = RULES.public_view(resolved.state)
    assert public["rows"] == [[10], [20, 21], [30], [40, 41, 61, 70]]
    words = room.seat_words(public, RULES.private_view(resolved.state, "cai"), "cai")
    assert words == [
        "You have 66 points.",
        "Your hand (9 cards): 11, 62, 63, 64, 65, 66, 67, 68, 69.",
        "Round 1: 1 of 10 turns played.",
        "The Even/Odd action card is on row 0, showing Even: only even cards may go on row 0.",
        (
            "Your card 11 is lower than every row end it may enter: playing one means taking a row "
            "(unless a lower card played this turn starts a row below it)."
        ),
    ]
    ben = room.seat_words(public, RULES.private_view(resolved.state, "ben"), "ben")
    assert not any("lower than every row end" in line for line in ben)


def test_seat_words_never_show_raw_keys() -> None:
    state = _dealt({"action_card": "even-odd"})
    for player in THREE:
        for line in room.seat_words(
            RULES.public_view(state), RULES.private_view(state, player), player
        ):
            assert not re.search(r"[{}\[\]_]|None|True|False", line), line


# ---------------------------------------------------------------------------
# The picture and the account: rows 0 to 3, tappable, bullheads in good grammar
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["six-nimmt-classic", "six-nimmt-even-odd", "six-nimmt-seeded"])
def test_every_picture_has_the_four_rows_as_tap_regions_and_good_grammar(name: str) -> None:
    records = bundle(name)
    for seq in range(0, len(records), 7):
        for seat in (None, "ana"):
            root = parse(picture(records, seq, seat=seat))
            assert hits(root) == ["row 0", "row 1", "row 2", "row 3"]
            shown = " ".join(texts(root))
            assert not re.search(r"\b1 bullheads\b", shown)
            assert not re.search(r"\brow [4-9]\b", shown)


@pytest.mark.parametrize("name", ["six-nimmt-classic", "six-nimmt-even-odd", "six-nimmt-seeded"])
def test_every_account_numbers_rows_0_to_3_in_good_grammar(name: str) -> None:
    records = bundle(name)
    for step in PublicLog.of(records).steps:
        told = " ".join(account(records, step))
        assert not re.search(r"\b1 bullheads\b", told)
        assert not re.search(r"\brow [4-9]\b", told)
        assert re.findall(r"\brow \d\b", told) or "row" not in told


def test_a_row_s_bullheads_are_said_in_good_grammar_on_the_picture() -> None:
    records = bundle("six-nimmt-even-odd")
    root = parse(picture(records, 2))  # the deal: rows 24, 7, 77, 102
    row_1 = next(g for g in root.iter() if g.get("data-row") == "1")
    assert "row 1 is worth 1 bullhead" in texts(row_1)
    assert "odd only" in texts(row_1)  # the Even/Odd row is marked with its parity
    row_2 = next(g for g in root.iter() if g.get("data-row") == "2")
    assert "row 2 is worth 5 bullheads" in texts(row_2)


def test_the_seat_picture_marks_your_points_and_your_decision() -> None:
    records = bundle("six-nimmt-even-odd")
    asked = next(r["seq"] for r in records if r["type"] == "DecisionRequested")  # cai's
    mine = parse(picture(records, asked, seat="cai"))
    [line] = [g for g in mine.iter() if "mine" in (g.get("class") or "").split()]
    assert line.get("data-player") == "cai"
    assert any(t.startswith("You must take a row: tap one") for t in texts(mine))
    theirs = parse(picture(records, asked, seat="ana"))
    assert any(t.startswith("cai must choose a row to take") for t in texts(theirs))
    public = parse(picture(records, asked))
    assert not [g for g in public.iter() if "mine" in (g.get("class") or "").split()]
