"""Picking Nine Possibilities.

One test per ruling (RULINGS.md section 3), the seed's worked examples, property tests over
random full matches, and the fixture replay.

Run this file as a script to regenerate the fixtures:
``.venv/bin/python tests/unit/test_picking_nine.py``.
"""

from __future__ import annotations

import copy
import hashlib
import json
import pathlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.fairrand import Rng
from domain.rules import get_rules
from domain.rules import picking_nine as pn
from domain.rules.base import (
    BadDeal,
    BadOptions,
    Disclosure,
    IllegalPick,
    RulesError,
    StepPlay,
    play_step,
)
from domain.rules.picking_nine import DECK, RULES

MATCH_ID = "00000000-0000-4000-8000-000000000000"
SIX = ["tog", "pengu", "grunkle", "dems", "edan", "shard"]
FIVE = ["A", "B", "C", "D", "E"]
FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "scenarios"

POOL_1 = ["R1", "G2", "B3", "Y4", "R5", "G6", "B7", "Y8"]
POOL_2 = ["R2", "G3", "B4", "Y5", "R6", "G7", "B8", "Y9"]
POOL_3 = ["R3", "G4", "B5", "Y6", "R7", "G8", "B9", "Y10"]


def rng(n: int = 1, seed: bytes = bytes(32)) -> Rng:
    return Rng(seed, MATCH_ID, f"step/{n}")


def opened(pool: list[str], players: list[str] = SIX, **options: Any) -> dict[str, Any]:
    """A fresh match with round 1's pool dealt explicitly."""
    state = RULES.setup(options, players)
    return RULES.apply_deal(state, RULES.check_deal(state, {"pool": pool}))


def pick(wants: list[str], ban: str, priority: int) -> dict[str, Any]:
    return {"wants": wants, "ban": ban, "priority": priority}


def play(state: dict[str, Any], pool: list[str], submit: dict[str, Any], n: int = 1) -> StepPlay:
    return play_step(RULES, state, rng(n), deal={"pool": pool}, submit=submit)


def everyone(players: list[str], wants: list[str], ban: str, priorities: list[int]) -> dict:
    return {p: pick(wants, ban, prio) for p, prio in zip(players, priorities, strict=True)}


# -- Wiring ------------------------------------------------------------------------------------


def test_the_registry_maps_picking_nine_to_this_module() -> None:
    assert get_rules("picking-nine") is RULES
    assert RULES.name == "picking-nine"


def test_picks_are_disclosed_only_at_the_end_of_the_match() -> None:
    assert RULES.disclosure is Disclosure.AT_END


def test_a_round_is_one_step_for_every_player_in_seat_order_with_a_deal() -> None:
    spec = RULES.next_step(RULES.setup({}, SIX))
    assert spec is not None
    assert (spec.kind, spec.submitters, spec.needs_deal) == ("round", tuple(SIX), True)


# -- Cards -------------------------------------------------------------------------------------


def test_ruling_cards_are_r1_to_y10_and_the_gray_zero() -> None:
    assert len(DECK) == 40
    assert DECK[:3] == ("R1", "R2", "R3")
    assert DECK[-1] == "Y10"
    state = opened(POOL_1)
    assert state["pool"] == ["0", "R1", "G2", "B3", "Y4", "R5", "G6", "B7", "Y8"]


@pytest.mark.parametrize("card", ["P3", "R11", "R0", "r1", 3, None, "00"])
def test_ruling_cards_outside_r1_to_y10_are_rejected_in_a_deal(card: Any) -> None:
    state = RULES.setup({}, SIX)
    with pytest.raises(BadDeal, match="not a coloured card"):
        RULES.check_deal(state, {"pool": [card, *POOL_1[1:]]})


# -- Players and the tie-break list ------------------------------------------------------------


@pytest.mark.parametrize("count", [3, 4, 5, 6])
def test_ruling_three_to_six_players_may_play(count: int) -> None:
    players = SIX[:count]
    state = RULES.setup({}, players)
    assert RULES.public_view(state)["tiebreak"] == players


@pytest.mark.parametrize("count", [0, 1, 2, 7])
def test_ruling_fewer_than_three_or_more_than_six_players_are_rejected(count: int) -> None:
    players = [f"p{i}" for i in range(count)]
    with pytest.raises(BadOptions, match="3 to 6 players"):
        RULES.setup({}, players)


def test_ruling_repeated_player_names_are_rejected() -> None:
    with pytest.raises(BadOptions, match="repeat"):
        RULES.setup({}, ["a", "b", "a"])


def test_ruling_the_tiebreak_list_starts_as_the_seat_order() -> None:
    assert RULES.public_view(RULES.setup({}, SIX))["tiebreak"] == SIX


def test_ruling_the_tiebreak_list_starts_as_given_in_the_options() -> None:
    order = ["shard", "edan", "dems", "grunkle", "pengu", "tog"]
    assert RULES.public_view(RULES.setup({"tiebreak": order}, SIX))["tiebreak"] == order


@pytest.mark.parametrize(
    "order",
    [
        ["tog", "pengu", "grunkle", "dems", "edan"],
        ["tog", "tog", "grunkle", "dems", "edan", "shard"],
        ["tog", "pengu", "grunkle", "dems", "edan", "zed"],
        "tog",
        [1, 2, 3, 4, 5, 6],
    ],
)
def test_ruling_a_tiebreak_option_that_is_not_a_permutation_is_rejected(order: Any) -> None:
    with pytest.raises(BadOptions, match="every player exactly once"):
        RULES.setup({"tiebreak": order}, SIX)


