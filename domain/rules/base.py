"""The interface every game's rules module implements, and the pure step driver.

A rules module is a pure state machine over JSON values. ``State`` is a JSON-able dict
holding the *whole* game state, private parts included (hands, sequences, draw pile);
it never leaves the service unencrypted. The public view and each player's private view
are functions of it. Every function takes a state and returns a new one: the input is
never mutated, so a state can be kept as a snapshot and replayed from.

The life of one step, as the ``Match`` aggregate drives it (see :func:`play_step` for the
same thing without events):

1. ``spec = rules.next_step(state)``; ``None`` means the match is over.
2. If ``spec.needs_deal``: ``deal = rules.deal(state, rng)`` from fair randomness, or
   ``deal = rules.check_deal(state, explicit)`` for an explicit deal (scenario shape); then
   ``state = rules.apply_deal(state, deal)``.
3. Each player in ``spec.submitters`` submits; ``rules.check_pick(state, player, payload)``
   validates and normalises it (raising :class:`IllegalPick`). A missing one becomes
   ``rules.default_pick(state, player)``.
4. ``rules.resolve(state, picks, decisions, rng)`` returns either a
   :class:`DecisionRequest` (resolution needs a public choice from a player; call again
   with that decision appended to ``decisions``) or a :class:`Resolution` with the new
   state and a public ``outcome`` (the machine-readable account of the step).

Besides the life of a step, a game declares what the generic layers (pages, API, CLI,
verifier) need so that none of them names a game: its ``display_name``, its options
(:meth:`Rules.options_schema`), the players it takes (:meth:`Rules.player_range`,
:meth:`Rules.default_players`), the pick's fields (:meth:`Rules.pick_fields`), the legal
picks as a lazy view (:meth:`Rules.legal_picks`, :meth:`Rules.is_legal`), the choices of a
decision (:meth:`Rules.decision_choices`) and the scenario shape of a recorded deal
(:meth:`Rules.scenario_deal`), which the verifier re-checks with ``check_deal``.

Randomness during a step comes from two :class:`~domain.fairrand.Rng` streams: purpose
``"deal/<n>"`` for the deal and ``"resolve/<n>"`` for draws during resolution (a fresh
stream each time resolution re-runs after a decision), so a verifier holding the revealed
seed recomputes everything.
"""

from __future__ import annotations

import copy
import enum
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeGuard

from domain.errors import UserError
from domain.rules.schema import LegalPicks

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence

    from domain.fairrand import Rng
    from domain.rules.schema import Option, PickField

JSON = Any
State = dict[str, Any]
Payload = dict[str, Any]


class RulesError(UserError):
    """Base of every error a rules module raises about user input."""


class BadOptions(RulesError):
    """The match options or the player list do not fit the game."""


class BadDeal(RulesError):
    """An explicit deal does not fit the game state."""


class IllegalPick(RulesError):
    """A submission payload is rejected; it never enters the log."""


class BadDecision(RulesError):
    """A decision payload does not answer the request."""


# --- Bounded input ------------------------------------------------------------------
#
# Every payload, decision, deal and option reaches the rules straight from a caller. The
# helpers below check type, range and length before anything costs more than a look, and
# word their refusals in plain sentences: a value is described (``describe``), never shown
# as a Python repr.

MAX_NAME_LENGTH = 64
"""Characters in a name the rules accept where they are given one (a vote's candidate)."""

_SHOWN_TEXT = 24  # a text shown back in a message at most this long
_SHOWN_DIGITS = 15  # a whole number shown back at most this many digits long
_SHOWN_KEYS = 3  # unknown keys named in a message
_QUOTES = set("\"'`\u2018\u2019\u201c\u201d")  # a text holding one is described, not shown


