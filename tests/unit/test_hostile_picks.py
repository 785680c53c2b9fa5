"""Issue 14, point 2: every pick, decision, deal and option is bounded before it costs anything.

Hypothesis feeds hostile values (huge and negative numbers, JSON ``true``/``false`` where a
number belongs, NaN and infinities, wrong types, deep nesting, very long texts, control,
format, lone-surrogate and astral characters, unknown keys) into every field of every
game's pick, decision, deal and options, on real states from bot-played matches. Each
input must either be accepted or raise the rules' user error (:class:`RulesError`, a
``ValueError``), quickly and in a plain sentence; never another exception. An accepted
input must be canonical JSON (it is committed to and logged) and come back unchanged
through the rules' own check after a JSON round trip, as the offline verifier re-checks
every revealed pick and decision.
"""

from __future__ import annotations

import json
import re
import time
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.canonical import canonical_json
from domain.commitment import CommitmentError, Opening, commit
from domain.fairrand import Rng
from domain.rules import game_names, get_rules
from domain.rules.base import (
    DecisionRequest,
    Resolution,
    Rules,
    RulesError,
    State,
    describe,
    play_step,
)

MATCH_ID = "00000000-0000-4000-8000-00000000a7ac"
SEED = bytes(range(32))
PYTHON_TEXT = re.compile(r"(?<!\w)'[^']*'(?!\w)")  # a Python repr of a text
SHOWN_TEXT = re.compile(r'"[^"]*"')  # a text the message shows back (never holds a quote)
TOO_SLOW = 0.25  # CPU seconds one check may take on a loaded machine; a legal one takes ~0.1 ms
PLAYERS = {
    "vote": ["ana", "ben", "cai"],
    "six-nimmt": ["ana", "ben", "cai"],
    "apocalypse": ["ana", "ben"],
    "picking-nine": ["ana", "ben", "cai", "dee"],
    "grid-adaptation": ["ana", "ben", "cai"],
}
OPTIONS = {
    "vote": [{}, {"candidates": ["ana", "ben", "zoë", "\U0001f0a1"]}],
    "six-nimmt": [{}, {"action_card": "even-odd", "start_points": 5}],
    "apocalypse": [{}],
    "picking-nine": [{}, {"tiebreak": ["dee", "cai", "ben", "ana"]}],
    "grid-adaptation": [{"garnets": {"ana": 1000, "ben": 7}}],
}
# Words the legal inputs of the five games are made of, so hostile mutations stay close.
TOKENS = [
    "ana", "ben", "zoë", "\U0001f0a1", "virtual", "A1", "H8", "O15", "P1", "h8", "a1", "b2",
    "e5", "R1", "Y10", "0", "G3", "even-odd", "odd", "000", "111", "vote", "card", "row",
    "tiles", "reserve", "flip", "buy_reserves", "wants", "ban", "priority", "from", "to",
    "drop", "candidates", "voters", "start_points", "virtual_player", "action_card",
    "tiebreak", "garnets", "sequences", "hands", "rows", "pool",
]  # fmt: skip
ODD_TEXTS = [
    "", " ", " ana", "ana ", "\x00", "\ud800", "a\udfffb", "\u202eana", "a\u200bb", "e\u0301",
    "ANA", "x" * 100_000, "1", "1.0", "NaN", "null", "true", "[]", "{}", "..", "/",
]  # fmt: skip
ODD_NUMBERS = [
    0, -1, 1, 2, 3, 4, 7, 8, 9, 10, 104, 105, 1000, 1001, 10**6, 2**31, 2**53, 2**53 + 1,
    2**63, -(2**63), 10**300, -(10**4000), 10**4000,
    0.0, -0.0, 1.0, 1.5, 37.0, 1e16, 1e308, float("inf"), float("-inf"), float("nan"),
]  # fmt: skip


