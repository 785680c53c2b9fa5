"""The embedded SQLite store's connection settings: WAL, a short busy timeout, synchronous=FULL.

``eventsourcing-sqlalchemy`` builds the engine from ``SQLALCHEMY_URL`` and offers no engine
options, so :func:`tune_sqlite` hooks SQLAlchemy's ``connect`` event on that engine: every
new DB-API connection runs the pragmas before anything else uses it. Connections pooled
before the hook (the ones that created the tables) are discarded, so none escapes it.

* ``journal_mode=WAL``: readers never block the writer, and a commit appends to the WAL
  instead of rewriting pages under a rollback journal. The mode is stored in the database
  file; asking on every connection is cheap and repairs a file copied in another mode.
* ``busy_timeout=500``: a writer waits up to half a second for another connection's write
  lock (the read model's catch-up, another worker, an operator's ``sqlite3`` shell) instead
  of failing at once. Writes of one process queue in the event store before they reach
  SQLite, so the lock is only ever held for one short transaction and half a second is
  plenty. A save that still fails is tried again if others committed meanwhile (several
  workers on one file); if nothing moved, the file is locked by someone else and the caller
  gets a quick 503 with ``Retry-After`` (:mod:`service.faults`) instead of waiting. (It was
  5 s, retried twelve times: a submission against a locked file waited 66 s for a 400.)
  Reads never wait for it: in WAL mode readers see the last commit while a writer holds the
  lock, and the read model is written in each save's own transaction
  (:meth:`service.readmodel.MatchIndex.project`), so no read waits to catch it up.
* ``synchronous=FULL``: the WAL is fsynced at every commit. Any setting survives a
  ``kill -9`` of the process (a committed transaction is in the operating system's hands);
  ``NORMAL`` would lose the last commits on a power cut or a kernel crash. A lost commit
  here is worse than a slow one: the player already holds a receipt with a signed
  checkpoint of it, and a log that later lacks the event contradicts a signed checkpoint.
  ``DEALERROOM_SQLITE_SYNCHRONOUS=NORMAL`` trades that for speed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import event

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

BUSY_TIMEOUT_MS = 500
SYNCHRONOUS_LEVELS = ("NORMAL", "FULL", "EXTRA")


def tune_sqlite(engine: Engine, synchronous: str = "FULL") -> bool:
    """Run the WAL pragmas on every connection of a SQLite file ``engine``; say if it is one.

    Other databases are left alone, and so is an in-memory SQLite database: it has no file to
    log ahead of, and discarding its one connection would discard the database.

    :raises ValueError: for a ``synchronous`` level other than NORMAL, FULL or EXTRA.
    """
    if synchronous not in SYNCHRONOUS_LEVELS:
        msg = f"synchronous must be one of {', '.join(SYNCHRONOUS_LEVELS)}, not {synchronous!r}"
        raise ValueError(msg)
    database = engine.url.database or ""
    in_memory = database in ("", ":memory:") or "mode=memory" in str(engine.url)
    if engine.dialect.name != "sqlite" or in_memory:
        return False

    @event.listens_for(engine, "connect")
    def set_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
        del connection_record
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute(f"PRAGMA synchronous = {synchronous}")
        finally:
            cursor.close()

    engine.dispose()  # connections opened before the hook reconnect through it
    return True
