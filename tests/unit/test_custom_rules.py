"""RULINGS.md section 5: custom games, a test per ruling and per reading where it is silent."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from domain.fairrand import Rng
from domain.rules import get_rules
from domain.rules.base import (
    BadDecision,
    BadOptions,
    DecisionRequest,
    Disclosure,
    IllegalPick,
    Resolution,
    play_step,
)
from domain.rules.custom.picks import CODE_POINTS

RULES = get_rules("custom")
PLAYERS = ["ana", "ben", "cai", "dee"]
SEED = bytes(range(32))
MID = "00000000-0000-4000-8000-000000000c05"

NUMBER = {"name": "n", "kind": "integer", "min": 1, "max": 10}
COLOUR = {"name": "colour", "kind": "choice", "choices": ["red", "green", "blue"]}


def design(**settings: Any) -> dict[str, Any]:
    """A lowest-unique design over ``n`` with ``settings`` changed."""
    base: dict[str, Any] = {
        "title": "Test",
        "rounds": 2,
        "fields": [NUMBER],
        "resolver": {"kind": "lowest-unique", "field": "n"},
    }
    return {**base, **settings}


def start(players: list[str] | None = None, **settings: Any) -> dict[str, Any]:
    return RULES.setup(RULES.normalise_options(design(**settings)), players or PLAYERS)


def step(state: dict[str, Any], submit: dict[str, Any], decide: Any = None) -> Any:
    return play_step(
        RULES,
        state,
        Rng(SEED, MID, "step"),
        submit=submit,
        decide={"host": decide} if decide is not None else None,
    )


def refused(**settings: Any) -> str:
    with pytest.raises(BadOptions) as caught:
        RULES.normalise_options(design(**settings))
    return str(caught.value)


def illegal(state: dict[str, Any], player: str, payload: Any) -> str:
    with pytest.raises(IllegalPick) as caught:
        RULES.check_pick(state, player, payload)
    return str(caught.value)


# --- Options -------------------------------------------------------------------------------


def test_options_are_normalised_with_every_default_filled() -> None:
    normal = RULES.normalise_options(
        design(fields=[NUMBER, {"name": "who", "kind": "player"}, COLOUR])
    )
    assert list(normal) == [
        "title", "rounds", "fields", "resolver", "disclosure", "default", "points",
    ]  # fmt: skip
    assert normal["disclosure"] == "at-resolve"
    assert normal["default"] is None
    assert normal["points"] == 1
    assert all(field["optional"] is False for field in normal["fields"])
    assert normal["fields"][1]["self"] is False
    assert RULES.normalise_options(normal) == normal


def test_rounds_are_from_1_to_50() -> None:
    assert RULES.normalise_options(design(rounds=50))["rounds"] == 50
    assert "rounds" in refused(rounds=0)
    assert "rounds" in refused(rounds=51)
    assert "rounds" in refused(rounds=True)


def test_players_are_2_to_30() -> None:
    assert RULES.player_range({}) == (2, 30)
    start([f"p{i}" for i in range(30)])
    for count in (1, 31):
        with pytest.raises(BadOptions, match="2 to 30 players"):
            start([f"p{i}" for i in range(count)])


def test_fields_are_1_to_8_with_unique_names_of_a_z_0_9_underscore() -> None:
    many = [{**NUMBER, "name": f"n{i}"} for i in range(9)]
    assert "1 to 8 fields" in refused(fields=[])
    assert "1 to 8 fields" in refused(fields=many)
    assert "two fields" in refused(fields=[NUMBER, NUMBER])
    for bad in ("N", "n-1", "", "x" * 33, "né"):
        assert "name" in refused(fields=[NUMBER, {**COLOUR, "name": bad}])
    RULES.normalise_options(design(fields=[NUMBER, {**COLOUR, "name": "a_9" + "x" * 29}]))


def test_an_integer_field_has_whole_bounds_within_a_million_min_not_above_max() -> None:
    RULES.normalise_options(design(fields=[{**NUMBER, "min": -(10**6), "max": 10**6}]))
    RULES.normalise_options(design(fields=[{**NUMBER, "min": 5, "max": 5}]))
    assert "min" in refused(fields=[{**NUMBER, "min": -(10**6) - 1}])
    assert "max" in refused(fields=[{**NUMBER, "max": 10**6 + 1}])
    assert "above its max" in refused(fields=[{**NUMBER, "min": 6, "max": 5}])
    assert 'the field "n"' in refused(fields=[{**NUMBER, "min": 1.5}])


def test_a_choice_field_has_2_to_40_distinct_texts_of_1_to_40_characters() -> None:
    def choices(values: list[Any]) -> str:
        return refused(fields=[NUMBER, {**COLOUR, "choices": values}])

    assert "2 to 40 choices" in choices(["one"])
    assert "2 to 40 choices" in choices([str(i) for i in range(41)])
    assert "twice" in choices(["a", "a"])
    assert "1 to 40" in choices(["a", ""])
    assert "1 to 40" in choices(["a", "x" * 41])
    assert "1 to 40" in choices(["a", 3])
    RULES.normalise_options(design(fields=[NUMBER, {**COLOUR, "choices": ["x" * 40, "Ä"]}]))


def test_a_player_field_refuses_oneself_unless_self_is_true() -> None:
    state = start(fields=[NUMBER, {"name": "who", "kind": "player"}])
    assert "other than you" in illegal(state, "ana", {"n": 1, "who": "ana"})
    assert RULES.check_pick(state, "ana", {"n": 1, "who": "ben"})["who"] == "ben"
    state = start(fields=[NUMBER, {"name": "who", "kind": "player", "self": True}])
    assert RULES.check_pick(state, "ana", {"n": 1, "who": "ana"})["who"] == "ana"
    assert "zed" in illegal(state, "ana", {"n": 1, "who": "zed"})


def test_a_ranking_is_k_distinct_choices_in_order() -> None:
    rank = {"name": "r", "kind": "ranking", "choices": ["a", "b", "c"], "length": 2}
    state = start(fields=[NUMBER, rank])
    assert RULES.check_pick(state, "ana", {"n": 1, "r": ["c", "a"]})["r"] == ["c", "a"]
    assert "exactly 2" in illegal(state, "ana", {"n": 1, "r": ["a"]})
    assert "at most once" in illegal(state, "ana", {"n": 1, "r": ["a", "a"]})
    assert '"d"' in illegal(state, "ana", {"n": 1, "r": ["a", "d"]})
    assert "length" in refused(fields=[NUMBER, {**rank, "length": 4}])
    assert "length" in refused(fields=[NUMBER, {**rank, "length": 0}])


def test_a_text_field_has_a_max_length_of_1_to_500_counted_in_code_points() -> None:
    text = {"name": "t", "kind": "text", "max_length": 3}
    state = start(fields=[NUMBER, text])
    assert RULES.check_pick(state, "ana", {"n": 1, "t": "😀é\u0301"})["t"] == "😀é\u0301"
    assert "1 to 3 characters" in illegal(state, "ana", {"n": 1, "t": "abcd"})
    assert "max_length" in refused(fields=[NUMBER, {**text, "max_length": 0}])
    assert "max_length" in refused(fields=[NUMBER, {**text, "max_length": 501}])
    RULES.normalise_options(design(fields=[NUMBER, {**text, "max_length": 500}]))


def test_any_field_may_be_optional_missing_or_null() -> None:
    state = start(fields=[NUMBER, {**COLOUR, "optional": True}])
    assert RULES.check_pick(state, "ana", {"n": 2}) == {"n": 2, "colour": None}
    assert RULES.check_pick(state, "ana", {"n": 2, "colour": None}) == {"n": 2, "colour": None}
    assert 'needs the field "n"' in illegal(state, "ana", {"colour": "red"})
    assert 'the field "n" needs a value' in illegal(state, "ana", {"n": None})


def test_a_payload_with_an_unknown_field_or_a_bad_value_is_refused_naming_the_field() -> None:
    state = start(fields=[NUMBER, COLOUR])
    assert '"x"' in illegal(state, "ana", {"n": 1, "colour": "red", "x": 1})
    assert 'the field "colour"' in illegal(state, "ana", {"n": 1, "colour": "pink"})
    assert 'the field "n"' in illegal(state, "ana", {"n": 11, "colour": "red"})
    assert "object" in illegal(state, "ana", [1])


def test_json_true_and_false_are_not_numbers() -> None:
    state = start()
    assert 'the field "n"' in illegal(state, "ana", {"n": True})
    assert "min" in refused(fields=[{**NUMBER, "min": False}])


def test_choices_and_player_names_match_exactly_case_included() -> None:
    state = start(fields=[NUMBER, COLOUR, {"name": "who", "kind": "player"}])
    assert "Red" in illegal(state, "ana", {"n": 1, "colour": "Red", "who": "ben"})
    assert "Ben" in illegal(state, "ana", {"n": 1, "colour": "red", "who": "Ben"})


def test_a_default_must_be_a_valid_pick() -> None:
    assert "default pick" in refused(default={"n": 11})
    assert "default pick" in refused(default={"m": 1})
    normal = RULES.normalise_options(design(default={"n": 3}))
    assert normal["default"] == {"n": 3}


def test_a_missing_submission_gets_the_default_when_there_is_one() -> None:
    state = start(default={"n": 3})
    played = step(state, {"ana": {"n": 3}, "ben": {"n": 5}})
    assert set(played.defaulted) == {"cai", "dee"}
    assert played.picks["cai"] == {"n": 3}
    # ana's 3 is shared with the defaults of cai and dee: ben's 5 is the lowest unique.
    assert played.resolution.outcome["winners"] == ["ben"]


def test_a_missing_submission_without_a_default_takes_no_part() -> None:
    state = start()
    played = step(state, {"ana": {"n": 3}, "ben": {"n": 5}})
    assert played.picks["cai"] == {"n": None}
    assert played.resolution.outcome == {"winners": ["ana"], "values": {"ana": 3, "ben": 5}}


# --- Resolvers -----------------------------------------------------------------------------


def test_lowest_unique_wins_among_values_chosen_by_exactly_one_player() -> None:
    played = step(start(), {"ana": {"n": 1}, "ben": {"n": 1}, "cai": {"n": 4}, "dee": {"n": 2}})
    assert played.resolution.outcome["winners"] == ["dee"]


def test_highest_unique_wins_among_values_chosen_by_exactly_one_player() -> None:
    state = start(resolver={"kind": "highest-unique", "field": "n"})
    played = step(state, {"ana": {"n": 9}, "ben": {"n": 9}, "cai": {"n": 4}, "dee": {"n": 2}})
    assert played.resolution.outcome["winners"] == ["cai"]


def test_no_unique_value_means_no_winner() -> None:
    played = step(start(), {"ana": {"n": 1}, "ben": {"n": 1}, "cai": {"n": 2}, "dee": {"n": 2}})
    assert played.resolution.outcome["winners"] == []
    assert played.resolution.state["points"] == dict.fromkeys(PLAYERS, 0)


def test_a_unique_resolver_reads_an_integer_field_and_plurality_a_choice_or_player_field() -> None:
    assert "integer" in refused(
        fields=[NUMBER, COLOUR], resolver={"kind": "lowest-unique", "field": "colour"}
    )
    assert "choice or player" in refused(resolver={"kind": "plurality", "field": "n"})
    assert "does not have" in refused(resolver={"kind": "plurality", "field": "zz"})
    assert "resolver" in refused(resolver={"kind": "median", "field": "n"})
    who = {"name": "who", "kind": "player"}
    RULES.normalise_options(design(fields=[who], resolver={"kind": "plurality", "field": "who"}))


def test_plurality_top_is_every_most_chosen_value_sorted_by_code_point() -> None:
    choice = {**COLOUR, "choices": ["b", "a", "B", "é"]}
    state = start(fields=[choice], resolver={"kind": "plurality", "field": "colour"})
    picks = {"ana": {"colour": "b"}, "ben": {"colour": "a"}, "cai": {"colour": "B"}}
    played = step(state, picks)
    assert played.resolution.outcome["top"] == ["B", "a", "b"]
    assert played.resolution.outcome["winners"] == ["ana", "ben", "cai"]


def test_plurality_winners_are_every_player_who_chose_a_top_value() -> None:
    state = start(fields=[COLOUR], resolver={"kind": "plurality", "field": "colour"})
    picks = {
        "ana": {"colour": "red"}, "ben": {"colour": "blue"},
        "cai": {"colour": "red"}, "dee": {"colour": "green"},
    }  # fmt: skip
    outcome = step(state, picks).resolution.outcome
    assert outcome["top"] == ["red"]
    assert outcome["winners"] == ["ana", "cai"]


def test_plurality_with_nobody_choosing_has_an_empty_top() -> None:
    state = start(fields=[COLOUR], resolver={"kind": "plurality", "field": "colour"})
    played = step(state, {})
    assert played.resolution.outcome == {"winners": [], "top": [], "values": {}}
    assert played.resolution.state["outcomes"] == [{"winners": [], "top": []}]


def test_a_player_whose_resolver_field_is_empty_takes_no_part() -> None:
    fields = [{**NUMBER, "optional": True}, COLOUR]
    state = start(fields=fields)
    picks = {
        "ana": {"n": 1, "colour": "red"}, "ben": {"colour": "red"},
        "cai": {"n": None, "colour": "blue"}, "dee": {"n": 2, "colour": "red"},
    }  # fmt: skip
    outcome = step(state, picks).resolution.outcome
    assert outcome == {"winners": ["ana"], "values": {"ana": 1, "dee": 2}}


def test_the_host_resolver_asks_the_host_after_the_reveal_and_uses_the_declaration() -> None:
    state = start(fields=[COLOUR], resolver={"kind": "host"})
    picks = {"ana": {"colour": "red"}, "ben": {"colour": "blue"}}
    asked = RULES.resolve(
        state, {**picks, "cai": {"colour": None}, "dee": {"colour": None}}, [], Rng(SEED, MID, "r")
    )
    assert asked == DecisionRequest(
        "host",
        "declare",
        {"round": 1, "picks": picks},
        {"winners": [], "note": ""},
    )
    played = step(state, picks, decide={"winners": ["ben", "ana"], "note": "both good"})
    assert played.resolution.outcome == {
        "winners": ["ben", "ana"],
        "note": "both good",
        "values": picks,
    }
    assert played.resolution.state["points"] == {"ana": 1, "ben": 1, "cai": 0, "dee": 0}
    assert played.resolution.state["outcomes"] == [{"winners": ["ben", "ana"]}]


def test_a_missed_host_deadline_declares_no_winner() -> None:
    state = start(fields=[COLOUR], resolver={"kind": "host"})
    played = step(state, {"ana": {"colour": "red"}})
    assert played.decisions == ({"winners": [], "note": ""},)
    assert played.resolution.outcome["winners"] == []
    assert played.resolution.outcome["note"] == ""


def test_a_declaration_names_distinct_players_and_a_note_of_at_most_500_characters() -> None:
    state = start(fields=[COLOUR], resolver={"kind": "host"})
    request = DecisionRequest("host", "declare", {}, {"winners": [], "note": ""})

    def bad(payload: Any) -> str:
        with pytest.raises(BadDecision) as caught:
            RULES.check_decision(state, request, payload)
        return str(caught.value)

    assert RULES.check_decision(state, request, {"winners": ["dee"]}) == {
        "winners": ["dee"],
        "note": "",
    }
    assert RULES.check_decision(state, request, {"winners": [], "note": "é" * 500})["note"]
    assert "twice" in bad({"winners": ["ana", "ana"]})
    assert "zed" in bad({"winners": ["zed"]})
    assert "500" in bad({"winners": [], "note": "x" * 501})
    assert "500" in bad({"winners": [], "note": 5})
    assert "winners" in bad({"note": ""})
    assert "unknown" in bad({"winners": [], "extra": 1})
    assert "list" in bad({"winners": "ana"})


def test_the_host_resolver_with_at_end_disclosure_is_refused() -> None:
    message = refused(resolver={"kind": "host"}, disclosure="at-end")
    assert "at-resolve" in message


def test_winners_gain_points() -> None:
    state = start(points=5)
    played = step(state, {"ana": {"n": 1}})
    assert played.resolution.state["points"] == {"ana": 5, "ben": 0, "cai": 0, "dee": 0}


def test_values_are_in_the_outcome_with_at_resolve_disclosure_only() -> None:
    shown = step(start(), {"ana": {"n": 1}}).resolution.outcome
    hidden = step(start(disclosure="at-end"), {"ana": {"n": 1}}).resolution.outcome
    assert shown == {"winners": ["ana"], "values": {"ana": 1}}
    assert hidden == {"winners": ["ana"]}


# --- Public state, end, disclosure ---------------------------------------------------------


def test_the_public_state_has_exactly_round_points_outcomes_finished_winners() -> None:
    state = start()
    assert RULES.public_view(state) == {
        "round": 0,
        "points": dict.fromkeys(PLAYERS, 0),
        "outcomes": [],
        "finished": False,
        "winners": [],
    }


def test_the_match_ends_after_its_rounds_and_every_top_scorer_wins() -> None:
    state = start()
    state = step(state, {"ana": {"n": 1}, "ben": {"n": 2}, "cai": {"n": 2}}).resolution.state
    assert RULES.next_step(state) is not None
    assert RULES.public_view(state)["winners"] == []
    state = step(state, {"ben": {"n": 1}}).resolution.state
    view = RULES.public_view(state)
    assert view["finished"] is True
    assert RULES.next_step(state) is None
    assert view["round"] == 2
    assert view["winners"] == ["ana", "ben"]
    assert view["outcomes"] == [{"winners": ["ana"]}, {"winners": ["ben"]}]


def test_disclosure_is_read_from_the_options() -> None:
    assert RULES.disclosure_for(RULES.normalise_options(design())) is Disclosure.ON_RESOLVE
    assert (
        RULES.disclosure_for(RULES.normalise_options(design(disclosure="at-end")))
        is Disclosure.AT_END
    )
    assert "disclosure" in refused(disclosure="later")


# --- Readings where §5 is silent -------------------------------------------------------------


def test_reading_an_empty_design_is_a_lowest_unique_number_from_1_to_10_over_3_rounds() -> None:
    normal = RULES.normalise_options({})
    assert normal["title"] == "Custom game"
    assert normal["rounds"] == 3
    assert normal["fields"] == [
        {"name": "number", "kind": "integer", "min": 1, "max": 10, "optional": False}
    ]
    assert normal["resolver"] == {"kind": "lowest-unique", "field": "number"}


def test_reading_title_is_1_to_100_printable_characters_and_points_0_to_1000() -> None:
    assert "title" in refused(title="")
    assert "title" in refused(title="x" * 101)
    assert "title" in refused(title="a\nb")
    assert "points" in refused(points=-1)
    assert "points" in refused(points=1001)
    assert RULES.normalise_options(design(points=0))["points"] == 0


def test_reading_unknown_settings_anywhere_in_a_design_are_refused() -> None:
    assert "colour" in refused(colour="red")
    assert "step" in refused(fields=[{**NUMBER, "step": 2}])
    assert "field" in refused(resolver={"kind": "host", "field": "n"})


def test_reading_a_text_answer_is_1_character_at_least_and_valid_unicode() -> None:
    state = start(fields=[NUMBER, {"name": "t", "kind": "text", "max_length": 5}])
    assert 'the field "t"' in illegal(state, "ana", {"n": 1, "t": ""})
    assert 'the field "t"' in illegal(state, "ana", {"n": 1, "t": "\ud800"})


def test_reading_a_default_naming_a_player_is_refused_unless_self_is_allowed() -> None:
    who = {"name": "who", "kind": "player"}
    with pytest.raises(BadOptions, match="other than you"):
        start(fields=[NUMBER, who], default={"n": 1, "who": "ana"})
    state = start(fields=[NUMBER, {**who, "self": True}], default={"n": 1, "who": "ana"})
    assert RULES.default_pick(state, "ben") == {"n": 1, "who": "ana"}
    with pytest.raises(BadOptions, match="zed"):
        start(fields=[NUMBER, {**who, "self": True}], default={"n": 1, "who": "zed"})


def test_reading_the_missing_pick_is_every_field_null_and_not_a_legal_pick() -> None:
    state = start(fields=[NUMBER, COLOUR])
    assert RULES.default_pick(state, "ana") == {"n": None, "colour": None}
    assert not RULES.is_legal(state, "ana", RULES.default_pick(state, "ana"))
    assert not RULES.default_is_legal


def test_reading_host_values_are_the_whole_picks_of_players_who_gave_anything() -> None:
    fields = [{**COLOUR, "optional": True}, {**NUMBER, "optional": True}]
    state = start(fields=fields, resolver={"kind": "host"})
    played = step(state, {"ana": {"colour": "red"}, "ben": {}})
    assert played.resolution.outcome["values"] == {"ana": {"colour": "red", "n": None}}


# --- Legal picks and bots --------------------------------------------------------------------


def test_legal_picks_are_lazy_and_counted_in_closed_form() -> None:
    huge = [
        {"name": "n", "kind": "integer", "min": -(10**6), "max": 10**6},
        {"name": "t", "kind": "text", "max_length": 500, "optional": True},
        {"name": "r", "kind": "ranking", "choices": [str(i) for i in range(40)], "length": 40},
    ]
    state = start(fields=huge)
    view = RULES.legal_picks(state, "ana")
    text_count = 1 + sum(CODE_POINTS**n for n in range(1, 501))
    assert view.count() == 2_000_001 * text_count * 815915283247897734345611269596115894272000000000
    first = list(itertools.islice(view, 3))
    assert first[0]["n"] == -(10**6)
    assert [p["t"] for p in first] == [None, None, None]
    assert all(RULES.check_pick(state, "ana", p) == p for p in first)


def test_legal_picks_of_a_small_design_are_listed_whole_each_once() -> None:
    rank = {"name": "r", "kind": "ranking", "choices": ["a", "b", "c"], "length": 2}
    fields = [{"name": "who", "kind": "player"}, {**rank, "optional": True}]
    state = start(fields=fields, resolver={"kind": "plurality", "field": "who"})
    listed = list(RULES.legal_picks(state, "ana"))
    assert len(listed) == RULES.count_legal_picks(state, "ana") == 3 * 7
    assert len({repr(p) for p in listed}) == len(listed)
    assert all(p["who"] != "ana" and RULES.check_pick(state, "ana", p) == p for p in listed)


def test_a_text_fields_legal_picks_run_through_every_code_point_but_surrogates() -> None:
    from domain.rules.custom.picks import _text_at

    assert _text_at(2, 0) == "\x00"
    assert _text_at(2, 0xD7FF) == "\ud7ff"
    assert _text_at(2, 0xD800) == "\ue000"
    assert _text_at(2, CODE_POINTS) == "\x00\x00"


def test_bot_picks_are_legal_for_every_kind_of_field() -> None:
    fields = [
        NUMBER,
        {**COLOUR, "optional": True},
        {"name": "who", "kind": "player"},
        {"name": "r", "kind": "ranking", "choices": ["a", "b", "c"], "length": 2},
        {"name": "t", "kind": "text", "max_length": 3},
    ]
    state = start(fields=fields)
    rng = Rng(SEED, MID, "bot")
    for player in PLAYERS * 10:
        pick = RULES.bot_pick(state, player, rng)
        assert RULES.check_pick(state, player, pick) == pick


def test_pick_fields_describe_the_design() -> None:
    state = start(fields=[NUMBER, {**COLOUR, "optional": True}])
    fields = [f.as_json() for f in RULES.pick_fields_for(state, "round")]
    assert fields == [
        {"name": "n", "kind": "integer", "meaning": "a whole number from 1 to 10",
         "required": True, "nullable": False},
        {"name": "colour", "kind": "text", "meaning": "one of red, green, blue (or nothing)",
         "required": False, "nullable": True},
    ]  # fmt: skip


def test_resolution_without_a_decision_is_a_resolution_for_the_field_resolvers() -> None:
    state = start()
    result = RULES.resolve(state, {p: {"n": None} for p in PLAYERS}, [], Rng(SEED, MID, "r"))
    assert isinstance(result, Resolution)
