"""The event store's recorder: ``eventsourcing-sqlalchemy``'s, inserting with one statement.

The library's application recorder adds one ORM object per stored event to the session and
flushes it (the unit of work, identity map and per-row bookkeeping), which was a fifth of a
group-commit batch's time. :class:`EventRecorder` inserts the same rows into the same table
with one Core ``INSERT ... RETURNING id`` over all of them (SQLAlchemy's "insertmanyvalues",
ids in the order of the rows), in the same transaction, after the same table lock on
PostgreSQL (so notification ids still commit in order) and with the same ``NOTIFY``. Tables,
columns, ids and every read are the library's own.

The service selects it with ``PERSISTENCE_MODULE=service.event_recorder:Factory``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from eventsourcing_sqlalchemy.factory import Factory as LibraryFactory
from eventsourcing_sqlalchemy.recorders import SQLAlchemyApplicationRecorder
from sqlalchemy import insert

if TYPE_CHECKING:
    from collections.abc import Sequence

    from eventsourcing.persistence import StoredEvent
    from sqlalchemy.orm import Session


class EventRecorder(SQLAlchemyApplicationRecorder):
    """The library's application recorder, with a Core insert of a save's events."""

    def _insert_stored_events(
        self, session: Session, stored_events: Sequence[StoredEvent], **_: Any
    ) -> Sequence[int]:
        if not stored_events:
            return []
        table = self.events_record_cls.__table__
        self._lock_table(session)  # PostgreSQL: ids commit in the order they are drawn
        ids = session.execute(
            insert(table).returning(table.c.id, sort_by_parameter_order=True),
            [
                {
                    "originator_id": event.originator_id,
                    "originator_version": event.originator_version,
                    "topic": event.topic,
                    "state": event.state,
                }
                for event in stored_events
            ],
        ).scalars()
        notification_ids = list(ids)
        self._notify_channel(session)
        return notification_ids


class Factory(LibraryFactory):
    """``eventsourcing-sqlalchemy``'s persistence factory, recording with :class:`EventRecorder`."""

    application_recorder_class = EventRecorder
