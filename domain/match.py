"""The event-sourced ``Match`` aggregate: one match's append-only log.

The life of a match (ARCHITECTURE.md), one event class each, in order::

    MatchCreated -> SeedCommitted -> (SeatClaimed | SeatReinvited | PlayerJoined)* ->
      ( StepOpened -> SubmissionCommitted* (amendments supersede) -> StepSealed
        -> DefaultApplied* -> OpeningReceived* (self-custody) -> SubmissionRevealed*
        -> (DecisionRequested -> DecisionMade)* -> StepResolved )+
    -> MatchFinished -> SubmissionRevealed* (at-end games) -> DealRevealed* -> SeedRevealed

or, at any point after ``SeedCommitted``, the host ends the match early: ``MatchEnded``
(the reason) -> SubmissionRevealed* (every pick still held) -> DealRevealed* -> SeedRevealed,
and nothing else after it (:meth:`Match.end`).

Every event carries only public data, except fields holding :class:`~domain.sealed.Sealed`
values (a sealed pick and salt, the host seed, private deals, credential and invite hashes),
which the service encrypts at rest and which the public record leaves out. Each sealed value
is bound to its event and field, and applying an event checks the binding, so sealed values
swapped or copied in the store are refused (:class:`~domain.sealed.SealedBindingError`).

Seats: creating a match gives the host a credential and one single-use *invite* per player,
never a player's credential. A player claims their seat with the invite (``SeatClaimed``,
public: who, when and the Ed25519 key they registered, if any), which sets the player's own
credential; the host can re-invite a seat (``SeatReinvited``, public), which revokes the
credential and the key. The host never holds a player's credential, and a player who
registered a key signs every commitment, so nobody else can submit in their name.

Deadlines are enforced at the moment of the command: a pick after the step's deadline, or a
decision after its request's deadline, is refused even if nobody has sealed the step yet.

The aggregate rebuilds the whole game state by replaying these events through the rules
module: ``StepOpened`` applies the deal, ``StepResolved`` re-runs the resolution from the
step's picks and decisions. Nothing here reads a clock or draws randomness: the service
passes the time (``at``) and the host seed in, and every draw comes from the seed.

Amendments: until its step is sealed, a player may submit again; the new commitment
supersedes the earlier one (the event says which). Submitting the very same pick again
changes nothing and returns the commitment already recorded.

The events, creation and the steps' course are here; ``Match``'s other methods come from its
bases, by concern: queries and guards (:mod:`domain.match_reading`), seats
(:mod:`domain.seats`) and submissions (:mod:`domain.submissions`). Its errors
(:mod:`domain.match_errors`), :class:`~domain.step_record.StepRecord` and the public forms
(:mod:`domain.records`) live beside it, and every name is importable from here as before.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from eventsourcing.domain import Aggregate

from domain.canonical import canonical_json
from domain.commitment import canonical_match_id
from domain.fairrand import seed_hash
from domain.match_errors import (
    MIN_DISTINCT_SALT_BYTES,
    BadInvite,
    BadSalt,
    CommitmentReused,
    DeadlinePassed,
    MatchConflict,
    MatchError,
    MatchOver,
    NoDecisionPending,
    NotAPlayer,
    RevealMismatch,
    SeatTaken,
    StepNotOpen,
    StepStillOpen,
    check_salt_randomness,
)
from domain.match_settings import end_reason, match_name, match_settings, recorded_settings
from domain.records import (
    MAX_TIME_TEXT,
    MAX_YEAR,
    MIN_YEAR,
    format_time,
    parse_time,
    public_record,
    token_hash,
)
from domain.rules import get_rules
from domain.rules.base import Deal, DecisionRequest, Disclosure, Resolution, RulesError, State
from domain.sealed import Sealed, binding
from domain.seats import MAX_ENTROPY, MatchSeats
from domain.step_record import StepRecord
from domain.submission_signing import public_key_from_text
from domain.submissions import MatchSubmissions
from domain.vocabulary import Advance, Custody, DealSource, StepStatus

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from uuid import UUID

actor: ContextVar[str] = ContextVar("actor", default="system")
"""Who is acting: ``"host"``, a player id, or ``"system"`` (deadlines, automation)."""

SEALED_CUSTODY = Custody.SEALED
SELF_CUSTODY = Custody.SELF
CUSTODY_MODES = tuple(Custody)


class Match(MatchSeats, MatchSubmissions, Aggregate):
    """One match: its players, steps, commitments and the game state they lead to."""

    class Event(Aggregate.Event):
        """Base of every match event: records who acted."""

        actor: str = field(default_factory=actor.get, init=False)

    class MatchCreated(Event, Aggregate.Created):
        """A host created the match."""

        game: str
        rules_version: str
        options: dict[str, Any]
        players: list[str]
        origin: str
        custody: dict[str, str]
        player_keys: dict[str, str]
        credentials: Sealed  # {"host": token hash}
        invites: Sealed  # {player: invite hash}
        name: str = ""
        settings: dict[str, Any] | None = None  # domain.match_settings; None: not recorded

        def __post_init__(self) -> None:
            """A match created without a name or settings records neither field.

            Its record then reads exactly as one made before these fields existed (and
            reads the same: no name, every setting off).
            """
            super().__post_init__()
            if self.settings is None:
                del self.__dict__["name"], self.__dict__["settings"]

        def apply(self, aggregate: Match) -> None:
            """Set up the game state from the options and players."""
            mid = canonical_match_id(str(self.originator_id))
            self.credentials.check_bound(mid, self.originator_version, "", "credentials")
            self.invites.check_bound(mid, self.originator_version, "", "invites")
            aggregate.game = self.game
            aggregate.options = dict(self.options)
            aggregate.players = list(self.players)
            aggregate.origin = self.origin
            aggregate.custody = dict(self.custody)
            aggregate.player_keys = dict(self.player_keys)
            aggregate.credentials = dict(self.credentials.value)
            aggregate.invites = dict(self.invites.value)
            aggregate.name = self.name
            aggregate.settings = recorded_settings(self.settings)
            aggregate.state = aggregate.rules.setup(self.options, self.players)

    class SeatClaimed(Event):
        """A player claimed their seat with its invite, registering a signing key or none."""

        player: str
        public_key: str | None
        credential: Sealed  # the hash of the player's own token

        def apply(self, aggregate: Match) -> None:
            """The player's credential replaces the invite; their key is the one given."""
            self.credential.check_bound(
                aggregate.match_id, self.originator_version, self.player, "credential"
            )
            aggregate.invites.pop(self.player, None)
            aggregate.credentials[self.player] = self.credential.value
            if self.public_key is None:
                aggregate.player_keys.pop(self.player, None)
            else:
                aggregate.player_keys[self.player] = self.public_key

    class SeatReinvited(Event):
        """The host issued a new invite for a seat: its credential and key are revoked."""

        player: str
        invite: Sealed  # the hash of the new invite

        def apply(self, aggregate: Match) -> None:
            """Revoke the seat's credential and key; the new invite alone can claim it."""
            self.invite.check_bound(
                aggregate.match_id, self.originator_version, self.player, "invite"
            )
            aggregate.credentials.pop(self.player, None)
            aggregate.player_keys.pop(self.player, None)
            aggregate.invites[self.player] = self.invite.value

    class SeedCommitted(Event):
        """The hash of the host seed is published; the seed itself stays sealed."""

        seed_hash: str
        seed: Sealed  # hex

        def apply(self, aggregate: Match) -> None:
            """Remember the seed for the deals."""
            self.seed.check_bound(aggregate.match_id, self.originator_version, "", "seed")
            aggregate.seed_hash = self.seed_hash
            aggregate.seed = bytes.fromhex(self.seed.value)

    class PlayerJoined(Event):
        """A player took their seat, optionally adding public entropy."""

        player: str
        entropy: str | None

        def apply(self, aggregate: Match) -> None:
            """Record the seat and the entropy."""
            aggregate.joined.add(self.player)
            if self.entropy is not None:
                aggregate.entropy[self.player] = self.entropy

    class StepOpened(Event):
        """A step opened for sealed submissions, with its public deal."""

        step: int
        kind: str
        submitters: list[str]
        deadline: str | None
        deal_source: str  # a DealSource: "seed", "explicit" or "none"
        deal: dict[str, Any]
        private_deal: Sealed  # {player: private part}
        view: dict[str, Any]

        def apply(self, aggregate: Match) -> None:
            """Apply the deal to the game state."""
            self.private_deal.check_bound(
                aggregate.match_id, self.originator_version, "", "private_deal"
            )
            private = dict(self.private_deal.value)
            state = aggregate.state
            if self.deal_source != DealSource.NONE:
                state = aggregate.rules.apply_deal(state, Deal(dict(self.deal), private))
            aggregate.state = state
            aggregate.step = self.step
            aggregate.steps[self.step] = StepRecord(
                number=self.step,
                kind=self.kind,
                submitters=list(self.submitters),
                deadline=self.deadline,
                deal_source=DealSource(self.deal_source),
                deal_public=dict(self.deal),
                deal_private=private,
                state_at_open=state,
            )

    class SubmissionCommitted(Event):
        """A player committed to a pick (sealed custody: the opening is sealed with it)."""

        step: int
        player: str
        commitment: str
        custody: str
        supersedes: str | None
        signature: str | None
        opening: Sealed  # {"payload", "salt"} or None in self-custody

        def apply(self, aggregate: Match) -> None:
            """Record the commitment; an amendment replaces the earlier one."""
            self.opening.check_bound(
                aggregate.match_id, self.originator_version, self.player, "opening"
            )
            record = aggregate.steps[self.step]
            record.commitments[self.player] = self.commitment
            record.signatures[self.player] = self.signature
            record.openings.pop(self.player, None)
            if self.opening.value is not None:
                record.openings[self.player] = dict(self.opening.value)
                aggregate.used_salts.add(self.opening.value["salt"])
            aggregate.used_commitments.add(self.commitment)

    class StepSealed(Event):
        """No more submissions for the step."""

        step: int
        submitted: list[str]
        missing: list[str]

        def apply(self, aggregate: Match) -> None:
            """Close the step."""
            aggregate.steps[self.step].status = StepStatus.SEALED

    class DefaultApplied(Event):
        """A player gets the game's default pick (missing, or not revealed in time)."""

        step: int
        player: str
        payload: dict[str, Any]
        reason: str  # "missing" or "not-revealed"

        def apply(self, aggregate: Match) -> None:
            """Use the default as the player's pick."""
            aggregate.steps[self.step].defaults[self.player] = dict(self.payload)

    class OpeningReceived(Event):
        """A self-custody player opened their commitment (kept sealed until disclosure)."""

        step: int
        player: str
        commitment: str
        opening: Sealed

        def apply(self, aggregate: Match) -> None:
            """Remember the opening."""
            self.opening.check_bound(
                aggregate.match_id, self.originator_version, self.player, "opening"
            )
            aggregate.steps[self.step].openings[self.player] = dict(self.opening.value)
            aggregate.used_salts.add(self.opening.value["salt"])

    class SubmissionRevealed(Event):
        """A pick and its salt made public; anyone can check it against the commitment."""

        step: int
        player: str
        commitment: str
        payload: Any
        salt: str

        def apply(self, aggregate: Match) -> None:
            """Mark the pick as public."""
            aggregate.steps[self.step].revealed.add(self.player)

    class DecisionRequested(Event):
        """Resolution pauses for a public decision by one player."""

        step: int
        index: int
        player: str
        kind: str
        prompt: dict[str, Any]
        default: dict[str, Any]
        deadline: str | None

        def apply(self, aggregate: Match) -> None:
            """Record the open request."""
            record = aggregate.steps[self.step]
            record.requests.append(
                DecisionRequest(self.player, self.kind, dict(self.prompt), dict(self.default))
            )
            record.request_deadlines.append(self.deadline)

    class DecisionMade(Event):
        """A player answered a decision request (or its default applied)."""

        step: int
        index: int
        player: str
        payload: dict[str, Any]
        defaulted: bool

        def apply(self, aggregate: Match) -> None:
            """Record the answer."""
            aggregate.steps[self.step].decisions.append(dict(self.payload))

    class StepResolved(Event):
        """The rules resolved the step; the outcome and the public state after it."""

        step: int
        outcome: dict[str, Any]
        view: dict[str, Any]

        def apply(self, aggregate: Match) -> None:
            """Re-run the resolution to rebuild the private state."""
            record = aggregate.steps[self.step]
            resolution = aggregate.resolve_step(record)
            if not isinstance(resolution, Resolution):  # pragma: no cover - corrupt log
                msg = f"step {self.step} cannot resolve from its recorded inputs"
                raise MatchError(msg)
            aggregate.state = resolution.state
            record.status = StepStatus.RESOLVED
            record.outcome = dict(self.outcome)

    class MatchFinished(Event):
        """The match is over."""

        result: dict[str, Any]

        def apply(self, aggregate: Match) -> None:
            """Record the result."""
            aggregate.result = dict(self.result)

    class MatchEnded(Event):
        """The host ended the match early; everything sealed is disclosed after it."""

        reason: str

        def apply(self, aggregate: Match) -> None:
            """Record the reason and when: only disclosure may follow."""
            aggregate.ended = {"reason": self.reason, "at": format_time(self.timestamp)}

    class DealRevealed(Event):
        """A step's private deal is disclosed after the match."""

        step: int
        private: dict[str, Any]

        def apply(self, aggregate: Match) -> None:
            """Nothing changes in the game state."""
            del aggregate

    class SeedRevealed(Event):
        """The host seed is disclosed, so anyone can recompute every deal."""

        seed: str

        def apply(self, aggregate: Match) -> None:
            """The match is fully disclosed."""
            aggregate.disclosed = True

    # Attributes set by the events (declared for readers and type checkers).
    game: str
    options: dict[str, Any]
    players: list[str]
    origin: str
    custody: dict[str, str]
    player_keys: dict[str, str]
    credentials: dict[str, str]  # role -> token hash (the host, and each claimed seat)
    invites: dict[str, str]  # player -> invite hash, for each unclaimed seat
    seed_hash: str
    seed: bytes
    state: State
    result: dict[str, Any] | None
    name: str  # public; "" for none
    settings: dict[str, Any]  # auto_open, auto_seal, step_seconds (domain.match_settings)

    def __init__(self, **kwargs: Any) -> None:  # called by MatchCreated on replay
        """Start with nobody joined and no step; ``MatchCreated`` sets the rest."""
        del kwargs
        self.joined: set[str] = set()
        self.entropy: dict[str, str] = {}
        self.step = 0
        self.steps: dict[int, StepRecord] = {}
        self.used_commitments: set[str] = set()
        self.used_salts: set[str] = set()
        self.result = None
        self.ended: dict[str, str] | None = None
        self.disclosed = False

    def trigger_event(self, event_class: type[Any], **kwargs: Any) -> None:
        """Trigger an event no earlier than the match's last one.

        The service clock may step back (an NTP correction, another worker's clock); the
        log's times never do (verifiers refuse a time before the previous record's), so an
        event is dated at the later of its time and the previous event's. After an early
        end only disclosure is recorded.

        :raises MatchOver: for any other event once the match has ended.
        """
        if self.ended is not None and event_class not in _DISCLOSURE:
            self.check_not_ended()
        at = kwargs.get("timestamp")
        if isinstance(at, datetime) and at < self.modified_on:
            kwargs["timestamp"] = self.modified_on
        super().trigger_event(event_class, **kwargs)

    # ------------------------------------------------------------------ creation

    @classmethod
    def create(  # noqa: PLR0913
        cls,
        *,
        match_id: UUID,
        game: str,
        options: Mapping[str, Any],
        players: Sequence[str],
        origin: str,
        custody: Mapping[str, str],
        player_keys: Mapping[str, str],
        credentials: Mapping[str, str],
        invites: Mapping[str, str],
        seed: bytes,
        at: datetime,
        name: str = "",
        settings: Mapping[str, Any] | None = None,
    ) -> Match:
        """Create a match and commit to its host seed.

        ``credentials`` holds the host's token hash, ``invites`` each player's invite hash.
        ``name`` (trimmed) and ``settings`` (``auto_open``, ``auto_seal``, ``step_seconds``;
        default all off) are public; with no name and every setting off neither is recorded.

        :raises RulesError: for an unknown game, bad options or a bad player list.
        :raises MatchError: for a bad custody mode, name or setting.
        """
        name = match_name(name)
        chosen = match_settings(**recorded_settings(settings))
        named = (
            {"name": name, "settings": chosen} if name or chosen != recorded_settings(None) else {}
        )
        rules = get_rules(game)
        players = list(players)
        if any(not isinstance(p, str) or not p.strip() or p in ("host", "system") for p in players):
            msg = 'player names are non-empty text other than "host" and "system"'
            raise MatchError(msg)
        if len(set(players)) != len(players):
            msg = "player names must be different"
            raise MatchError(msg)
        normalised = rules.normalise_options(dict(options))
        try:  # the options go into the public log, whose leaves are canonical JSON
            canonical_json(normalised)
        except ValueError as exc:  # e.g. a whole number beyond 2**53
            msg = f"the options cannot be logged: {exc}"
            raise MatchError(msg) from None
        rules.setup(normalised, players)  # validates before anything is recorded
        for player, key in player_keys.items():
            if player not in players:
                msg = f"a key is registered for {player!r}, who is not a player"
                raise MatchError(msg)
            public_key_from_text(key)
        custody_map = {p: custody.get(p, SEALED_CUSTODY) for p in players}
        for player, mode in custody_map.items():
            if mode not in CUSTODY_MODES:
                msg = f"custody for {player!r} is {mode!r}; it is 'sealed' or 'self'"
                raise MatchError(msg)
        mid = canonical_match_id(str(match_id))
        match: Match = cls._create(
            cls.MatchCreated,
            id=match_id,
            timestamp=at,
            game=rules.name,
            rules_version=rules.version,
            options=normalised,
            players=players,
            origin=origin,
            custody=custody_map,
            player_keys=dict(player_keys),
            credentials=Sealed(dict(credentials), binding(mid, 1, "", "credentials")),
            invites=Sealed(
                {p: invites[p] for p in players if p in invites}, binding(mid, 1, "", "invites")
            ),
            **named,
        )
        match.trigger_event(
            cls.SeedCommitted,
            timestamp=at,
            seed_hash=seed_hash(seed),
            seed=Sealed(seed.hex(), match.bind("", "seed")),
        )
        return match

    # ------------------------------------------------------------------ the steps

    def open_step(
        self,
        at: datetime,
        *,
        deadline: str | None = None,
        deal: Mapping[str, Any] | None = None,
    ) -> int:
        """Open the next step, dealing from the seed or from an explicit ``deal``.

        :raises MatchOver, MatchError, BadDeal: when no step can open or the deal is bad.
        """
        self.check_not_finished()
        record = self.current
        if record is not None and record.status != StepStatus.RESOLVED:
            msg = f"step {record.number} is still {record.status}; it must resolve first"
            raise StepStillOpen(msg)
        spec = self.rules.next_step(self.state)
        if spec is None:  # pragma: no cover - finished matches are caught above
            msg = "the match has no further step"
            raise MatchOver(msg)
        number = self.step + 1
        source = DealSource.NONE
        dealt = Deal()
        if spec.needs_deal:
            if deal:
                dealt, source = self.rules.check_deal(self.state, deal), DealSource.EXPLICIT
            else:
                dealt = self.rules.deal(self.state, self.rng(f"deal/{number}"))
                source = DealSource.SEED
        elif deal:
            msg = "this step deals nothing, so it takes no deal"
            raise MatchError(msg)
        state = self.state
        if source is not DealSource.NONE:
            state = self.rules.apply_deal(state, dealt)
        self.trigger_event(
            self.StepOpened,
            timestamp=at,
            step=number,
            kind=spec.kind,
            submitters=list(spec.submitters),
            deadline=deadline,
            deal_source=source,
            deal=dict(dealt.public),
            private_deal=Sealed(dict(dealt.private), self.bind("", "private_deal")),
            view=self.rules.public_view(state),
        )
        return number

    def seal(self, at: datetime) -> None:
        """Close the open step; players who submitted nothing get the default.

        :raises StepNotOpen: when no step is open.
        """
        record = self.check_open_step()
        missing = [p for p in record.submitters if p not in record.commitments]
        self.trigger_event(
            self.StepSealed,
            timestamp=at,
            step=record.number,
            submitted=[p for p in record.submitters if p in record.commitments],
            missing=missing,
        )
        for player in missing:
            self._apply_default(record, player, "missing", at)

    def advance(
        self,
        at: datetime,
        *,
        openings_due: bool = False,
        decision_deadline: str | None = None,
    ) -> Advance:
        """Carry a sealed step as far as it can go; return where it stopped.

        Returns :attr:`~Advance.OPENINGS` (self-custody openings awaited),
        :attr:`~Advance.DECISION` (a player is asked), :attr:`~Advance.RESOLVED` or
        :attr:`~Advance.FINISHED`; :attr:`~Advance.IDLE` when no step is sealed. With
        ``openings_due`` the players whose openings have not arrived get the default.
        """
        self.check_not_ended()
        record = self.current
        if record is None or record.status != StepStatus.SEALED:
            if record is None or record.status == StepStatus.OPEN:
                return Advance.IDLE
            return Advance.RESOLVED
        waiting = record.awaiting_openings()
        if waiting and not openings_due:
            return Advance.OPENINGS
        for player in waiting:
            self._apply_default(record, player, "not-revealed", at)
        if self.rules.disclosure_for(self.options) is Disclosure.ON_RESOLVE:
            self.reveal_held(record, at)
        outcome = self.resolve_step(record)
        if isinstance(outcome, DecisionRequest):
            if len(record.requests) == len(record.decisions):
                self.trigger_event(
                    self.DecisionRequested,
                    timestamp=at,
                    step=record.number,
                    index=len(record.requests),
                    player=outcome.player,
                    kind=outcome.kind,
                    prompt=outcome.prompt,
                    default=outcome.default,
                    deadline=decision_deadline,
                )
            return Advance.DECISION
        self.trigger_event(
            self.StepResolved,
            timestamp=at,
            step=record.number,
            outcome=outcome.outcome,
            view=self.rules.public_view(outcome.state),
        )
        if not self.rules.is_finished(self.state):
            return Advance.RESOLVED
        self._finish(at)
        return Advance.FINISHED

    def decide(self, player: str, payload: Any, at: datetime, *, defaulted: bool = False) -> None:
        """Answer the pending decision request (``defaulted``: its deadline passed).

        :raises NoDecisionPending, BadDecision, MatchOver:
        """
        self.check_not_ended()
        pending = self.pending_request()
        if pending is None or pending[1].player != player:
            self._check_missed_decision(player, at)
            msg = f"no decision is asked of {player} now"
            raise NoDecisionPending(msg)
        index, request, deadline = pending
        record = self.steps[self.step]
        if not defaulted:
            self.check_deadline(deadline, at, "this decision")
        answer = (
            request.default
            if defaulted
            else self.rules.check_decision(record.state_at_open, request, payload)
        )
        self.trigger_event(
            self.DecisionMade,
            timestamp=at,
            step=record.number,
            index=index,
            player=player,
            payload=answer,
            defaulted=defaulted,
        )

    def end(self, reason: str, at: datetime) -> None:
        """The host ends the match early, for ``reason`` (trimmed, 1 to 300 characters).

        The match stops where it stands: an open or resolving step is neither sealed nor
        resolved and there is no result. Everything sealed is then disclosed as at a normal
        end: every pick held (sealed custody, and self-custody openings received) that is
        not public yet, the interrupted step's included, in step order; every private deal;
        the seed. A self-custody commitment never opened stays with its player.

        :raises MatchOver: once the match has finished or ended.
        :raises MatchError: for an empty, too long or control-character reason.
        """
        self.check_not_finished()
        self.trigger_event(self.MatchEnded, timestamp=at, reason=end_reason(reason))
        self._disclose(at)

    # ------------------------------------------------------------------ internals

    def _apply_default(self, record: StepRecord, player: str, reason: str, at: datetime) -> None:
        self.trigger_event(
            self.DefaultApplied,
            timestamp=at,
            step=record.number,
            player=player,
            payload=self.rules.default_pick(record.state_at_open, player),
            reason=reason,
        )

    def _finish(self, at: datetime) -> None:
        self.trigger_event(self.MatchFinished, timestamp=at, result=self.rules.result(self.state))
        self._disclose(at)

    def _disclose(self, at: datetime) -> None:
        """Reveal every pick held, every private deal and the seed (after the match)."""
        for record in self.steps.values():
            self.reveal_held(record, at)
        for record in self.steps.values():
            if record.deal_private:
                self.trigger_event(
                    self.DealRevealed, timestamp=at, step=record.number, private=record.deal_private
                )
        self.trigger_event(self.SeedRevealed, timestamp=at, seed=self.seed.hex())


_DISCLOSURE = (Match.SubmissionRevealed, Match.DealRevealed, Match.SeedRevealed)


__all__ = [
    "CUSTODY_MODES",
    "MAX_ENTROPY",
    "MAX_TIME_TEXT",
    "MAX_YEAR",
    "MIN_DISTINCT_SALT_BYTES",
    "MIN_YEAR",
    "SEALED_CUSTODY",
    "SELF_CUSTODY",
    "BadInvite",
    "BadSalt",
    "CommitmentReused",
    "DeadlinePassed",
    "Match",
    "MatchConflict",
    "MatchError",
    "MatchOver",
    "NoDecisionPending",
    "NotAPlayer",
    "RevealMismatch",
    "RulesError",
    "SeatTaken",
    "StepNotOpen",
    "StepRecord",
    "StepStillOpen",
    "actor",
    "check_salt_randomness",
    "format_time",
    "parse_time",
    "public_record",
    "token_hash",
]
