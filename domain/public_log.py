"""The public-record model: one fold over a match's public records.

A match's public log (``docs/PROTOCOL.md`` section 3) is a list of records ``{"seq", "type",
"at", "data"}``. :class:`PublicLog` folds them, one at a time, into what they say at that
position: the match (game, players, custody, seats, seed, finished, result, the last view
recorded) and each step's public state (:class:`PublicStep`: status, deadline, submitters,
who committed what and when, amendments, defaults, openings, reveals, decision requests and
answers, outcome, deal). It is the only place that reads records into such a state: replay,
the verifier, what-if, pictures, the timeline, the read model and imported matches all ask it.

The fold never raises, whatever a (possibly forged) record holds: a record that does not fit
where it stands (about another step than the current one, in the wrong phase, by a player
not asked) changes nothing. Whether it *should* have been there is the verifier's question.

It is incremental and cheap to copy, so a replay can keep snapshots::

    log = PublicLog()
    for record in records:
        log.apply(record)
    snapshot = log.copy()  # steps are immutable values; the copy shares them

>>> log = PublicLog.of([
...     {"seq": 0, "type": "MatchCreated", "at": "T0", "data": {"game": "vote",
...      "players": ["ana", "ben"], "custody": {"ana": "sealed", "ben": "self"}}},
...     {"seq": 1, "type": "StepOpened", "at": "T1", "data": {"step": 1, "kind": "vote",
...      "submitters": ["ana", "ben"], "deadline": None, "deal_source": "none"}},
...     {"seq": 2, "type": "SubmissionCommitted", "at": "T2", "data": {"step": 1,
...      "player": "ana", "commitment": "ab" * 32}},
... ])
>>> str(log.status), str(log.current.status), log.current.submitted, log.current.missing
('open', 'open', ('ana',), ('ben',))
"""

from __future__ import annotations

import copy as _copy
from contextlib import suppress
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from domain.match_settings import name_problem, recorded_settings, settings_problem
from domain.vocabulary import Custody, StepStatus

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

_EMPTY: Mapping[str, Any] = MappingProxyType({})


class MatchStatus(StrEnum):
    """Where a match stands, as the match list shows it (the wire words of ``status``)."""

    CREATED = "created"  # no step opened yet
    OPEN = "open"  # the current step takes submissions
    SEALED = "sealed"  # the current step is sealed and resolving
    DECIDING = "deciding"  # resolution waits for a decision
    RESOLVED = "resolved"  # the current step resolved; the next is not open yet
    FINISHED = "finished"  # the match is over
    ENDED = "ended"  # the host ended the match early


class DueKind(StrEnum):
    """What falls due at a match's deadline."""

    SEAL = "seal"  # the open step is sealed
    DECISION = "decision"  # the pending decision gets its default


# ---------------------------------------------------------------------------
# One step
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Commitment:
    """A player's commitment in a step: the latest stands, earlier ones were amended."""

    player: str
    commitment: str
    seq: int
    custody: str | None = None
    supersedes: str | None = None
    signature: str | None = None


@dataclass(frozen=True)
class Default:
    """A default pick applied to a player (``reason``: ``missing`` or ``not-revealed``)."""

    player: str
    payload: Any
    reason: str
    seq: int


@dataclass(frozen=True)
class Reveal:
    """A revealed pick: the payload and salt that open ``commitment``."""

    player: str
    payload: Any
    salt: Any
    commitment: Any
    seq: int


@dataclass(frozen=True)
class Request:
    """A decision resolution asked of a player (``index`` counts from 0 in the step)."""

    index: Any
    player: Any
    kind: Any
    prompt: Any
    default: Any
    deadline: str | None
    seq: int


@dataclass(frozen=True)
class Decision:
    """The answer to a decision request (``defaulted``: the request's default applied)."""

    index: Any
    player: Any
    payload: Any
    defaulted: Any
    seq: int


