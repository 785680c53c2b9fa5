"""Read models projected by each save, in the save's own transaction.

``match_index`` holds one row per match (game, players, status, step, last activity and
the next moment something falls due: a step deadline or a decision deadline).

``match_summary`` holds what the match list says beyond that, one row per match: the
match's name and settings, the kind of the current step, who a pending decision waits on,
which seats are claimed, the result and its winners, and an early end's reason.

The same transaction appends each event's Merkle leaf and signs the match's checkpoint at
its new size, once per match per save (:mod:`service.transparency`). Every save projects its
own events (:meth:`MatchIndex.project`, called by ``DealerRoom.save``): there is no shared
tracking position that every worker and every match would contend on, and a read never
waits for a catch-up. Stores made before that (issue #19) were projected through the
notification log with one tracked position; the first start catches such a store up once
and marks it (:meth:`MatchIndex._go_inline`). The summary table, added later still, is built
once from the log the same way when it is missing.

Only public fields are projected: nothing sealed is ever written here.
"""

from __future__ import annotations

import json
import logging
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
    bindparam,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from domain.imported import IMPORT_TOPICS, ImportedMatch
from domain.match import Match, parse_time, public_record
from domain.match_settings import name_problem, recorded_settings, settings_problem
from domain.public_log import MatchStatus, due_after, status_after
from domain.record_text import game_name
from service.quick_read import QuickRead
from service.transparency import TransparencyLog

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from datetime import datetime

    from eventsourcing.persistence import Notification
    from sqlalchemy.engine import Connection, Engine

    from domain.match import Match as MatchT
    from domain.signed_note import Signer

BATCH = 500
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


