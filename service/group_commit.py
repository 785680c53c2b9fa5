"""Group commit: commands that arrive together are saved in one transaction, one fsync.

A request thread hands its command to :meth:`GroupCommit.run` and waits. If no batch is
being saved, it leads at once: it takes everything queued (its own command first when the
queue is empty, so a lone command never waits for company) and runs the batch through the
callback it was built with; commands that arrive meanwhile queue up and form the next batch,
led by one of their own threads. This is the leader/follower form of group commit: no
background thread, and under light load a command runs exactly as it would alone.

The callback decides each :class:`Work`'s fate: a result, an error (raised again in the
caller's thread), or ``alone`` (the batch could not take it; the caller runs it by itself).
Nothing is acknowledged before the callback returns, and the callback returns only after the
batch's transaction has committed or failed.
"""

from __future__ import annotations

import threading
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from eventsourcing.application import project_aggregate

from domain.match import actor
from service.faults import STORE_FAULTS
from service.running import SYSTEM, carry_on

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from uuid import UUID

    from domain.match import Match
    from service.application import DealerRoom

MOST_IN_A_BATCH = 64
"""The most commands one transaction takes (a bound on a batch's time and size)."""


@dataclass(eq=False)
class Work:
    """One command waiting for its batch, and what became of it."""

    key: UUID
    who: str
    command: Callable[[Any], Any]
    result: Any = None
    error: BaseException | None = None
    alone: bool = False  # the batch could not take it: run it by itself
    events: list[Any] = field(default_factory=list)  # what it recorded, once durable
    head: tuple[int, str] | None = None  # its match's (size, signed note) after the save
    finished: bool = False
    wake: threading.Event = field(default_factory=threading.Event)  # answered, or to lead


class GroupCommit:
    """Leader/follower batching of commands (see the module doc).

    Every thread waits on its own :class:`threading.Event`: when a batch ends, its leader
    wakes exactly the callers it answered and, if commands are queued, the oldest of them,
    which leads the next batch. No thread is woken only to find it must wait again.
    """

    def __init__(
        self, run_batch: Callable[[list[Work]], None], most: int = MOST_IN_A_BATCH
    ) -> None:
        """Batches of at most ``most`` commands go to ``run_batch``."""
        self._run_batch = run_batch
        self._most = most
        self._lock = threading.Lock()
        self._queue: list[Work] = []  # empty whenever nobody leads
        self._leading = False
        self.batches = 0  # how many batches ran (for the benchmark's report)
        self.commands = 0  # how many commands they held

    def run(self, work: Work) -> Work:
        """Queue ``work``, lead its batch or wait for a leader to run it; return it."""
        with self._lock:
            self._queue.append(work)
            lead = not self._leading
            self._leading = True
        if not lead:
            work.wake.wait()  # answered, or handed the lead (the oldest queued command)
            if work.finished:
                return work
        with self._lock:
            # The leader's own command is the oldest queued, so it is in this batch.
            batch, self._queue = self._queue[: self._most], self._queue[self._most :]
        try:
            self._run_batch(batch)
        except BaseException as exc:  # never leave a caller waiting on a crashed batch
            for item in batch:
                if item.error is None and not item.events:
                    item.alone = True
            if not isinstance(exc, Exception):
                raise
        finally:
            with self._lock:
                self.batches += 1
                self.commands += len(batch)
                for item in batch:
                    item.finished = True
                woken = [*batch, self._queue[0]] if self._queue else batch  # the next leads
                self._leading = bool(self._queue)
            for item in woken:
                item.wake.set()
        return work


HOT_MATCHES = 1024
"""Working copies of recently commanded matches a process keeps."""


