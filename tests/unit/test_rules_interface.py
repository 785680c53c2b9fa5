"""Issue 15, point 1: every registered game implements the whole rules interface, alike.

Written over :func:`game_names`, so a sixth game is checked by the same tests as the five:
its options schema agrees with ``normalise_options``, its player range with ``setup``, every
pick its lazy ``legal_picks`` view yields passes ``check_pick`` on real states of a
bot-played match (sampled where the space is huge), its decision choices are decisions
``check_decision`` accepts, and ``scenario_deal`` turns every seeded deal back into the
explicit deal ``check_deal`` splits into the same :class:`Deal`. A module dropped into the
package is a game without a line anywhere else.
"""

from __future__ import annotations

import itertools
import sys
import textwrap
from functools import cache
from typing import TYPE_CHECKING, Any

import pytest

import domain.rules
from domain.fairrand import Rng
from domain.rules import FIRST_GAMES, discover, game_names, get_rules
from domain.rules.base import (
    BadDeal,
    BadOptions,
    Deal,
    DecisionRequest,
    Rules,
    State,
    play_step,
)
from domain.rules.schema import FieldKind, LegalPicks, Option, OptionKind, PickField

if TYPE_CHECKING:
    from pathlib import Path

MATCH_ID = "00000000-0000-4000-8000-0000000015a1"
SEED = bytes(range(32))
MOST_STEPS = 30  # steps played per match; enough for every kind of step of the five
CHECKED_PICKS = 300  # picks of each view checked one by one
STRIDE = 7_919  # then every STRIDE-th pick, up to SAMPLED_REACH, for the huge spaces
SAMPLED_REACH = 120_000
LISTED = 3_000  # a view this small is listed whole and counted


def names(count: int) -> list[str]:
    """Return ``count`` distinct player names that every game accepts."""
    return [f"p{i}" for i in range(count)]


def seated(suggested: list[str], count: int) -> list[str]:
    """Return ``count`` players, the suggested ones first (options may name players)."""
    return [*suggested, *names(count)][:count]


# --- Options ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", game_names())
def test_a_game_has_a_display_name_and_its_wire_name(game: str) -> None:
    rules = get_rules(game)
    assert rules.name == game
    assert isinstance(rules.display_name, str)
    assert rules.display_name.strip()
    assert rules.display_name == rules.display_name.strip()


def check_options_schema(rules: Rules) -> None:
    """Check every option's default, bounds and choices against ``normalise_options``."""
    schema = rules.options_schema()
    assert all(isinstance(option, Option) for option in schema)
    assert len({option.name for option in schema}) == len(schema)
    defaults = rules.normalise_options({})
    # Check the defaults: exactly the filled options are recorded, with their default.
    assert set(defaults) == {option.name for option in schema if option.filled}
    for option in schema:
        assert option.description.strip()
        if option.filled:
            assert defaults[option.name] == option.default, option.name
        else:
            assert option.default is None, option.name
    assert rules.normalise_options(defaults) == defaults
    with pytest.raises(BadOptions):
        rules.normalise_options({"no_such_option": 1})
    for option in schema:
        check_option_bounds(rules, option)


def check_option_bounds(rules: Rules, option: Option) -> None:
    """Check each value at a bound is accepted and each value past one refused."""

    def accepts(value: object) -> bool:
        try:
            rules.normalise_options({option.name: value})
        except BadOptions:
            return False
        return True

    low, high = option.minimum, option.maximum
    if option.kind is OptionKind.BOOL:
        assert accepts(True)
        assert accepts(False)
        assert not accepts(1)
        assert not accepts("true")
    elif option.kind is OptionKind.INTEGER:
        assert low is not None
        assert high is not None
        assert accepts(low)
        assert accepts(high)
        assert not accepts(low - 1)
        assert not accepts(high + 1)
        assert not accepts(True)
    elif option.kind is OptionKind.CHOICE:
        assert option.choices
        assert option.default in option.choices
        assert all(accepts(choice) for choice in option.choices)
        assert not accepts("no-such-choice")
    elif option.kind is OptionKind.NAMES:
        assert high is not None
        assert accepts(names(high))
        assert not accepts(names(high + 1))
        if low is not None:
            assert accepts(names(low))
            if low > 0:
                assert not accepts(names(low - 1))
        assert not accepts("p0")
    elif option.kind is OptionKind.PER_PLAYER_INTEGER:
        assert low is not None
        assert high is not None
        assert accepts({"p0": low})
        assert accepts({"p0": high})
        assert not accepts({"p0": low - 1})
        assert not accepts({"p0": high + 1})
    elif option.kind is OptionKind.TEXT:
        assert low is not None
        assert high is not None
        assert accepts("x" * high)
        assert accepts("x" * max(low, 1))
        assert not accepts("x" * (high + 1))
        assert not accepts(1)
        if low > 0:
            assert not accepts("")
    elif option.kind is OptionKind.DESIGN:  # the game's own editor builds it: the default
        assert accepts(option.default)
        assert not accepts({"no": "design"}) or option.default is None
    else:  # pragma: no cover - a kind added without a check here
        pytest.fail(f"no check for option kind {option.kind}")