def test_ruling_unknown_options_are_rejected() -> None:
    with pytest.raises(BadOptions, match="unknown picking-nine option"):
        RULES.setup({"rounds": 3}, SIX)


# -- Deals -------------------------------------------------------------------------------------


def test_ruling_each_round_deals_eight_new_coloured_cards() -> None:
    state = RULES.setup({}, SIX)
    for size in (7, 9):
        with pytest.raises(BadDeal, match="exactly 8 coloured cards"):
            RULES.check_deal(state, {"pool": DECK[:size]})
    with pytest.raises(BadDeal, match="R1 is listed twice"):
        RULES.check_deal(state, {"pool": ["R1", *POOL_1[1:7], "R1"]})
    with pytest.raises(BadDeal, match="gray zero is added"):
        RULES.check_deal(state, {"pool": ["0", *POOL_1[1:]]})
    with pytest.raises(BadDeal, match="a picking-nine deal is"):
        RULES.check_deal(state, {"pool": POOL_1, "rows": []})
    after = play(state, POOL_1, {}).resolution.state
    with pytest.raises(BadDeal, match="G2 was dealt in an earlier round"):
        RULES.check_deal(after, {"pool": ["G2", *POOL_2[1:]]})


def test_ruling_an_explicit_pool_is_recorded_in_the_default_order() -> None:
    state = RULES.setup({}, SIX)
    deal = RULES.check_deal(state, {"pool": ["Y10", "R10", "B1", "G1", "Y1", "R1", "G9", "B9"]})
    assert deal.public == {"pool": ["R1", "G1", "B1", "Y1", "G9", "B9", "R10", "Y10"]}


def test_ruling_a_random_deal_shuffles_the_undealt_cards_and_takes_the_first_eight() -> None:
    state = RULES.setup({}, SIX)
    expected = list(DECK)
    rng(1).shuffle(expected)
    assert RULES.deal(state, rng(1)).public == {"pool": pn.ascending(expected[:8])}
    after = play_step(RULES, state, rng(1)).resolution.state
    remaining = [c for c in DECK if c not in expected[:8]]
    rng(2).shuffle(remaining)
    assert RULES.deal(after, rng(2)).public == {"pool": pn.ascending(remaining[:8])}


def test_ruling_a_pool_cannot_be_dealt_twice_in_one_round() -> None:
    state = opened(POOL_1)
    with pytest.raises(BadDeal, match="already been dealt"):
        RULES.check_deal(state, {"pool": POOL_2})
    with pytest.raises(BadDeal, match="already been dealt"):
        RULES.deal(state, rng())


def test_ruling_the_gray_zero_is_in_every_pool_until_someone_takes_it() -> None:
    # Nobody wants the gray zero in round 1; shard takes it in round 2.
    state = RULES.setup({}, SIX)
    no_zero = everyone(SIX, POOL_1[:7], "Y8", [1, 2, 3, 4, 5, 6])
    state = play(state, POOL_1, no_zero, 1).resolution.state
    assert "0" in RULES.public_view(state)["pool"]
    submit = everyone(SIX, POOL_2[:7], "Y9", [1, 2, 3, 4, 5, 6])
    submit["shard"] = pick(["0", *POOL_2[:6]], "Y9", 6)
    step = play(state, POOL_2, submit, 2)
    assert step.resolution.outcome["received"]["shard"] == "0"
    state = step.resolution.state
    state = RULES.apply_deal(state, RULES.check_deal(state, {"pool": POOL_3}))
    assert "0" not in state["pool"]
    assert len(state["pool"]) == 8


def test_ruling_cards_nobody_took_are_discarded() -> None:
    state = RULES.setup({}, SIX)
    step = play(state, POOL_1, everyone(SIX, POOL_1[:7], "Y8", [1, 2, 3, 4, 5, 6]))
    state = step.resolution.state
    taken = set(step.resolution.outcome["received"].values())
    left = [c for c in POOL_1 if c not in taken]
    assert left  # the round left coloured cards over
    for card in left:
        with pytest.raises(BadDeal, match=f"{card} was dealt in an earlier round"):
            RULES.check_deal(state, {"pool": [card, *POOL_2[1:]]})
    state = RULES.apply_deal(state, RULES.check_deal(state, {"pool": POOL_2}))
    assert not set(left) & set(state["pool"])


def test_ruling_all_forty_coloured_cards_appear_exactly_once() -> None:
    pools = [play.deal.public["pool"] for play, _ in _bot_match(bytes(range(32)), SIX)]
    assert sorted(c for pool in pools for c in pool) == sorted(DECK)


