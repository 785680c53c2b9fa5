"""Server faults: the store locked by someone else, or down, is not the caller's fault.

None of these is a ``ValueError`` (the web answers those 400): the web answers
:data:`STORE_FAULTS` with a quick 503 and ``Retry-After`` (:mod:`web.errors`), and the
detail (SQL, paths, addresses) goes to the log only.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy.exc
from eventsourcing import persistence

RETRY_AFTER_SECONDS = 1


class StoreUnavailable(RuntimeError):
    """The event store cannot take this request now (locked by another writer, or down)."""


STORE_FAULTS: tuple[type[Exception], ...] = (
    StoreUnavailable,
    persistence.OperationalError,  # SQLite locked past the busy timeout; a lost connection
    persistence.InterfaceError,  # a connection closed under the pool
    sqlalchemy.exc.OperationalError,
    sqlalchemy.exc.InterfaceError,
    sqlalchemy.exc.TimeoutError,  # no pooled connection came free in time
)

_UNREADABLE: tuple[type[Exception], ...] = (*STORE_FAULTS, persistence.PersistenceError)

# PostgreSQL's "try the transaction again": a serialization failure or a deadlock. These are
# OperationalErrors too, but a retry of the command can succeed at once.
_TRANSIENT_SQLSTATES = frozenset({"40001", "40P01"})


def is_conflict(exc: BaseException) -> bool:
    """Whether a failed save lost a race that running the command again can win.

    A version conflict (``IntegrityError``) or a PostgreSQL serialization failure or
    deadlock is; a locked SQLite file, a refused connection or a closed one is not (retrying
    would only make the caller wait longer for the same answer).
    """
    if isinstance(exc, persistence.IntegrityError | sqlalchemy.exc.IntegrityError):
        return True
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if getattr(cause, "sqlstate", None) in _TRANSIENT_SQLSTATES:
            return True
        cause = getattr(cause, "orig", None) or cause.__cause__
    return False


def store_moved(recorder: Any, mark: int | None) -> bool:
    """Whether events were stored since the notification id ``mark`` was the newest.

    A save that waited out the busy timeout while other writers committed met contention
    (many workers on one SQLite file), and trying again makes progress; one that waited
    while nothing was committed met a lock held still (an operator's ``BEGIN EXCLUSIVE``, a
    stuck process), and the caller should hear so at once. A store that cannot even be read
    has not moved.
    """
    try:
        return bool(recorder.max_notification_id() != mark)
    except _UNREADABLE:
        return False