@dataclass(frozen=True)
class PublicStep:
    """What the public records say of one step, at some position of the log.

    ``commitments`` holds each player's latest commitment, ``amended`` how many times each
    player amended; ``requests`` and ``decisions`` are in order; ``outcome`` and ``view``
    are ``StepResolved``'s, ``private_deal`` the ``DealRevealed`` after the match.
    """

    number: Any
    kind: str
    submitters: tuple[str, ...]
    deadline: str | None
    deal_source: str
    deal: Mapping[str, Any]
    opened_seq: int
    opened_at: str = ""
    view_at_open: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    status: StepStatus = StepStatus.OPEN
    commitments: Mapping[str, Commitment] = field(default_factory=lambda: _EMPTY)
    amended: Mapping[str, int] = field(default_factory=lambda: _EMPTY)
    defaults: Mapping[str, Default] = field(default_factory=lambda: _EMPTY)
    openings: Mapping[str, int] = field(default_factory=lambda: _EMPTY)  # player -> its seq
    reveals: Mapping[str, Reveal] = field(default_factory=lambda: _EMPTY)
    requests: tuple[Request, ...] = ()
    decisions: tuple[Decision, ...] = ()
    outcome: Mapping[str, Any] | None = None
    view: Mapping[str, Any] | None = None
    resolved_seq: int | None = None
    private_deal: Mapping[str, Any] | None = None

    @property
    def submitted(self) -> tuple[str, ...]:
        """The submitters who committed, in seat order."""
        return tuple(p for p in self.submitters if p in self.commitments)

    @property
    def missing(self) -> tuple[str, ...]:
        """The submitters who did not commit, in seat order."""
        return tuple(p for p in self.submitters if p not in self.commitments)

    @property
    def pending_request(self) -> Request | None:
        """The decision request not answered yet, if any."""
        n = len(self.decisions)
        return self.requests[n] if n < len(self.requests) else None

    def awaiting_openings(self, custody: Mapping[str, str]) -> tuple[str, ...]:
        """Self-custody submitters who committed and neither opened nor got a default."""
        return tuple(
            p
            for p in self.submitters
            if custody.get(p) == Custody.SELF
            and p in self.commitments
            and p not in self.openings
            and p not in self.defaults
        )

    def pick(self, player: str) -> Any:
        """The player's pick as far as disclosed: the default, else the revealed payload.

        :raises KeyError: when neither is in the log (yet).
        """
        if player in self.defaults:
            return self.defaults[player].payload
        return self.reveals[player].payload


# ---------------------------------------------------------------------------
# The match
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """A seat: whether it is claimed (and not re-invited since) and the key it registered."""

    claimed: bool = False
    key: str | None = None


@dataclass
class PublicLog:
    """The fold of a match's public records up to :attr:`position` (see the module doc).

    :meth:`apply` takes the next record; :meth:`copy` is a snapshot (the steps are frozen
    values, shared). ``steps`` maps each step number to its :class:`PublicStep`; ``current``
    is the step opened last. ``finished`` says the match is over: finished by its rules
    (``MatchFinished``, ``result``) or ended early by the host (``MatchEnded``: ``ended``
    holds its ``reason`` and ``at``, and there is no result). ``name`` and ``settings`` are
    ``MatchCreated``'s (none recorded: no name, every setting off).
    """

    position: int = 0
    game: str = ""
    rules_version: str = ""
    options: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    players: tuple[str, ...] = ()
    origin: str = ""
    custody: dict[str, str] = field(default_factory=dict)
    seats: dict[str, Seat] = field(default_factory=dict)
    seed_hash: str | None = None
    seed: str | None = None
    seed_revealed: bool = False  # a SeedRevealed record came (``seed``: its well-formed text)
    joined: dict[str, str | None] = field(default_factory=dict)  # player -> entropy
    entropy: dict[str, str] = field(default_factory=dict)  # given before the first step
    steps: dict[Any, PublicStep] = field(default_factory=dict)
    current: PublicStep | None = None
    opened: int = 0  # how many StepOpened records
    finished: bool = False
    result: Mapping[str, Any] | None = None
    name: str = ""
    settings: Mapping[str, Any] = field(default_factory=lambda: recorded_settings(None))
    ended: Mapping[str, Any] | None = None
    view: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)  # the last one recorded
    status: MatchStatus = MatchStatus.CREATED
    created_at: str = ""
    last_activity: str = ""

    @classmethod
    def of(cls, records: Iterable[Mapping[str, Any]]) -> PublicLog:
        """The fold of ``records``."""
        log = cls()
        for record in records:
            log.apply(record)
        return log

    def copy(self) -> PublicLog:
        """A snapshot: later :meth:`apply` calls on either leave the other as it is."""
        other = _copy.copy(self)
        other.custody = dict(self.custody)
        other.seats = dict(self.seats)
        other.joined = dict(self.joined)
        other.entropy = dict(self.entropy)
        other.steps = dict(self.steps)
        return other

    # -- reading ------------------------------------------------------------------------

    @property
    def keys(self) -> dict[str, str]:
        """Each player's current signing key (their latest claim's, else ``MatchCreated``'s)."""
        return {p: s.key for p, s in self.seats.items() if s.key is not None}

    @property
    def due(self) -> tuple[str, DueKind] | None:
        """The next deadline and what falls due then: a step's seal or a decision's default."""
        step = self.current
        if self.finished or step is None:
            return None
        if step.status is StepStatus.OPEN:
            return (step.deadline, DueKind.SEAL) if step.deadline else None
        request = step.pending_request
        if step.status is StepStatus.SEALED and request is not None and request.deadline:
            return request.deadline, DueKind.DECISION
        return None

    def step(self, number: Any) -> PublicStep | None:
        """The step with this number, if it opened."""
        try:
            return self.steps.get(number)
        except TypeError:  # an unhashable number in a forged record
            return None

    # -- folding ------------------------------------------------------------------------

    def apply(self, record: Mapping[str, Any]) -> None:
        """Fold in the next record (never raises; see the module doc)."""
        seq = self.position
        self.position = seq + 1
        at = record.get("at")
        if isinstance(at, str):
            self.last_activity = at
            if seq == 0:
                self.created_at = at
        else:
            at = ""
        data = record.get("data")
        kind = record.get("type")
        if not isinstance(data, dict) or not isinstance(kind, str):
            return
        handler = _HANDLERS.get(kind)
        if handler is None:
            return
        handler(self, seq, data, at)
        status = _MATCH_STATUS.get(kind)
        if status is not None and not (self.finished and status not in _OVER):
            self.status = status

    def _set(self, step: PublicStep) -> None:
        self.current = (
            step
            if self.current is not None and (self.current.number == step.number)
            else self.current
        )
        with suppress(TypeError):  # an unhashable number in a forged record
            self.steps[step.number] = step

    def _current(self, data: Mapping[str, Any], phase: StepStatus) -> PublicStep | None:
        """The current step if the record is about it and it is in ``phase``."""
        step = self.current
        if step is None or data.get("step") != step.number or step.status is not phase:
            return None
        return step