# -- Submissions -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("R1", "a pick is"),
        ({"wants": POOL_1[:7], "ban": "R1"}, 'the key "priority" is missing'),
        ({"wants": POOL_1[:7], "ban": "R1", "priority": 1, "x": 1}, 'unknown key "x"'),
        (pick(POOL_1[:6], "R1", 1), "exactly 7 cards .* not 6"),
        (pick(POOL_1, "R1", 1), "exactly 7 cards .* not 8"),
        (pick("R1", "R1", 1), "exactly 7 cards"),
        (pick(["R2", *POOL_1[1:7]], "R1", 1), '"R2", which is not in this round.s pool'),
        (pick(["R1", *POOL_1[1:6], "R1"], "R1", 1), "R1 twice"),
        (pick([3, *POOL_1[1:7]], "R1", 1), "3, which is not in this round's pool"),
        (pick(POOL_1[:7], "R2", 1), 'the ban "R2" is not a card'),
        (pick(POOL_1[:7], 0, 1), "the ban 0 is not a card"),
        (pick(POOL_1[:7], "", 1), "the ban an empty text is not a card"),
        (pick(POOL_1[:7], "R1", 0), "from 1 to 6, not 0"),
        (pick(POOL_1[:7], "R1", 7), "from 1 to 6, not 7"),
        (pick(POOL_1[:7], "R1", True), "from 1 to 6, not true"),
        (pick(POOL_1[:7], "R1", 1.0), "from 1 to 6, not a decimal number"),
        (pick(POOL_1[:7], "R1", "1"), 'from 1 to 6, not "1"'),
    ],
)
def test_ruling_a_pick_is_seven_distinct_wants_a_ban_and_a_priority_from_the_pool(
    payload: Any, message: str
) -> None:
    with pytest.raises(IllegalPick, match=message):
        RULES.check_pick(opened(POOL_1), "tog", payload)


def test_ruling_the_priority_range_is_one_to_the_number_of_players() -> None:
    state = opened(POOL_1, players=SIX[:3])
    assert RULES.check_pick(state, "tog", pick(POOL_1[:7], "R1", 3))["priority"] == 3
    with pytest.raises(IllegalPick, match="from 1 to 3, not 4"):
        RULES.check_pick(state, "tog", pick(POOL_1[:7], "R1", 4))


def test_ruling_the_gray_zero_may_be_wanted_and_banned() -> None:
    state = opened(POOL_1)
    payload = pick(["0", *POOL_1[:6]], "0", 2)
    assert RULES.check_pick(state, "tog", payload) == payload


def test_ruling_a_player_may_want_the_card_they_ban() -> None:
    state = opened(POOL_1)
    submit = everyone(SIX, POOL_1[1:], "R1", [6, 1, 1, 2, 2, 2])
    submit["tog"] = pick(["R1", *POOL_1[1:7]], "R1", 6)  # sole unique number: its ban counts
    assert RULES.check_pick(state, "tog", submit["tog"]) == submit["tog"]
    step = play(RULES.setup({}, SIX), POOL_1, submit)
    assert step.resolution.outcome["banned"] == "R1"
    assert step.resolution.outcome["received"]["tog"] == "G2"  # R1 is banned, next want


def test_ruling_with_eight_cards_in_the_pool_wants_still_lists_seven() -> None:
    state = RULES.setup({}, SIX)
    submit = everyone(SIX, POOL_1[:7], "Y8", [1, 2, 3, 4, 5, 6])
    submit["tog"] = pick(["0", *POOL_1[:6]], "Y8", 1)
    state = play(state, POOL_1, submit).resolution.state
    state = RULES.apply_deal(state, RULES.check_deal(state, {"pool": POOL_2}))
    assert len(state["pool"]) == 8
    with pytest.raises(IllegalPick, match=r"exactly 7 cards .* not 8"):
        RULES.check_pick(state, "tog", pick(POOL_2, "R2", 1))
    assert RULES.check_pick(state, "tog", pick(POOL_2[:7], "R2", 1))["wants"] == POOL_2[:7]
    with pytest.raises(IllegalPick, match=r'"0", which is not in this round.s pool'):
        RULES.check_pick(state, "tog", pick(["0", *POOL_2[:6]], "R2", 1))


def test_ruling_no_pick_is_accepted_before_the_pool_is_dealt() -> None:
    with pytest.raises(IllegalPick, match="no pool is open"):
        RULES.check_pick(RULES.setup({}, SIX), "tog", pick(POOL_1[:7], "R1", 1))


# -- Missing submissions -----------------------------------------------------------------------


def test_ruling_a_missing_submission_wants_the_first_seven_cards_of_the_pool_ascending() -> None:
    state = opened(["Y1", "R1", "G1", "B2", "R10", "Y3", "G3", "B1"])
    assert RULES.default_pick(state, "tog") == {
        "wants": ["0", "R1", "G1", "B1", "Y1", "B2", "G3"],
        "ban": None,
        "priority": 6,
    }


def test_ruling_a_missing_submission_without_the_gray_zero_starts_with_the_lowest_card() -> None:
    state = opened(["Y1", "R1", "G1", "B2", "R10", "Y3", "G3", "B1"], players=SIX[:4])
    state = state | {"pool": [c for c in state["pool"] if c != "0"]}
    assert RULES.default_pick(state, "tog") == {
        "wants": ["R1", "G1", "B1", "Y1", "B2", "G3", "Y3"],
        "ban": None,
        "priority": 4,
    }


def test_ruling_a_scenario_player_missing_from_submit_gets_the_default() -> None:
    step = play(RULES.setup({}, SIX), POOL_1, {})
    assert step.defaulted == tuple(SIX)
    # Everyone shares priority 6: no ban; picks follow the tie-break list.
    assert step.resolution.outcome == {
        "received": dict(zip(SIX, ["0", "R1", "G2", "B3", "Y4", "R5"], strict=True)),
        "banned": None,
        "tiebreak": ["shard", "edan", "dems", "grunkle", "pengu", "tog"],
    }


