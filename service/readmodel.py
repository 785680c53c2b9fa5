"""Read models maintained from the notification log, with tracking.

``match_index`` holds one row per match (game, players, status, step, last activity and
the next moment something falls due: a step deadline or a decision deadline). It is
updated by :meth:`MatchIndex.catch_up`, which reads notifications after the tracked
position and applies them in one transaction together with the new position, so a crash
or two workers catching up at once never apply a notification twice.

The same transaction appends each event's Merkle leaf and signs the match's checkpoint at
its new size (:mod:`service.transparency`).

Only public fields are projected: nothing sealed is ever written here.
"""

from __future__ import annotations

import json
import logging
import threading
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from domain.imported import IMPORT_TOPICS, ImportedMatch
from domain.match import Match, parse_time, public_record
from domain.public_log import MatchStatus, due_after, status_after
from service.faults import STORE_FAULTS
from service.sqlite_pragmas import BUSY_TIMEOUT_MS
from service.transparency import TransparencyLog

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from datetime import datetime

    from eventsourcing.persistence import Notification
    from sqlalchemy.engine import Connection, Engine

    from domain.match import Match as MatchT
    from domain.signed_note import Signer

BATCH = 500
READ_WAIT_SECONDS = 0.25  # the longest a read waits to catch up before serving what it has
log = logging.getLogger("dealerroom.readmodel")


def _tables(meta: MetaData) -> tuple[Table, Table]:
    index = Table(
        "dealerroom_match_index",
        meta,
        Column("match_id", String(36), primary_key=True),
        Column("game", String(40), nullable=False),
        Column("players", Text, nullable=False),
        Column("status", String(20), nullable=False),
        Column("step", Integer, nullable=False),
        Column("events", Integer, nullable=False),
        Column("created_at", DateTime(timezone=True), nullable=False),
        Column("last_activity", DateTime(timezone=True), nullable=False),
        Column("due_at", DateTime(timezone=True), nullable=True, index=True),
        Column("due_kind", String(20), nullable=True),
    )
    tracking = Table(
        "dealerroom_readmodel_tracking",
        meta,
        Column("name", String(40), primary_key=True),
        Column("position", Integer, nullable=False),
    )
    return index, tracking


def _imports_table(meta: MetaData) -> Table:
    """Which matches of the index are imported bundles, and from where."""
    return Table(
        "dealerroom_imports",
        meta,
        Column("match_id", String(36), primary_key=True),
        Column("origin", Text, nullable=False),
        Column("public_key", Text, nullable=False),
        Column("complete", Boolean, nullable=False),
        Column("imported_at", DateTime(timezone=True), nullable=False),
    )