class MatchBatches:
    """A process's batches of match commands, run on its own working copies of the matches.

    The copies are the ones the batches command and save: each batch applies its own saves
    to them as it makes them, so a copy is never reloaded or deep-copied while this process
    alone writes its match. Another process's saves are caught by optimistic concurrency
    (the save of a copy that is behind fails, and its commands run alone on the match as
    stored), and an answer that saved nothing is given only once the store is checked.
    Read requests never see the copies (they read the repository's own cache), so nothing
    uncommitted is ever read.
    """

    def __init__(self, room: DealerRoom) -> None:
        """Batches of ``room``'s commands."""
        self.room = room
        self.hot: dict[UUID, Match] = {}  # oldest first; commanded only by the leader
        self._hot_lock = threading.Lock()  # a command run alone drops a copy from its thread
        self.group = GroupCommit(self._run_batch)

    def run(self, work: Work) -> Work:
        """Run ``work`` in a batch (:meth:`GroupCommit.run`)."""
        return self.group.run(work)

    def drop(self, keys: Iterable[UUID]) -> None:
        """Forget the working copies of these matches (saved elsewhere, or spoiled)."""
        with self._hot_lock:
            for key in keys:
                self.hot.pop(key, None)

    def _run_batch(self, batch: list[Work]) -> None:
        """Run a batch while no other worker's batch holds its matches (:mod:`.match_locks`).

        If the turns cannot be taken (the store is down, or a turn is held past the lock
        timeout), every caller of the batch is answered with that fault at once: running
        each alone would only meet it again, one connection timeout after another.
        """
        with ExitStack() as stack:
            try:
                stack.enter_context(self.room.match_turns.hold(work.key for work in batch))
            except STORE_FAULTS as exc:
                for work in batch:
                    work.error = exc
                return
            self._run_held(batch)

    def _run_held(self, batch: list[Work]) -> None:
        """Run a batch's commands on the working copies of their matches; save them all.

        Each command runs as it would alone: a deadline that has passed is applied first, as
        the system, and the match's settings carry it on after. A command that raises
        without changing its match gets its error. A copy is not checked against the store
        before use: a command that records events on a copy another process has moved past
        loses its save (optimistic concurrency), and one that records nothing (a refusal, an
        identical repeat) has the store checked before its answer stands. A command that
        raises half-way, or that found its copy behind, spoils it: every command of that
        match in the batch runs alone. If the save fails, no command of it is acknowledged:
        each runs alone (and the copies are dropped).
        """
        room = self.room
        now = room.now()
        matches: dict[UUID, Match] = {}
        unchecked: dict[UUID, int] = {}  # copies not yet checked: the version they had
        spoiled: set[UUID] = set()
        recorded: dict[int, list[Any]] = {}

        def spoil(key: UUID) -> None:
            spoiled.add(key)
            for other in batch:
                if other.key == key:
                    other.alone, other.error = True, None
                    recorded.pop(id(other), None)

        for work in batch:
            key = work.key
            if key in spoiled:
                work.alone = True
                continue
            if key not in matches:
                try:
                    matches[key], checked = self._take(key)
                except Exception as exc:  # noqa: BLE001 - not found, imported: the caller's answer
                    work.error = exc
                    continue
                if not checked:
                    unchecked[key] = matches[key].version
            match = matches[key]
            start, mark = match.version, len(match.pending_events)
            token = actor.set(work.who)
            try:
                if work.who != SYSTEM and match.overdue(now) is not None:
                    room.pass_overdue(match)
                before = match.version
                work.result = work.command(match)
                if match.version != before:
                    carry_on(match, room.now(), room.advance)
            except Exception as exc:  # noqa: BLE001 - raised again in the caller's thread
                work.error = exc
            finally:
                actor.reset(token)
            if match.version != start and work.error is not None:
                spoil(key)  # half-changed: nothing of this match is saved here
                continue
            if match.version == start and key in unchecked and self._moved(key, unchecked.pop(key)):
                spoil(key)  # the answer came from a copy that is behind
                continue
            if work.error is None:
                recorded[id(work)] = list(match.pending_events[mark:])
        for key in spoiled:
            matches.pop(key, None)
        self.drop(spoiled)
        saving = [m for m in matches.values() if m.pending_events]
        heads: dict[str, tuple[int, str]] = {}
        if saving:
            try:
                heads = room.save_projected(*saving)[1]
            except Exception:  # noqa: BLE001 - a lost race or a busy store: each tries alone
                self.drop(m.id for m in saving)
                for work in batch:
                    if recorded.get(id(work)):
                        work.alone = True
                return
        for key, match in matches.items():
            self._keep(key, match)
        for work in batch:
            if id(work) in recorded:
                work.events = recorded[id(work)]
                work.head = heads.get(str(work.key))

    def _take(self, key: UUID) -> tuple[Match, bool]:
        """Return the working copy of a match, and whether it is known to be current.

        A copy whose version is behind the match index's (another worker saved the match;
        one indexed read tells) first takes the events it lacks, so that workers sharing a
        match do not lose every other save. The copy may still fall behind before the save:
        optimistic concurrency catches that.
        """
        with self._hot_lock:
            match = self.hot.pop(key, None)
        if match is None:
            return self.room.get_match(key), True  # a copy of its own, from the repository
        committed = self.room.index.version_of(str(key))
        if committed is not None and committed > match.version:
            project_aggregate(match, self.room.events.get(key, gt=match.version))
            return match, True
        return match, committed is not None and committed == match.version

    def _moved(self, key: UUID, version: int) -> bool:
        """Whether the store holds events of the match after ``version`` (one short query)."""
        return bool(list(self.room.events.get(key, gt=version, limit=1)))

    def _keep(self, key: UUID, match: Match) -> None:
        """Keep a saved working copy for the next batch (the most recent :data:`HOT_MATCHES`)."""
        with self._hot_lock:
            self.hot.pop(key, None)
            self.hot[key] = match
            while len(self.hot) > HOT_MATCHES:
                self.hot.pop(next(iter(self.hot)))