def nested(depth: int, leaf: Any) -> Any:
    """A value nested ``depth`` levels deep, alternating lists and objects."""
    value = leaf
    for level in range(depth):
        value = [value] if level % 2 else {"vote": value}
    return value


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from(ODD_NUMBERS),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(TOKENS),
    st.sampled_from(ODD_TEXTS),
    st.text(max_size=30),
    st.text(st.characters(codec=None, categories=["Cs", "Cc", "Cf", "Co", "So"]), max_size=5),
)
hostile = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=9),
        st.dictionaries(st.one_of(st.sampled_from(TOKENS), st.text(max_size=8)), inner, max_size=6),
    ),
    max_leaves=20,
) | st.builds(nested, st.integers(1, 600), scalars)


def mutate(legal: Any, data: st.DataObject) -> Any:
    """Return ``legal`` with one hostile change somewhere inside it (or replaced whole)."""
    choice = data.draw(st.integers(0, 9), label="where")
    if choice == 0 or not isinstance(legal, dict | list):
        return data.draw(hostile, label="whole")
    if isinstance(legal, list):
        items = list(legal)
        if choice == 1:
            return items * data.draw(st.sampled_from([0, 2, 50, 20_000]), label="times")
        if choice == 2:
            return [*items, data.draw(hostile, label="extra item")]
        if not items:
            return [data.draw(hostile, label="item")]
        at = data.draw(st.integers(0, len(items) - 1), label="index")
        items[at] = mutate(items[at], data) if choice < 6 else data.draw(hostile, label="item")
        return items
    value = dict(legal)
    if choice == 1:
        value[data.draw(st.one_of(st.sampled_from(TOKENS), st.text()), label="key")] = data.draw(
            hostile, label="added"
        )
        return value
    if choice == 2 and value:
        del value[data.draw(st.sampled_from(sorted(value)), label="dropped")]
        return value
    if not value:
        return data.draw(hostile, label="whole")
    key = data.draw(st.sampled_from(sorted(value)), label="field")
    value[key] = mutate(value[key], data) if choice < 5 else data.draw(hostile, label="value")
    return value


# --- Real states: every step of a bot-played match of every game ---------------------------


@cache
def situations(game: str) -> tuple[tuple[State, str, Any, Any], ...]:
    """Situations to attack: every step of two bot matches of ``game``.

    Each is (state at a step's opening, a submitter, a legal pick, the step's explicit deal);
    steps that deal also give the state before it.
    """
    rules = get_rules(game)
    found: list[tuple[State, str, Any, Any]] = []
    for options in options_of(game):
        state = rules.setup(rules.normalise_options(options), players_of(game))
        number = 0
        while (spec := rules.next_step(state)) is not None and number < 40:
            number += 1
            before = state
            dealt = None
            if spec.needs_deal:
                deal = rules.deal(state, Rng(SEED, MATCH_ID, f"deal/{number}"))
                dealt = rules.scenario_deal(deal)
                state = rules.apply_deal(state, deal)
            bot = Rng(SEED, MATCH_ID, f"bot/{number}")
            picks = {p: rules.bot_pick(state, p, bot) for p in spec.submitters}
            player = spec.submitters[number % len(spec.submitters)]
            found.append((before if dealt else state, player, picks[player], dealt))
            stream = Rng(SEED, MATCH_ID, f"step/{number}")
            play = play_step(rules, before, stream, deal=dealt, submit=picks)
            state = play.resolution.state
    if game == "grid-adaptation":  # the EC vote after round 8, which bots rarely reach
        found.append((_grid_ec_vote(), "ana", {"vote": "ben"}, None))
    return tuple(found)


def options_of(game: str) -> list[dict[str, Any]]:
    """The options matches of ``game`` are played with (a game not listed: its defaults)."""
    return OPTIONS.get(game, [{}])


def players_of(game: str) -> list[str]:
    """The players of ``game``'s matches (a game not listed: the ones it suggests)."""
    return PLAYERS.get(game) or get_rules(game).default_players({})