# -- Pick order --------------------------------------------------------------------------------


def test_ruling_pick_order_seed_example_1_1_2_2_3_4_picks_3_4_1_1_2_2() -> None:
    priorities = dict(zip(SIX, [1, 1, 2, 2, 3, 4], strict=True))
    assert pn.pick_order(priorities, SIX) == ["edan", "shard", "tog", "pengu", "grunkle", "dems"]


def test_ruling_pick_order_seed_example_in_a_played_round() -> None:
    # Everyone wants the same list; the pick order hands it out front to back.
    wants = ["G6", "B7", "Y8", "R5", "Y4", "B3", "G2"]
    submit = everyone(SIX, wants, "R1", [1, 1, 2, 2, 3, 4])
    step = play(RULES.setup({}, SIX), POOL_1, submit)
    order = ["edan", "shard", "tog", "pengu", "grunkle", "dems"]
    assert step.resolution.outcome["received"] == dict(zip(order, wants, strict=False))


def test_ruling_shared_numbers_pick_in_tiebreak_list_order() -> None:
    priorities = {"A": 2, "B": 2, "C": 1, "D": 1, "E": 5}
    assert pn.pick_order(priorities, ["D", "B", "A", "C", "E"]) == ["E", "D", "C", "B", "A"]


# -- Ban ---------------------------------------------------------------------------------------


def test_ruling_only_the_highest_unique_numbers_ban_takes_effect() -> None:
    submit = everyone(SIX, POOL_1[:7], "Y8", [1, 1, 2, 2, 3, 4])
    submit["edan"] = pick(POOL_1[:7], "R1", 3)  # unique but not the highest
    submit["shard"] = pick(POOL_1[1:], "B3", 4)  # the highest unique number
    step = play(RULES.setup({}, SIX), POOL_1, submit)
    assert step.resolution.outcome["banned"] == "B3"
    assert "B3" not in step.resolution.outcome["received"].values()
    assert "R1" in step.resolution.outcome["received"].values()
    assert RULES.public_view(step.resolution.state)["banned"] == "B3"


def test_ruling_the_ban_takes_effect_before_any_pick() -> None:
    # The banner picks last among the uniques yet their ban beats the first picker.
    submit = everyone(SIX, ["Y8", *POOL_1[:6]], "R1", [1, 2, 2, 3, 3, 6])
    submit["shard"] = pick(POOL_1[:7], "Y8", 6)
    step = play(RULES.setup({}, SIX), POOL_1, submit)
    assert step.resolution.outcome["banned"] == "Y8"
    assert step.resolution.outcome["received"]["tog"] == "R1"


def test_ruling_no_unique_number_means_no_ban() -> None:
    submit = everyone(SIX, POOL_1[:7], "R1", [2, 2, 4, 4, 6, 6])
    step = play(RULES.setup({}, SIX), POOL_1, submit)
    assert step.resolution.outcome["banned"] is None
    assert "R1" in step.resolution.outcome["received"].values()
    assert RULES.public_view(step.resolution.state)["banned"] is None


def test_ruling_the_ban_of_a_defaulted_player_bans_nothing() -> None:
    # shard submits nothing: priority 6, the highest unique number, with no ban.
    submit = everyone(SIX[:5], POOL_1[:7], "R1", [1, 2, 3, 4, 5])
    step = play(RULES.setup({}, SIX), POOL_1, submit)
    assert step.defaulted == ("shard",)
    assert step.resolution.outcome["banned"] is None
    assert "R1" in step.resolution.outcome["received"].values()


def test_ruling_two_defaulted_players_tie_so_the_highest_submitted_unique_number_bans() -> None:
    submit = everyone(SIX[:4], POOL_1[:7], "R1", [1, 2, 3, 5])
    step = play(RULES.setup({}, SIX), POOL_1, submit)
    assert step.resolution.outcome["banned"] == "R1"


def test_ruling_a_banned_gray_zero_is_not_taken_and_stays_in_the_next_pools() -> None:
    submit = everyone(SIX, ["0", *POOL_1[:6]], "Y8", [1, 1, 2, 2, 3, 4])
    submit["shard"] = pick(["0", *POOL_1[:6]], "0", 4)
    step = play(RULES.setup({}, SIX), POOL_1, submit)
    assert step.resolution.outcome["banned"] == "0"
    assert "0" not in step.resolution.outcome["received"].values()
    state = step.resolution.state
    state = RULES.apply_deal(state, RULES.check_deal(state, {"pool": POOL_2}))
    assert state["pool"][0] == "0"
    assert len(state["pool"]) == 9


# -- Receiving cards ---------------------------------------------------------------------------


def test_ruling_each_player_receives_the_first_card_of_wants_still_available() -> None:
    submit = {
        "tog": pick(["R1", "G2", "B3", "Y4", "R5", "G6", "B7"], "Y8", 1),
        "pengu": pick(["R1", "G2", "B3", "Y4", "R5", "G6", "B7"], "Y8", 2),
        "grunkle": pick(["G2", "R1", "B3", "Y4", "R5", "G6", "B7"], "Y8", 3),
        "dems": pick(["R1", "G2", "B3", "Y4", "R5", "0", "B7"], "Y8", 4),
        "edan": pick(["Y8", "0", "B3", "Y4", "R5", "G6", "B7"], "Y8", 5),
        "shard": pick(["Y8", "0", "B3", "Y4", "R5", "G6", "B7"], "G6", 6),
    }
    step = play(RULES.setup({}, SIX), POOL_1, submit)
    assert step.resolution.outcome["received"] == {
        "tog": "R1",
        "pengu": "G2",
        "grunkle": "B3",
        "dems": "Y4",
        "edan": "Y8",
        "shard": "0",
    }
    assert RULES.public_view(step.resolution.state)["holdings"]["shard"] == ["0"]


