"""The event-sourced ``Match`` aggregate: one match's append-only log.

The life of a match (ARCHITECTURE.md), one event class each, in order::

    MatchCreated -> SeedCommitted -> (SeatClaimed | SeatReinvited | PlayerJoined)* ->
      ( StepOpened -> SubmissionCommitted* (amendments supersede) -> StepSealed
        -> DefaultApplied* -> OpeningReceived* (self-custody) -> SubmissionRevealed*
        -> (DecisionRequested -> DecisionMade)* -> StepResolved )+
    -> MatchFinished -> SubmissionRevealed* (at-end games) -> DealRevealed* -> SeedRevealed

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
"""

from __future__ import annotations

import hashlib
import hmac
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from eventsourcing.domain import Aggregate

from domain.canonical import canonical_json
from domain.commitment import (
    CommitmentError,
    Opening,
    canonical_match_id,
    check_commitment_hex,
    commit,
)
from domain.errors import Conflict, Refused, UserError
from domain.fairrand import Rng, seed_hash
from domain.rules import get_rules
from domain.rules.base import (
    Deal,
    DecisionRequest,
    Disclosure,
    Payload,
    Resolution,
    Rules,
    RulesError,
    State,
)
from domain.sealed import Sealed, binding
from domain.submission_signing import (
    SignatureError,
    check_submission_signature,
    public_key_from_text,
)
from domain.vocabulary import Advance, Custody, DealSource, StepStatus

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from uuid import UUID

actor: ContextVar[str] = ContextVar("actor", default="system")
"""Who is acting: ``"host"``, a player id, or ``"system"`` (deadlines, automation)."""

SEALED_CUSTODY = Custody.SEALED
SELF_CUSTODY = Custody.SELF
CUSTODY_MODES = tuple(Custody)
MAX_ENTROPY = 256


class MatchError(UserError):
    """A command that the match's current state does not allow."""


class MatchConflict(MatchError, Conflict):
    """A command that is well formed but conflicts with where the match stands (HTTP 409)."""


class NotAPlayer(MatchError):
    """The name is not a player of this match, or not one asked in this step."""


class StepNotOpen(MatchConflict):
    """There is no step open for submissions."""


class DeadlinePassed(StepNotOpen):
    """The step's (or the decision's) deadline has passed."""


class StepStillOpen(MatchConflict):
    """The current step has not resolved, so the next one cannot open."""


class CommitmentReused(MatchConflict):
    """A commitment already used in this match was submitted again."""


class NoDecisionPending(MatchConflict):
    """Nobody is asked for a decision, or not this player."""


class MatchOver(MatchConflict):
    """The match has finished."""


class SeatTaken(MatchConflict):
    """The seat was already claimed with its invite."""


class BadInvite(MatchError, Refused):
    """The invite is not this seat's current invite."""


class BadSalt(MatchError):
    """A client-chosen salt that was used before in the match or is not random."""


class RevealMismatch(RuntimeError):
    """A stored opening does not open its recorded commitment: the store was altered.

    An operator's problem, never a user's (not a ``ValueError``): nothing is recorded.
    """


MIN_DISTINCT_SALT_BYTES = 16


def check_salt_randomness(salt: bytes) -> None:
    """:raises BadSalt: for a salt that is obviously not random.

    A salt is 32 random bytes; one with a single repeated byte value, or fewer than 16
    distinct byte values among its 32 (a uniformly random salt has about 26), would let
    anyone recover a small pick from its public commitment.

    >>> check_salt_randomness(bytes(range(32)))
    >>> check_salt_randomness(bytes(32))  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    domain.match.BadSalt: the salt is not random (1 distinct byte values in 32);
    draw 32 random bytes
    """
    distinct = len(set(salt))
    if distinct < MIN_DISTINCT_SALT_BYTES:
        msg = (
            f"the salt is not random ({distinct} distinct byte values in {len(salt)}); "
            "draw 32 random bytes"
        )
        raise BadSalt(msg)