class MatchIndex:
    """The match list and the deadline schedule, projected from the event log."""

    NAME = "match_index"

    def __init__(
        self,
        engine: Engine,
        schema: str | None,
        select_notifications: Callable[[int, int], Sequence[Notification]],
        to_event: Callable[[Notification], Any],
        signer: Signer,
        origin_prefix: str,
    ) -> None:
        """Create the read model's tables if missing and start tracking at the stored position."""
        self.engine = engine
        meta = MetaData(schema=schema)
        self.index, self.tracking = _tables(meta)
        self.imports = _imports_table(meta)
        self.log = TransparencyLog(engine, meta, signer, origin_prefix)
        self._select = select_notifications
        self._to_event = to_event
        self._seen: int | None = None  # the position this process last saw (a hint)
        self._catching_up = threading.Lock()  # one catch-up at a time per process
        meta.create_all(engine, checkfirst=True)
        with engine.begin() as conn:
            found = conn.execute(
                select(self.tracking.c.position).where(self.tracking.c.name == self.NAME)
            ).first()
            if found is None:
                self._insert_ignore(conn, {"name": self.NAME, "position": 0})

    def _insert_ignore(self, conn: Connection, row: dict[str, Any]) -> None:
        dialect = self.engine.dialect.name
        maker = pg_insert if dialect == "postgresql" else sqlite_insert
        conn.execute(maker(self.tracking).values(**row).on_conflict_do_nothing())

    def position(self) -> int:
        """The id of the last notification applied."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    select(self.tracking.c.position).where(self.tracking.c.name == self.NAME)
                ).scalar_one()
            )

    def catch_up(self, *, wait: bool = True) -> int:
        """Apply every notification not yet applied; return how many were applied.

        ``wait=False`` is for reads (the match list, the deadline schedule, checkpoints): a
        read serves what is already projected rather than wait for the write lock. It
        waits at most :data:`READ_WAIT_SECONDS` for another thread's catch-up or another
        writer's lock (SQLite's busy timeout, PostgreSQL's lock timeout), and if the store
        is locked or down it applies nothing and says so in the log: the answer is then the
        index as it was (what is committed and projected), and the next read or write
        catches up. Writers wait (their receipt needs their own event in the log).

        It starts from the position this process last saw, so catching up with one new
        event costs one read, one write and no re-read. Moving the tracked position from
        exactly that value is the guard: if another worker has moved it, the position is
        read again and nothing is applied twice.

        The threads of a process catch up one at a time: every request that writes catches
        up, and racing each other they mostly lost the guard (nine tries in ten with two
        PostgreSQL workers under load), each loss a wasted batch read and write. A thread
        that waits finds its events applied by the one before it.
        """
        if wait:
            with self._catching_up:
                return self._catch_up(wait=True)
        if not self._catching_up.acquire(timeout=READ_WAIT_SECONDS):
            return 0  # another thread is catching up; it applies what this one would
        try:
            return self._catch_up(wait=False)
        except STORE_FAULTS as exc:
            log.warning("read served without catching up: the store is busy or down (%s)",
                        type(exc).__name__)  # fmt: skip
            return 0
        finally:
            self._catching_up.release()

    def _catch_up(self, *, wait: bool) -> int:
        """Catch up, holding ``self._catching_up``."""
        applied = 0
        start = self.position() if self._seen is None else self._seen
        while True:
            batch = self._select(start + 1, BATCH)
            if not batch:
                self._seen = start
                return applied
            try:
                moved = self._apply_batch(start, batch, wait=wait)
            except Exception:
                self.log.forget()  # the cached trees may hold leaves now rolled back
                raise
            if not moved:  # another worker applied this batch first
                start = self.position()
                continue
            applied += len(batch)
            start = self._seen = batch[-1].id
            if len(batch) < BATCH:  # that was all there was
                return applied

    def _apply_batch(self, start: int, batch: Sequence[Notification], *, wait: bool = True) -> bool:
        """Move the position from ``start`` past ``batch`` and apply it, in one transaction.

        Returns ``False``, having written nothing, when the position is no longer ``start``.
        Without ``wait``, the transaction waits at most :data:`READ_WAIT_SECONDS` for a lock.
        """
        with self.engine.begin() as conn, self._lock_wait(conn, wait=wait):
            moved = conn.execute(
                update(self.tracking)
                .where(self.tracking.c.name == self.NAME, self.tracking.c.position == start)
                .values(position=batch[-1].id)
            ).rowcount
            if moved != 1:
                conn.rollback()
                return False
            events: list[MatchT.Event] = []
            for notification in batch:
                if notification.topic.startswith(f"{Match.__module__}:Match."):
                    event = self._to_event(notification)
                    self._apply(conn, event)
                    events.append(event)
                elif notification.topic.startswith(IMPORT_TOPICS):
                    self._apply_import(conn, self._to_event(notification))
            self.log.apply_events(conn, events)
        return True

    @contextmanager
    def _lock_wait(self, conn: Connection, *, wait: bool) -> Iterator[None]:
        """Within ``conn``'s transaction, wait for locks only briefly unless ``wait``."""
        if wait:
            yield
            return
        dialect = self.engine.dialect.name
        if dialect == "postgresql":  # SET LOCAL ends with the transaction
            conn.exec_driver_sql(f"SET LOCAL lock_timeout = '{int(READ_WAIT_SECONDS * 1000)}ms'")
            yield
        elif dialect == "sqlite":  # a connection setting: put it back before the pool has it
            conn.exec_driver_sql(f"PRAGMA busy_timeout = {int(READ_WAIT_SECONDS * 1000)}")
            try:
                yield
            finally:
                try:
                    conn.exec_driver_sql(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                except Exception:  # never pool a connection with the short wait
                    conn.invalidate()
                    raise
        else:
            yield

    def _apply(self, conn: Connection, event: MatchT.Event) -> None:
        match_id = str(event.originator_id)
        at = event.timestamp
        if isinstance(event, Match.MatchCreated):
            conn.execute(
                self.index.insert().values(
                    match_id=match_id,
                    game=event.game,
                    players=json.dumps(event.players),
                    status=str(MatchStatus.CREATED),
                    step=0,
                    events=1,
                    created_at=at,
                    last_activity=at,
                    due_at=None,
                    due_kind=None,
                )
            )
            return
        values: dict[str, Any] = {"events": event.originator_version, "last_activity": at}
        kind = type(event).__name__
        status = status_after(kind)
        if status is not None:
            values["status"] = str(status)
        if isinstance(event, Match.StepOpened):
            values["step"] = event.step
        due = due_after(kind, public_record(event)["data"]) if status is not None else None
        if due is not None:
            deadline, due_kind = due
            values |= {
                "due_at": deadline and parse_time(deadline),
                "due_kind": due_kind and str(due_kind),
            }
        conn.execute(update(self.index).where(self.index.c.match_id == match_id).values(**values))

    def _apply_import(self, conn: Connection, event: ImportedMatch.BundleKept) -> None:
        """An imported match: a row in the index (never due) and one saying where from."""
        summary = event.summary
        values = {
            "game": summary["game"],
            "players": json.dumps(summary["players"]),
            "status": summary["status"],
            "step": summary["step"],
            "events": summary["events"],
            "created_at": parse_time(summary["created_at"]),
            "last_activity": parse_time(summary["last_activity"]),
            "due_at": None,
            "due_kind": None,
        }
        origin = {
            "origin": summary["origin"],
            "public_key": summary["public_key"],
            "complete": bool(event.verdict["complete"]),
            "imported_at": event.timestamp,
        }
        match_id = str(event.originator_id)
        if isinstance(event, ImportedMatch.Imported):
            conn.execute(self.index.insert().values(match_id=match_id, **values))
            conn.execute(self.imports.insert().values(match_id=match_id, **origin))
        else:
            conn.execute(
                update(self.index).where(self.index.c.match_id == match_id).values(**values)
            )
            conn.execute(
                update(self.imports).where(self.imports.c.match_id == match_id).values(**origin)
            )

    def matches(self, limit: int = 200) -> list[dict[str, Any]]:
        """The match list, most recent activity first.

        ``imported`` says whether the match is another host's bundle imported here;
        ``origin`` is the log origin of its checkpoints (this service's for its own).
        """
        self.catch_up(wait=False)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(self.index, self.imports.c.origin)
                .outerjoin(self.imports, self.imports.c.match_id == self.index.c.match_id)
                .order_by(self.index.c.last_activity.desc())
                .limit(limit)
            ).mappings()
            return [
                {
                    "match_id": r["match_id"],
                    "game": r["game"],
                    "players": json.loads(r["players"]),
                    "status": r["status"],
                    "step": r["step"],
                    "events": r["events"],
                    "created_at": r["created_at"],
                    "last_activity": r["last_activity"],
                    "imported": r["origin"] is not None,
                    "origin": r["origin"] or self.log.origin(r["match_id"]),
                }
                for r in rows
            ]

    def due(self, now: datetime) -> list[tuple[str, str]]:
        """Matches with a deadline at or before ``now``: (match id, what is due)."""
        self.catch_up(wait=False)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(self.index.c.match_id, self.index.c.due_kind).where(
                    self.index.c.due_at.is_not(None), self.index.c.due_at <= now
                )
            )
            return [(r[0], r[1]) for r in rows]