# The match-list status after each record type (the rest leave it as it is).
_MATCH_STATUS = {
    "StepOpened": MatchStatus.OPEN,
    "StepSealed": MatchStatus.SEALED,
    "DecisionRequested": MatchStatus.DECIDING,
    "DecisionMade": MatchStatus.SEALED,
    "StepResolved": MatchStatus.RESOLVED,
    "MatchFinished": MatchStatus.FINISHED,
    "MatchEnded": MatchStatus.ENDED,
}
_OVER = (MatchStatus.FINISHED, MatchStatus.ENDED)


def status_after(kind: str) -> MatchStatus | None:
    """The match's status after a record of type ``kind`` (``None``: it does not change it).

    This is the fold's own rule (:attr:`PublicLog.status`), for a projection that sees one
    record at a time.

    >>> str(status_after("DecisionRequested")), status_after("SubmissionCommitted")
    ('deciding', None)
    """
    return _MATCH_STATUS.get(kind)


def due_after(kind: str, data: Mapping[str, Any]) -> tuple[str | None, DueKind | None] | None:
    """The deadline falling due after a record (``None``: the record does not change it).

    Like :attr:`PublicLog.due` for a projection that sees one record at a time:
    ``(deadline, kind)``, or ``(None, None)`` when nothing is due any more.
    """
    if kind == "StepOpened":
        deadline = data.get("deadline")
        return (deadline, DueKind.SEAL) if deadline else (None, None)
    if kind == "DecisionRequested":
        deadline = data.get("deadline")
        return (deadline, DueKind.DECISION) if deadline else (None, None)
    if kind in ("StepSealed", "DecisionMade", "StepResolved", "MatchFinished", "MatchEnded"):
        return None, None
    return None