def token_hash(token: str) -> str:
    """Return the stored form of a credential (SHA-256 hex of the token's UTF-8 bytes)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class StepRecord:
    """What the aggregate knows of one step (private parts included)."""

    number: int
    kind: str
    submitters: list[str]
    deadline: str | None
    deal_source: DealSource
    deal_public: dict[str, Any]
    deal_private: dict[str, Any]
    state_at_open: State
    status: StepStatus = StepStatus.OPEN  # open -> sealed -> resolved
    commitments: dict[str, str] = field(default_factory=dict)
    openings: dict[str, dict[str, Any]] = field(default_factory=dict)
    signatures: dict[str, str | None] = field(default_factory=dict)
    defaults: dict[str, Payload] = field(default_factory=dict)
    revealed: set[str] = field(default_factory=set)
    requests: list[DecisionRequest] = field(default_factory=list)
    request_deadlines: list[str | None] = field(default_factory=list)
    decisions: list[Payload] = field(default_factory=list)
    outcome: dict[str, Any] | None = None

    def picks(self) -> dict[str, Payload]:
        """Each submitter's pick: the opened payload, or the default applied."""
        out: dict[str, Payload] = {}
        for player in self.submitters:
            if player in self.defaults:
                out[player] = self.defaults[player]
            else:
                out[player] = self.openings[player]["payload"]
        return out

    def awaiting_openings(self) -> list[str]:
        """Self-custody submitters whose opening has not arrived (and no default yet)."""
        return [
            p
            for p in self.submitters
            if p in self.commitments and p not in self.openings and p not in self.defaults
        ]