@pytest.mark.parametrize("game", game_names())
def test_the_options_schema_agrees_with_normalise_options(game: str) -> None:
    check_options_schema(get_rules(game))


def option_variants(rules: Rules) -> list[dict[str, Any]]:
    """Return the defaults, then one variant per non-default value a form could pick."""
    variants: list[dict[str, Any]] = [{}]
    for option in rules.options_schema():
        if option.kind is OptionKind.BOOL:
            variants.append({option.name: not option.default})
        elif option.kind is OptionKind.CHOICE:
            variants += [{option.name: c} for c in option.choices if c != option.default]
        elif option.kind is OptionKind.PER_PLAYER_INTEGER:
            first = rules.default_players({})[0]
            variants.append({option.name: {first: option.maximum}})
    return variants


# --- Players ---------------------------------------------------------------------------


def check_players(rules: Rules) -> None:
    """Check the player range is what ``setup`` takes, and the suggested players fit it."""
    assert 1 <= rules.min_players <= rules.max_players
    for options in option_variants(rules):
        low, high = rules.player_range(options)
        assert rules.min_players <= low <= high <= rules.max_players, options
        suggested = rules.default_players(options)
        rules.setup(options, seated(suggested, low))
        rules.setup(options, seated(suggested, high))
        with pytest.raises(BadOptions):
            rules.setup(options, seated(suggested, low - 1))
        with pytest.raises(BadOptions):
            rules.setup(options, seated(suggested, high + 1))
        assert low <= len(suggested) <= high
        rules.setup(options, suggested)


@pytest.mark.parametrize("game", game_names())
def test_the_player_range_is_what_setup_takes(game: str) -> None:
    check_players(get_rules(game))


# --- Play: legal picks, default picks, decisions, deals ----------------------------------


@cache
def situations(game: str) -> tuple[tuple[Any, ...], ...]:
    """Return what bot matches of ``game`` met, under every option variant (:func:`play`)."""
    return tuple(play(get_rules(game)))


def play(rules: Rules) -> list[tuple[Any, ...]]:
    """Play bot matches of ``rules`` under each option variant, recording what it met.

    Yields ``("pick", state, kind, player, bot pick)``, ``("decision", state, request)``
    and ``("deal", state before, seeded deal)`` tuples.
    """
    met: list[tuple[Any, ...]] = []
    for options in option_variants(rules):
        state = rules.setup(rules.normalise_options(options), rules.default_players(options))
        number = 0
        while (spec := rules.next_step(state)) is not None and number < MOST_STEPS:
            number += 1
            before = state
            deal: dict[str, Any] | None = None
            if spec.needs_deal:
                dealt = rules.deal(state, Rng(SEED, MATCH_ID, f"deal/{number}"))
                met.append(("deal", state, dealt))
                deal = rules.scenario_deal(dealt)
                state = rules.apply_deal(state, dealt)
            bot = Rng(SEED, MATCH_ID, f"bot/{number}")
            picks = {p: rules.bot_pick(state, p, bot) for p in spec.submitters}
            met += [("pick", state, spec.kind, p, picks[p]) for p in spec.submitters]
            step = play_step(
                rules,
                before,
                Rng(SEED, MATCH_ID, f"step/{number}"),
                deal=deal,
                submit=picks,
            )
            met += [("decision", state, request) for request in step.requests]
            state = step.resolution.state
    return met


def check_pick_fields(fields: list[PickField], pick: dict[str, Any]) -> None:
    """Check a pick holds every required field, and only fields the game lists."""
    assert all(isinstance(f, PickField) and f.meaning.strip() for f in fields)
    assert {f.name for f in fields if f.required} <= set(pick) <= {f.name for f in fields}
    for f in fields:
        value = pick.get(f.name)
        if value is None:
            assert not f.required or f.nullable, f.name
        elif f.kind is FieldKind.INTEGER:
            assert isinstance(value, int), f.name
            assert not isinstance(value, bool), f.name
        elif f.kind is FieldKind.TEXT:
            assert isinstance(value, str), f.name
        else:
            assert isinstance(value, list), f.name
            assert all(isinstance(v, str) for v in value), f.name