def _summary_table(meta: MetaData) -> Table:
    """What the match list says of each match beyond the index (see the module doc)."""
    return Table(
        "dealerroom_match_summary",
        meta,
        Column("match_id", String(36), primary_key=True),
        Column("name", Text, nullable=False),
        Column("settings", Text, nullable=True),  # JSON: MatchCreated's (all off: none)
        Column("step_kind", String(40), nullable=True),
        Column("decider", Text, nullable=True),  # the player a pending decision waits on
        Column("claimed", Text, nullable=False),  # JSON: the players whose seat is claimed
        Column("result", Text, nullable=True),  # JSON: MatchFinished's
        Column("winners", Text, nullable=True),  # JSON: the result's winners
        Column("ended", Text, nullable=True),  # MatchEnded's reason
        Column("title", Text, nullable=True),  # a game named by its options: the design's title
    )


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
    SUMMARY = "match_summary"  # its tracking row says the summary table was built
    INLINE = "inline"  # its tracking row says saves project their own events (issue #19)

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
        self.summary = _summary_table(meta)
        self.log = TransparencyLog(engine, meta, signer, origin_prefix)
        self._select = select_notifications
        self._to_event = to_event
        self._version = QuickRead(
            engine,
            select(self.index.c.events).where(self.index.c.match_id == bindparam("match_id")),
        )
        self._updates: dict[tuple[str, ...], Any] = {}
        meta.create_all(engine, checkfirst=True)
        with engine.begin() as conn:
            found = conn.execute(
                select(self.tracking.c.position).where(self.tracking.c.name == self.NAME)
            ).first()
            if found is None:
                self._insert_ignore(conn, {"name": self.NAME, "position": 0})
        self._build_summary()
        self._go_inline()

    def _insert_ignore(self, conn: Connection, row: dict[str, Any]) -> None:
        dialect = self.engine.dialect.name
        maker = pg_insert if dialect == "postgresql" else sqlite_insert
        conn.execute(maker(self.tracking).values(**row).on_conflict_do_nothing())

    @contextmanager
    def _once(self, marker: str) -> Iterator[Connection | None]:
        """A transaction holding the tracking row's lock, or ``None`` once ``marker`` is set.

        The tracking row is locked first (a no-op update), so of two workers starting
        together the second waits and then finds the marker: the work is done once. An
        ordinary start, with the marker set, writes nothing.
        """
        marked = select(self.tracking.c.position).where(self.tracking.c.name == marker)
        with self.engine.connect() as conn:
            done = conn.execute(marked).first() is not None
        if done:
            yield None
            return
        with self.engine.begin() as conn:
            conn.execute(
                update(self.tracking)
                .where(self.tracking.c.name == self.NAME)
                .values(position=self.tracking.c.position)
            )
            yield None if conn.execute(marked).first() is not None else conn

    def _build_summary(self) -> None:
        """Build the summary table from the whole log, once.

        The tracking row is locked first (a no-op update), so two workers starting together
        build it once: the second finds the marker row. (A worker of the same store saving
        meanwhile updates only rows that exist, so its save is in the log this reads.)
        """
        with self._once(self.SUMMARY) as conn:
            if conn is None:
                return
            rows: dict[str, dict[str, Any]] = {}
            start = 0
            while batch := self._select(start + 1, BATCH):
                for notification in batch:
                    self._fold_notification(rows, notification)
                start = batch[-1].id
            for match_id, row in rows.items():
                self._put_summary(conn, match_id, row)
            self._insert_ignore(conn, {"name": self.SUMMARY, "position": start})

    def _fold_notification(self, rows: dict[str, dict[str, Any]], notification: Any) -> None:
        """Fold one notification into in-memory summary rows (building the table)."""
        if notification.topic.startswith(f"{Match.__module__}:Match."):
            event = self._to_event(notification)
            record = public_record(event)
            match_id = str(event.originator_id)
            if record["type"] == "MatchCreated" or match_id in rows:
                rows[match_id] = fold_summary(rows.get(match_id), record)
        elif notification.topic.startswith(IMPORT_TOPICS):
            event = self._to_event(notification)
            rows[str(event.originator_id)] = summary_of_bundle(event.bundle)

    def _put_summary(self, conn: Connection, match_id: str, row: dict[str, Any]) -> None:
        """Insert or replace a match's summary row."""
        values = _summary_values(row)
        maker = pg_insert if self.engine.dialect.name == "postgresql" else sqlite_insert
        conn.execute(
            maker(self.summary)
            .values(match_id=match_id, **values)
            .on_conflict_do_update(index_elements=["match_id"], set_=values)
        )

    def _apply_summary(self, conn: Connection, event: MatchT.Event, record: dict[str, Any]) -> None:
        """Keep the match's summary row up to date with one of its events (``record``)."""
        if record["type"] not in SUMMARY_TYPES:
            return
        match_id = str(event.originator_id)
        if record["type"] == "MatchCreated":
            self._put_summary(conn, match_id, fold_summary(None, record))
            return
        found = (
            conn.execute(select(self.summary).where(self.summary.c.match_id == match_id))
            .mappings()
            .first()
        )
        if found is None:
            return
        row = fold_summary(_summary_row(found), record)
        conn.execute(
            update(self.summary)
            .where(self.summary.c.match_id == match_id)
            .values(**_summary_values(row))
        )

    def position(self) -> int:
        """The id of the last notification the old catch-up applied (frozen since inline)."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    select(self.tracking.c.position).where(self.tracking.c.name == self.NAME)
                ).scalar_one()
            )

    def _go_inline(self) -> None:
        """Project whatever an older service left behind, once, then switch to inline.

        Stores made before issue #19 were projected by a catch-up through one tracked
        position. Under the tracking row's lock (a no-op update), this applies the
        notifications after that position and writes the :data:`INLINE` marker in the same
        transaction; from then on every save projects its own events (:meth:`project`) and
        nothing reads the notification log again. Two processes starting together do it
        once: the second finds the marker. The marker is written before this process saves
        anything, so no event is projected twice.
        """
        with self._once(self.INLINE) as conn:
            if conn is None:
                return
            start = int(
                conn.execute(
                    select(self.tracking.c.position).where(self.tracking.c.name == self.NAME)
                ).scalar_one()
            )
            while batch := self._select(start + 1, BATCH):
                self.project(conn, [self._to_event(n) for n in batch if _projected(n.topic)])
                start = batch[-1].id
            conn.execute(
                update(self.tracking)
                .where(self.tracking.c.name == self.NAME)
                .values(position=start)
            )
            self._insert_ignore(conn, {"name": self.INLINE, "position": start})

    def project(self, conn: Connection, events: Sequence[Any]) -> dict[str, tuple[int, str]]:
        """Project ``events`` (of one save) in that save's transaction ``conn``.

        Match events update their match's index and summary rows and append their Merkle
        leaves, with one signed checkpoint per match at its new size; imported bundles get
        their index, origin and summary rows. Only rows of the matches saved are touched:
        there is no shared position, so workers saving different matches never wait on each
        other here. Return each match's new ``(size, signed note)``, for the receipts.

        The caller rolls the transaction back on any error, and must then call
        :meth:`forget` for the matches (the cached Merkle trees hold the new leaves).
        """
        mine: list[tuple[MatchT.Event, dict[str, Any]]] = []  # with its public record
        changes: dict[str, dict[str, Any]] = {}  # one index update per match, in event order
        for event in events:
            if isinstance(event, Match.Event):
                record = public_record(event)
                values = self._apply(conn, event, record)
                if values:
                    changes.setdefault(str(event.originator_id), {}).update(values)
                self._apply_summary(conn, event, record)
                mine.append((event, record))
            elif isinstance(event, ImportedMatch.BundleKept):
                self._apply_import(conn, event)
                self._put_summary(conn, str(event.originator_id), summary_of_bundle(event.bundle))
        alike: dict[tuple[str, ...], list[dict[str, Any]]] = {}  # rows that set the same columns
        for match_id, values in changes.items():
            alike.setdefault(tuple(sorted(values)), []).append(
                {"row": match_id, **{f"new_{k}": v for k, v in values.items()}}
            )
        for columns, rows in alike.items():
            conn.execute(self._index_update(columns), rows)
        return self.log.apply_events(conn, mine)

    def _index_update(self, columns: tuple[str, ...]) -> Any:
        """The index row update that sets ``columns`` (built once per set of columns)."""
        found = self._updates.get(columns)
        if found is None:
            found = (
                update(self.index)
                .where(self.index.c.match_id == bindparam("row"))
                .values({name: bindparam(f"new_{name}") for name in columns})
            )
            self._updates[columns] = found
        return found

    def version_of(self, match_id: str) -> int | None:
        """The committed version (event count) of a match, ``None`` for no such match.

        Asked once or twice per submission, so it runs on the driver alone (:class:`QuickRead`).
        """
        found = self._version.scalar(match_id=match_id)
        return None if found is None else int(found)

    def forget(self, match_ids: Sequence[str]) -> None:
        """Drop the cached Merkle trees of ``match_ids`` (their save was rolled back)."""
        self.log.forget(match_ids)

    def _apply(
        self, conn: Connection, event: MatchT.Event, record: dict[str, Any]
    ) -> dict[str, Any]:
        """Insert a new match's index row, or return what an event (``record``) changes in it."""
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
            return {}
        values: dict[str, Any] = {"events": event.originator_version, "last_activity": at}
        kind = type(event).__name__
        status = status_after(kind)
        if status is not None:
            values["status"] = str(status)
        if isinstance(event, Match.StepOpened):
            values["step"] = event.step
        due = due_after(kind, record["data"]) if status is not None else None
        if kind == "MatchEnded":  # ended early: no deadline falls due any more
            due = None, None
        if due is not None:
            deadline, due_kind = due
            values |= {
                "due_at": deadline and parse_time(deadline),
                "due_kind": due_kind and str(due_kind),
            }
        return values

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
        summary = self.summary.c
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    self.index,
                    self.imports.c.origin,
                    *(c for c in self.summary.c if c.name != "match_id"),
                )
                .outerjoin(self.imports, self.imports.c.match_id == self.index.c.match_id)
                .outerjoin(self.summary, summary.match_id == self.index.c.match_id)
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
                    "due_at": r["due_at"],
                    "due_kind": r["due_kind"],
                    **_summary_row(r),
                }
                for r in rows
            ]

    def due(self, now: datetime) -> list[tuple[str, str]]:
        """Matches with a deadline at or before ``now``: (match id, what is due)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(self.index.c.match_id, self.index.c.due_kind).where(
                    self.index.c.due_at.is_not(None), self.index.c.due_at <= now
                )
            )
            return [(r[0], r[1]) for r in rows]


# ---------------------------------------------------------------------------
# The summary: a fold of public records, one at a time
# ---------------------------------------------------------------------------

SUMMARY_TYPES = frozenset(
    {
        "MatchCreated",
        "SeatClaimed",
        "SeatReinvited",
        "StepOpened",
        "DecisionRequested",
        "DecisionMade",
        "StepResolved",
        "MatchFinished",
        "MatchEnded",
    }
)
"""The record types that change a match's summary."""

