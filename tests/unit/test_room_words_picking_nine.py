"""Picking Nine's dealer room in words: your situation, what a round did to you, the result.

Real rules states throughout: a three-player match played through the ``Match`` aggregate
(``play_scenario``), the fixture bundles, and states built by the rules module.
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
from domain.rules import picking_nine as pn
from domain.rules.base import play_step
from replay.bundle import load_bundle, play_scenario
from web.games import presentation
from web.games.picking_nine import room
from web.games.picking_nine.picture import best_four
from web.pictures import picture

BUNDLES = Path(__file__).resolve().parents[2] / "fixtures" / "bundles"
START = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
THREE = ["ana", "ben", "cai"]
RULES = get_rules("picking-nine")
POOL_1 = ["R1", "G2", "B3", "Y4", "R5", "G6", "B7", "Y8"]
POOL_2 = ["R2", "G3", "B4", "Y5", "R6", "G7", "B8", "Y9"]
# Round 1: ana and ben share priority 1 (ana is first on the tie-break list, so she wins the
# tie-break and goes to the bottom); cai sends nothing, so the default applies to cai: priority 3,
# the highest unique number, whose ban is none, so nothing is banned.
# Round 2: unique priorities 1, 2, 3: cai's 3 is the highest unique number, cai bans G3.
SCENARIO: dict[str, Any] = {
    "game": "picking-nine",
    "options": {},
    "players": THREE,
    "seed": "00" * 32,
    "steps": [
        {
            "deal": {"pool": POOL_1},
            "submit": {
                "ana": {"wants": ["Y8", *POOL_1[:6]], "ban": "Y8", "priority": 1},
                "ben": {"wants": ["Y8", "B7", *POOL_1[:5]], "ban": None, "priority": 1},
            },
        },
        {
            "deal": {"pool": POOL_2},
            "submit": {
                "ana": {"wants": POOL_2[1:], "ban": None, "priority": 1},
                "ben": {"wants": POOL_2[1:], "ban": "R2", "priority": 2},
                "cai": {"wants": POOL_2[:7], "ban": "G3", "priority": 3},
            },
        },
    ],
}


@functools.cache
def _three() -> tuple[dict[str, Any], ...]:
    return tuple(play_scenario(SCENARIO, match_id=UUID(int=16), start_time=START).records)


def steps(records: Any) -> dict[int, Any]:
    return dict(PublicLog.of(list(records)).steps)


@functools.cache
def _bundle(name: str) -> tuple[dict[str, Any], ...]:
    return tuple(load_bundle((BUNDLES / f"{name}.bundle.json").read_bytes())["records"])


def bundle(name: str) -> list[dict[str, Any]]:
    return copy.deepcopy(list(_bundle(name)))


def open_state(pool: list[str] = POOL_1) -> dict[str, Any]:
    state = RULES.setup({}, THREE)
    return RULES.apply_deal(state, RULES.check_deal(state, {"pool": pool}))


def plain(lines: list[str]) -> None:
    """Words for people: no Python or JSON reprs, no snake_case keys."""
    for line in lines:
        assert "None" not in line, line
        assert not re.search(r"[{}\[\]\"']|\b[a-z]+_[a-z]+\b", line.replace("'s ", " ")), line


# ---------------------------------------------------------------------------
# The presentation's hooks
# ---------------------------------------------------------------------------


def test_the_presentation_wires_the_room_hooks_and_the_terms() -> None:
    shown = presentation("picking-nine")
    assert shown.seat_words is room.seat_words
    assert shown.for_you is room.for_you
    assert shown.default_for_you is room.default_for_you
    assert shown.result_words is room.result_words
    assert shown.seat_picture is room.seat_picture
    terms = dict(shown.terms)
    for term in ("Quattro", "ToL", "EC", "garnets", "gray zero", "priority", "ban"):
        assert terms.get(term), term
    assert "Elimination Candidate" in terms["EC"]


# ---------------------------------------------------------------------------
# The default pick: stated, valid, and exactly what the service applies
# ---------------------------------------------------------------------------


def test_the_pre_filled_default_pick_is_a_pick_the_rules_accept() -> None:
    # The old bug: the pre-filled pick (ban null) was refused with a Python None in the words.
    state = open_state()
    default = RULES.default_pick(state, "ana")
    assert RULES.check_pick(state, "ana", default) == default
    assert default == {"wants": ["0", *POOL_1[:6]], "ban": None, "priority": 3}
    words = room.default_for_you(default)
    assert words == (
        "your want-list is the first 7 cards of the pool in order (0, R1, G2, B3, Y4, R5, G6), "
        "with no ban and priority 3"
    )
    plain([words])


def test_a_missing_pick_is_told_to_its_player_as_the_default_that_applied() -> None:
    first = steps(_three())[1]
    assert set(first.defaults) == {"cai"}
    words = room.for_you(first, "cai")
    assert words[0] == (
        "You sent nothing in time for round 1, so the default applied: your want-list is the "
        "first 7 cards of the pool in order (0, R1, G2, B3, Y4, R5, G6), with no ban and "
        "priority 3."
    )
    # cai's default priority 3 is the highest unique number: its ban (none) is the one counted.
    assert words[1] == "Round 1: you received the gray zero. Nothing was banned."
    plain(words)


# ---------------------------------------------------------------------------
# What a round did to you
# ---------------------------------------------------------------------------


def test_a_round_tells_each_player_their_card_the_ban_and_their_tie_break_place() -> None:
    first, second = steps(_three())[1], steps(_three())[2]
    ana = room.for_you(first, "ana")
    assert ana[0] == "Round 1: you received Y8. Nothing was banned."
    assert ana[1] == (
        "You shared your priority number and picked before someone with it: you won a "
        "tie-break, so you moved down the tie-break list from 1st to 3rd (ben, cai, you)."
    )
    ben = room.for_you(first, "ben")
    assert ben[0] == "Round 1: you received B7. Nothing was banned."
    assert ben[1] == (
        "Tie-break winners moved to the bottom, so you moved up the tie-break list from 2nd to "
        "1st (you, cai, ana)."
    )
    assert ben[2] == (
        "Your holdings: B7. Your best Quattro: none (a Quattro needs 4 cards and you hold 1), "
        "so it scores 0."
    )
    cai = room.for_you(second, "cai")
    assert cai[0] == "Round 2: you received R2. G3 was banned before anyone picked."
    assert not any("tie-break" in line for line in cai)  # no shared numbers in round 2
    for step in (first, second):
        for player in THREE:
            plain(room.for_you(step, player))


def test_an_unresolved_round_tells_nothing_yet() -> None:
    records = list(_three())
    opened = next(r["seq"] for r in records if r["type"] == "StepOpened" and r["data"]["step"] == 2)
    pending = steps(records[: opened + 1])[2]
    assert room.for_you(pending, "ana") == []


def test_the_revealed_pick_is_told_after_the_match() -> None:
    last = steps(bundle("picking-nine-seeded"))[1]
    assert (
        "Your pick, revealed at the end: you wanted Y4, Y7, Y3, Y6, G7, 0, B2, banned Y3, "
        "priority 1." in room.for_you(last, "tog")
    )


# ---------------------------------------------------------------------------
# Your own situation: the pool, your holdings, your best Quattro
# ---------------------------------------------------------------------------


def test_seat_words_give_the_open_pool_your_holdings_and_your_place() -> None:
    public = RULES.public_view(open_state())
    words = room.seat_words(public, {}, "ben")
    assert words == [
        (
            "Round 1 of 5. The pool (with the gray zero, until someone takes it): 0, R1, G2, "
            "B3, Y4, R5, G6, B7, Y8. You will receive one of its cards."
        ),
        "Your holdings: none yet.",
        (
            "Your best Quattro so far: none (a Quattro needs 4 cards and you hold none yet), "
            "so it scores 0."
        ),
        (
            "You are 2nd of 3 on the tie-break list (ana, you, cai): among players sharing a "
            "priority number, the earlier on the list picks first."
        ),
    ]
    plain(words)


def test_a_played_pool_is_not_offered_as_open() -> None:
    rng = Rng(bytes(32), str(UUID(int=16)), "step/1")
    state = play_step(RULES, RULES.setup({}, THREE), rng, deal={"pool": POOL_1}).resolution.state
    public = RULES.public_view(state)
    assert not room.pool_is_open(public)
    assert room.seat_words(public, {}, "ana")[0] == (
        "1 round of 5 played; the next pool is not dealt yet."
    )
    dealt = RULES.apply_deal(state, RULES.check_deal(state, {"pool": POOL_2}))
    assert room.pool_is_open(RULES.public_view(dealt))
    assert room.seat_words(RULES.public_view(dealt), {}, "ana")[0].startswith("Round 2 of 5.")


@pytest.mark.parametrize("name", ["picking-nine-seeded", "picking-nine-six-bots"])
def test_the_best_quattro_is_the_rules_own_score(name: str) -> None:
    records = bundle(name)
    for record in (r for r in records if r["type"] == "StepResolved"):
        view = record["data"]["view"]
        for player, cards in view["holdings"].items():
            words = room.seat_words(view, {}, player)
            assert f"Your holdings: {', '.join(cards) or 'none yet'}." in words
            score = pn.best_quattro(cards)
            assert score == view["scores"][player]
            best = next(w for w in words if w.startswith("Your best Quattro"))
            if score:
                four = best_four(cards)
                assert pn.is_quattro(four)
                assert best.endswith(f": {', '.join(four)} ({score} points).")
            else:
                assert best.endswith("so it scores 0.")
            plain(words)


def test_seat_words_at_the_end_say_tol_ec_and_garnets() -> None:
    records = bundle("picking-nine-seeded")
    view = next(r for r in reversed(records) if r["type"] == "StepResolved")["data"]["view"]
    assert room.seat_words(view, {}, "pengu")[-1] == "You earned the ToL: 7 garnets."
    assert room.seat_words(view, {}, "tog")[-1] == "You dodged EC: 5 garnets."
    assert room.seat_words(view, {}, "edan")[-1] == (
        "You are EC (an Elimination Candidate): no garnets."
    )
    assert room.seat_words(view, {}, "tog")[:3] == [
        "All 5 rounds are played.",
        "Your holdings: Y4, 0, G5, B10, R4.",
        "Your best Quattro: Y4, 0, G5, B10 (19 points).",
    ]
    assert not any("tie-break" in line for line in room.seat_words(view, {}, "tog"))


def test_no_quattro_says_why() -> None:
    assert room.why_no_quattro(["R1", "R2", "G3", "B4"]) == (
        "your cards have 3 different colours and 4 different numbers; a Quattro needs 4 of each"
    )
    assert room.quattro_sentence(["0", "R1", "G2", "B3"]) == (
        "Your best Quattro so far: 0, R1, G2, B3 (6 points)."
    )


# ---------------------------------------------------------------------------
# The result and the seat picture
# ---------------------------------------------------------------------------


def test_the_result_in_words() -> None:
    records = bundle("picking-nine-seeded")
    result = next(r for r in records if r["type"] == "MatchFinished")["data"]["result"]
    players = records[0]["data"]["players"]
    words = room.result_words(result, players)
    assert words == [
        "pengu wins the ToL with the best Quattro, 28 points.",
        "Scores: pengu 28, dems 22, tog 19, grunkle 0, edan 0, shard 0.",
        "EC (Elimination Candidates): grunkle, edan, shard.",
        "Garnets: pengu 7, dems 5, tog 5, grunkle 0, edan 0, shard 0.",
    ]
    plain(words)


def test_a_shared_top_score_earns_nobody_the_tol() -> None:
    scores = {"ana": 20, "ben": 20, "cai": 6}
    result = {
        "scores": scores,
        "tol": pn.tol_winner(scores),
        "ec": pn.ec_players(scores),
        "garnets": pn.garnet_awards(scores),
    }
    words = room.result_words(result, THREE)
    assert words[0] == "Nobody wins the ToL: ana and ben share the top score, 20 points."
    plain(words)


def test_the_seat_picture_marks_your_holdings() -> None:
    records = list(_three())
    svg = str(picture(records, len(records) - 1, seat="ben"))
    root = ET.fromstring(svg)  # noqa: S314 - the SVG our own code just drew
    rows = {
        g.get("data-player"): g.get("class")
        for g in root.iter()
        if "holding" in (g.get("class") or "").split()
    }
    assert rows == {"ana": "holding", "ben": "holding you", "cai": "holding"}
    assert "data-hit" not in svg  # the pool is ranked in the controls, not on the picture
    assert "style=" not in svg


def test_the_picture_heading_names_the_round_being_played() -> None:
    records = list(_three())
    opened = next(r["seq"] for r in records if r["type"] == "StepOpened" and r["data"]["step"] == 2)
    assert "Picking Nine · round 2 of 5" in str(picture(records, opened, seat="ana"))
    assert "Picking Nine · 2 of 5 rounds played" in str(picture(records, len(records) - 1))
