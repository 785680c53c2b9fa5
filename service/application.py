"""The dealerroom application: use cases over the event-sourced ``Match``.

Each use case gets the match, commands it, and saves it. The clock and randomness enter
here (``clock``, ``random_bytes``), never in ``domain/``. A save that conflicts with a
concurrent save of the same match is retried with jittered exponential backoff; the
command re-runs on the fresh state, so an idempotent command (the same pick submitted
twice) records nothing the second time.
"""

from __future__ import annotations

import hmac
import os
import random
import secrets
import threading
import time
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, OperationalError, Recording
from eventsourcing.utils import register_topic
from sqlalchemy.exc import OperationalError as SAOperationalError

from domain.commitment import CommitmentError, canonical_match_id, salt_from_hex
from domain.errors import Missing
from domain.fairrand import SEED_SIZE
from domain.imported import LEGACY_TOPIC, ImportedMatch, ImportedMatchError
from domain.match import (
    Match,
    MatchConflict,
    MatchError,
    actor,
    format_time,
    parse_time,
    public_record,
    token_hash,
)
from domain.signed_note import Signer
from service.archive import imported_status
from service.faults import StoreUnavailable, is_conflict, store_moved
from service.grants import Grants, made_from
from service.group_commit import MatchBatches, Work
from service.keys import check_keys
from service.match_locks import MatchTurns
from service.names import as_recorded, check_player_names
from service.readmodel import MatchIndex
from service.running import SYSTEM, carry_on, match_status
from service.sealing import SealedTranscoding
from service.seat_notes import SeatNotes, as_seat
from service.sqlite_pragmas import tune_sqlite

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping, Sequence

    from domain.vocabulary import Advance
    from service.config import Settings

T = TypeVar("T")

HOST = "host"
RETRY_SECONDS = 10.0  # how long a command keeps retrying lost save races before a 503
MAX_BACKOFF = 0.25  # the longest wait between two tries (jittered below it)
STORE_BUSY = "the match is too busy right now; try again in a moment"
TURN_STRIPES = 256  # locks that commands on the same match take turns on, per process
STANDING_PAGE = 64  # events read at a time, newest first, to find a repeated commitment
LEGAL_SHOWN = 400  # legal picks listed for a page to check against; more: the page checks itself
RECEIPTS_SHOWN = 500  # a player's latest commitments whose receipts are given again

# Imported matches were service.archive's until issue 15; events stored then name it there.
register_topic(LEGACY_TOPIC, ImportedMatch)


def _pending(obj: Any) -> list[Any]:
    """The events a save of ``obj`` (an aggregate or an event) records."""
    return list(getattr(obj, "pending_events", [obj]))


def _back_off(attempt: int) -> None:
    """Wait before another try: jittered, doubling from 5 ms, at most :data:`MAX_BACKOFF`."""
    time.sleep(random.uniform(0, min(MAX_BACKOFF, 0.005 * 2 ** min(attempt, 10))))  # noqa: S311


class NotFound(Missing):
    """No match has that id."""


class MatchIdTaken(MatchConflict):
    """A match with the requested id exists already."""


def utcnow() -> datetime:
    """The current UTC time, to the microsecond."""
    return datetime.now(tz=UTC)


