"""6 nimmt! rules (RULINGS.md section 1): one test per ruling, the seeds' examples, properties.

Run this file as a script to regenerate the scenario fixtures:
``.venv/bin/python tests/unit/test_six_nimmt.py``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.fairrand import Rng
from domain.rules import get_rules
from domain.rules.base import (
    BadDeal,
    BadDecision,
    BadOptions,
    DecisionRequest,
    IllegalPick,
    Resolution,
    State,
    StepPlay,
    play_step,
)
from domain.rules.six_nimmt import (
    RULES,
    VIRTUAL,
    bullheads,
    fewest_bullheads_row,
    landing_row,
    virtual_card,
)

if TYPE_CHECKING:
    from collections.abc import Callable

MATCH_ID = "00000000-0000-4000-8000-000000000000"
HUMANS = ["ana", "ben", "cai"]
SCENARIOS = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios"
FIXTURES = {
    "six-nimmt-classic": {},
    "six-nimmt-even-odd": {"action_card": "even-odd"},
}
PUBLIC_KEYS = {
    "round",
    "turn",
    "rows",
    "points",
    "action_card",
    "finished",
    "winners",
    "hand_sizes",
    "played",
}


# --- Helpers ----------------------------------------------------------------------------


def _rng(purpose: str = "step/1", seed: bytes = bytes(32)) -> Rng:
    return Rng(seed, MATCH_ID, purpose)


def _arranged(
    rows: list[list[int]],
    hands: dict[str, list[int]],
    *,
    options: dict[str, Any] | None = None,
    turn: int = 1,
    points: dict[str, int] | None = None,
    action_card: dict[str, Any] | None = None,
) -> State:
    """A mid-round state with these rows and hands; every other card is in the draw pile."""
    players = [player for player in hands if player != "virtual"]
    options = dict(options or {})
    if "virtual" not in hands:
        options.setdefault("virtual_player", False)
    state = RULES.setup(options, players)
    state["rows"] = [list(row) for row in rows]
    state["hands"] = {player: sorted(hands[player]) for player in state["hands"]}
    used = {card for row in rows for card in row} | {c for hand in hands.values() for c in hand}
    state["draw"] = [card for card in range(1, 105) if card not in used]
    state["round"] = 1
    state["turn"] = turn
    state["points"].update(points or {})
    state["action_card"] = action_card
    return state


def _turn(state: State, cards: dict[str, int], decide: dict[str, Any] | None = None) -> StepPlay:
    submit = {player: {"card": card} for player, card in cards.items()}
    return play_step(RULES, state, _rng(), submit=submit, decide=decide)


def _plays(play: StepPlay) -> dict[int, dict[str, Any]]:
    return {entry["card"]: entry for entry in play.resolution.outcome["plays"]}


def _first_deal(options: dict[str, Any] | None = None) -> State:
    """State after an explicit first deal: rows 3, 19, 50, 80 and consecutive hands."""
    state = RULES.setup(options or {}, HUMANS)
    rest = [card for card in range(1, 105) if card not in (3, 19, 50, 80)]
    hands = {player: rest[10 * i : 10 * i + 10] for i, player in enumerate(state["hands"])}
    deal = RULES.check_deal(state, {"rows": [3, 19, 50, 80], "hands": hands})
    return RULES.apply_deal(state, deal)


def _card_places(state: State) -> Counter[int]:
    places: Counter[int] = Counter(state["draw"])
    places.update(state["discard"])
    for row in state["rows"]:
        places.update(row)
    for hand in state["hands"].values():
        places.update(hand)
    return places


# --- Players and options ----------------------------------------------------------------


def test_the_registry_maps_six_nimmt_to_this_module() -> None:
    assert get_rules("six-nimmt") is RULES


def test_ruling_two_to_nine_humans_play_with_the_virtual_player() -> None:
    names = [f"p{i}" for i in range(10)]
    for count in range(2, 10):
        state = RULES.setup({}, names[:count])
        assert list(state["points"]) == [*names[:count], "virtual"]
    for count in (1, 10):
        with pytest.raises(BadOptions, match="2 to 9 players"):
            RULES.setup({}, names[:count])


def test_ruling_two_to_ten_humans_play_without_the_virtual_player() -> None:
    names = [f"p{i}" for i in range(11)]
    for count in range(2, 11):
        state = RULES.setup({"virtual_player": False}, names[:count])
        assert "virtual" not in state["points"]
        assert "virtual_hand" not in RULES.public_view(state)
    for count in (1, 11):
        with pytest.raises(BadOptions, match="2 to 10 players"):
            RULES.setup({"virtual_player": False}, names[:count])


def test_ruling_the_virtual_players_id_is_reserved() -> None:
    with pytest.raises(BadOptions, match="reserved for the virtual player"):
        RULES.setup({}, ["ana", "virtual"])
    with pytest.raises(BadOptions, match="reserved"):
        RULES.setup({"virtual_player": False}, ["ana", "virtual"])


def test_ruling_options_default_to_the_virtual_player_66_points_and_no_action_card() -> None:
    assert RULES.normalise_options({}) == {
        "virtual_player": True,
        "start_points": 66,
        "action_card": None,
    }
    state = RULES.setup({}, HUMANS)
    assert state["points"] == {"ana": 66, "ben": 66, "cai": 66, "virtual": 66}
    assert RULES.setup({"start_points": 20}, HUMANS)["points"]["ben"] == 20


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": "red"}, "unknown six-nimmt option"),
        ({"virtual_player": 1}, "virtual_player must be true or false"),
        ({"start_points": 0}, "start_points is a whole number from 1 to 1000000, not 0"),
        (
            {"start_points": 1_000_001},
            "start_points is a whole number from 1 to 1000000, not 1000001",
        ),
        ({"start_points": 2**60}, "start_points is a whole number from 1 to 1000000, not a whole"),
        ({"action_card": None, "x" * 300: 1}, "unknown six-nimmt option a text of 300 characters"),
        ({"action_card": ["even-odd"]}, "action_card must be null or .even-odd., not a list"),
        ({"start_points": True}, "start_points"),
        ({"start_points": 6.5}, "start_points"),
        ({"action_card": "colours"}, "action_card must be null or"),
    ],
)
def test_bad_options_are_rejected_with_a_reason(options: dict[str, Any], message: str) -> None:
    with pytest.raises(BadOptions, match=message):
        RULES.setup(options, HUMANS)


# --- Card values and rows ---------------------------------------------------------------


def test_ruling_bullheads_55_is_7_multiples_of_11_are_5_of_10_are_3_of_5_are_2() -> None:
    assert bullheads(55) == 7
    assert [bullheads(card) for card in (11, 22, 33, 44, 66, 77, 88, 99)] == [5] * 8
    assert [bullheads(card) for card in range(10, 101, 10)] == [3] * 10
    assert [bullheads(card) for card in (5, 15, 25, 35, 45, 65, 75, 85, 95)] == [2] * 9
    assert [bullheads(card) for card in (1, 2, 12, 54, 56, 101, 104)] == [1] * 7
    assert sum(bullheads(card) for card in range(1, 105)) == 171  # the deck's known total


def test_ruling_rows_keep_positions_and_a_taken_row_restarts_with_the_card() -> None:
    state = _arranged(
        [[3], [19, 21, 23, 25, 27], [50], [80]],
        {"ana": [28, 1], "ben": [90, 2]},
    )
    play = _turn(state, {"ana": 28, "ben": 90})
    rows = play.resolution.state["rows"]
    assert rows == [[3], [28], [50], [80, 90]]
    assert _plays(play)[28]["row"] == 1


# --- Placement --------------------------------------------------------------------------


def test_ruling_placement_seed_example_11_on_3_20_on_19_60_on_50_75_on_60() -> None:
    state = _arranged(
        [[3], [19], [50], [80]],
        {"ana": [11], "ben": [20], "cai": [60], "virtual": [75]},
    )
    play = _turn(state, {"ana": 11, "ben": 20, "cai": 60})
    assert play.resolution.state["rows"] == [[3, 11], [19, 20], [50, 60, 75], [80]]
    assert [(p["card"], p["row"], p["reason"]) for p in play.resolution.outcome["plays"]] == [
        (11, 0, "placed"),
        (20, 1, "placed"),
        (60, 2, "placed"),
        (75, 2, "placed"),
    ]
    assert play.resolution.state["played"] == {"ana": 11, "ben": 20, "cai": 60, "virtual": 75}


def test_ruling_cards_resolve_from_smallest_to_largest() -> None:
    state = _arranged([[3], [19], [50], [80]], {"ana": [21, 1], "ben": [20, 2]})
    play = _turn(state, {"ana": 21, "ben": 20})
    assert [p["player"] for p in play.resolution.outcome["plays"]] == ["ben", "ana"]
    assert play.resolution.state["rows"][1] == [19, 20, 21]


def test_ruling_sixth_card_takes_the_five_cards_and_starts_the_row() -> None:
    state = _arranged(
        [[3], [19, 22, 25, 30, 40], [50], [80]],
        {"ana": [45, 1], "ben": [51, 2]},
    )
    play = _turn(state, {"ana": 45, "ben": 51})
    after = play.resolution.state
    assert after["rows"] == [[3], [45], [50, 51], [80]]
    took = [19, 22, 25, 30, 40]
    assert _plays(play)[45] == {
        "player": "ana",
        "card": 45,
        "row": 1,
        "took": took,
        "bullheads": 1 + 5 + 2 + 3 + 3,
        "reason": "sixth-card",
    }
    assert after["points"]["ana"] == 66 - 14
    assert after["discard"] == took


def test_ruling_too_low_pauses_for_the_players_public_decision() -> None:
    state = _arranged([[10], [22], [33], [55]], {"ana": [4, 90], "ben": [5, 91]})
    request = RULES.resolve(state, {"ana": {"card": 4}, "ben": {"card": 5}}, [], _rng())
    assert isinstance(request, DecisionRequest)
    assert request.player == "ana"
    assert request.kind == "take-row"
    assert request.prompt == {
        "card": 4,
        "rows": [[10], [22], [33], [55]],
        "bullheads": [3, 5, 5, 7],
        "action_card": None,
    }
    assert request.default == {"row": 0}
    done = RULES.resolve(state, {"ana": {"card": 4}, "ben": {"card": 5}}, [{"row": 3}], _rng())
    assert isinstance(done, Resolution)
    assert done.state["rows"] == [[10], [22], [33], [4, 5]]
    assert done.state["points"]["ana"] == 66 - 7
    assert done.outcome["plays"][0]["reason"] == "too-low"
    assert done.outcome["plays"][0]["took"] == [55]


def test_ruling_too_low_default_is_the_row_with_fewest_bullheads_ties_lowest_index() -> None:
    assert fewest_bullheads_row([[10], [22], [33], [55]]) == 0
    assert fewest_bullheads_row([[55], [22], [10, 1], [33]]) == 2
    assert fewest_bullheads_row([[55], [21], [12], [33]]) == 1
    state = _arranged([[55], [21, 23], [12], [33]], {"ana": [4, 90], "ben": [60, 91]})
    play = _turn(state, {"ana": 4, "ben": 60})
    assert play.requests[0].default == {"row": 2}
    assert play.decisions == ({"row": 2},)
    assert play.resolution.state["rows"][2] == [4]


def test_ruling_a_take_row_decision_names_a_row_from_0_to_3() -> None:
    state = _arranged([[10], [22], [33], [55]], {"ana": [4, 90], "ben": [60, 91]})
    request = RULES.resolve(state, {"ana": {"card": 4}, "ben": {"card": 60}}, [], _rng())
    assert isinstance(request, DecisionRequest)
    assert RULES.check_decision(state, request, {"row": 3}) == {"row": 3}
    for bad in ({"row": 4}, {"row": -1}, {"row": True}, {"row": "1"}, {}, [1], {"row": 1, "x": 0}):
        with pytest.raises(BadDecision):
            RULES.check_decision(state, request, bad)
    with pytest.raises(BadDecision, match="row 4 does not exist"):
        _turn(state, {"ana": 4, "ben": 60}, decide={"ana": {"row": 4}})


def test_ruling_each_too_low_card_asks_its_player_in_card_order() -> None:
    # ben's 4 takes row 1 and the action card follows it there showing even, so ana's odd 5
    # still has no row it may enter and ana is asked in turn.
    state = _arranged(
        [[10], [22], [33], [55]],
        {"ana": [5, 90], "ben": [4, 91]},
        options={"action_card": "even-odd"},
        action_card={"row": 0, "parity": "even"},
    )
    play = _turn(state, {"ana": 5, "ben": 4}, decide={"ana": {"row": 2}, "ben": {"row": 1}})
    assert [r.player for r in play.requests] == ["ben", "ana"]
    assert play.requests[1].prompt["rows"] == [[10], [4], [33], [55]]
    assert play.decisions == ({"row": 1}, {"row": 2})
    assert play.resolution.state["rows"] == [[10], [4], [5], [55]]
    assert play.resolution.state["action_card"] == {"row": 2, "parity": "odd"}


# --- Virtual player ---------------------------------------------------------------------


def test_ruling_the_virtual_players_hand_is_public() -> None:
    state = _first_deal()
    view = RULES.public_view(state)
    assert view["virtual_hand"] == state["hands"]["virtual"]
    dealt = RULES.deal(RULES.setup({}, HUMANS), _rng())
    assert dealt.public["virtual_hand"]
    assert "virtual" not in dealt.private


def test_ruling_virtual_player_plays_the_card_with_the_smallest_gap() -> None:
    rows = [[10], [30], [60], [90]]
    assert virtual_card([14, 33, 70], rows, None) == 33
    assert virtual_card([5, 64, 99], rows, None) == 64
    state = _arranged(rows, {"ana": [1, 2], "ben": [3, 4], "virtual": [14, 33, 70]})
    play = _turn(state, {"ana": 2, "ben": 4})
    assert play.resolution.state["played"]["virtual"] == 33
    assert play.resolution.state["hands"]["virtual"] == [14, 70]


def test_ruling_virtual_player_breaks_a_gap_tie_with_the_lower_card() -> None:
    assert virtual_card([33, 13, 63], [[10], [30], [60], [90]], None) == 13


def test_ruling_virtual_player_plays_its_lowest_card_when_every_card_is_too_low() -> None:
    assert virtual_card([9, 4, 7], [[10], [30], [60], [90]], None) == 4


def test_ruling_virtual_player_chooses_its_card_on_the_rows_at_the_start_of_the_turn() -> None:
    # At the start 33 has gap 3 and 14 gap 4; after ana's 12 lands first, 14 would have gap 2.
    state = _arranged(
        [[10], [30], [60], [90]], {"ana": [12, 1], "ben": [95, 2], "virtual": [14, 33]}
    )
    play = _turn(state, {"ana": 12, "ben": 95})
    assert play.resolution.state["played"]["virtual"] == 33


def test_ruling_virtual_player_takes_the_fewest_bullheads_row_when_its_card_resolves() -> None:
    # All four rows are worth 3 at the start (row 0 would be chosen); ana's too-low 4 takes
    # row 3 first, so when the virtual player's 7 resolves row 3 is [4], worth 1. The action
    # card (on row 3 after ana's take, showing even) keeps the odd 7 out of row 3.
    state = _arranged(
        [[20], [30], [40], [50]],
        {"ana": [4, 99], "ben": [100, 98], "virtual": [7]},
        options={"action_card": "even-odd"},
        action_card={"row": 0, "parity": "even"},
    )
    play = _turn(state, {"ana": 4, "ben": 100}, decide={"ana": {"row": 3}})
    plays = _plays(play)
    assert plays[7] == {
        "player": "virtual",
        "card": 7,
        "row": 3,
        "took": [4],
        "bullheads": 1,
        "reason": "too-low",
    }
    assert [r.player for r in play.requests] == ["ana"]
    assert play.resolution.state["points"]["virtual"] == 65


# --- Deck and deals ---------------------------------------------------------------------


def test_ruling_round_one_deals_rows_then_humans_in_seat_order_then_the_virtual_player() -> None:
    deck = list(range(1, 105))
    _rng().shuffle(deck)
    dealt = RULES.deal(RULES.setup({}, HUMANS), _rng())
    assert dealt.public["rows"] == deck[:4]
    assert dealt.private == {
        "ana": sorted(deck[4:14]),
        "ben": sorted(deck[14:24]),
        "cai": sorted(deck[24:34]),
    }
    assert dealt.public["virtual_hand"] == sorted(deck[34:44])
    state = RULES.apply_deal(RULES.setup({}, HUMANS), dealt)
    assert state["rows"] == [[card] for card in deck[:4]]
    assert state["draw"] == sorted(deck[44:])


def test_a_random_deal_and_the_same_explicit_deal_give_equal_states() -> None:
    start = RULES.setup({"action_card": "even-odd"}, HUMANS)
    dealt = RULES.deal(start, _rng())
    explicit = {
        "rows": dealt.public["rows"],
        "hands": {**dealt.private, "virtual": dealt.public["virtual_hand"]},
    }
    assert RULES.apply_deal(start, RULES.check_deal(start, explicit)) == RULES.apply_deal(
        start, dealt
    )


def test_ruling_taken_cards_go_to_the_discard_pile() -> None:
    state = _arranged([[10], [22], [33], [55]], {"ana": [4, 90], "ben": [60, 91]})
    after = _turn(state, {"ana": 4, "ben": 60}, decide={"ana": {"row": 2}}).resolution.state
    assert after["discard"] == [33]


def test_ruling_at_the_end_of_a_round_each_row_keeps_only_its_rightmost_card() -> None:
    state = _arranged(
        [[10, 11, 12], [22], [33, 34], [55]],
        {"ana": [13], "ben": [60]},
        turn=9,
    )
    play = _turn(state, {"ana": 13, "ben": 60})
    after = play.resolution.state
    assert play.resolution.outcome["round_end"] is True
    assert after["rows"] == [[13], [22], [34], [60]]
    assert after["discard"] == [10, 11, 12, 33, 55]
    assert RULES.next_step(after).needs_deal is True  # type: ignore[union-attr]


def test_ruling_the_discard_pile_is_shuffled_when_the_draw_pile_runs_out() -> None:
    state = _arranged([[7], [30], [61], [90]], {"ana": [], "ben": [], "cai": [], "virtual": []})
    state["turn"] = 10
    rest = state["draw"]
    state["draw"], state["discard"] = rest[:25], rest[25:]
    # Recompute the documented use of the rng: the draw pile (ascending) is shuffled and
    # dealt; when it runs out the discard pile (ascending) is shuffled and dealt on.
    rng = _rng("step/11")
    first = list(state["draw"])
    rng.shuffle(first)
    second = list(state["discard"])
    rng.shuffle(second)
    cards = first + second
    dealt = RULES.deal(state, _rng("step/11"))
    assert "rows" not in dealt.public
    assert dealt.private == {
        "ana": sorted(cards[0:10]),
        "ben": sorted(cards[10:20]),
        "cai": sorted(cards[20:30]),
    }
    assert dealt.public["virtual_hand"] == sorted(cards[30:40])
    after = RULES.apply_deal(state, dealt)
    assert after["discard"] == []
    assert after["draw"] == sorted(second[15:])
    assert sorted(_card_places(after)) == list(range(1, 105))


def test_an_explicit_deal_may_take_cards_from_the_discard_pile() -> None:
    state = _arranged([[7], [30], [61], [90]], {"ana": [], "ben": [], "virtual": []})
    state["turn"] = 10
    rest = state["draw"]
    state["draw"], state["discard"] = rest[:25], rest[25:]
    hands = {"ana": rest[:10], "ben": rest[10:20], "virtual": rest[90:100]}
    after = RULES.apply_deal(state, RULES.check_deal(state, {"hands": hands}))
    assert after["discard"] == []
    assert after["draw"] == rest[20:90]


def _good_first_deal() -> dict[str, Any]:
    hands = {p: list(range(10 + 10 * i, 20 + 10 * i)) for i, p in enumerate([*HUMANS, "virtual"])}
    return {"rows": [1, 2, 3, 4], "hands": hands}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("rows"), "the first deal must name the 4 row cards"),
        (lambda d: d.update(rows=[1, 2, 3]), "rows must be a list of 4 card numbers"),
        (lambda d: d.update(rows=[1, 2, 3, "4"]), "rows must be a list of 4 card numbers"),
        (lambda d: d["hands"].pop("ben"), 'the deal gives no hand to "ben"'),
        (lambda d: d["hands"].pop("virtual"), 'the deal gives no hand to "virtual"'),
        (lambda d: d["hands"].update(zed=[]), '"zed", who is not in this match'),
        (lambda d: d["hands"]["ana"].pop(), 'the hand of "ana" has 9 cards; a hand has 10'),
        (lambda d: d["hands"].update(cai="30-39"), 'the hand of "cai" must be a list of card'),
        (lambda d: d.update(pool=[]), 'unknown key "pool"; a six-nimmt deal is'),
        (lambda d: d.update(hands=[]), "the deal must give hands as"),
    ],
)
def test_a_bad_explicit_deal_is_rejected_with_a_reason(
    change: Callable[[dict[str, Any]], object], message: str
) -> None:
    deal = _good_first_deal()
    state = RULES.setup({}, HUMANS)
    RULES.check_deal(state, deal)
    change(deal)
    with pytest.raises(BadDeal, match=message):
        RULES.check_deal(state, deal)
    with pytest.raises(BadDeal, match="a six-nimmt deal is"):
        RULES.check_deal(state, [1, 2])  # type: ignore[arg-type]


def test_an_explicit_deal_rejects_repeated_unknown_and_unavailable_cards() -> None:
    state = RULES.setup({}, HUMANS)
    hands = {p: list(range(10 + 10 * i, 20 + 10 * i)) for i, p in enumerate(state["hands"])}
    with pytest.raises(BadDeal, match="card 10 is dealt twice"):
        RULES.check_deal(state, {"rows": [10, 2, 3, 4], "hands": hands})
    with pytest.raises(BadDeal, match="card 105 does not exist"):
        RULES.check_deal(state, {"rows": [105, 2, 3, 4], "hands": hands})
    dealt = RULES.apply_deal(state, RULES.check_deal(state, {"rows": [1, 2, 3, 4], "hands": hands}))
    dealt["round"], dealt["turn"] = 1, 10
    with pytest.raises(BadDeal, match="only the first deal names row cards"):
        RULES.check_deal(dealt, {"rows": [1, 2, 3, 4], "hands": hands})
    with pytest.raises(BadDeal, match="card 10 cannot be dealt: it is on a row or in a hand"):
        RULES.check_deal(dealt, {"hands": hands})


# --- End --------------------------------------------------------------------------------


def test_ruling_the_end_is_checked_only_when_all_ten_cards_are_played() -> None:
    rows = [[10], [22], [33], [55]]
    hands = {"ana": [4, 90], "ben": [60, 91]}
    mid = _arranged(rows, hands, turn=4, points={"ana": 3})
    after = _turn(mid, {"ana": 4, "ben": 60}, decide={"ana": {"row": 3}}).resolution
    assert after.state["points"]["ana"] == -4
    assert after.outcome["finished"] is False
    assert RULES.next_step(after.state) is not None
    last = _arranged(rows, {"ana": [4], "ben": [60]}, turn=9, points={"ana": 3})
    end = _turn(last, {"ana": 4, "ben": 60}, decide={"ana": {"row": 3}}).resolution
    assert end.outcome == {
        "plays": end.outcome["plays"],
        "action_card_moves": [],
        "round_end": True,
        "finished": True,
    }
    assert RULES.is_finished(end.state)
    assert RULES.next_step(end.state) is None
    assert end.state["winners"] == ["ben"]
    assert RULES.result(end.state) == {"points": {"ana": -4, "ben": 66}, "winners": ["ben"]}
    # The final rows stay as played: the end check comes before trimming.
    assert end.state["rows"] == [[10], [22], [33, 60], [4]]


def test_ruling_points_may_go_below_zero() -> None:
    state = _arranged(
        [[10], [22], [33], [55]], {"ana": [4, 90], "ben": [60, 91]}, points={"ana": 2}
    )
    after = _turn(state, {"ana": 4, "ben": 60}, decide={"ana": {"row": 3}}).resolution.state
    assert after["points"]["ana"] == -5
    assert RULES.public_view(after)["points"]["ana"] == -5


def test_ruling_the_virtual_player_can_end_the_match_but_is_never_ranked() -> None:
    state = _arranged(
        [[10], [22], [33], [55]],
        {"ana": [60], "ben": [70], "cai": [80], "virtual": [1]},
        turn=9,
        points={"ana": 40, "ben": 50, "cai": 45, "virtual": 2},
    )
    after = _turn(state, {"ana": 60, "ben": 70, "cai": 80}).resolution.state
    assert after["points"]["virtual"] == -1
    assert after["finished"] is True
    assert after["winners"] == ["ben"]
    # With the most points it still does not win.
    state = _arranged(
        [[10], [22], [33], [55]],
        {"ana": [4], "ben": [70], "cai": [80], "virtual": [90]},
        turn=9,
        points={"ana": 1, "ben": 30, "cai": 20, "virtual": 66},
    )
    after = _turn(state, {"ana": 4, "ben": 70, "cai": 80}).resolution.state
    assert after["finished"] is True
    assert after["winners"] == ["ben"]


def test_ruling_tied_leaders_are_reported_as_tied_winners() -> None:
    state = _arranged(
        [[10], [22], [33], [55]],
        {"ana": [60], "ben": [70], "cai": [80], "virtual": [90]},
        turn=9,
        points={"ana": 12, "ben": 5, "cai": 12, "virtual": 0},
    )
    after = _turn(state, {"ana": 60, "ben": 70, "cai": 80}).resolution.state
    assert after["finished"] is True
    assert after["winners"] == ["ana", "cai"]
    assert RULES.public_view(after)["winners"] == ["ana", "cai"]


# --- Submissions ------------------------------------------------------------------------


def test_ruling_a_card_not_in_the_hand_is_rejected_at_submission() -> None:
    state = _first_deal()
    hand = state["hands"]["ana"]
    assert RULES.check_pick(state, "ana", {"card": hand[3]}) == {"card": hand[3]}
    with pytest.raises(IllegalPick, match="card 104 is not in the hand"):
        RULES.check_pick(state, "ana", {"card": 104})
    for bad in ({}, {"card": 5, "row": 1}, [5], 5, None, {"cards": 5}):
        with pytest.raises(IllegalPick, match=re.escape('a pick is {"card": n}')):
            RULES.check_pick(state, "ana", bad)
    for bad_card in (True, "5", 5.0, None):
        with pytest.raises(IllegalPick, match="the card is a card number from 1 to 104"):
            RULES.check_pick(state, "ana", {"card": bad_card})
    with pytest.raises(IllegalPick, match='"virtual" is not a human player'):
        RULES.check_pick(state, "virtual", {"card": state["hands"]["virtual"][0]})


def test_ruling_a_missing_pick_plays_the_lowest_card_in_hand() -> None:
    state = _arranged([[10], [22], [33], [55]], {"ana": [90, 60, 95], "ben": [91, 70]})
    assert RULES.default_pick(state, "ana") == {"card": 60}
    play = play_step(RULES, state, _rng(), submit={"ben": {"card": 91}})
    assert play.defaulted == ("ana",)
    assert play.resolution.state["played"]["ana"] == 60


def test_each_turn_is_one_step_of_the_humans_and_the_first_turn_of_a_round_deals() -> None:
    state = RULES.setup({}, HUMANS)
    spec = RULES.next_step(state)
    assert spec is not None
    assert (spec.kind, spec.submitters, spec.needs_deal) == ("turn", tuple(HUMANS), True)
    state = play_step(RULES, state, _rng()).resolution.state
    assert (state["round"], state["turn"]) == (1, 1)
    spec = RULES.next_step(state)
    assert spec is not None
    assert spec.needs_deal is False
    with pytest.raises(BadDeal, match="this step deals nothing"):
        play_step(RULES, state, _rng(), deal={"hands": {}})


def test_public_view_has_the_agreed_keys_and_no_human_hand() -> None:
    start = RULES.setup({}, HUMANS)
    assert RULES.public_view(start) == {
        "round": 0,
        "turn": 0,
        "rows": [[], [], [], []],
        "points": {"ana": 66, "ben": 66, "cai": 66, "virtual": 66},
        "action_card": None,
        "finished": False,
        "winners": [],
        "hand_sizes": {"ana": 0, "ben": 0, "cai": 0},
        "played": {},
        "virtual_hand": [],
    }
    state = _first_deal()
    view = RULES.public_view(state)
    assert set(view) == PUBLIC_KEYS | {"virtual_hand"}
    text = json.dumps(view)
    assert "draw" not in text
    assert "discard" not in text
    assert view["hand_sizes"] == {"ana": 10, "ben": 10, "cai": 10}
    assert RULES.private_view(state, "ben") == {"hand": state["hands"]["ben"]}
    assert RULES.private_view(state, "virtual") == {}
    no_virtual = RULES.public_view(_first_deal({"virtual_player": False}))
    assert set(no_virtual) == PUBLIC_KEYS


def test_rules_functions_never_mutate_their_input() -> None:
    state = _arranged([[10], [22], [33], [55]], {"ana": [4, 90], "ben": [60, 91]}, turn=9)
    frozen = json.dumps(state, sort_keys=True)
    _turn(state, {"ana": 4, "ben": 60})
    RULES.deal(state, _rng())
    assert json.dumps(state, sort_keys=True) == frozen


# --- Even/Odd action card ---------------------------------------------------------------


def test_ruling_action_card_starts_on_the_lowest_starting_card_showing_its_parity() -> None:
    state = _first_deal({"action_card": "even-odd"})
    assert state["action_card"] == {"row": 0, "parity": "odd"}
    start = RULES.setup({"action_card": "even-odd"}, HUMANS)
    rest = [card for card in range(1, 105) if card not in (31, 52, 92, 8)]
    hands = {player: rest[10 * i : 10 * i + 10] for i, player in enumerate(start["hands"])}
    deal = RULES.check_deal(start, {"rows": [31, 52, 92, 8], "hands": hands})
    state = RULES.apply_deal(start, deal)
    assert RULES.public_view(state)["action_card"] == {"row": 3, "parity": "even"}
    assert _first_deal()["action_card"] is None


def test_ruling_seed_example_davids_90_goes_on_52_takes_five_and_moves_the_action_card() -> None:
    state = _arranged(
        [[31], [40, 44, 47, 49, 52], [92], [85]],
        {"david": [90, 1], "ana": [104, 2]},
        options={"action_card": "even-odd"},
        action_card={"row": 3, "parity": "odd"},
    )
    assert landing_row(90, state["rows"], None) == 3
    play = _turn(state, {"david": 90, "ana": 104})
    outcome = play.resolution.outcome
    assert outcome["plays"][0] == {
        "player": "david",
        "card": 90,
        "row": 1,
        "took": [40, 44, 47, 49, 52],
        "bullheads": 3 + 5 + 1 + 1 + 1,
        "reason": "sixth-card",
    }
    assert outcome["action_card_moves"] == [{"card": 90, "from": 3, "to": 0, "parity": "odd"}]
    after = play.resolution.state
    assert after["action_card"] == {"row": 0, "parity": "odd"}
    assert after["rows"] == [[31], [90], [92, 104], [85]]


def test_ruling_the_marked_row_takes_only_cards_of_the_shown_parity() -> None:
    marked = {"row": 3, "parity": "odd"}
    rows = [[31], [52], [92], [85]]
    assert landing_row(87, rows, marked) == 3
    assert landing_row(86, rows, marked) == 1
    assert landing_row(90, rows, {"row": 3, "parity": "even"}) == 3


def test_ruling_a_card_with_no_row_it_may_enter_is_too_low_and_may_take_any_row() -> None:
    # 33 is above 31 but that row is marked even; every other end is above 33.
    state = _arranged(
        [[31], [52], [92], [85]],
        {"ana": [33, 1], "ben": [100, 2]},
        options={"action_card": "even-odd"},
        action_card={"row": 0, "parity": "even"},
    )
    request = RULES.resolve(state, {"ana": {"card": 33}, "ben": {"card": 100}}, [], _rng())
    assert isinstance(request, DecisionRequest)
    assert request.prompt["action_card"] == {"row": 0, "parity": "even"}
    assert request.default == {"row": 0}
    play = _turn(state, {"ana": 33, "ben": 100}, decide={"ana": {"row": 0}})
    assert _plays(play)[33]["took"] == [31]
    after = play.resolution.state
    assert after["rows"][0] == [33]
    # The action card leaves row 0 for the lowest of the other ends (52), showing even.
    assert after["action_card"] == {"row": 1, "parity": "even"}


def test_ruling_action_card_moves_whenever_a_row_is_taken_and_may_go_to_the_taken_row() -> None:
    state = _arranged(
        [[31], [52], [92], [85]],
        {"ana": [4, 1], "ben": [100, 2]},
        options={"action_card": "even-odd"},
        action_card={"row": 0, "parity": "odd"},
    )
    play = _turn(state, {"ana": 4, "ben": 100}, decide={"ana": {"row": 2}})
    after = play.resolution.state
    assert after["rows"] == [[31], [52], [4], [85, 100]]
    assert play.resolution.outcome["action_card_moves"] == [
        {"card": 4, "from": 0, "to": 2, "parity": "even"}
    ]
    # Placements alone never move it.
    state["hands"] = {"ana": [53, 1], "ben": [86, 2]}
    state["draw"] = [card for card in range(1, 105) if card not in (31, 52, 92, 85, 53, 86, 1, 2)]
    calm = _turn(state, {"ana": 53, "ben": 86})
    assert calm.resolution.outcome["action_card_moves"] == []
    assert calm.resolution.state["action_card"] == {"row": 0, "parity": "odd"}


def test_ruling_action_card_does_not_count_towards_the_five_card_limit() -> None:
    state = _arranged(
        [[31, 33, 35, 37], [52], [92], [85]],
        {"ana": [39, 1], "ben": [41, 2]},
        options={"action_card": "even-odd"},
        action_card={"row": 0, "parity": "odd"},
    )
    play = _turn(state, {"ana": 39, "ben": 41})
    plays = _plays(play)
    assert plays[39]["reason"] == "placed"
    assert plays[41]["reason"] == "sixth-card"
    assert plays[41]["took"] == [31, 33, 35, 37, 39]


def test_ruling_action_card_persists_across_rounds() -> None:
    state = _arranged(
        [[31, 33], [52], [92], [85]],
        {"ana": [39], "ben": [94]},
        options={"action_card": "even-odd"},
        action_card={"row": 0, "parity": "odd"},
        turn=9,
    )
    after = _turn(state, {"ana": 39, "ben": 94}).resolution.state
    assert after["rows"] == [[39], [52], [94], [85]]
    assert after["action_card"] == {"row": 0, "parity": "odd"}
    dealt = play_step(RULES, after, _rng("step/2")).resolution.state
    assert dealt["round"] == 2
    assert dealt["action_card"]["row"] in range(4)
    redealt = RULES.apply_deal(after, RULES.deal(after, _rng("step/2")))
    assert redealt["action_card"] == {"row": 0, "parity": "odd"}


def test_ruling_virtual_player_only_considers_rows_its_card_may_enter() -> None:
    rows = [[31], [52], [92], [85]]
    marked = {"row": 3, "parity": "odd"}
    # 86 would sit next to 85 (gap 1) but may not enter the odd row: it lands on 52 (gap 34).
    assert virtual_card([86, 70], rows, None) == 86
    assert virtual_card([86, 70], rows, marked) == 70
    # A card whose only lower end is a row it may not enter counts as too low.
    assert virtual_card([32, 53], rows, {"row": 0, "parity": "odd"}) == 53
    assert virtual_card([32, 30], rows, {"row": 0, "parity": "odd"}) == 30


# --- Properties over random bot matches -------------------------------------------------


OPTION_CHOICES = st.sampled_from(
    [
        {},
        {"action_card": "even-odd"},
        {"virtual_player": False},
        {"virtual_player": False, "action_card": "even-odd", "start_points": 30},
        {"start_points": 15},
    ]
)


def _bot_match(
    seed: bytes, options: dict[str, Any], humans: int
) -> tuple[State, list[tuple[State, StepPlay]]]:
    """Play a whole match with bot picks and bot decisions; return the start and each step."""
    most = 9 if options.get("virtual_player", True) else 10
    players = [f"p{i}" for i in range(min(humans, most))]
    start = state = RULES.setup(options, players)
    steps = []
    for n in range(1, 2000):
        spec = RULES.next_step(state)
        if spec is None:
            break
        rng = Rng(seed, MATCH_ID, f"step/{n}")
        bot = Rng(seed, MATCH_ID, f"bot/{n}")
        dealt = RULES.apply_deal(state, RULES.deal(state, rng)) if spec.needs_deal else state
        rng = Rng(seed, MATCH_ID, f"step/{n}")
        submit = {p: RULES.bot_pick(dealt, p, bot) for p in spec.submitters if bot.below(8)}
        decide = {p: {"row": bot.below(4)} for p in spec.submitters if bot.below(2)}
        play = play_step(RULES, state, rng, submit=submit, decide=decide)
        state = play.resolution.state
        steps.append((state, play))
    return start, steps


MATCHES = {
    "seed": st.binary(min_size=32, max_size=32),
    "options": OPTION_CHOICES,
    "humans": st.integers(min_value=2, max_value=10),
}


@settings(max_examples=25, deadline=None)
@given(**MATCHES)
def test_property_every_card_is_in_exactly_one_place(
    seed: bytes, options: dict[str, Any], humans: int
) -> None:
    start, steps = _bot_match(seed, options, humans)
    assert sorted(_card_places(start)) == list(range(1, 105))
    for state, play in steps:
        assert sorted(_card_places(state)) == list(range(1, 105))
        assert state["draw"] == sorted(state["draw"])
        assert state["discard"] == sorted(state["discard"])
        assert all(1 <= len(row) <= 5 for row in state["rows"])
        played = sorted(entry["card"] for entry in play.resolution.outcome["plays"])
        assert played == sorted(state["played"].values())


@settings(max_examples=25, deadline=None)
@given(**MATCHES)
def test_property_points_lost_equal_bullheads_taken(
    seed: bytes, options: dict[str, Any], humans: int
) -> None:
    start, steps = _bot_match(seed, options, humans)
    taken = dict.fromkeys(start["points"], 0)
    for _, play in steps:
        for entry in play.resolution.outcome["plays"]:
            assert entry["bullheads"] == sum(bullheads(card) for card in entry["took"])
            assert (entry["reason"] == "placed") == (entry["took"] == [])
            taken[entry["player"]] += entry["bullheads"]
    final = steps[-1][0]
    for player, value in final["points"].items():
        assert start["points"][player] - value == taken[player]


@settings(max_examples=25, deadline=None)
@given(**MATCHES)
def test_property_bot_matches_always_finish(
    seed: bytes, options: dict[str, Any], humans: int
) -> None:
    _, steps = _bot_match(seed, options, humans)
    final = steps[-1][0]
    assert RULES.is_finished(final)
    assert RULES.next_step(final) is None
    assert final["turn"] == 10
    assert len(steps) == 10 * final["round"]
    assert any(value <= 0 for value in final["points"].values())
    assert all(
        value > 0
        for state, _ in steps[:-1]
        if state["turn"] == 10
        for value in state["points"].values()
    )
    top = max(final["points"][p] for p in final["players"])
    assert final["winners"] == [p for p in final["players"] if final["points"][p] == top]
    assert "virtual" not in final["winners"]


# --- Scenario fixtures ------------------------------------------------------------------


def _line(step: int, state: State) -> str:
    record = {"step": step, "state": RULES.public_view(state)}
    return json.dumps(record, separators=(",", ":"), sort_keys=True)


def _generate_fixture(name: str, options: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Play a bot match from a fixed seed and freeze every deal, pick and decision."""
    seed = hashlib.sha256(f"dealerroom fixture {name}".encode()).digest()
    state = RULES.setup(options, HUMANS)
    steps: list[dict[str, Any]] = []
    lines: list[str] = []
    n = 0
    while (spec := RULES.next_step(state)) is not None:
        n += 1
        step: dict[str, Any] = {}
        dealt_state = state
        if spec.needs_deal:
            dealt = RULES.deal(state, Rng(seed, MATCH_ID, f"step/{n}"))
            step["deal"] = {"hands": {**dealt.private}}
            if "rows" in dealt.public:
                step["deal"] = {"rows": dealt.public["rows"], **step["deal"]}
            if "virtual_hand" in dealt.public:
                step["deal"]["hands"]["virtual"] = dealt.public["virtual_hand"]
            dealt_state = RULES.apply_deal(state, dealt)
        bot = Rng(seed, MATCH_ID, f"bot/{n}")
        step["submit"] = {p: RULES.bot_pick(dealt_state, p, bot) for p in spec.submitters}
        # About half of the decisions are explicit, the rest fall back to the default.
        choices = {p: {"row": bot.below(4)} for p in spec.submitters if bot.below(2)}
        play = play_step(
            RULES,
            state,
            Rng(seed, MATCH_ID, f"step/{n}"),
            deal=step.get("deal"),
            submit=step["submit"],
            decide=choices,
        )
        asked = [p for p in spec.submitters if any(r.player == p for r in play.requests)]
        decide = {p: choices[p] for p in asked if p in choices}
        if decide:
            step["decide"] = decide
        steps.append(step)
        state = play.resolution.state
        lines.append(_line(n, state))
    scenario = {
        "game": "six-nimmt",
        "options": options,
        "players": HUMANS,
        "seed": seed.hex(),
        "steps": steps,
    }
    return scenario, lines