def test_ruling_a_want_list_that_ran_out_gets_the_lowest_remaining_card() -> None:
    # Unreachable with 3 to 6 players (see the property tests); the helper still copes.
    got = pn.receive_cards(["a", "b"], {"a": ["R5"], "b": ["R5"]}, ["R5", "G9", "R2"], None)
    assert got == {"a": "R5", "b": "R2"}


# -- Tie-break list ----------------------------------------------------------------------------


def test_ruling_tiebreak_seed_example_a_wins_abcde_becomes_bcdea() -> None:
    assert pn.update_tiebreak_list(FIVE, ["A"]) == list("BCDEA")


def test_ruling_tiebreak_seed_example_a_c_d_win_abcde_becomes_bedca() -> None:
    assert pn.update_tiebreak_list(FIVE, ["A", "C", "D"]) == list("BEDCA")
    assert pn.update_tiebreak_list(FIVE, ["D", "A", "C"]) == list("BEDCA")


def test_ruling_every_member_of_a_tied_group_but_the_last_wins_a_tiebreak() -> None:
    priorities = {"A": 1, "B": 1, "C": 2, "D": 2, "E": 2}
    assert pn.tiebreak_winners(priorities, FIVE) == ["A", "C", "D"]
    assert pn.tiebreak_winners({"A": 1, "B": 2, "C": 3, "D": 4, "E": 5}, FIVE) == []


def test_ruling_tiebreak_list_after_a_played_round_a_wins() -> None:
    submit = everyone(FIVE, POOL_1[:7], "Y8", [1, 1, 2, 3, 4])
    step = play(RULES.setup({}, FIVE), POOL_1, submit)
    assert step.resolution.outcome["tiebreak"] == list("BCDEA")
    assert RULES.public_view(step.resolution.state)["tiebreak"] == list("BCDEA")


def test_ruling_tiebreak_list_after_a_played_round_a_c_d_win() -> None:
    submit = everyone(FIVE, POOL_1[:7], "Y8", [1, 1, 2, 2, 2])
    step = play(RULES.setup({}, FIVE), POOL_1, submit)
    assert step.resolution.outcome["tiebreak"] == list("BEDCA")
    # The next round's ties are broken by the new list: B now picks before A.
    submit = everyone(FIVE, POOL_2[:7], "Y9", [1, 1, 5, 5, 5])
    step = play(step.resolution.state, POOL_2, submit, 2)
    assert step.resolution.outcome["received"]["B"] == "R2"
    assert step.resolution.outcome["received"]["A"] == "G3"
    # B wins its group; E and D win theirs: C, A stay on top, then D, E, B.
    assert step.resolution.outcome["tiebreak"] == list("CADEB")


def test_ruling_no_tie_leaves_the_tiebreak_list_alone() -> None:
    submit = everyone(FIVE, POOL_1[:7], "Y8", [1, 2, 3, 4, 5])
    step = play(RULES.setup({}, FIVE), POOL_1, submit)
    assert step.resolution.outcome["tiebreak"] == FIVE


# -- Public information ------------------------------------------------------------------------


PUBLIC_KEYS = {
    "round",
    "pool",
    "holdings",
    "banned",
    "tiebreak",
    "finished",
    "scores",
    "tol",
    "ec",
    "garnets",
}


def test_ruling_public_after_each_round_is_who_got_which_card_and_the_ban_only() -> None:
    submit = everyone(SIX, POOL_1[:7], "Y8", [1, 1, 2, 2, 3, 4])
    step = play(RULES.setup({}, SIX), POOL_1, submit)
    assert set(step.resolution.outcome) == {"received", "banned", "tiebreak"}
    assert list(step.resolution.outcome["received"]) == SIX  # seat order, not pick order
    view = RULES.public_view(step.resolution.state)
    assert set(view) == PUBLIC_KEYS
    text = json.dumps([view, step.resolution.outcome])
    assert "priority" not in text
    assert "wants" not in text
    assert RULES.private_view(step.resolution.state, "tog") == {}


def test_ruling_the_public_view_before_any_round() -> None:
    assert RULES.public_view(RULES.setup({}, SIX[:3])) == {
        "round": 0,
        "pool": [],
        "holdings": {"tog": [], "pengu": [], "grunkle": []},
        "banned": None,
        "tiebreak": ["tog", "pengu", "grunkle"],
        "finished": False,
        "scores": {"tog": 0, "pengu": 0, "grunkle": 0},
        "tol": None,
        "ec": [],
        "garnets": {"tog": 0, "pengu": 0, "grunkle": 0},
    }


def test_ruling_the_state_holds_no_sealed_pick() -> None:
    submit = everyone(SIX, POOL_1[:7], "Y8", [1, 1, 2, 2, 3, 4])
    state = play(RULES.setup({}, SIX), POOL_1, submit).resolution.state
    assert "priority" not in json.dumps(state)