class DealerRoom(Application[UUID]):
    """Matches, their sealed picks and their public logs."""

    name = "DealerRoom"

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Callable[[], datetime] = utcnow,
        random_bytes: Callable[[int], bytes] = os.urandom,
        decision_seconds: int = 300,
        reveal_seconds: int = 300,
        env: Mapping[str, str] | None = None,
    ) -> None:
        """Open the store of ``settings``, its read model and transparency log; check the keys."""
        self.settings = settings
        self.clock = clock
        self.random_bytes = random_bytes
        self.decision_window = timedelta(seconds=decision_seconds)
        self.reveal_window = timedelta(seconds=reveal_seconds)
        persistence = {
            "PERSISTENCE_MODULE": "service.event_recorder:Factory",  # one-statement inserts
            "SQLALCHEMY_URL": settings.database_url,
            "AGGREGATE_CACHE_MAXSIZE": "256",
            "MAPPER_TOPIC": "service.sealing:SealingMapper",  # unreadable events: server faults
        }
        if settings.db_schema:
            persistence["SQLALCHEMY_SCHEMA"] = settings.db_schema
        persistence.update(env or {})
        super().__init__(env=persistence)
        datastore = self.factory.datastore  # type: ignore[attr-defined]
        tune_sqlite(datastore.engine, settings.sqlite_synchronous)  # WAL, fsync, busy wait
        self.index = MatchIndex(
            datastore.engine,
            settings.db_schema,
            self.recorder.select_notifications,
            self.mapper.to_domain_event,
            Signer(settings.origin.split("/")[0], settings.signing_seed),
            settings.origin,
        )
        self.tlog = self.index.log
        self.grants = Grants(datastore.engine, settings.db_schema)
        self._turns = [threading.Lock() for _ in range(TURN_STRIPES)]
        self.match_turns = MatchTurns(datastore.engine)  # workers sharing a match wait
        self._batches = MatchBatches(self)
        self.seats = SeatNotes(self.index, self._current)
        check_keys(self)  # a store with events is served only with the keys it was made with

    def close(self) -> None:
        """Close the store and release every pooled connection."""
        super().close()
        engine = getattr(self.factory.datastore, "engine", None)  # type: ignore[attr-defined]
        if engine is not None:
            engine.dispose()

    def register_transcodings(self, transcoder: Any) -> None:
        """Sealed fields are encrypted at rest."""
        super().register_transcodings(transcoder)
        transcoder.register(SealedTranscoding(self.settings.sealing_keys))

    # ------------------------------------------------------------------ plumbing

    def now(self) -> datetime:
        """The service clock, truncated to whole microseconds in UTC."""
        return self.clock().astimezone(UTC)

    @staticmethod
    def match_key(match_id: str | UUID) -> UUID:
        """The UUID of a match id given as text.

        :raises NotFound: for a malformed id.
        """
        try:
            return UUID(canonical_match_id(str(match_id)))
        except CommitmentError:
            msg = f"{match_id!r} is not a match id"
            raise NotFound(msg) from None

    def get_match(self, match_id: str | UUID) -> Match:
        """Load a match.

        :raises NotFound: for an unknown or malformed id.
        """
        key = self.match_key(match_id)
        try:
            match: object = self.repository.get(key)
        except AggregateNotFoundError:
            msg = f"no match {key}"
            raise NotFound(msg) from None
        if isinstance(match, ImportedMatch):
            msg = (
                f"match {key} was imported from {match.summary['host']}: it is a read-only "
                "record here (its records, checkpoints and bundle can be read)"
            )
            raise ImportedMatchError(msg)
        if not isinstance(match, Match):  # pragma: no cover - foreign aggregate
            msg = f"no match {key}"
            raise NotFound(msg)
        return match

    def save(self, *objs: Any, **kwargs: Any) -> list[Recording[UUID]]:
        """Save aggregates and project their events, in one transaction (:meth:`save_projected`)."""
        return self.save_projected(*objs, **kwargs)[0]

    def save_projected(
        self, *objs: Any, **kwargs: Any
    ) -> tuple[list[Recording[UUID]], dict[str, tuple[int, str]]]:
        """Save, with the read model, Merkle leaves and signed checkpoints, in one transaction.

        The projection runs first, so on PostgreSQL the event table's lock (taken by the
        library to keep notification ids in commit order) is held only for the insert and
        commit. A failed save writes nothing and drops its matches' cached Merkle trees.
        Return the recordings and each match's new ``(size, note)``.
        """
        events = [e for obj in objs if obj is not None for e in _pending(obj)]
        touched = sorted({str(e.originator_id) for e in events})
        matches = [obj for obj in objs if isinstance(obj, Match)]
        pending = self.seats.pend(matches)
        try:
            with self.recorder.transaction(commit=True) as session:  # type: ignore[attr-defined]
                heads = self.index.project(session.connection(), events)
                recordings = super().save(*objs, **kwargs)
        except BaseException:
            pending.failed()
            self.index.forget(touched)
            raise
        pending.committed(matches)
        return recordings, heads

    def _command(self, match_id: str | UUID, who: str, command: Callable[[Match], T]) -> T:
        """Run ``command`` on the match and save; return what the command returned.

        Commands that arrive together share one transaction (:meth:`_recorded_command`).
        """
        return self._recorded_command(match_id, who, command)[0]

    def _recorded_command(
        self, match_id: str | UUID, who: str, command: Callable[[Match], T]
    ) -> tuple[T, list[Any], tuple[int, str] | None]:
        """Run ``command`` on the match and save it durably, grouped with its neighbours.

        Return what the command returned, the events it recorded (none for an idempotent
        repeat) and the match's checkpoint ``(size, note)`` after the save. A command that
        raises records nothing. The batch (:class:`MatchBatches`) saves what its commands
        recorded in one transaction; a command it could not take runs again by itself.
        """
        work = self._batches.run(Work(self.match_key(match_id), who, command))
        if work.error is not None:
            raise work.error
        if not work.alone:
            return work.result, work.events, work.head
        return self._command_alone(match_id, who, command)

    def _command_alone(
        self, match_id: str | UUID, who: str, command: Callable[[Match], T]
    ) -> tuple[T, list[Any], tuple[int, str] | None]:
        """Run ``command`` on a fresh copy of the match and save it, retrying lost races.

        Commands alone on one match take turns on a striped lock (:data:`TURN_STRIPES`), and
        with other workers' batches (:attr:`match_turns`). Lost races are retried, with
        jittered backoff, for up to :data:`RETRY_SECONDS`; a lock held still or a store down
        is answered at once (:mod:`service.faults`).
        """
        key = self.match_key(match_id)
        turn = self._turns[key.int % TURN_STRIPES]
        token = actor.set(who)
        try:
            give_up = time.monotonic() + RETRY_SECONDS
            attempt = 0
            while attempt == 0 or time.monotonic() < give_up:
                attempt += 1
                with turn, self.match_turns.hold([key]):
                    match = self.get_match(match_id)
                    if who != SYSTEM and self._apply_overdue(match):
                        continue  # deadlines first; then the command, on the state after them
                    before = match.version
                    result = command(match)
                    if match.version == before:
                        return result, [], None
                    carry_on(match, self.now(), self.advance)  # what the settings do next
                    events = list(match.pending_events)
                    mark = self.recorder.max_notification_id()
                    try:
                        heads = self.save_projected(match)[1]
                    except (IntegrityError, OperationalError, SAOperationalError) as exc:
                        # Retry a lost race, or a lock others are committing through; a lock
                        # held still (or a store down) is answered now, not in a minute.
                        if not is_conflict(exc) and not store_moved(self.recorder, mark):
                            raise StoreUnavailable(STORE_BUSY) from exc
                    else:
                        self._batches.drop([match.id])  # its working copy is behind now
                        return result, events, heads.get(str(match.id))
                _back_off(attempt)
            raise StoreUnavailable(STORE_BUSY)
        finally:
            actor.reset(token)

    def pass_overdue(self, match: Match) -> None:
        """Apply a passed deadline as the system, and what the settings do after it."""
        token = actor.set(SYSTEM)
        try:
            self._pass_deadline(match)
        finally:
            actor.reset(token)
        carry_on(match, self.now(), self.advance)

    def _apply_overdue(self, match: Match) -> bool:
        """Apply a deadline that has passed but that no tick applied yet; save it.

        Deadlines pass by the service clock at the moment of a command, not when the ticker
        next runs: a command that finds its match overdue (the ticker is behind, or the
        service was down over the deadline) first seals the step or defaults the decision,
        as the system, and then runs on the state after that.
        Return whether anything was saved (a lost save race also counts: reload and retry).
        """
        if match.overdue(self.now()) is None:
            return False
        self.pass_overdue(match)
        try:
            self.save(match)
        except (IntegrityError, OperationalError, SAOperationalError) as exc:
            if not is_conflict(exc):
                raise StoreUnavailable(STORE_BUSY) from exc
        return True

    # ------------------------------------------------------------------ use cases

    def create_match(  # noqa: PLR0913 - the match's set-up, each part optional but the game's
        self,
        game: str,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        *,
        custody: Mapping[str, str] | None = None,
        player_keys: Mapping[str, str] | None = None,
        seed: str | None = None,
        match_id: str | None = None,
        name: str = "",
        auto_open: bool = False,
        auto_seal: bool = False,
        step_seconds: int | None = None,
    ) -> dict[str, Any]:
        """Create a match; return its id, the host's token and one invite per player.

        The host never receives a player's credential: each player claims their seat with
        their invite (:meth:`claim`), which is single-use. Both are shown once; the service
        keeps only their hashes. ``name`` and the settings (``auto_open``, ``auto_seal``,
        ``step_seconds``: :mod:`service.running`) are public.

        :raises RulesError, MatchError: for a bad game, options, players, seed, name or setting.
        :raises MatchIdTaken: when ``match_id`` names an existing match.
        """
        if seed is None:
            seed_bytes = self.random_bytes(SEED_SIZE)
        else:
            try:
                seed_bytes = bytes.fromhex(seed)
            except (TypeError, ValueError):
                seed_bytes = b""
            if len(seed_bytes) != SEED_SIZE:
                msg = "a seed is 64 hex digits (32 bytes)"
                raise MatchError(msg)
        # PRECIS, unique, no look-alikes, safe in links (and a list or tuple: checked there)
        players = check_player_names(cast("list[str]", players))
        custody = {as_recorded(p): mode for p, mode in (custody or {}).items()}
        player_keys = {as_recorded(p): key for p, key in (player_keys or {}).items()}
        host_token = secrets.token_urlsafe(32)
        invites = {p: secrets.token_urlsafe(24) for p in players}
        key = UUID(canonical_match_id(match_id)) if match_id else uuid4()
        token = actor.set(HOST)
        try:
            match = Match.create(
                match_id=key,
                game=game,
                options=dict(options or {}),
                players=list(players),
                origin=f"{self.settings.origin}/match/{key}",
                custody=dict(custody or {}),
                player_keys=dict(player_keys or {}),
                credentials={HOST: token_hash(host_token)},
                invites={p: token_hash(code) for p, code in invites.items()},
                seed=seed_bytes,
                at=self.now(),
                name=name,
                settings={
                    "auto_open": auto_open,
                    "auto_seal": auto_seal,
                    "step_seconds": step_seconds,
                },
            )
            try:
                self.save(match)
            except IntegrityError:
                msg = f"a match with the id {key} exists already"
                raise MatchIdTaken(msg) from None
        finally:
            actor.reset(token)
        return {"match_id": str(key), "host_token": host_token, "invites": invites}

    def claim(
        self, match_id: str, player: str, invite: str, public_key: str | None = None
    ) -> dict[str, Any]:
        """A player claims their seat with its invite; return their own token (shown once).

        The claim is a public event (who, when, the signing key if any), so a player can
        see whether their seat was claimed before they came. A used invite is refused.

        :raises SeatTaken, BadInvite, NotAPlayer, SignatureError:
        """
        token = secrets.token_urlsafe(32)
        self._command(
            match_id,
            player,
            lambda m: m.claim(player, invite, token_hash(token), public_key, self.now()),
        )
        return {"player": player, "token": token, "public_key": public_key}

    def reinvite(self, match_id: str, player: str) -> dict[str, Any]:
        """The host issues a new invite for a seat, revoking its credential and key."""
        invite = secrets.token_urlsafe(24)
        self._command(match_id, HOST, lambda m: m.reinvite(player, token_hash(invite), self.now()))
        return {"player": player, "invite": invite}

    def role_of(self, match_id: str, token: str) -> str | None:
        """Which role a token grants in a match (``"host"``, a player id) or ``None``."""
        return self.seats.role_of(match_id, token)

    def credential_of(self, match_id: str, role: str) -> str | None:
        """The stored hash of ``role``'s current credential (``None``: none, or no match)."""
        return self.seats.credential_of(match_id, role)

    def open_grant(self, match_id: str, token: str) -> tuple[str, str] | None:
        """Exchange a role's token for a browser grant: ``(role, grant id)`` or ``None``."""
        role = self.role_of(match_id, token)
        if role is None:
            return None
        key = str(self.match_key(match_id))
        return role, self.grants.open(key, role, token_hash(token), self.now())

    def grant_holds(self, match_id: str, role: str, grant_id: str) -> bool:
        """Whether a browser grant still acts as ``role`` (live, and its credential current)."""
        try:
            key = str(self.match_key(match_id))
        except NotFound:
            return False
        tag = self.grants.credential(key, role, grant_id, self.now())
        current = self.credential_of(key, role)
        return (
            tag is not None and current is not None and hmac.compare_digest(tag, made_from(current))
        )

    def revoke_grants(self, match_id: str, grant_ids: list[str]) -> None:
        """Revoke browser grants of the match (signing out)."""
        self.grants.revoke(str(self.match_key(match_id)), grant_ids)

    def _current(self, match_id: str) -> Match | None:
        """The match as it stands, read-only (``None`` for no match of this service)."""
        try:
            key = self.match_key(match_id)
            found: object = self.repository.get(key, deepcopy_from_cache=False)
        except (NotFound, AggregateNotFoundError):
            return None
        return found if isinstance(found, Match) else None  # an import is read-only

    def join(self, match_id: str, player: str, entropy: str | None = None) -> bool:
        """A player takes their seat, optionally adding public entropy."""
        return self._command(match_id, player, lambda m: m.join(player, entropy, self.now()))

    def open_step(
        self,
        match_id: str,
        *,
        deadline: str | None = None,
        seconds: int | None = None,
        deal: Mapping[str, Any] | None = None,
    ) -> int:
        """The host opens the next step, with a deadline (absolute or in seconds)."""
        if seconds is not None:
            deadline = format_time(self.now() + timedelta(seconds=seconds))
        elif deadline is not None:
            moment = parse_time(deadline)
            if moment <= self.now():
                msg = f"the deadline {format_time(moment)} has passed already; give a later one"
                raise MatchError(msg)
            deadline = format_time(moment)
        return self._command(
            match_id, HOST, lambda m: m.open_step(self.now(), deadline=deadline, deal=deal)
        )

    def submit(
        self,
        match_id: str,
        player: str,
        payload: Any,
        *,
        step: int | None = None,
        salt: str | None = None,
        signature: str | None = None,
        token: str | None = None,
    ) -> dict[str, Any]:
        """A player seals a pick (sealed custody); return the commitment and its receipt.

        ``salt`` (64 hex digits) lets a client compute and sign the commitment itself;
        otherwise the service draws one. ``unchanged`` in the answer is true when the pick
        (and the client's salt, if any) equals the one that stands, which then stands on.
        A ``token`` must be the player's credential, checked with the pick (:func:`as_seat`).
        """
        salt_bytes = self.random_bytes(32) if salt is None else salt_from_hex(salt)

        def command(match: Match) -> str:
            return match.submit_sealed(
                player,
                payload,
                salt_bytes,
                self.now(),
                step=step,
                signature=signature,
                client_salt=salt is not None,
            )

        done = self._recorded_command(match_id, player, as_seat(player, token, command))
        return self._submitted(match_id, player, *done)

    def _submitted(
        self,
        match_id: str,
        player: str,
        commitment: str,
        saved: list[Any],
        head: tuple[int, str] | None,
    ) -> dict[str, Any]:
        """The answer to a submission: the commitment and the receipt of its record.

        A new commitment's receipt comes from the checkpoint its save signed (``head``) and
        the cached tree; only an identical repeat reads the standing event and checkpoint.
        """
        key = self.match_key(match_id)
        new = [e for e in saved if isinstance(e, Match.SubmissionCommitted)]
        event = new[-1] if new else self._standing_commitment(key, player, commitment)
        size, note = head if new and head is not None else (None, None)
        return {
            "step": event.step,
            "player": player,
            "commitment": commitment,
            "unchanged": not new,
            "receipt": self.tlog.receipt(str(key), public_record(event), size, note),
        }

    def _standing_commitment(
        self, key: UUID, player: str, commitment: str
    ) -> Match.SubmissionCommitted:
        """The latest stored event that committed ``player`` to ``commitment``.

        A repeat comes while its step is open, so the event is among the latest: the log
        is read backwards, a page at a time.
        """
        below: int | None = None
        while below is None or below > 0:
            page = list(self.events.get(key, lte=below, desc=True, limit=STANDING_PAGE))
            for event in page:
                if (
                    isinstance(event, Match.SubmissionCommitted)
                    and event.player == player
                    and event.commitment == commitment
                ):
                    return event
            if len(page) < STANDING_PAGE:
                break
            below = page[-1].originator_version - 1
        msg = f"no stored commitment {commitment} of {player} in match {key}"
        raise LookupError(msg)  # the command just found it standing: a store fault

    def submit_commitment(
        self,
        match_id: str,
        player: str,
        commitment: str,
        *,
        step: int | None = None,
        signature: str | None = None,
        token: str | None = None,
    ) -> dict[str, Any]:
        """A self-custody player sends only the commitment (``token``: as :meth:`submit`)."""

        def command(match: Match) -> str:
            return match.submit_commitment(
                player, commitment, self.now(), step=step, signature=signature
            )

        done = self._recorded_command(match_id, player, as_seat(player, token, command))
        return self._submitted(match_id, player, *done)

    def open_commitment(
        self, match_id: str, player: str, step: int, payload: Any, salt: str
    ) -> Advance:
        """A self-custody player opens a commitment; resolution goes on when all have."""

        def command(match: Match) -> Advance:
            match.open_commitment(player, step, payload, salt, self.now())
            return self.advance(match)

        return self._command(match_id, player, command)

    def seal(self, match_id: str, *, who: str = HOST) -> Advance:
        """Seal the open step and carry resolution as far as it goes."""

        def command(match: Match) -> Advance:
            match.seal(self.now())
            return self.advance(match)

        return self._command(match_id, who, command)

    def force_openings(self, match_id: str, *, who: str = HOST) -> Advance:
        """Give the default to self-custody players who have not opened, and resolve."""
        return self._command(match_id, who, lambda m: self.advance(m, openings_due=True))

    def decide(self, match_id: str, player: str, payload: Any) -> Advance:
        """A player answers the decision asked of them."""

        def command(match: Match) -> Advance:
            match.decide(player, payload, self.now())
            return self.advance(match)

        return self._command(match_id, player, command)

    def apply_decision_default(self, match_id: str, *, who: str = HOST) -> Advance:
        """Apply the default answer to the pending decision now (the host's call)."""

        def command(match: Match) -> Advance:
            pending = match.pending_request()
            if pending is None:
                msg = "no decision is pending"
                raise MatchError(msg)
            match.decide(pending[1].player, None, self.now(), defaulted=True)
            return self.advance(match)

        return self._command(match_id, who, command)

    def end_match(self, match_id: str, reason: str) -> None:
        """The host ends the match early; everything sealed is disclosed as at a normal end."""
        self._command(match_id, HOST, lambda m: m.end(reason, self.now()))

    def advance(self, match: Match, *, openings_due: bool = False) -> Advance:
        """Carry a sealed step on, with the service's decision deadline."""
        deadline = format_time(self.now() + self.decision_window)
        return match.advance(self.now(), openings_due=openings_due, decision_deadline=deadline)

    def tick(self) -> list[tuple[str, str]]:
        """Apply every deadline that has passed; return what was done."""
        done: list[tuple[str, str]] = []
        now = self.now()
        for match_id, _ in self.index.due(now):
            try:
                done.append((match_id, self._command(match_id, SYSTEM, self._pass_deadline)))
            except MatchError:
                continue  # someone acted first; nothing is due any more
        return done

    def _pass_deadline(self, match: Match) -> str:
        """Apply the deadline that has passed: seal the open step or default the decision.

        One rule for the ticker and for a command that finds its match overdue
        (:meth:`Match.overdue` says what is due); returns how far the match went on.
        """
        due = match.overdue(self.now())
        if due is None:
            return "nothing due"
        if due == "seal":
            match.seal(self.now())
        else:
            pending = match.pending_request()
            assert pending is not None  # noqa: S101 - overdue() said a decision is due
            match.decide(pending[1].player, None, self.now(), defaulted=True)
        return self.advance(match)

    # ------------------------------------------------------------------ queries

    def records(self, match_id: str, start: int = 0) -> list[dict[str, Any]]:
        """The public records of a match from seq ``start`` on, in order (no replay of the rules).

        Only those records are read, so a page following a running match reads what is new.

        :raises NotFound: for an unknown or malformed id.
        """
        imported = self.imported(match_id)
        if imported is not None:
            return imported.records()[start:]
        key = self.match_key(match_id)
        events = cast("Iterator[Match.Event]", self.events.get(key, gt=start))  # version = seq + 1
        records = [public_record(e) for e in events]
        if not records and (start == 0 or not list(self.events.get(key, lte=1))):
            msg = f"no match {key}"
            raise NotFound(msg)
        return records

    def _logged_key(self, match_id: str) -> str:
        """The id of a match with a signed log (saves sign their own checkpoints).

        :raises NotFound: for an unknown or malformed id.
        """
        key = str(self.match_key(match_id))
        if not self.tlog.size(key):
            msg = f"no match {key}"
            raise NotFound(msg)
        return key

    def public_state(self, match_id: str) -> dict[str, Any]:
        """The public view of a match's game state now."""
        imported = self.imported(match_id)
        if imported is not None:
            return imported.public_view()
        return self.get_match(match_id).public_view()

    def private_state(self, match_id: str, player: str) -> dict[str, Any]:
        """A player's own view (hand, sequence...) and their pick and choices in the step."""
        match = self.get_match(match_id)
        match.check_player(player)
        return {"view": match.private_view(player), **match.own_step(player, LEGAL_SHOWN)}

    def commitments_of(self, match_id: str, player: str) -> list[dict[str, Any]]:
        """Receipts of every commitment ``player`` made in the match, oldest first.

        Commitments are public records; a receipt proves one is in the signed log, so a
        player can fetch theirs again on any device.
        """
        match = self.get_match(match_id)
        match.check_player(player)
        key = str(match.id)
        mine = [
            r
            for r in self.records(key)
            if r["type"] == "SubmissionCommitted" and r["data"].get("player") == player
        ]
        return [self.tlog.receipt(key, r) for r in mine[-RECEIPTS_SHOWN:]]

    def status(self, match_id: str) -> dict[str, Any]:
        """Where a match stands (:func:`~service.running.match_status`).

        An imported match (read-only) has no current step here.
        """
        imported = self.imported(match_id)
        if imported is not None:
            return imported_status(imported)
        return match_status(self.get_match(match_id))

    def checkpoint(self, match_id: str, size: int | None = None) -> dict[str, Any]:
        """The signed checkpoint of a match's log (latest, or at ``size``)."""
        imported = self.imported(match_id)
        if imported is not None:
            return imported.checkpoint(size)
        return self.tlog.checkpoint(self._logged_key(match_id), size)

    def consistency(
        self, match_id: str, old_size: int, new_size: int | None = None
    ) -> dict[str, Any]:
        """The latest (or ``new_size``) checkpoint with a proof that it extends ``old_size``."""
        imported = self.imported(match_id)
        if imported is not None:
            return imported.consistency(old_size, new_size)
        return self.tlog.consistency(self._logged_key(match_id), old_size, new_size)

    def public_key(self, match_id: str | None = None) -> str:
        """The verifier key (C2SP vkey text) of every checkpoint this service signs.

        Given an imported match, the key of its host, which signed its checkpoints.
        """
        imported = None if match_id is None else self.imported(match_id)
        return self.tlog.public_key if imported is None else imported.public_key

    def matches(self) -> list[dict[str, Any]]:
        """The match list."""
        return self.index.matches()

    # ------------------------------------------------------------------ imported matches
    # (bundles in and out are service.archive's use cases, with replay's format injected)

    def imported(self, match_id: str | UUID) -> ImportedMatch | None:
        """The imported match with this id (``None`` for a match of this service or none).

        Reads only the first stored event unless the match is an imported one.

        :raises NotFound: for a malformed id.
        """
        key = self.match_key(match_id)
        first = list(self.events.get(key, lte=1))
        if not first or not isinstance(first[0], ImportedMatch.Event):
            return None
        imported: object = self.repository.get(key)
        return imported if isinstance(imported, ImportedMatch) else None

    def stored(self, match_id: str | UUID) -> Match | ImportedMatch | None:
        """Whatever is stored under a match id: a match, an imported match, or ``None``.

        :raises NotFound: for a malformed id.
        """
        try:
            found: object = self.repository.get(self.match_key(match_id))
        except AggregateNotFoundError:
            return None
        return found if isinstance(found, Match | ImportedMatch) else None