def _scenario_text(scenario: dict[str, Any]) -> str:
    """The scenario as JSON with one step per line."""
    head = [
        f" {json.dumps(key)}: {json.dumps(scenario[key])}," for key in scenario if key != "steps"
    ]
    steps = ",\n".join(f"  {json.dumps(step)}" for step in scenario["steps"])
    return "{\n" + "\n".join(head) + '\n "steps": [\n' + steps + "\n ]\n}\n"


def _write_fixtures() -> None:
    SCENARIOS.mkdir(parents=True, exist_ok=True)
    for name, options in FIXTURES.items():
        scenario, lines = _generate_fixture(name, options)
        (SCENARIOS / f"{name}.json").write_text(_scenario_text(scenario))
        (SCENARIOS / f"{name}.expected.jsonl").write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_scenario_fixture_replays_to_its_expected_states(name: str) -> None:
    scenario = json.loads((SCENARIOS / f"{name}.json").read_text())
    expected = (SCENARIOS / f"{name}.expected.jsonl").read_text().splitlines()
    assert scenario["game"] == "six-nimmt"
    assert len(bytes.fromhex(scenario["seed"])) == 32
    state = RULES.setup(scenario["options"], scenario["players"])
    # Every dealing step deals explicitly, so another match id changes nothing.
    other_match = "11111111-1111-4111-8111-111111111111"
    lines = []
    rounds = 0
    for n, step in enumerate(scenario["steps"], start=1):
        spec = RULES.next_step(state)
        assert spec is not None
        assert ("deal" in step) == spec.needs_deal
        assert set(step["submit"]) == set(scenario["players"])
        rounds += spec.needs_deal
        play = play_step(
            RULES,
            state,
            Rng(bytes.fromhex(scenario["seed"]), other_match, f"step/{n}"),
            deal=step.get("deal"),
            submit=step["submit"],
            decide=step.get("decide"),
        )
        state = play.resolution.state
        lines.append(_line(n, state))
    assert lines == expected
    assert RULES.is_finished(state)
    assert rounds >= 2
    assert (scenario["options"].get("action_card") == "even-odd") == (
        state["action_card"] is not None
    )