# -- Quattro -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "score"),
    [
        (["R10", "G9", "B8", "Y7"], 34),
        (["0", "G9", "B8", "Y7"], 24),  # the gray zero counts as a colour and scores 0
        (["0", "R10", "G9", "B8"], 27),
        (["R10", "R9", "B8", "Y7"], 0),  # two reds
        (["R10", "G10", "B8", "Y7"], 0),  # two tens
        (["R10", "G9", "B8"], 0),  # three cards
        ([], 0),
        (["R10", "R9", "R8", "R7", "R6"], 0),  # no Quattro at all
        (["R10", "G9", "B8", "Y7", "Y10"], 34),  # the best of five
        (["R10", "G10", "B10", "Y10", "R9"], 0),  # four tens: no two of them fit
        (["Y10", "G10", "B9", "R8", "G7"], 34),  # Y10 G7 B9 R8 beats G10-based sets
        (["0", "R1", "G2", "B3", "Y4"], 10),  # R1 G2 B3 Y4 beats every set with the zero
    ],
)
def test_ruling_the_score_is_the_best_quattro(cards: list[str], score: int) -> None:
    assert pn.best_quattro(cards) == score


def test_ruling_the_gray_zero_is_its_own_colour_and_number() -> None:
    assert pn.is_quattro(["0", "R1", "G2", "B3"])
    assert pn.best_quattro(["0", "R1", "G2", "B3"]) == 6
    assert pn.best_quattro(["0", "R1", "G2", "B3", "G10"]) == 14  # 0 R1 B3 G10


def test_ruling_scores_are_public_during_the_match() -> None:
    state = RULES.setup({}, SIX)
    state = state | {"holdings": {**state["holdings"], "tog": ["R10", "G9", "B8", "Y7"]}}
    view = RULES.public_view(state)
    assert view["scores"]["tog"] == 34
    assert (view["tol"], view["ec"]) == (None, [])


# -- Results -----------------------------------------------------------------------------------


def test_ruling_the_sole_top_score_earns_a_tol() -> None:
    scores = {"a": 30, "b": 25, "c": 20, "d": 10}
    assert pn.tol_winner(scores) == "a"
    assert pn.garnet_awards(scores) == {"a": 7, "b": 5, "c": 0, "d": 0}


def test_ruling_a_tied_top_score_earns_no_tol() -> None:
    scores = {"a": 30, "b": 30, "c": 20, "d": 10}
    assert pn.tol_winner(scores) is None
    assert pn.garnet_awards(scores) == {"a": 5, "b": 5, "c": 0, "d": 0}


def test_ruling_ec_is_every_player_at_most_the_second_lowest_score() -> None:
    assert pn.ec_players({"a": 30, "b": 25, "c": 20, "d": 10, "e": 40, "f": 35}) == ["c", "d"]


def test_ruling_ec_with_a_tie_on_the_lowest_score() -> None:
    # Sorted: 0, 0, 0, 20 ...: the second-lowest is 0, so the three zeros are EC.
    scores = {"a": 0, "b": 0, "c": 0, "d": 20, "e": 30, "f": 25}
    assert pn.ec_players(scores) == ["a", "b", "c"]
    assert pn.garnet_awards(scores) == {"a": 0, "b": 0, "c": 0, "d": 5, "e": 7, "f": 5}


def test_ruling_ec_with_a_tie_on_the_second_lowest_score() -> None:
    scores = {"a": 10, "b": 20, "c": 20, "d": 20, "e": 30, "f": 25}
    assert pn.ec_players(scores) == ["a", "b", "c", "d"]


def test_ruling_when_every_score_ties_everyone_is_ec_and_nobody_earns_garnets() -> None:
    scores = dict.fromkeys("abc", 0)
    assert pn.tol_winner(scores) is None
    assert pn.ec_players(scores) == ["a", "b", "c"]
    assert pn.garnet_awards(scores) == dict.fromkeys("abc", 0)


def test_ruling_the_tol_holder_earns_seven_garnets_not_twelve() -> None:
    scores = {"a": 30, "b": 20, "c": 10}
    assert pn.garnet_awards(scores) == {"a": 7, "b": 0, "c": 0}


def test_ruling_the_match_ends_after_five_rounds_with_the_results_public() -> None:
    plays = _bot_match(bytes(32), SIX)
    assert len(plays) == 5
    state = plays[-1][1]
    assert RULES.is_finished(state)
    assert RULES.next_step(state) is None
    view = RULES.public_view(state)
    result = RULES.result(state)
    assert view["finished"] is True
    assert {k: view[k] for k in ("scores", "tol", "ec", "garnets")} == result
    with pytest.raises(RulesError, match="already finished"):
        play_step(RULES, state, rng(6))


# -- Property tests over random full matches ---------------------------------------------------


def _bot_match(
    seed: bytes,
    players: list[str],
    options: dict[str, Any] | None = None,
    missing: list[list[bool]] | None = None,
) -> list[tuple[StepPlay, dict[str, Any]]]:
    """Play a whole match with random deals and bot picks; ``missing[r][i]`` drops a pick."""
    state = RULES.setup(options or {}, players)
    plays = []
    n = 0
    while RULES.next_step(state) is not None:
        n += 1
        stream = Rng(seed, MATCH_ID, f"step/{n}")
        dealt = RULES.deal(state, stream)
        ready = RULES.apply_deal(state, dealt)
        submit = {
            p: RULES.bot_pick(ready, p, stream)
            for i, p in enumerate(players)
            if not (missing and missing[n - 1][i])
        }
        before = copy.deepcopy(state)
        step = play_step(RULES, state, stream, deal=dealt.public, submit=submit)
        assert state == before  # the input state is never mutated
        state = step.resolution.state
        plays.append((step, state))
    return plays