def check_legal_picks(rules: Rules, state: State, kind: str, player: str, bot: object) -> int:
    """Check the view's picks pass ``check_pick`` unchanged and are ``in`` it; count them.

    The first picks are checked one by one, then every ``STRIDE``-th up to
    ``SAMPLED_REACH``; a small view is listed whole and its count compared.
    """
    view = rules.legal_picks(state, player)
    assert isinstance(view, LegalPicks)
    fields = rules.pick_fields_for(state, kind)
    checked = itertools.islice(view, CHECKED_PICKS)
    sampled = itertools.islice(view, CHECKED_PICKS, SAMPLED_REACH, STRIDE)
    seen = 0
    for pick in itertools.chain(checked, sampled):
        seen += 1
        assert rules.check_pick(state, player, pick) == pick
        assert pick in view
        assert rules.is_legal(state, player, pick)
        check_pick_fields(fields, pick)
    count = view.count()
    assert view.any() == (count > 0) == bool(view)
    if count <= LISTED:
        listed = list(view)
        assert len(listed) == count == len(view)
        assert len({repr(sorted(p.items())) for p in listed}) == count
    else:
        assert seen > CHECKED_PICKS
    # Check the default and the bot's pick.
    default = rules.default_pick(state, player)
    assert rules.is_legal(state, player, default) == rules.default_is_legal
    assert (default in view) == rules.default_is_legal
    if count:
        assert bot in view
    assert {"no": "pick"} not in view
    assert rules.name in repr(view)
    return seen


@pytest.mark.parametrize("game", game_names())
def test_every_legal_pick_passes_check_pick_and_the_default_is_legal_where_declared(
    game: str,
) -> None:
    rules = get_rules(game)
    met = [m for m in situations(game) if m[0] == "pick"]
    assert met
    checked = sum(check_legal_picks(rules, *m[1:]) for m in met)
    assert checked >= len(met)


def check_decisions(rules: Rules, met: list[tuple[Any, ...]]) -> None:
    """Check every choice of a decision passes ``check_decision``; the default is one."""
    for _, state, request in met:
        assert isinstance(request, DecisionRequest)
        choices = rules.decision_choices(state, request)
        assert request.default in choices
        for choice in choices:
            assert rules.check_decision(state, request, choice) == choice


@pytest.mark.parametrize("game", game_names())
def test_decision_choices_are_decisions_check_decision_accepts(game: str) -> None:
    met = [m for m in situations(game) if m[0] == "decision"]
    check_decisions(get_rules(game), met)
    if game == "six-nimmt":  # the one game of the five that asks: make sure it was asked
        assert met


def check_deals(rules: Rules, met: list[tuple[Any, ...]]) -> None:
    """Check ``scenario_deal`` of a seeded deal goes through ``check_deal`` to that deal."""
    for _, state, dealt in met:
        shape = rules.scenario_deal(dealt)
        assert shape is not None
        assert rules.check_deal(state, shape) == dealt


@pytest.mark.parametrize("game", game_names())
def test_scenario_deal_round_trips_every_seeded_deal_through_check_deal(game: str) -> None:
    rules = get_rules(game)
    met = [m for m in situations(game) if m[0] == "deal"]
    check_deals(rules, met)
    if not met:  # a game that deals nothing: the empty deal only, and nothing else
        state = rules.setup({}, rules.default_players({}))
        assert rules.scenario_deal(Deal()) == {}
        assert rules.check_deal(state, {}) == Deal()
        with pytest.raises(BadDeal):
            rules.check_deal(state, rules.scenario_deal(Deal(public={"cards": [1]})) or {})


def former_table(game: str, deal: Deal) -> dict[str, Any] | None:
    """Return what ``replay.state.scenario_deal``, the verifier's per-game table, gave."""
    public, private = dict(deal.public), dict(deal.private)
    if game == "six-nimmt":
        hands = dict(private)
        if "virtual_hand" in public:
            hands["virtual"] = public["virtual_hand"]
        out: dict[str, Any] = {"hands": hands}
        if "rows" in public:
            out["rows"] = public["rows"]
        return out
    if game == "picking-nine":
        return {"pool": public.get("pool")}
    if game == "grid-adaptation":
        return {
            "sequences": {
                p: v.get("sequence") if isinstance(v, dict) else v for p, v in private.items()
            }
        }
    if game in ("vote", "apocalypse"):
        return {**public, **private}
    return None


@pytest.mark.parametrize("game", FIRST_GAMES)
def test_scenario_deal_gives_what_the_verifiers_table_gave(game: str) -> None:
    # The knowledge moved from the verifier's table into each game: same shapes.
    rules = get_rules(game)
    deals = [m[2] for m in situations(game) if m[0] == "deal"]
    deals += [Deal(), Deal(public={"cards": [1]}, private={"ana": {"x": 1}})]
    for dealt in deals:
        assert rules.scenario_deal(dealt) == former_table(game, dealt)