def is_whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a JSON whole number (JSON ``true``/``false`` are not numbers).

    >>> is_whole(3), is_whole(True), is_whole(3.0), is_whole("3")
    (True, False, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def describe(value: object) -> str:
    r"""Return a short plain description of a JSON value for an error message.

    Short printable texts without quotes are shown in double quotes, small whole numbers
    as they are; anything else by its kind, so a message never grows with the input and
    never has quotes inside quotes.

    >>> describe("h8"), describe(None), describe(True), describe(2**80), describe(1.5)
    ('"h8"', 'null', 'true', 'a whole number of 25 digits', 'a number with a fraction')
    >>> describe(2.0), describe(float("nan")), describe(-1e400)
    ('a decimal number', 'NaN', 'an infinite number')
    >>> describe("x" * 100), describe([1]), describe({})
    ('a text of 100 characters', 'a list', 'an object')
    >>> describe("a\u202eb"), describe("it's")
    ('a text of 3 characters', 'a text of 4 characters')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if -(10**_SHOWN_DIGITS) < value < 10**_SHOWN_DIGITS:
            return str(value)
        digits = value.bit_length() * 30103 // 100000 + 1  # log10(2) per bit, or one more
        if abs(value) < 10 ** (digits - 1):
            digits -= 1
        sign = "a negative " if value < 0 else "a "
        return f"{sign}whole number of {digits} digits"
    if isinstance(value, float):
        if value != value:  # noqa: PLR0124 - NaN is the one value unequal to itself
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "an infinite number"
        return "a decimal number" if value.is_integer() else "a number with a fraction"
    if isinstance(value, str):
        if not value:
            return "an empty text"
        if len(value) <= _SHOWN_TEXT and value.isprintable() and not _QUOTES & set(value):
            return '"' + value + '"'
        return f"a text of {len(value)} character" + ("s" if len(value) > 1 else "")
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "a value of no JSON kind"


def describe_keys(keys: Iterable[object]) -> str:
    """Return the first few of ``keys`` described, and how many more there are.

    >>> describe_keys(["x", "y"]), describe_keys(["a", "b", "c", "d", "e"])
    ('"x", "y"', '"a", "b", "c" and 2 more')
    """
    listed = sorted(keys, key=str)
    shown = ", ".join(describe(k) for k in listed[:_SHOWN_KEYS])
    if len(listed) > _SHOWN_KEYS:
        shown += f" and {len(listed) - _SHOWN_KEYS} more"
    return shown


def list_names(names: Sequence[str], most: int = 10) -> str:
    """Return ``names`` joined for a message, the first ``most`` of them.

    >>> list_names(["ana", "ben"]), list_names(["a", "b", "c"], most=2)
    ('ana, ben', 'a, b and 1 more')
    """
    shown = ", ".join(names[:most])
    if len(names) > most:
        shown += f" and {len(names) - most} more"
    return shown


def check_object(
    payload: object,
    *,
    required: Iterable[str],
    optional: Iterable[str] = (),
    shape: str,
    error: type[RulesError],
) -> dict[str, Any]:
    """Check that ``payload`` is a JSON object with the ``required`` keys and no unknown one.

    :raises error: naming the missing or unknown key, followed by ``shape``.
    """
    if not isinstance(payload, dict):
        msg = f"{shape}, not {describe(payload)}"
        raise error(msg)
    needed = list(required)
    known = {*needed, *optional}
    unknown = [key for key in payload if key not in known]
    if unknown:
        word = "key" if len(unknown) == 1 else "keys"
        msg = f"unknown {word} {describe_keys(unknown)}; {shape}"
        raise error(msg)
    missing = [key for key in needed if key not in payload]
    if missing:
        msg = f'the key "{missing[0]}" is missing; {shape}'
        raise error(msg)
    return payload


def check_whole(value: object, what: str, low: int, high: int, error: type[RulesError]) -> int:
    """Return ``value`` if it is a whole number from ``low`` to ``high``.

    >>> check_whole(3, "n", 0, 9, RulesError)
    3
    >>> try:
    ...     check_whole(True, "n", 0, 9, RulesError)
    ... except RulesError as error:
    ...     print(error)
    n is a whole number from 0 to 9, not true

    :raises error: naming ``what`` otherwise.
    """
    if not is_whole(value) or not low <= value <= high:
        msg = f"{what} is a whole number from {low} to {high}, not {describe(value)}"
        raise error(msg)
    return value


def is_name(value: object) -> bool:
    r"""Whether ``value`` is a name the rules accept.

    A name is 1 to 64 printable characters with no space at either end (so no control,
    format or lone surrogate characters).

    >>> is_name("josé"), is_name(" ana"), is_name("a\u200bb"), is_name(""), is_name(7)
    (True, False, False, False, False)
    """
    return (
        isinstance(value, str)
        and 0 < len(value) <= MAX_NAME_LENGTH
        and value.isprintable()
        and value == value.strip()
    )


def check_name_list(
    value: object, what: str, *, least: int, most: int, error: type[RulesError]
) -> list[str]:
    """Return ``value`` if it is a list of ``least`` to ``most`` distinct names.

    Names count as the same when they differ only in case or Unicode normalisation (NFKC
    and case folding), so a list never holds two names a reader cannot tell apart.

    :raises error: naming ``what`` otherwise.
    """
    if not isinstance(value, list):
        msg = f"{what} is a list of {least} to {most} names, not {describe(value)}"
        raise error(msg)
    if not least <= len(value) <= most:
        msg = f"{what} lists {least} to {most} names, not {len(value)}"
        raise error(msg)
    seen: set[str] = set()
    for name in value:
        if not is_name(name):
            msg = (
                f"{what} holds {describe(name)}; a name is 1 to {MAX_NAME_LENGTH} printable "
                "characters with no space at either end"
            )
            raise error(msg)
        folded = unicodedata.normalize("NFKC", name).casefold()
        if folded in seen:
            msg = f"{what} names {describe(name)} twice (names differing only in case count as one)"
            raise error(msg)
        seen.add(folded)
    return list(value)


def player_list(players: object) -> list[Any]:
    """Return ``players`` as a list, checking only that it is one (counts are per game).

    :raises BadOptions: when it is not a list.
    """
    if not isinstance(players, list | tuple):
        msg = f"the players are a list of names, not {describe(players)}"
        raise BadOptions(msg)
    return list(players)


def distinct_names(players: object) -> list[str]:
    """Return ``players`` as a list of non-empty, distinct names (counts are per game).

    :raises BadOptions: when it is not a list, a name is not a non-empty text, or a name
        repeats.
    """
    names = player_list(players)
    if not all(isinstance(p, str) and p for p in names):
        msg = "players must be non-empty names"
        raise BadOptions(msg)
    if len(set(names)) != len(names):
        msg = "players must not repeat a name"
        raise BadOptions(msg)
    return names


def check_options_object(options: object, game: str, names: Sequence[str]) -> dict[str, Any]:
    """Check that ``options`` is a JSON object whose keys are among ``names``.

    :raises BadOptions: otherwise.
    """
    if not isinstance(options, Mapping):
        msg = f"the options of {game} are a JSON object, not {describe(options)}"
        raise BadOptions(msg)
    unknown = [key for key in options if key not in names]
    if unknown:
        word = "option" if len(unknown) == 1 else "options"
        takes = f"takes only {', '.join(names)}" if names else "takes no options"
        msg = f"unknown {game} {word} {describe_keys(unknown)}; {game} {takes}"
        raise BadOptions(msg)
    return dict(options)


class Disclosure(enum.Enum):
    """When the picks of a step become public."""

    ON_RESOLVE = "on-resolve"  # every pick is revealed when its step resolves
    AT_END = "at-end"  # picks stay sealed until the match has finished


@dataclass(frozen=True)
class StepSpec:
    """What the next step asks for."""

    kind: str  # e.g. "turn", "round", "vote", "ec-vote"
    submitters: tuple[str, ...]  # who is asked to submit, in seat order
    needs_deal: bool = False


@dataclass(frozen=True)
class Deal:
    """The cards or secrets a step deals.

    ``public`` is recorded in the log as it is (row cards, a virtual player's hand, a
    pool). ``private`` maps a player to what only that player may see (their hand, their
    sequence); it is sealed until the match ends and then disclosed.
    """

    public: dict[str, Any] = field(default_factory=dict)
    private: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DecisionRequest:
    """Resolution pauses until ``player`` answers publicly (or the default applies)."""

    player: str
    kind: str  # e.g. "take-row"
    prompt: dict[str, Any]  # public facts the player decides on
    default: Payload  # what applies when the decision deadline passes


@dataclass(frozen=True)
class Resolution:
    """The outcome of a resolved step."""

    state: State
    outcome: dict[str, Any]  # public, machine-readable account of what happened


STOCK_NAMES = ("ana", "ben", "cai", "dee", "eve", "fay", "gus", "hal", "ivy", "jon")
"""Player names a new-match form suggests, in seat order."""
SUGGESTED_PLAYERS = 3
"""How many players a form suggests when the game allows it."""


class Rules(ABC):
    """One game's rules. Subclasses are stateless; all state is in ``State`` values."""

    name: ClassVar[str]  # the wire name, e.g. "six-nimmt"
    display_name: ClassVar[str]  # the name people read, e.g. "6 nimmt!"
    version: ClassVar[str]  # bumped whenever a resolution could change
    disclosure: ClassVar[Disclosure]
    min_players: ClassVar[int]  # the fewest players the game takes, under any options
    max_players: ClassVar[int]  # the most players the game takes, under any options
    default_is_legal: ClassVar[bool] = True
    """Whether ``default_pick`` is a legal pick. ``False`` where the default is a marker
    ``check_pick`` refuses (an abstention, a missing move, no tile placed)."""

    @abstractmethod
    def setup(self, options: Mapping[str, Any], players: Sequence[str]) -> State:
        """Return the state before the first step.

        :raises BadOptions: for unknown or out-of-range options or a wrong player count.
        """

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return the options with every default filled in (recorded in ``MatchCreated``)."""
        return dict(options)

    def display_name_for(self, options: Mapping[str, Any] | None) -> str:
        """Return the name people read for a match with ``options`` (normalised).

        By default the game's :attr:`display_name`; a game whose options name it (a custom
        game's design title) reads them.
        """
        del options
        return self.display_name

    def disclosure_for(self, options: Mapping[str, Any]) -> Disclosure:
        """Return when the picks of a match with ``options`` (normalised) become public.

        By default the game's :attr:`disclosure`; a game whose options choose it (a custom
        game) reads them.
        """
        del options
        return self.disclosure

    @abstractmethod
    def next_step(self, state: State) -> StepSpec | None:
        """Describe the next step, or return ``None`` when the match has finished."""

    def deal(self, state: State, rng: Rng) -> Deal:  # noqa: ARG002
        """Deal the next step from fair randomness (only called when ``needs_deal``)."""
        return Deal()

    def check_deal(self, state: State, deal: Mapping[str, Any]) -> Deal:  # noqa: ARG002
        """Validate an explicit deal in the scenario shape and split it.

        :raises BadDeal: when the deal does not fit.
        """
        if deal:
            msg = "this game deals nothing"
            raise BadDeal(msg)
        return Deal()

    def apply_deal(self, state: State, deal: Deal) -> State:  # noqa: ARG002
        """Return the state with the deal applied."""
        return state

    @abstractmethod
    def check_pick(self, state: State, player: str, payload: JSON) -> Payload:
        """Validate a submission and return it normalised.

        :raises IllegalPick: with a one-sentence reason.
        """

    @abstractmethod
    def default_pick(self, state: State, player: str) -> Payload:
        """The payload used for a player who submitted nothing."""

    @abstractmethod
    def resolve(
        self,
        state: State,
        picks: Mapping[str, Payload],
        decisions: Sequence[Payload],
        rng: Rng,
    ) -> Resolution | DecisionRequest:
        """Resolve the step from every submitter's pick and the decisions so far."""

    def check_decision(self, state: State, request: DecisionRequest, payload: JSON) -> Payload:
        """Validate a decision payload against its request.

        :raises BadDecision: with a one-sentence reason.
        """
        if not isinstance(payload, dict):
            msg = "a decision is a JSON object"
            raise BadDecision(msg)
        del state, request
        return dict(payload)

    @abstractmethod
    def public_view(self, state: State) -> dict[str, Any]:
        """The state everyone may see (the keys listed in ARCHITECTURE.md at least)."""

    def private_view(self, state: State, player: str) -> dict[str, Any]:  # noqa: ARG002
        """What ``player`` alone may see besides the public view (hand, sequence)."""
        return {}

    @abstractmethod
    def is_finished(self, state: State) -> bool:
        """Whether the match is over."""

    @abstractmethod
    def result(self, state: State) -> dict[str, Any]:
        """The final result (only meaningful once finished)."""

    def bot_pick(self, state: State, player: str, rng: Rng) -> Payload:
        """A legal pick for demo matches and fixtures (simple, not clever)."""
        del rng
        return self.default_pick(state, player)

    # --- What the generic layers read -----------------------------------------------

    def options_schema(self) -> list[Option]:
        """Return the options a match of this game takes, with defaults (none by default).

        Every default agrees with :meth:`normalise_options` and every bound with its checks.
        """
        return []

    def player_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """Return the fewest and the most players the game takes with ``options``.

        :raises BadOptions: for options :meth:`normalise_options` refuses.
        """
        self.normalise_options(options)
        return self.min_players, self.max_players

    def default_players(self, options: Mapping[str, Any]) -> list[str]:
        """Return player names a new-match form suggests with ``options`` (seat order).

        :raises BadOptions: for options :meth:`normalise_options` refuses.
        """
        low, high = self.player_range(options)
        return list(STOCK_NAMES[: min(max(low, SUGGESTED_PLAYERS), high)])

    @abstractmethod
    def pick_fields(self, kind: str) -> list[PickField]:
        """Return the fields of a pick's payload in a step of ``kind`` (``StepSpec.kind``)."""

    def pick_fields_for(self, state: State, kind: str) -> list[PickField]:
        """Return the fields of a pick in a step of ``kind`` in ``state``.

        By default :meth:`pick_fields`; a game whose fields depend on its options (a custom
        game) reads them from the state.
        """
        del state
        return self.pick_fields(kind)

    @abstractmethod
    def generate_legal_picks(self, state: State, player: str) -> Iterator[Payload]:
        """Yield ``player``'s legal picks in ``state`` lazily, each once, normalised."""

    def count_legal_picks(self, state: State, player: str) -> int:
        """Return how many legal picks ``player`` has (by iterating, unless overridden)."""
        return sum(1 for _ in self.generate_legal_picks(state, player))

    def legal_picks(self, state: State, player: str) -> LegalPicks:
        """Return a lazy view of ``player``'s legal picks in ``state`` (nothing generated)."""
        return LegalPicks(self, state, player)

    def is_legal(self, state: State, player: str, payload: JSON) -> bool:
        """Whether ``payload`` is a legal pick of ``player``: ``check_pick`` accepts it."""
        try:
            self.check_pick(state, player, payload)
        except RulesError:
            return False
        return True

    def decision_choices(self, state: State, request: DecisionRequest) -> list[Payload]:
        """Return every answer ``request`` may get (by default only its default)."""
        del state
        return [dict(request.default)]

    def scenario_deal(self, deal: Deal) -> dict[str, Any] | None:
        """Return a recorded deal in its scenario shape, the input of :meth:`check_deal`.

        The verifier re-checks an explicit deal by running this shape through
        ``check_deal``, which must split it back into exactly the recorded parts. By
        default the public and private parts are merged, which is ``{}`` for a game that
        deals nothing (so a recorded deal of anything is refused); ``None`` would leave the
        deal to ``apply_deal`` alone.
        """
        return {**deal.public, **deal.private}