@settings(max_examples=30, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    count=st.integers(min_value=3, max_value=6),
    missing=st.lists(st.lists(st.booleans(), min_size=6, max_size=6), min_size=5, max_size=5),
    data=st.data(),
)
def test_property_random_full_matches_keep_every_invariant(
    seed: bytes, count: int, missing: list[list[bool]], data: st.DataObject
) -> None:
    players = SIX[:count]
    tiebreak = data.draw(st.permutations(players))
    plays = _bot_match(seed, players, {"tiebreak": tiebreak}, missing)
    assert len(plays) == 5
    pools = [step.deal.public["pool"] for step, _ in plays]
    # Each coloured card appears in exactly one pool over the match.
    assert sorted(c for pool in pools for c in pool) == sorted(DECK)
    zero_taken = False
    for step, state in plays:
        outcome = step.resolution.outcome
        received = outcome["received"]
        zero = [] if zero_taken else ["0"]
        assert state["pool"] == pn.ascending(step.deal.public["pool"] + zero)
        # Every player receives one distinct card of the pool, never the banned one,
        # always from their own want-list (a want-list never runs out).
        assert list(received) == players
        assert len(set(received.values())) == count
        assert set(received.values()) <= set(state["pool"])
        assert outcome["banned"] not in received.values()
        for p in players:
            assert received[p] in step.picks[p]["wants"]
        zero_taken = zero_taken or "0" in received.values()
        assert sorted(outcome["tiebreak"]) == sorted(players)
        assert RULES.public_view(state)["tiebreak"] == outcome["tiebreak"]
        # The state is plain JSON.
        assert json.loads(json.dumps(state)) == state
    final = plays[-1][1]
    view = RULES.public_view(final)
    holdings = view["holdings"]
    # Every player ends with five cards; holdings are disjoint.
    assert all(len(cards) == 5 for cards in holdings.values())
    every = [c for cards in holdings.values() for c in cards]
    assert len(every) == len(set(every)) == 5 * count
    assert view["finished"] is True
    assert view["scores"] == {p: pn.best_quattro(holdings[p]) for p in players}
    assert view["tol"] is None or view["tol"] not in view["ec"]
    assert len(view["ec"]) >= 2
    assert sum(g == 7 for g in view["garnets"].values()) == (view["tol"] is not None)


@settings(max_examples=15, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32))
def test_property_replaying_the_same_deals_and_picks_gives_the_same_states(seed: bytes) -> None:
    plays = _bot_match(seed, SIX)
    state = RULES.setup({}, SIX)
    for n, (step, expected) in enumerate(plays, 1):
        replayed = play_step(RULES, state, rng(n), deal=step.deal.public, submit=step.picks)
        state = replayed.resolution.state
        assert state == expected
        assert replayed.resolution.outcome == step.resolution.outcome


# -- Fixtures ----------------------------------------------------------------------------------


FIXTURE_SEED = hashlib.sha256(b"dealerroom/fixtures/picking-nine").hexdigest()


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _replay(scenario: dict[str, Any]) -> list[str]:
    state = RULES.setup(scenario["options"], scenario["players"])
    seed = bytes.fromhex(scenario["seed"])
    lines = []
    for n, step in enumerate(scenario["steps"], 1):
        played = play_step(
            RULES,
            state,
            Rng(seed, MATCH_ID, f"step/{n}"),
            deal=step.get("deal"),
            submit=step.get("submit"),
            decide=step.get("decide"),
        )
        state = played.resolution.state
        lines.append(_dumps({"step": n, "state": RULES.public_view(state)}))
    return lines


def _generate_fixture() -> None:
    """Write the bot-played fixtures: a full match, and one with missing submissions."""
    seed = bytes.fromhex(FIXTURE_SEED)
    variants = {
        "picking-nine-six-bots": None,
        # One player falls silent in each round, two in round 3: defaults in every step.
        "picking-nine-missing-submissions": [
            [i in drop for i in range(6)] for drop in ([5], [0], [1, 2], [3], [4])
        ],
    }
    for name, missing in variants.items():
        plays = _bot_match(seed, SIX, {}, missing)
        steps = []
        for step, _ in plays:
            submit = {p: step.picks[p] for p in SIX if p not in step.defaulted}
            steps.append({"deal": step.deal.public, "submit": submit})
        scenario = {
            "game": "picking-nine",
            "options": {},
            "players": SIX,
            "seed": FIXTURE_SEED,
            "steps": steps,
        }
        (FIXTURES / f"{name}.json").write_text(json.dumps(scenario, indent=1) + "\n")
        lines = _replay(scenario)
        (FIXTURES / f"{name}.expected.jsonl").write_text("\n".join(lines) + "\n")


SCENARIOS = sorted(FIXTURES.glob("picking-nine-*.json"))