MAX_TEXT = 300  # a name (80) or an early end's reason (300) as the service checks them


def _projected(topic: str) -> bool:
    """Whether a stored event's topic is one the read model projects."""
    return topic.startswith((f"{Match.__module__}:Match.", *IMPORT_TOPICS))


def _text(value: Any) -> str | None:
    return value[:MAX_TEXT] if isinstance(value, str) else None


def winners_of(result: Any) -> list[str]:
    """The winners a game's result names: ``winners``, ``winner``, the ToL or the tokens.

    >>> winners_of({"winners": ["ben"]}), winners_of({"winner": "ana", "reason": "forfeit"})
    (['ben'], ['ana'])
    >>> winners_of({"tol": "pengu"}), winners_of({"tokens": {"eli": 2}})
    (['pengu'], ['eli'])
    >>> winners_of({"winner": None}), winners_of(None)
    ([], [])
    """
    if not isinstance(result, dict):
        return []
    named = result.get("winners")
    if named is None and isinstance(result.get("winner"), str):
        named = [result["winner"]]
    if named is None and isinstance(result.get("tol"), str):
        named = [result["tol"]]
    if named is None and isinstance(result.get("tokens"), dict):
        named = list(result["tokens"])
    return [w for w in named or [] if isinstance(w, str) and w]