def _grid_ec_vote() -> State:
    rules = get_rules("grid-adaptation")
    state = rules.setup({"garnets": {"ana": 3}}, ["ana", "ben", "cai", "dee"])
    state = rules.apply_deal(
        state,
        rules.check_deal(
            state, {"sequences": {"ana": "000", "ben": "001", "cai": "010", "dee": "011"}}
        ),
    )
    state["round"] = 7
    state["scores"] = {"ana": 90, "ben": 5, "cai": 5, "dee": 40}
    play = play_step(rules, state, Rng(SEED, MATCH_ID, "step/8"))
    assert play.resolution.state["phase"] == "ec-vote"
    return play.resolution.state


def decision_situations() -> list[tuple[State, DecisionRequest]]:
    """6 nimmt! states whose resolution asks a player to take a row."""
    rules = get_rules("six-nimmt")
    found = []
    for state, _, _, dealt in situations("six-nimmt"):
        if dealt:
            continue
        spec = rules.next_step(state)
        assert spec is not None
        for card_of in (min, max):
            picks = {p: {"card": card_of(state["hands"][p])} for p in spec.submitters}
            asked = rules.resolve(state, picks, [], Rng(SEED, MATCH_ID, "resolve"))
            if isinstance(asked, DecisionRequest):
                found.append((state, asked))
    assert found, "the bot matches never asked for a row"
    return found


# --- The property -----------------------------------------------------------------------------


def attempt(call: Any, *args: Any) -> tuple[Any, RulesError | None]:
    """Run a rules check; return its answer or its user error, failing on anything else."""
    start = time.process_time()
    try:
        answer = call(*args)
    except RulesError as refused:
        answer, error = None, refused
    else:
        error = None
    spent = time.process_time() - start
    assert spent < TOO_SLOW, f"{call.__name__} took {spent:.3f} s of CPU"
    if error is not None:
        message = str(error)
        assert message and len(message) < 700, message[:300]
        own_words = SHOWN_TEXT.sub("", message)  # the message less what it shows back
        for leak in ("None", "<class", "Traceback", "\\u", "\\x"):
            assert leak not in own_words, message
        assert not PYTHON_TEXT.search(own_words), message
    return answer, error


def assert_stable(answer: Any, recheck: Any) -> None:
    """An accepted input is canonical JSON and comes back unchanged through its check."""
    text = canonical_json(answer)
    again, error = attempt(recheck, json.loads(text))
    assert error is None, f"accepted {answer!r}, then refused it after a round trip: {error}"
    assert again == answer
    assert canonical_json(again) == text


GAMES = game_names()
EXAMPLES = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("game", GAMES)
@EXAMPLES
@given(data=st.data())
def test_a_hostile_pick_is_accepted_or_refused_plainly_and_quickly(
    game: str, data: st.DataObject
) -> None:
    rules = get_rules(game)
    state, player, legal, dealt = data.draw(st.sampled_from(situations(game)), label="situation")
    if dealt is not None:
        state = rules.apply_deal(state, rules.check_deal(state, dealt))
    payload = mutate(legal, data)
    pick, error = attempt(rules.check_pick, state, player, payload)
    if error is None:
        assert isinstance(pick, dict)
        assert_stable(pick, lambda again: rules.check_pick(state, player, again))


@pytest.mark.parametrize("game", GAMES)
@EXAMPLES
@given(data=st.data())
def test_a_hostile_pick_from_a_stranger_is_refused_or_harmless(
    game: str, data: st.DataObject
) -> None:
    rules = get_rules(game)
    state, _, legal, dealt = data.draw(st.sampled_from(situations(game)), label="situation")
    if dealt is not None:
        state = rules.apply_deal(state, rules.check_deal(state, dealt))
    strangers = st.one_of(st.sampled_from(["zed", "virtual", "", "host"]), st.text())
    stranger = data.draw(strangers, label="player")
    attempt(rules.check_pick, state, stranger, legal)