def test_the_fixtures_exist() -> None:
    names = {path.name for path in SCENARIOS}
    assert "picking-nine-six-bots.json" in names
    assert "picking-nine-missing-submissions.json" in names


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda path: path.stem)
def test_the_fixture_replays_to_its_expected_public_states(path: pathlib.Path) -> None:
    scenario = json.loads(path.read_text())
    assert scenario["game"] == "picking-nine"
    assert all("deal" in step for step in scenario["steps"])
    expected = path.with_suffix(".expected.jsonl").read_text().splitlines()
    lines = _replay(scenario)
    assert lines == expected
    assert json.loads(lines[-1])["state"]["finished"] is True
    # The deals are explicit, so another match id (another fair stream) changes nothing.
    state = RULES.setup(scenario["options"], scenario["players"])
    for n, step in enumerate(scenario["steps"], 1):
        other = Rng(bytes(32), "11111111-1111-4111-8111-111111111111", f"step/{n}")
        state = play_step(
            RULES, state, other, deal=step["deal"], submit=step["submit"]
        ).resolution.state
        assert _dumps({"step": n, "state": RULES.public_view(state)}) == expected[n - 1]


if __name__ == "__main__":
    _generate_fixture()


def test_a_ban_of_null_is_accepted_as_no_ban() -> None:
    # The dealer room pre-fills its form with the default pick, whose ban is null.
    state = opened(POOL_1)
    payload = pick(POOL_1[:7], None, 2)
    assert RULES.check_pick(state, "tog", payload) == payload
    assert RULES.check_pick(state, "tog", RULES.default_pick(state, "tog")) == (
        RULES.default_pick(state, "tog")
    )


def test_a_null_ban_of_the_highest_unique_number_bans_nothing() -> None:
    priorities = dict(zip(SIX, [1, 1, 2, 2, 3, 6], strict=True))
    submit = {p: pick(POOL_1[:7], "R1" if p != SIX[5] else None, n) for p, n in priorities.items()}
    step = play(RULES.setup({}, SIX), POOL_1, submit)
    assert step.resolution.outcome["banned"] is None


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (pick(POOL_1[:7], "R1", 10**50), "from 1 to 6, not a whole number of 51 digits"),
        (pick(POOL_1[:7], "x" * 9000, 1), "the ban a text of 9000 characters is not a card"),
        (pick(["R1"] * 10**5, "R1", 1), "most wanted first, not 100000"),
        (pick({"R1": 1}, "R1", 1), "not an object"),
        (pick([[["R1"]]] * 7, "R1", 1), "wants lists a list, which is not"),
        ({**pick(POOL_1[:7], "R1", 1), "\u202e": 1}, "unknown key a text of 1 character;"),
    ],
)
def test_a_hostile_pick_is_refused_in_plain_words(payload: Any, message: str) -> None:
    with pytest.raises(IllegalPick) as refused:
        RULES.check_pick(opened(POOL_1), "tog", payload)
    assert message in str(refused.value)
    assert "None" not in str(refused.value)


@pytest.mark.parametrize(
    "tiebreak", [["tog"] * 10_000, "tog", [1, 2, 3, 4, 5, 6], [None] * 6, SIX[:5], [*SIX, SIX[0]]]
)
def test_a_hostile_tiebreak_list_is_refused(tiebreak: Any) -> None:
    with pytest.raises(BadOptions, match="the tiebreak option must list every player exactly once"):
        RULES.setup({"tiebreak": tiebreak}, SIX)


# --- The generic interface, as Picking Nine answers it --------------------------------------


def _dealt(players: list[str]) -> dict[str, Any]:
    state = RULES.setup({}, players)
    pool = ["R1", "G2", "B3", "Y4", "R5", "G6", "B7", "Y8"]
    return RULES.apply_deal(state, RULES.check_deal(state, {"pool": pool}))


def test_the_legal_picks_are_every_ordered_want_list_ban_and_priority_lazily() -> None:
    state = _dealt(FIVE)
    view = RULES.legal_picks(state, "A")
    # 9 cards (the gray zero too): 9!/2! want-lists, 10 bans (none or a card), 5 priorities.
    assert view.count() == 181_440 * 10 * 5
    first = next(iter(view))
    assert first == {"wants": state["pool"][:7], "ban": None, "priority": 1}
    assert RULES.default_pick(state, "A") in view
    assert {"wants": state["pool"][:6], "ban": None, "priority": 1} not in view


def test_the_count_of_legal_picks_is_what_iterating_yields() -> None:
    state = _dealt(["A", "B", "C"])
    state["pool"] = state["pool"][:7]  # a small pool, so the whole space can be listed
    listed = list(RULES.legal_picks(state, "A"))
    assert len(listed) == RULES.count_legal_picks(state, "A") == 5_040 * 8 * 3
    for pick in listed[:: len(listed) // 50]:
        assert RULES.check_pick(state, "A", pick) == pick


def test_no_pool_open_means_no_legal_pick() -> None:
    state = RULES.setup({}, FIVE)
    assert not RULES.legal_picks(state, "A").any()
    assert RULES.count_legal_picks(state, "A") == 0
    dealt = RULES.deal(state, Rng(bytes(32), MATCH_ID, "deal/1"))
    assert RULES.scenario_deal(dealt) == {"pool": dealt.public["pool"]}


def test_the_suggested_players_follow_the_tiebreak_option() -> None:
    assert RULES.default_players({"tiebreak": ["C", "A", "B"]}) == ["C", "A", "B"]
    assert RULES.player_range({}) == (3, 6)
    assert RULES.display_name == "Picking Nine Possibilities"
