"""The event-sourced ``Match`` aggregate: one match's append-only log.

The life of a match (ARCHITECTURE.md), one event class each, in order::

    MatchCreated -> SeedCommitted -> PlayerJoined* ->
      ( StepOpened -> SubmissionCommitted* (amendments supersede) -> StepSealed
        -> DefaultApplied* -> OpeningReceived* (self-custody) -> SubmissionRevealed*
        -> (DecisionRequested -> DecisionMade)* -> StepResolved )+
    -> MatchFinished -> SubmissionRevealed* (at-end games) -> DealRevealed* -> SeedRevealed

Every event carries only public data, except fields holding :class:`~domain.sealed.Sealed`
values (a sealed pick and salt, the host seed, private deals, credential hashes), which
the service encrypts at rest and which the public record leaves out.

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
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.canonical import canonical_json
from domain.commitment import (
    CommitmentError,
    Opening,
    canonical_match_id,
    check_commitment_hex,
    commit,
)
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
from domain.sealed import Sealed
from domain.submission_signing import check_submission_signature, public_key_from_text

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

actor: ContextVar[str] = ContextVar("actor", default="system")
"""Who is acting: ``"host"``, a player id, or ``"system"`` (deadlines, automation)."""

SEALED_CUSTODY = "sealed"
SELF_CUSTODY = "self"
CUSTODY_MODES = (SEALED_CUSTODY, SELF_CUSTODY)
MAX_ENTROPY = 256


class MatchError(ValueError):
    """A command that the match's current state does not allow."""


class NotAPlayer(MatchError):
    """The name is not a player of this match, or not one asked in this step."""


class StepNotOpen(MatchError):
    """There is no step open for submissions."""


class CommitmentReused(MatchError):
    """A commitment already used in this match was submitted again."""


class NoDecisionPending(MatchError):
    """Nobody is asked for a decision, or not this player."""