class Match(Aggregate):
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
        self.disclosed = False

    def trigger_event(self, event_class: type[Any], **kwargs: Any) -> None:
        """Trigger an event no earlier than the match's last one.

        The service clock may step back (an NTP correction, another worker's clock); the
        log's times never do (verifiers refuse a time before the previous record's), so an
        event is dated at the later of its time and the previous event's.
        """
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
    ) -> Match:
        """Create a match and commit to its host seed.

        ``credentials`` holds the host's token hash, ``invites`` each player's invite hash.

        :raises RulesError: for an unknown game, bad options or a bad player list.
        :raises MatchError: for a bad custody mode.
        """
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
        )
        match.trigger_event(
            cls.SeedCommitted,
            timestamp=at,
            seed_hash=seed_hash(seed),
            seed=Sealed(seed.hex(), match.bind("", "seed")),
        )
        return match

    # ------------------------------------------------------------------ queries

    @property
    def rules(self) -> Rules:
        """The game's rules module."""
        return get_rules(self.game)

    @property
    def match_id(self) -> str:
        """The canonical lowercase UUID text of this match."""
        return canonical_match_id(str(self.id))

    @property
    def finished(self) -> bool:
        """Whether the match has finished."""
        return self.result is not None

    @property
    def current(self) -> StepRecord | None:
        """The latest step, if any."""
        return self.steps.get(self.step)

    def bind(self, player: str, field: str) -> str:
        """The binding of a sealed ``field`` of the next event (see :mod:`domain.sealed`)."""
        return binding(self.match_id, self.version + 1, player, field)

    def seats(self) -> dict[str, dict[str, Any]]:
        """Each seat: whether it is claimed, and the signing key it registered (public)."""
        return {
            p: {"claimed": p in self.credentials, "public_key": self.player_keys.get(p)}
            for p in self.players
        }

    def rng(self, purpose: str) -> Rng:
        """The fair-randomness stream for ``purpose`` (e.g. ``"deal/3"``)."""
        return Rng(self.seed, self.match_id, purpose, self.entropy)

    def check_credential(self, role: str, token: str) -> bool:
        """Whether ``token`` is the credential of ``role`` (constant-time comparison)."""
        stored = self.credentials.get(role)
        if stored is None or not isinstance(token, str):
            return False
        return hmac.compare_digest(stored, token_hash(token))

    def public_view(self) -> dict[str, Any]:
        """The public game state now."""
        return self.rules.public_view(self.state)

    def private_view(self, player: str) -> dict[str, Any]:
        """What ``player`` alone may see now."""
        return self.rules.private_view(self.state, player)

    def pending_request(self) -> tuple[int, DecisionRequest, str | None] | None:
        """The open decision request of the current step: (index, request, deadline)."""
        record = self.current
        if record is None or record.status != StepStatus.SEALED:
            return None
        if len(record.requests) > len(record.decisions):
            index = len(record.decisions)
            return index, record.requests[index], record.request_deadlines[index]
        return None

    def resolve_step(self, record: StepRecord) -> Resolution | DecisionRequest:
        """Run the rules' resolution of ``record`` with the decisions made so far."""
        return self.rules.resolve(
            record.state_at_open,
            record.picks(),
            list(record.decisions),
            self.rng(f"resolve/{record.number}"),
        )

    # ------------------------------------------------------------------ guards

    def check_not_finished(self) -> None:
        """:raises MatchOver: once the match has finished."""
        if self.finished:
            msg = "the match has finished"
            raise MatchOver(msg)

    def check_player(self, player: str) -> None:
        """:raises NotAPlayer: unless ``player`` plays in this match."""
        if player not in self.players:
            msg = f"{player!r} is not a player of this match"
            raise NotAPlayer(msg)

    def check_open_step(self, step: int | None = None, at: datetime | None = None) -> StepRecord:
        """:raises StepNotOpen: unless a step (``step`` if given) is open (at ``at``).

        :raises DeadlinePassed: when the step's deadline has passed at ``at``.
        """
        record = self.current
        if record is not None and at is not None:
            self.check_deadline(record.deadline, at, f"step {record.number}")
        if record is None or record.status != StepStatus.OPEN:
            msg = "no step is open for submissions"
            raise StepNotOpen(msg)
        if step is not None and step != record.number:
            msg = f"step {step} is not open; step {record.number} is"
            raise StepNotOpen(msg)
        return record

    def check_submitter(self, record: StepRecord, player: str) -> None:
        """:raises NotAPlayer: unless ``player`` is asked to submit in ``record``."""
        self.check_player(player)
        if player not in record.submitters:
            msg = f"{player!r} is not asked to submit in step {record.number}"
            raise NotAPlayer(msg)

    def check_unused(self, commitment: str) -> None:
        """:raises CommitmentReused: if this match has seen ``commitment`` before."""
        if commitment in self.used_commitments:
            msg = "this commitment was already used in this match; commit with a fresh salt"
            raise CommitmentReused(msg)

    def check_signature(self, record: StepRecord, player: str, commitment: str, sig: Any) -> None:
        """:raises SignatureError: unless ``sig`` fits the player's key.

        A player with a registered key must sign; a player without one must not send a
        signature (nobody could check it, and the log must stay verifiable).
        """
        key = self.player_keys.get(player)
        if key is not None:
            check_submission_signature(key, sig, self.match_id, record.number, player, commitment)
        elif sig is not None:
            msg = (
                f"{player} registered no signing key when claiming the seat, so a submission "
                "cannot carry a signature; send it without one"
            )
            raise SignatureError(msg)

    def check_deadline(self, deadline: str | None, at: datetime, what: str) -> None:
        """:raises DeadlinePassed: when ``at`` is past ``deadline``."""
        if deadline is not None and at > parse_time(deadline):
            msg = f"the deadline of {what} passed at {deadline}; it takes nothing more"
            raise DeadlinePassed(msg)

    def overdue(self, at: datetime) -> str | None:
        """What falls due at ``at``: ``"seal"`` (an open step), ``"decision"`` or ``None``."""
        record = self.current
        if record is None or self.finished:
            return None
        if record.status == StepStatus.OPEN and record.deadline is not None:
            return "seal" if at > parse_time(record.deadline) else None
        pending = self.pending_request()
        if pending is not None and pending[2] is not None and at > parse_time(pending[2]):
            return "decision"
        return None

    # ------------------------------------------------------------------ commands

    def claim(
        self, player: str, invite: str, credential: str, public_key: str | None, at: datetime
    ) -> None:
        """Claim ``player``'s seat with its invite; ``credential`` is the new token's hash.

        :raises NotAPlayer, SeatTaken, BadInvite, SignatureError: for a stranger, a seat
            already claimed, a wrong invite or a malformed key.
        """
        self.check_player(player)
        stored = self.invites.get(player)
        if stored is None:
            msg = (
                f"the seat of {player} was already claimed; if that was not you, ask the host "
                "for a new invite"
            )
            raise SeatTaken(msg)
        if not isinstance(invite, str) or not hmac.compare_digest(stored, token_hash(invite)):
            msg = f"that is not the current invite for {player}'s seat"
            raise BadInvite(msg)
        if public_key is not None:
            public_key_from_text(public_key)
        self.trigger_event(
            self.SeatClaimed,
            timestamp=at,
            player=player,
            public_key=public_key,
            credential=Sealed(credential, self.bind(player, "credential")),
        )

    def reinvite(self, player: str, invite: str, at: datetime) -> None:
        """Issue a new invite for ``player``'s seat (``invite`` is its hash).

        The seat's credential and key are revoked; the new invite alone can claim it.

        :raises NotAPlayer:
        """
        self.check_player(player)
        self.trigger_event(
            self.SeatReinvited,
            timestamp=at,
            player=player,
            invite=Sealed(invite, self.bind(player, "invite")),
        )

    def join(self, player: str, entropy: str | None, at: datetime) -> bool:
        """Take a seat, optionally adding public entropy before the first deal.

        Joining twice is harmless (returns ``False``, records nothing).

        :raises NotAPlayer, MatchError: for a stranger, or entropy after the first deal.
        """
        self.check_player(player)
        if entropy is not None:
            if not isinstance(entropy, str) or not entropy or len(entropy) > MAX_ENTROPY:
                msg = f"entropy is text of 1 to {MAX_ENTROPY} characters"
                raise MatchError(msg)
            if self.steps:
                msg = "entropy can only be added before the first deal"
                raise MatchError(msg)
        if player in self.joined and (entropy is None or self.entropy.get(player) == entropy):
            return False
        if player in self.joined:
            msg = f"{player!r} has already joined; entropy is given once, when joining"
            raise MatchError(msg)
        self.trigger_event(self.PlayerJoined, timestamp=at, player=player, entropy=entropy)
        return True

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

    def submit_sealed(
        self,
        player: str,
        payload: Any,
        salt: bytes,
        at: datetime,
        *,
        step: int | None = None,
        signature: str | None = None,
        client_salt: bool = False,
    ) -> str:
        """Commit to ``payload`` in sealed custody and return the commitment.

        Submitting the same pick again returns the recorded commitment and records
        nothing, when the service draws the salt (``client_salt`` false) or the client
        sends the same salt again; the same pick with a new client salt is a new
        commitment, an amendment like a different pick, until the step is sealed.

        :raises StepNotOpen, DeadlinePassed, NotAPlayer, IllegalPick, CommitmentReused,
            BadSalt, MatchError:
        """
        record = self.check_open_step(step, at)
        self.check_submitter(record, player)
        if self.custody[player] != SEALED_CUSTODY:
            msg = f"{player} keeps custody of their picks; send a commitment, not a pick"
            raise MatchError(msg)
        pick = self.rules.check_pick(record.state_at_open, player, payload)
        earlier = record.openings.get(player)
        if (
            earlier is not None
            and earlier["payload"] == pick
            and (not client_salt or earlier["salt"] == salt.hex())
        ):
            return record.commitments[player]
        if client_salt:
            check_salt_randomness(salt)
            if salt.hex() in self.used_salts:
                msg = "this salt was already used in this match; draw a fresh random salt"
                raise BadSalt(msg)
        commitment = commit(self.match_id, record.number, player, pick, salt)
        opening = {"payload": pick, "salt": salt.hex()}
        return self._commit(record, player, commitment, signature, opening, at)

    def submit_commitment(
        self,
        player: str,
        commitment: str,
        at: datetime,
        *,
        step: int | None = None,
        signature: str | None = None,
    ) -> str:
        """Record a self-custody commitment (the pick stays with the player).

        :raises StepNotOpen, DeadlinePassed, NotAPlayer, CommitmentError, CommitmentReused,
            MatchError:
        """
        record = self.check_open_step(step, at)
        self.check_submitter(record, player)
        if self.custody[player] != SELF_CUSTODY:
            msg = f"{player} is in sealed custody; send the pick itself"
            raise MatchError(msg)
        commitment = check_commitment_hex(commitment)
        if record.commitments.get(player) == commitment:
            return commitment
        return self._commit(record, player, commitment, signature, None, at)

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

    def open_commitment(
        self, player: str, step: int, payload: Any, salt_hex: str, at: datetime
    ) -> None:
        """A self-custody player opens their commitment after the step is sealed.

        :raises MatchError, CommitmentError, IllegalPick: when it does not open the
            commitment, comes too late or the pick is not legal.
        """
        record = self.steps.get(step)
        if record is None or record.status != StepStatus.SEALED or record.requests:
            msg = f"step {step} is not waiting for openings"
            raise MatchError(msg)
        commitment = record.commitments.get(player)
        if commitment is None or self.custody[player] != SELF_CUSTODY:
            msg = f"{player!r} has no self-custody commitment in step {step}"
            raise MatchError(msg)
        if player in record.openings or player in record.defaults:
            msg = f"{player!r} has already opened (or defaulted) in step {step}"
            raise MatchError(msg)
        opening = Opening(payload, salt_hex)
        if not opening.opens(commitment, self.match_id, step, player):
            msg = "this payload and salt do not open your commitment"
            raise CommitmentError(msg)
        pick = self.rules.check_pick(record.state_at_open, player, payload)
        if pick != payload:
            msg = "the pick is not in its normal form; commit to the normal form"
            raise MatchError(msg)
        self.trigger_event(
            self.OpeningReceived,
            timestamp=at,
            step=step,
            player=player,
            commitment=commitment,
            opening=Sealed(opening.to_json(), self.bind(player, "opening")),
        )

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
        if self.rules.disclosure is Disclosure.ON_RESOLVE:
            self._reveal(record, at)
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

        :raises NoDecisionPending, BadDecision:
        """
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

    # ------------------------------------------------------------------ internals

    def _check_missed_decision(self, player: str, at: datetime) -> None:
        """:raises DeadlinePassed: when ``player``'s last decision went by its deadline."""
        record = self.current
        if record is None:
            return
        answered = range(min(len(record.requests), len(record.decisions)))
        for index in reversed(answered):
            if record.requests[index].player == player:
                deadline = record.request_deadlines[index]
                if deadline is not None and at > parse_time(deadline):
                    msg = f"the deadline of this decision passed at {deadline}; the default applied"
                    raise DeadlinePassed(msg)
                return

    def _commit(
        self,
        record: StepRecord,
        player: str,
        commitment: str,
        signature: str | None,
        opening: dict[str, Any] | None,
        at: datetime,
    ) -> str:
        """Record a (new or amending) commitment; the opening is sealed with it, if any."""
        self.check_signature(record, player, commitment, signature)
        self.check_unused(commitment)
        self.trigger_event(
            self.SubmissionCommitted,
            timestamp=at,
            step=record.number,
            player=player,
            commitment=commitment,
            custody=self.custody[player],
            supersedes=record.commitments.get(player),
            signature=signature,
            opening=Sealed(opening, self.bind(player, "opening")),
        )
        return commitment

    def _apply_default(self, record: StepRecord, player: str, reason: str, at: datetime) -> None:
        self.trigger_event(
            self.DefaultApplied,
            timestamp=at,
            step=record.number,
            player=player,
            payload=self.rules.default_pick(record.state_at_open, player),
            reason=reason,
        )

    def _reveal(self, record: StepRecord, at: datetime) -> None:
        for player in record.submitters:
            opening = record.openings.get(player)
            if opening is None or player in record.revealed or player in record.defaults:
                continue
            commitment = commit(
                self.match_id,
                record.number,
                player,
                opening["payload"],
                bytes.fromhex(opening["salt"]),
            )
            if commitment != record.commitments[player]:
                msg = (
                    f"the stored pick of {player} in step {record.number} does not open the "
                    "commitment recorded for it: the store was altered; nothing is revealed"
                )
                raise RevealMismatch(msg)
            self.trigger_event(
                self.SubmissionRevealed,
                timestamp=at,
                step=record.number,
                player=player,
                commitment=record.commitments[player],
                payload=opening["payload"],
                salt=opening["salt"],
            )

    def _finish(self, at: datetime) -> None:
        self.trigger_event(self.MatchFinished, timestamp=at, result=self.rules.result(self.state))
        for record in self.steps.values():
            self._reveal(record, at)
        for record in self.steps.values():
            if record.deal_private:
                self.trigger_event(
                    self.DealRevealed, timestamp=at, step=record.number, private=record.deal_private
                )
        self.trigger_event(self.SeedRevealed, timestamp=at, seed=self.seed.hex())