def test_scenario_fixtures_are_what_the_generator_writes() -> None:
    for name, options in FIXTURES.items():
        scenario, lines = _generate_fixture(name, options)
        assert json.loads((SCENARIOS / f"{name}.json").read_text()) == scenario
        assert (SCENARIOS / f"{name}.expected.jsonl").read_text().splitlines() == lines


if __name__ == "__main__":
    _write_fixtures()


@pytest.mark.parametrize(
    ("card", "message"),
    [
        (0, "not 0"),
        (105, "not 105"),
        (10**30, "not a whole number of 31 digits"),
        (-(2**70), "not a negative whole number of 22 digits"),
        ("x" * 5000, "not a text of 5000 characters"),
        ([[[[37]]]], "not a list"),
        (float("nan"), "not NaN"),
        (37.0, "not a decimal number"),
    ],
)
def test_a_hostile_card_is_refused_in_plain_words(card: object, message: str) -> None:
    state = _first_deal()
    with pytest.raises(IllegalPick) as refused:
        RULES.check_pick(state, "ana", {"card": card})
    text = str(refused.value)
    assert text.startswith("the card is a card number from 1 to 104") and text.endswith(message)
    assert "'" not in text and "None" not in text


def test_a_hostile_row_decision_is_refused_in_plain_words() -> None:
    state = _arranged([[10], [22], [33], [55]], {"ana": [4, 90], "ben": [60, 91]})
    request = RULES.resolve(state, {"ana": {"card": 4}, "ben": {"card": 60}}, [], _rng())
    assert isinstance(request, DecisionRequest)
    for bad, message in [
        ({"row": 10**40}, "does not exist; the rows are numbered 0 to 3"),
        ({"row": None}, "the row to take is a whole number from 0 to 3, not null"),
        ({"row": 1.5}, "not a number with a fraction"),
        ({"row": 1, "z" * 99: 0}, "unknown key a text of 99 characters"),
        ("1", 'a take-row decision is {"row": i} with i from 0 to 3, not "1"'),
    ]:
        with pytest.raises(BadDecision) as refused:
            RULES.check_decision(state, request, bad)
        assert message in str(refused.value)