# --- The registry ------------------------------------------------------------------------


def test_the_five_games_come_first_in_their_order() -> None:
    assert game_names()[: len(FIRST_GAMES)] == list(FIRST_GAMES)
    assert all(get_rules(name).name == name for name in game_names())


SIXTH = '''
"""A sixth game for the registry test: call a coin, heads or tails, in one step."""

from __future__ import annotations

from domain.rules.base import (
    BadOptions, Disclosure, IllegalPick, Resolution, Rules, StepSpec, check_object,
    check_options_object, check_whole, player_list,
)
from domain.rules.schema import FieldKind, Option, OptionKind, PickField

SIDES = ("heads", "tails")


class Coin(Rules):
    name = "zz-coin-call"
    display_name = "Coin call"
    version = "1"
    disclosure = Disclosure.ON_RESOLVE
    min_players = 2
    max_players = 4

    def options_schema(self):
        return [Option("rounds", OptionKind.INTEGER, 1, "calls to make", 1, 1)]

    def normalise_options(self, options):
        options = check_options_object(options, "coin", ("rounds",))
        return {"rounds": check_whole(options.get("rounds", 1), "rounds", 1, 1, BadOptions)}

    def setup(self, options, players):
        self.normalise_options(options)
        players = player_list(players)
        if not 2 <= len(players) <= 4:
            raise BadOptions("2 to 4 players")
        return {"players": list(players), "finished": False, "calls": {}}

    def next_step(self, state):
        return None if state["finished"] else StepSpec("call", tuple(state["players"]))

    def check_pick(self, state, player, payload):
        payload = check_object(payload, required=("call",), shape="a call", error=IllegalPick)
        if payload["call"] not in SIDES:
            raise IllegalPick("call heads or tails")
        return {"call": payload["call"]}

    def default_pick(self, state, player):
        return {"call": "heads"}

    def pick_fields(self, kind):
        return [PickField("call", FieldKind.TEXT, "heads or tails")]

    def generate_legal_picks(self, state, player):
        return iter([{"call": side} for side in SIDES])

    def resolve(self, state, picks, decisions, rng):
        side = rng.choice(SIDES)
        new = {**state, "finished": True, "calls": dict(picks)}
        return Resolution(new, {"side": side})

    def public_view(self, state):
        return {"finished": state["finished"]}

    def is_finished(self, state):
        return state["finished"]

    def result(self, state):
        return {"calls": state["calls"]}


RULES = Coin()
'''


def test_a_module_dropped_into_the_package_is_a_game_checked_like_the_five(
    tmp_path: Path,
) -> None:
    # 1. Drop a sixth module into the package (a second folder on its path) and forget
    #    the games found so far.
    (tmp_path / "zz_coin_call.py").write_text(textwrap.dedent(SIXTH))
    (tmp_path / "zz_helpers.py").write_text('"""A module of the package that is no game."""\n')
    package = domain.rules
    before = game_names()
    saved_path = list(package.__path__)
    package.__path__.append(str(tmp_path))
    package._games.cache_clear()
    try:
        # Check it is listed after the five, and served by name.
        assert game_names() == [*before, "zz-coin-call"]
        rules = get_rules("zz-coin-call")
        assert rules.display_name == "Coin call"
        # Check the interface holds for it as for the five.
        check_options_schema(rules)
        check_players(rules)
        met = play(rules)
        for m in met:
            if m[0] == "pick":
                check_legal_picks(rules, *m[1:])
        check_decisions(rules, [m for m in met if m[0] == "decision"])
        check_deals(rules, [m for m in met if m[0] == "deal"])
    finally:
        package.__path__[:] = saved_path
        for name in ("domain.rules.zz_coin_call", "domain.rules.zz_helpers"):
            sys.modules.pop(name, None)
        package._games.cache_clear()
    # 2. Check the registry is back to what it was.
    assert game_names() == before


def test_discovery_refuses_two_modules_with_one_wire_name(tmp_path: Path) -> None:
    folder = tmp_path / "twins"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    body = "from domain.rules.vote import RULES\n"
    (folder / "a.py").write_text(body)
    (folder / "b.py").write_text(body)
    sys.path.insert(0, str(tmp_path))
    try:
        with pytest.raises(TypeError, match="two rules modules"):
            discover("twins", [str(folder)])
    finally:
        sys.path.remove(str(tmp_path))
        for name in ("twins", "twins.a", "twins.b"):
            sys.modules.pop(name, None)