@pytest.mark.parametrize("game", ["six-nimmt", "picking-nine", "grid-adaptation"])
@EXAMPLES
@given(data=st.data())
def test_a_hostile_deal_is_accepted_or_refused_plainly_and_quickly(
    game: str, data: st.DataObject
) -> None:
    rules = get_rules(game)
    dealing = [s for s in situations(game) if s[3] is not None]
    state, _, _, dealt = data.draw(st.sampled_from(dealing), label="situation")
    deal, error = attempt(rules.check_deal, state, mutate(dealt, data))
    if error is None:
        assert canonical_json(deal.public) is not None and canonical_json(deal.private) is not None
        again = rules.apply_deal(state, deal)
        assert rules.next_step(again) is not None


@EXAMPLES
@given(data=st.data())
def test_a_hostile_decision_is_accepted_or_refused_plainly_and_quickly(data: st.DataObject) -> None:
    rules = get_rules("six-nimmt")
    state, request = data.draw(st.sampled_from(decision_situations()), label="situation")
    answer, error = attempt(rules.check_decision, state, request, mutate({"row": 1}, data))
    if error is None:
        assert_stable(answer, lambda again: rules.check_decision(state, request, again))
        resumed = rules.resolve(
            state,
            {p: {"card": min(state["hands"][p])} for p in state["players"]},
            [answer],
            Rng(SEED, MATCH_ID, "resolve"),
        )
        assert isinstance(resumed, Resolution | DecisionRequest)


def _set_up(rules: Rules, options: Any, players: Any) -> Any:
    return rules.setup(rules.normalise_options(options), players)


@pytest.mark.parametrize("game", GAMES)
@EXAMPLES
@given(data=st.data())
def test_hostile_options_are_accepted_or_refused_plainly_and_quickly(
    game: str, data: st.DataObject
) -> None:
    rules = get_rules(game)
    options = mutate(data.draw(st.sampled_from(options_of(game)), label="options"), data)
    players = list(players_of(game))
    if data.draw(st.booleans(), label="hostile players"):
        players = mutate(players, data)
    state, error = attempt(_set_up, rules, options, players)
    if error is None:
        normalised = rules.normalise_options(options)
        assert_stable(normalised, rules.normalise_options)
        assert rules.next_step(state) is not None


def test_the_hostile_values_reach_every_kind() -> None:
    # The strategies above are only as good as what they draw; a quick census.
    kinds: set[str] = set()

    def walk(value: Any, depth: int = 0) -> None:
        kinds.add(type(value).__name__)
        if depth < 700 and isinstance(value, list | dict):
            for item in value.values() if isinstance(value, dict) else value:
                walk(item, depth + 1)

    @settings(max_examples=300, deadline=None)
    @given(hostile)
    def census(value: Any) -> None:
        walk(value)

    census()
    assert {"NoneType", "bool", "int", "float", "str", "list", "dict"} <= kinds


@pytest.mark.parametrize("depth", [33, 900, 5000])
def test_an_opening_nested_too_deeply_is_refused_before_it_is_hashed(depth: int) -> None:
    # A self-custody opening is hashed before the rules see it; canonical JSON recurses per
    # level, so the depth is measured first and a deep one opens nothing (no RecursionError).
    payload = nested(depth, "ana")
    with pytest.raises(CommitmentError, match="nested at most 32 levels deep"):
        commit(MATCH_ID, 1, "ana", payload, SEED)
    assert not Opening(payload, SEED.hex()).opens("0" * 64, MATCH_ID, 1, "ana")
    commit(MATCH_ID, 1, "ana", nested(32, "ana"), SEED)


@pytest.mark.parametrize("digits", [16, 17, 99, 100, 101, 4000])
def test_a_huge_number_is_described_by_its_exact_digit_count(digits: int) -> None:
    for value in (10 ** (digits - 1), 10**digits - 1, -(10 ** (digits - 1))):
        assert describe(value).endswith(f"whole number of {digits} digits")