def public_record(event: Match.Event) -> dict[str, Any]:
    """The public record of an event: ``{"seq", "type", "at", "data"}``.

    ``seq`` is the 0-based position in the match log; ``at`` is RFC 3339 UTC with
    microseconds; ``data`` holds every field except the sealed ones and the library's
    bookkeeping (id, version, timestamp, topic).
    """
    data = {
        key: value
        for key, value in event.__dict__.items()
        if key not in _BOOKKEEPING and not isinstance(value, Sealed)
    }
    return {
        "seq": event.originator_version - 1,
        "type": type(event).__name__,
        "at": format_time(event.timestamp),
        "data": data,
    }


_BOOKKEEPING = frozenset({"originator_id", "originator_version", "timestamp", "originator_topic"})


MAX_TIME_TEXT = 64
MIN_YEAR = 1970
MAX_YEAR = 9998


def format_time(moment: datetime) -> str:
    """RFC 3339 UTC text with microseconds, e.g. ``2026-11-21T00:56:30.000000Z``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _parse_utc(text: str) -> datetime:
    """Parse ``text`` as a time in UTC, raising what :func:`parse_time` turns into its error."""
    if len(text) > MAX_TIME_TEXT:
        raise ValueError
    # Not fromisoformat's own "Z": replacing every "Z" also takes a date with one (2026-11-21Z).
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))  # noqa: FURB162 - see above
    moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)  # out of range near year 1 and 9999: OverflowError


def parse_time(text: str) -> datetime:
    """Parse an RFC 3339 time (deadlines, ``at``); a time without a zone is taken as UTC.

    :raises MatchError: when it is not a time.

    >>> format_time(parse_time("2026-11-21T20:00:00Z"))
    '2026-11-21T20:00:00.000000Z'
    """
    shown = text[:40] if isinstance(text, str) else type(text).__name__
    try:
        moment = _parse_utc(text)
    except (TypeError, ValueError, AttributeError, OverflowError):
        msg = f"{shown} is not an RFC 3339 time such as 2026-11-21T20:00:00Z"
        raise MatchError(msg) from None
    if not MIN_YEAR <= moment.year <= MAX_YEAR:
        msg = f"{shown} is out of range: times are between the years {MIN_YEAR} and {MAX_YEAR}"
        raise MatchError(msg)
    return moment


__all__ = [
    "CUSTODY_MODES",
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
    "format_time",
    "parse_time",
    "public_record",
    "token_hash",
]
