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

Randomness during a step comes from two :class:`~domain.fairrand.Rng` streams: purpose
``"deal/<n>"`` for the deal and ``"resolve/<n>"`` for draws during resolution (a fresh
stream each time resolution re-runs after a decision), so a verifier holding the revealed
seed recomputes everything.
"""

from __future__ import annotations

import copy
import enum
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from domain.fairrand import Rng

JSON = Any
State = dict[str, Any]
Payload = dict[str, Any]


class RulesError(ValueError):
    """Base of every error a rules module raises about user input."""


class BadOptions(RulesError):
    """The match options or the player list do not fit the game."""


class BadDeal(RulesError):
    """An explicit deal does not fit the game state."""


class IllegalPick(RulesError):
    """A submission payload is rejected; it never enters the log."""


class BadDecision(RulesError):
    """A decision payload does not answer the request."""


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


class Rules(ABC):
    """One game's rules. Subclasses are stateless; all state is in ``State`` values."""

    name: ClassVar[str]  # the wire name, e.g. "six-nimmt"
    version: ClassVar[str]  # bumped whenever a resolution could change
    disclosure: ClassVar[Disclosure]

    @abstractmethod
    def setup(self, options: Mapping[str, Any], players: Sequence[str]) -> State:
        """Return the state before the first step.

        :raises BadOptions: for unknown or out-of-range options or a wrong player count.
        """

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return the options with every default filled in (recorded in ``MatchCreated``)."""
        return dict(options)

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

    def check_decision(
        self, state: State, request: DecisionRequest, payload: JSON
    ) -> Payload:
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


def play_step(  # noqa: PLR0913
    rules: Rules,
    state: State,
    rng: Rng | Callable[[str], Rng],
    *,
    deal: Mapping[str, Any] | None = None,
    submit: Mapping[str, JSON] | None = None,
    decide: Mapping[str, JSON] | None = None,
) -> StepPlay:
    """Play one step purely, as a scenario step describes it.

    ``rng`` is either one stream used for the deal and then for resolution, or a function
    from purpose (``"deal"``, ``"resolve"``) to a stream, as the ``Match`` aggregate uses.
    ``deal`` replaces fair randomness; players of the step missing from ``submit`` get the
    default; each decision request is answered from ``decide[player]`` when present (the
    same answer serves each request that player gets in the step) or by its default.

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
    submit = submit or {}
    for player in submit:
        if player not in spec.submitters:
            msg = f"player {player!r} is not asked to submit in this step"
            raise IllegalPick(msg)
    picks: dict[str, Payload] = {}
    defaulted: list[str] = []
    for player in spec.submitters:
        if player in submit:
            picks[player] = rules.check_pick(state, player, submit[player])
        else:
            picks[player] = rules.default_pick(state, player)
            defaulted.append(player)
    requests: list[DecisionRequest] = []
    decisions: list[Payload] = []
    decide = decide or {}
    while True:
        # Resolution re-runs from the start of the step with every decision so far, so
        # it gets a fresh stream each time (when ``rng`` is a factory).
        outcome = rules.resolve(state, picks, decisions, stream("resolve"))
        if isinstance(outcome, Resolution):
            break
        requests.append(outcome)
        answer = decide.get(outcome.player)
        decisions.append(
            outcome.default
            if answer is None
            else rules.check_decision(state, outcome, answer)
        )
    return StepPlay(
        spec, dealt, picks, tuple(defaulted), tuple(requests), tuple(decisions), outcome
    )