class MatchOver(MatchError):
    """The match has finished."""


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
    deal_source: str
    deal_public: dict[str, Any]
    deal_private: dict[str, Any]
    state_at_open: State
    status: str = "open"  # open -> sealed -> resolved
    commitments: dict[str, str] = field(default_factory=dict)
    commitment_seqs: dict[str, int] = field(default_factory=dict)  # log position of each
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
        credentials: Sealed  # {role: token hash}

        def apply(self, aggregate: Match) -> None:
            """Set up the game state from the options and players."""
            aggregate.game = self.game
            aggregate.options = dict(self.options)
            aggregate.players = list(self.players)
            aggregate.origin = self.origin
            aggregate.custody = dict(self.custody)
            aggregate.player_keys = dict(self.player_keys)
            aggregate.credentials = dict(self.credentials.value)
            aggregate.state = aggregate.rules.setup(self.options, self.players)

    class SeedCommitted(Event):
        """The hash of the host seed is published; the seed itself stays sealed."""

        seed_hash: str
        seed: Sealed  # hex

        def apply(self, aggregate: Match) -> None:
            """Remember the seed for the deals."""
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
        deal_source: str  # "seed", "explicit" or "none"
        deal: dict[str, Any]
        private_deal: Sealed  # {player: private part}
        view: dict[str, Any]

        def apply(self, aggregate: Match) -> None:
            """Apply the deal to the game state."""
            private = dict(self.private_deal.value)
            state = aggregate.state
            if self.deal_source != "none":
                state = aggregate.rules.apply_deal(state, Deal(dict(self.deal), private))
            aggregate.state = state
            aggregate.step = self.step
            aggregate.steps[self.step] = StepRecord(
                number=self.step,
                kind=self.kind,
                submitters=list(self.submitters),
                deadline=self.deadline,
                deal_source=self.deal_source,
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
            record = aggregate.steps[self.step]
            record.commitments[self.player] = self.commitment
            record.commitment_seqs[self.player] = self.originator_version - 1
            record.signatures[self.player] = self.signature
            record.openings.pop(self.player, None)
            if self.opening.value is not None:
                record.openings[self.player] = dict(self.opening.value)
            aggregate.used_commitments.add(self.commitment)

    class StepSealed(Event):
        """No more submissions for the step."""

        step: int
        submitted: list[str]
        missing: list[str]

        def apply(self, aggregate: Match) -> None:
            """Close the step."""
            aggregate.steps[self.step].status = "sealed"

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
            aggregate.steps[self.step].openings[self.player] = dict(self.opening.value)

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
            record.status = "resolved"
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
    credentials: dict[str, str]
    seed_hash: str
    seed: bytes
    state: State
    result: dict[str, Any] | None

    def __init__(self, **kwargs: Any) -> None:  # called by MatchCreated on replay
        del kwargs
        self.joined: set[str] = set()
        self.entropy: dict[str, str] = {}
        self.step = 0
        self.steps: dict[int, StepRecord] = {}
        self.used_commitments: set[str] = set()
        self.result = None
        self.disclosed = False

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
        seed: bytes,
        at: datetime,
    ) -> Match:
        """Create a match and commit to its host seed.

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
            credentials=Sealed(dict(credentials)),
        )
        match.trigger_event(
            cls.SeedCommitted, timestamp=at, seed_hash=seed_hash(seed), seed=Sealed(seed.hex())
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
        if record is None or record.status != "sealed":
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

    def check_open_step(self, step: int | None = None) -> StepRecord:
        """:raises StepNotOpen: unless a step (``step`` if given) is open."""
        record = self.current
        if record is None or record.status != "open":
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
        """:raises SignatureError: when ``player`` registered a key and ``sig`` is not theirs."""
        key = self.player_keys.get(player)
        if key is not None:
            check_submission_signature(key, sig, self.match_id, record.number, player, commitment)

    # ------------------------------------------------------------------ commands

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
        if record is not None and record.status != "resolved":
            msg = f"step {record.number} has not resolved yet"
            raise MatchError(msg)
        spec = self.rules.next_step(self.state)
        if spec is None:  # pragma: no cover - finished matches are caught above
            msg = "the match has no further step"
            raise MatchOver(msg)
        number = self.step + 1
        source = "none"
        dealt = Deal()
        if spec.needs_deal:
            if deal:
                dealt, source = self.rules.check_deal(self.state, deal), "explicit"
            else:
                dealt, source = self.rules.deal(self.state, self.rng(f"deal/{number}")), "seed"
        elif deal:
            msg = "this step deals nothing, so it takes no deal"
            raise MatchError(msg)
        state = self.state if source == "none" else self.rules.apply_deal(self.state, dealt)
        self.trigger_event(
            self.StepOpened,
            timestamp=at,
            step=number,
            kind=spec.kind,
            submitters=list(spec.submitters),
            deadline=deadline,
            deal_source=source,
            deal=dict(dealt.public),
            private_deal=Sealed(dict(dealt.private)),
            view=self.rules.public_view(state),
        )
        return number

    def submit_sealed(  # noqa: PLR0913
        self,
        player: str,
        payload: Any,
        salt: bytes,
        at: datetime,
        *,
        step: int | None = None,
        signature: str | None = None,
    ) -> str:
        """Commit to ``payload`` in sealed custody and return the commitment.

        Submitting the same pick again returns the recorded commitment and records
        nothing; a different pick supersedes the earlier one until the step is sealed.

        :raises StepNotOpen, NotAPlayer, IllegalPick, CommitmentReused, MatchError:
        """
        record = self.check_open_step(step)
        self.check_submitter(record, player)
        if self.custody[player] != SEALED_CUSTODY:
            msg = f"{player!r} keeps custody of their picks; send a commitment, not a pick"
            raise MatchError(msg)
        pick = self.rules.check_pick(record.state_at_open, player, payload)
        earlier = record.openings.get(player)
        if earlier is not None and earlier["payload"] == pick:
            return record.commitments[player]
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

        :raises StepNotOpen, NotAPlayer, CommitmentError, CommitmentReused, MatchError:
        """
        record = self.check_open_step(step)
        self.check_submitter(record, player)
        if self.custody[player] != SELF_CUSTODY:
            msg = f"{player!r} is in sealed custody; send the pick itself"
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
        if record is None or record.status != "sealed" or record.requests:
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
            opening=Sealed(opening.to_json()),
        )

    def advance(
        self,
        at: datetime,
        *,
        openings_due: bool = False,
        decision_deadline: str | None = None,
    ) -> str:
        """Carry a sealed step as far as it can go; return where it stopped.

        Returns ``"openings"`` (self-custody openings awaited), ``"decision"`` (a player
        is asked), ``"resolved"`` or ``"finished"``. With ``openings_due`` the players
        whose openings have not arrived get the default.
        """
        record = self.current
        if record is None or record.status != "sealed":
            return "idle" if record is None or record.status == "open" else "resolved"
        waiting = record.awaiting_openings()
        if waiting and not openings_due:
            return "openings"
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
            return "decision"
        self.trigger_event(
            self.StepResolved,
            timestamp=at,
            step=record.number,
            outcome=outcome.outcome,
            view=self.rules.public_view(outcome.state),
        )
        if not self.rules.is_finished(self.state):
            return "resolved"
        self._finish(at)
        return "finished"

    def decide(self, player: str, payload: Any, at: datetime, *, defaulted: bool = False) -> None:
        """Answer the pending decision request (``defaulted``: its deadline passed).

        :raises NoDecisionPending, BadDecision:
        """
        pending = self.pending_request()
        if pending is None or pending[1].player != player:
            msg = f"no decision is asked of {player!r}"
            raise NoDecisionPending(msg)
        index, request, _ = pending
        record = self.steps[self.step]
        answer = request.default if defaulted else self.rules.check_decision(
            record.state_at_open, request, payload
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

    def _commit(  # noqa: PLR0913
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
            opening=Sealed(opening),
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


def format_time(moment: datetime) -> str:
    """RFC 3339 UTC text with microseconds, e.g. ``2026-11-21T00:56:30.000000Z``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_time(text: str) -> datetime:
    """Parse an RFC 3339 time (deadlines, ``at``); a time without a zone is taken as UTC.

    :raises MatchError: when it is not a time.

    >>> format_time(parse_time("2026-11-21T20:00:00Z"))
    '2026-11-21T20:00:00.000000Z'
    """
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (TypeError, ValueError, AttributeError):
        msg = f"{text!r} is not an RFC 3339 time such as 2026-11-21T20:00:00Z"
        raise MatchError(msg) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


__all__ = [
    "CUSTODY_MODES",
    "SEALED_CUSTODY",
    "SELF_CUSTODY",
    "CommitmentReused",
    "Match",
    "MatchError",
    "MatchOver",
    "NoDecisionPending",
    "NotAPlayer",
    "RulesError",
    "StepNotOpen",
    "StepRecord",
    "actor",
    "format_time",
    "parse_time",
    "public_record",
    "token_hash",
]