def _with(step: PublicStep, **changes: Any) -> PublicStep:
    """``dataclasses.replace`` for the fold's hot path: a frozen step with some fields changed.

    The fields are plain values, so copying the instance dictionary is the whole work
    (``replace`` would run ``__init__`` again, several times slower).
    """
    new = object.__new__(PublicStep)
    new.__dict__.update(step.__dict__)
    new.__dict__.update(changes)
    return new


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _obj(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else _EMPTY


def _match_created(log: PublicLog, seq: int, data: Mapping[str, Any], at: str) -> None:
    del at
    if seq != 0:
        return
    log.game = str(data.get("game"))
    log.rules_version = str(data.get("rules_version"))
    log.options = _obj(data.get("options"))
    log.origin = str(data.get("origin"))
    players = data.get("players")
    if isinstance(players, list) and all(isinstance(p, str) for p in players):
        log.players = tuple(players)
    custody = data.get("custody")
    if (
        isinstance(custody, dict)
        and set(custody) == set(log.players)
        and all(mode in (Custody.SEALED, Custody.SELF) for mode in custody.values())
    ):
        log.custody = dict(custody)
    name, settings = data.get("name", ""), data.get("settings")
    log.name = name if name_problem(name) is None else ""
    log.settings = recorded_settings(settings if settings_problem(settings) is None else None)
    keys = data.get("player_keys")
    log.seats = dict.fromkeys(log.players, Seat())
    if isinstance(keys, dict):
        for player, key in keys.items():
            if isinstance(key, str):
                log.seats[player] = Seat(key=key)


def _seed_committed(log: PublicLog, seq: int, data: Mapping[str, Any], at: str) -> None:
    del at
    if seq == 1:
        log.seed_hash = _text(data.get("seed_hash"))


def _player_joined(log: PublicLog, seq: int, data: Mapping[str, Any], at: str) -> None:
    del seq, at
    player, entropy = data.get("player"), data.get("entropy")
    if isinstance(player, str):
        log.joined[player] = _text(entropy)
        if isinstance(entropy, str) and log.opened == 0:
            log.entropy[player] = entropy


def _seat_claimed(log: PublicLog, seq: int, data: Mapping[str, Any], at: str) -> None:
    del seq, at
    player = data.get("player")
    if player in log.players:
        log.seats[player] = Seat(claimed=True, key=_text(data.get("public_key")))


def _seat_reinvited(log: PublicLog, seq: int, data: Mapping[str, Any], at: str) -> None:
    del seq, at
    player = data.get("player")
    if player in log.players:
        log.seats[player] = Seat()


def _step_opened(log: PublicLog, seq: int, data: Mapping[str, Any], at: str) -> None:
    submitters = data.get("submitters")
    if not (
        isinstance(submitters, list)
        and all(isinstance(p, str) and p in log.players for p in submitters)
        and len(set(submitters)) == len(submitters)
    ):
        submitters = []
    view = _obj(data.get("view"))
    step = PublicStep(
        number=data.get("step"),
        kind=str(data.get("kind")),
        submitters=tuple(submitters),
        deadline=_text(data.get("deadline")),
        deal_source=str(data.get("deal_source")),
        deal=_obj(data.get("deal")),
        opened_seq=seq,
        opened_at=at,
        view_at_open=view,
    )
    log.opened += 1
    log.current = step
    log.view = view
    log._set(step)  # noqa: SLF001 - the fold's own helper


def _submission_committed(log: PublicLog, seq: int, data: Mapping[str, Any], at: str) -> None:
    del at
    step = log._current(data, StepStatus.OPEN)  # noqa: SLF001
    player, value = data.get("player"), data.get("commitment")
    if step is None or not isinstance(value, str) or player not in step.submitters:
        return
    earlier = step.commitments.get(player)
    entry = Commitment(
        player,
        value,
        seq,
        _text(data.get("custody")),
        _text(data.get("supersedes")),
        _text(data.get("signature")),
    )
    amended = step.amended
    if earlier is not None:
        amended = {**amended, player: amended.get(player, 0) + 1}
    log._set(  # noqa: SLF001
        _with(step, commitments={**step.commitments, player: entry}, amended=amended),
    )


def _step_sealed(log: PublicLog, seq: int, data: Mapping[str, Any], at: str) -> None:
    del seq, at
    step = log._current(data, StepStatus.OPEN)  # noqa: SLF001
    if step is not None:
        log._set(_with(step, status=StepStatus.SEALED))  # noqa: SLF001


def _sealed_submitter(log: PublicLog, data: Mapping[str, Any]) -> PublicStep | None:
    step = log._current(data, StepStatus.SEALED)  # noqa: SLF001
    return step if step is not None and data.get("player") in step.submitters else None


def _default_applied(log: PublicLog, seq: int, data: Mapping[str, Any], at: str) -> None:
    del at
    step = _sealed_submitter(log, data)
    if step is not None:
        player = data["player"]
        entry = Default(player, data.get("payload"), str(data.get("reason")), seq)
        log._set(_with(step, defaults={**step.defaults, player: entry}))  # noqa: SLF001


def _opening_received(log: PublicLog, seq: int, data: Mapping[str, Any], at: str) -> None:
    del at
    step = _sealed_submitter(log, data)
    if step is not None:
        log._set(_with(step, openings={**step.openings, data["player"]: seq}))  # noqa: SLF001


def _submission_revealed(log: PublicLog, seq: int, data: Mapping[str, Any], at: str) -> None:
    del at
    step = (
        log.step(data.get("step"))
        if log.finished  # at-end reveals: about any step
        else log._current(data, StepStatus.SEALED)  # noqa: SLF001
    )
    player = data.get("player")
    if step is None or player not in step.submitters or player in step.reveals:
        return
    entry = Reveal(player, data.get("payload"), data.get("salt"), data.get("commitment"), seq)
    log._set(_with(step, reveals={**step.reveals, player: entry}))  # noqa: SLF001


def _decision_requested(log: PublicLog, seq: int, data: Mapping[str, Any], at: str) -> None:
    del at
    step = log._current(data, StepStatus.SEALED)  # noqa: SLF001
    if step is None:
        return
    entry = Request(
        data.get("index"),
        data.get("player"),
        data.get("kind"),
        data.get("prompt"),
        data.get("default"),
        _text(data.get("deadline")),
        seq,
    )
    log._set(_with(step, requests=(*step.requests, entry)))  # noqa: SLF001


def _decision_made(log: PublicLog, seq: int, data: Mapping[str, Any], at: str) -> None:
    del at
    step = log._current(data, StepStatus.SEALED)  # noqa: SLF001
    if step is None:
        return
    entry = Decision(
        data.get("index"),
        data.get("player"),
        data.get("payload"),
        data.get("defaulted"),
        seq,
    )
    log._set(_with(step, decisions=(*step.decisions, entry)))  # noqa: SLF001


def _step_resolved(log: PublicLog, seq: int, data: Mapping[str, Any], at: str) -> None:
    del at
    view = _obj(data.get("view"))
    log.view = view
    step = log._current(data, StepStatus.SEALED)  # noqa: SLF001
    if step is None:
        return
    log._set(  # noqa: SLF001
        _with(
            step,
            status=StepStatus.RESOLVED,
            outcome=_obj(data.get("outcome")),
            view=view,
            resolved_seq=seq,
        ),
    )


def _match_finished(log: PublicLog, seq: int, data: Mapping[str, Any], at: str) -> None:
    del seq, at
    log.finished = True
    result = data.get("result")
    log.result = result if isinstance(result, dict) else None


def _match_ended(log: PublicLog, seq: int, data: Mapping[str, Any], at: str) -> None:
    del seq
    if not log.finished:
        log.finished = True
        log.ended = {"reason": _text(data.get("reason")) or "", "at": at}


def _deal_revealed(log: PublicLog, seq: int, data: Mapping[str, Any], at: str) -> None:
    del seq, at
    step = log.step(data.get("step"))
    private = data.get("private")
    if step is not None and step.private_deal is None and isinstance(private, dict):
        log._set(_with(step, private_deal=private))  # noqa: SLF001


def _seed_revealed(log: PublicLog, seq: int, data: Mapping[str, Any], at: str) -> None:
    del seq, at
    if not log.seed_revealed:
        log.seed_revealed = True
        log.seed = _text(data.get("seed"))


_HANDLERS = {
    "MatchCreated": _match_created,
    "SeedCommitted": _seed_committed,
    "PlayerJoined": _player_joined,
    "SeatClaimed": _seat_claimed,
    "SeatReinvited": _seat_reinvited,
    "StepOpened": _step_opened,
    "SubmissionCommitted": _submission_committed,
    "StepSealed": _step_sealed,
    "DefaultApplied": _default_applied,
    "OpeningReceived": _opening_received,
    "SubmissionRevealed": _submission_revealed,
    "DecisionRequested": _decision_requested,
    "DecisionMade": _decision_made,
    "StepResolved": _step_resolved,
    "MatchFinished": _match_finished,
    "MatchEnded": _match_ended,
    "DealRevealed": _deal_revealed,
    "SeedRevealed": _seed_revealed,
}

RECORD_TYPES = tuple(_HANDLERS)
"""Every public record type, in the order of a match's life."""


__all__ = [
    "RECORD_TYPES",
    "Commitment",
    "Decision",
    "Default",
    "DueKind",
    "MatchStatus",
    "PublicLog",
    "PublicStep",
    "Request",
    "Reveal",
    "Seat",
    "due_after",
    "status_after",
]