# --- The generic interface, as 6 nimmt! answers it ------------------------------------------


def test_the_legal_picks_are_the_cards_of_the_hand_ascending() -> None:
    state = _first_deal()
    view = RULES.legal_picks(state, "ana")
    hand = sorted(state["hands"]["ana"])
    assert list(view) == [{"card": card} for card in hand]
    assert len(view) == len(hand) == 10
    assert RULES.default_pick(state, "ana") in view
    assert {"card": 105} not in view
    assert not RULES.legal_picks(state, VIRTUAL).any()


def test_a_too_low_card_may_take_any_of_the_four_rows() -> None:
    state = _first_deal()
    request = DecisionRequest("ana", "take-row", {}, {"row": 2})
    assert RULES.decision_choices(state, request) == [{"row": i} for i in range(4)]


def test_the_player_range_depends_on_the_virtual_player() -> None:
    assert RULES.player_range({}) == (2, 9)
    assert RULES.player_range({"virtual_player": False}) == (2, 10)
    with pytest.raises(BadOptions):
        RULES.player_range({"virtual_player": "yes"})


def test_scenario_deal_puts_the_virtual_hand_back_among_the_hands() -> None:
    deal = RULES.deal(RULES.setup({}, HUMANS), _rng("deal/1"))
    shape = RULES.scenario_deal(deal)
    assert shape is not None
    assert set(shape) == {"rows", "hands"}
    assert set(shape["hands"]) == {*HUMANS, VIRTUAL}
    assert RULES.check_deal(RULES.setup({}, HUMANS), shape) == deal
