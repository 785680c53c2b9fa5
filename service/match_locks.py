"""Per-match turns across worker processes on PostgreSQL: workers sharing a match wait, not race.

Each worker keeps working copies of the matches it commands (:mod:`service.group_commit`).
When two workers command one match, optimistic concurrency keeps the log right: the second
save of the same version fails on the event table's unique key and its commands run again
alone. Correct, but under a steady stream each worker loses about every other save, so two
workers did less than one (bench.http on PostgreSQL: 288 submissions/s with one worker, 163
with two).

So on PostgreSQL a batch first takes a transaction-scoped advisory lock on each of its
matches (``pg_advisory_xact_lock``), in one order so two batches never wait on each other in
a cycle, on a connection of its own, and holds them while it brings its copies up to date,
runs its commands and saves; a worker that wants one of those matches waits for that save
instead of computing on a copy it is about to lose. The locks are a courtesy, not the
guard: the unique key still decides, so a lock that could not be had in time (the wait is
bounded by ``lock_timeout``) only means the batch runs as it would without them. A store
that refuses the connection is a fault every caller of the batch hears at once (a 503),
not after one more connection timeout per command. A worker that dies releases its locks
with its connection.

SQLite has one writer per file and the default is one worker per instance (gunicorn.conf.py),
so it runs without these locks.
"""

from __future__ import annotations

from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING

from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from contextlib import AbstractContextManager
    from uuid import UUID

    from sqlalchemy.engine import Engine

LOCK_SPACE = 0x6472  # the first key of dealerroom's two-key advisory locks ("dr")
WAIT_MS = 2000  # the longest a batch waits for another worker's turn on a match


def lock_key(match: UUID) -> int:
    """The second advisory-lock key of a match: 32 bits of its id, as a signed ``int4``."""
    low = match.int & 0xFFFFFFFF
    return low - (1 << 32) if low >= 1 << 31 else low


class MatchTurns:
    """Advisory locks on matches for the span of a batch (see the module doc)."""

    def __init__(self, engine: Engine) -> None:
        """Locks on ``engine``'s PostgreSQL; on any other store :meth:`hold` does nothing."""
        self.engine = engine
        self.enabled = engine.dialect.name == "postgresql"

    def hold(self, matches: Iterable[UUID]) -> AbstractContextManager[None]:
        """A context in which no other worker's batch holds any of ``matches``."""
        if not self.enabled:
            return nullcontext()
        return self._held(sorted({lock_key(m) for m in matches}))

    @contextmanager
    def _held(self, keys: list[int]) -> Iterator[None]:
        conn = self.engine.connect()  # the store down: its fault goes to the callers at once
        try:
            try:
                conn.execute(text(f"SET LOCAL lock_timeout = {WAIT_MS}"))
                for key in keys:  # one at a time, in order: no two batches wait in a cycle
                    conn.execute(
                        text("SELECT pg_advisory_xact_lock(:space, :key)"),
                        {"space": LOCK_SPACE, "key": key},
                    )
            except SQLAlchemyError:  # a turn not had in time: run anyway, the keys decide
                conn.rollback()
            yield
        finally:
            try:
                conn.rollback()  # ends the transaction, and with it every lock it took
            finally:
                conn.close()