def clone(state: State) -> State:
    """Return a deep copy of a state (rules functions never mutate their input)."""
    return copy.deepcopy(state)


@dataclass(frozen=True)
class StepPlay:
    """Everything that happened in one step driven by :func:`play_step`."""

    spec: StepSpec
    deal: Deal
    picks: dict[str, Payload]
    defaulted: tuple[str, ...]
    requests: tuple[DecisionRequest, ...]
    decisions: tuple[Payload, ...]
    resolution: Resolution


def play_step(
    rules: Rules,
    state: State,
    rng: Rng | Callable[[str], Rng],
    *,
    deal: Mapping[str, Any] | None = None,
    submit: Mapping[str, JSON] | PickPolicy | None = None,
    decide: Mapping[str, JSON] | DecisionPolicy | None = None,
) -> StepPlay:
    """Play one step purely, as a scenario step describes it.

    ``rng`` is either one stream used for the deal and then for resolution, or a function
    from purpose (``"deal"``, ``"resolve"``) to a stream, as the ``Match`` aggregate uses.
    ``deal`` replaces fair randomness; players of the step missing from ``submit`` get the
    default; each decision request is answered from ``decide[player]`` when present (the
    same answer serves each request that player gets in the step) or by its default.

    ``submit`` and ``decide`` may also be policies (what-if replay uses them):
    ``submit(state, player)`` returns the checked pick or ``None`` for the default, in the
    state after the deal; ``decide(state, request, index)`` the checked answer to the
    step's ``index``-th request, or ``None`` for its default.

    :raises IllegalPick, BadDeal, BadDecision: on bad input.
    :raises RulesError: when the match has already finished.
    """

    def stream(purpose: str) -> Rng:
        return rng(purpose) if callable(rng) else rng

    spec = rules.next_step(state)
    if spec is None:
        msg = "the match has already finished"
        raise RulesError(msg)
    dealt = Deal()
    if spec.needs_deal:
        dealt = rules.check_deal(state, deal) if deal else rules.deal(state, stream("deal"))
        state = rules.apply_deal(state, dealt)
    elif deal:
        msg = "this step deals nothing"
        raise BadDeal(msg)
    choose = submit if callable(submit) else _given_picks(rules, spec, submit or {})
    picks: dict[str, Payload] = {}
    defaulted: list[str] = []
    for player in spec.submitters:
        pick = choose(state, player)
        if pick is None:
            picks[player] = rules.default_pick(state, player)
            defaulted.append(player)
        else:
            picks[player] = pick
    answer_to = decide if callable(decide) else _given_answers(rules, decide or {})
    requests: list[DecisionRequest] = []
    decisions: list[Payload] = []
    while True:
        # Resolution re-runs from the start of the step with every decision so far, so
        # it gets a fresh stream each time (when ``rng`` is a factory).
        outcome = rules.resolve(state, picks, decisions, stream("resolve"))
        if isinstance(outcome, Resolution):
            break
        requests.append(outcome)
        answer = answer_to(state, outcome, len(decisions))
        decisions.append(outcome.default if answer is None else answer)
    return StepPlay(
        spec, dealt, picks, tuple(defaulted), tuple(requests), tuple(decisions), outcome
    )


if TYPE_CHECKING:
    # (state, player) -> a checked pick, or None for the default.
    PickPolicy = Callable[[State, str], Payload | None]
    # (state, request, index) -> a checked answer, or None for the request's default.
    DecisionPolicy = Callable[[State, DecisionRequest, int], Payload | None]


def _given_picks(rules: Rules, spec: StepSpec, submit: Mapping[str, JSON]) -> PickPolicy:
    """The policy of a scenario's ``submit``: each listed pick, checked.

    :raises IllegalPick: for a player the step does not ask.
    """
    for player in submit:
        if player not in spec.submitters:
            msg = f"player {describe(player)} is not asked to submit in this step"
            raise IllegalPick(msg)

    def choose(state: State, player: str) -> Payload | None:
        if player not in submit:
            return None
        return rules.check_pick(state, player, submit[player])

    return choose


def _given_answers(rules: Rules, decide: Mapping[str, JSON]) -> DecisionPolicy:
    """The policy of a scenario's ``decide``: each player's one answer, checked."""

    def answer_to(state: State, request: DecisionRequest, index: int) -> Payload | None:
        del index
        answer = decide.get(request.player)
        return None if answer is None else rules.check_decision(state, request, answer)

    return answer_to