def fold_summary(row: dict[str, Any] | None, record: dict[str, Any]) -> dict[str, Any]:
    """A match's summary after one more public record (``row``: before it; ``None``: none).

    ``MatchCreated`` starts it: the name (``""`` in records made before matches had names)
    and the settings (all off then), as :class:`domain.public_log.PublicLog` reads them.

    >>> row = fold_summary(None, {"type": "MatchCreated", "data": {"name": "Friday"}})
    >>> row = fold_summary(row, {"type": "SeatClaimed", "data": {"player": "ana"}})
    >>> row = fold_summary(row, {"type": "StepOpened", "data": {"step": 1, "kind": "turn"}})
    >>> row["name"], row["claimed"], row["step_kind"]
    ('Friday', ['ana'], 'turn')
    """
    data = record.get("data")
    data = data if isinstance(data, dict) else {}
    kind = record.get("type")
    if kind == "MatchCreated" or row is None:  # read as the public-record fold reads it
        name, settings = data.get("name", ""), data.get("settings")
        game, options = data.get("game"), data.get("options")
        titled = game_name(game, options)  # a custom game: its design's title
        return {
            "name": name if name_problem(name) is None else "",
            "settings": recorded_settings(settings if settings_problem(settings) is None else None),
            "step_kind": None,
            "decider": None,
            "claimed": [],
            "result": None,
            "winners": None,
            "ended": None,
            "title": titled if titled != game_name(game) else None,
        }
    row = dict(row)
    player = data.get("player")
    if kind == "SeatClaimed" and isinstance(player, str) and player not in row["claimed"]:
        row["claimed"] = [*row["claimed"], player]
    elif kind == "SeatReinvited":
        row["claimed"] = [p for p in row["claimed"] if p != player]
    elif kind == "StepOpened":
        row["step_kind"], row["decider"] = _text(data.get("kind")), None
    elif kind == "DecisionRequested":
        row["decider"] = _text(player)
    elif kind in ("DecisionMade", "StepResolved"):
        row["decider"] = None
    elif kind == "MatchFinished":
        result = data.get("result")
        row["result"] = result if isinstance(result, dict) else None
        row["winners"], row["decider"] = winners_of(result), None
    elif kind == "MatchEnded" and row["result"] is None and row["ended"] is None:
        row["ended"], row["decider"] = _text(data.get("reason")) or "", None
    return row


def summary_of_bundle(text: str) -> dict[str, Any]:
    """The summary of an imported bundle (its canonical text): its records folded."""
    records = json.loads(text).get("records") or []
    row: dict[str, Any] | None = None
    for record in records:
        if isinstance(record, dict) and (row is not None or record.get("type") == "MatchCreated"):
            row = fold_summary(row, record)
    return row or fold_summary(None, {"type": "MatchCreated", "data": {}})


def _summary_values(row: dict[str, Any]) -> dict[str, Any]:
    """A summary as the table's columns (JSON text for the structured ones)."""

    def dump(value: Any) -> str | None:
        return None if value is None else json.dumps(value, sort_keys=True)

    return {
        "name": row["name"],
        "settings": dump(row["settings"]),
        "step_kind": row["step_kind"],
        "decider": row["decider"],
        "claimed": json.dumps(row["claimed"]),
        "result": dump(row["result"]),
        "winners": dump(row["winners"]),
        "ended": row["ended"],
        "title": row.get("title"),
    }


def _summary_row(found: Any) -> dict[str, Any]:
    """A summary read back from the table (a match without a row: an empty summary)."""

    def load(value: Any) -> Any:
        return None if value is None else json.loads(value)

    return {
        "name": found["name"] or "",
        "settings": load(found["settings"]),
        "step_kind": found["step_kind"],
        "decider": found["decider"],
        "claimed": load(found["claimed"]) or [],
        "result": load(found["result"]),
        "winners": load(found["winners"]),
        "ended": found["ended"],
        "title": found["title"],
    }
