"""A read that runs on every request, at the cost of the driver alone.

Two reads run once or twice for every submission: a match's committed version, for the role
check (:mod:`service.seat_notes`) and for a batch's working copy (:mod:`service.group_commit`).
Through SQLAlchemy's ``Connection`` each costs about 0.1 ms of CPU (checkout, the statement's
cache key, the result's metadata, the reset on checkin); the same query on the pool's raw
DB-API connection costs about a tenth of that. :class:`QuickRead` compiles its statement
once, for the engine's dialect, and runs it there. A driver error is raised as SQLAlchemy's
own wrapper (an ``OperationalError`` for a locked or lost store), so the service answers it
as it answers any store fault (:mod:`service.faults`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import DBAPIError

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine
    from sqlalchemy.sql import Select


class QuickRead:
    """One ``SELECT`` of one value, compiled once, with named bound parameters."""

    def __init__(self, engine: Engine, statement: Select[Any]) -> None:
        """Compile ``statement`` (its parameters made with ``bindparam(name)``) for ``engine``."""
        self._engine = engine
        compiled = statement.compile(dialect=engine.dialect)
        self._sql = str(compiled)
        self._order = tuple(compiled.positiontup or ()) if compiled.positional else None

    def scalar(self, **params: Any) -> Any:
        """The first column of the first row (``None``: no row)."""
        args: Any = params if self._order is None else tuple(params[k] for k in self._order)
        driver_error = self._engine.dialect.loaded_dbapi.Error
        try:
            raw = self._engine.raw_connection()
        except driver_error as exc:  # the store refuses connections, or is gone
            raise DBAPIError.instance(self._sql, args, exc, driver_error) from exc
        try:
            cursor = raw.cursor()
            try:
                cursor.execute(self._sql, args)
                row = cursor.fetchone()
            finally:
                cursor.close()
        except driver_error as exc:
            raise DBAPIError.instance(self._sql, args, exc, driver_error) from exc
        finally:
            raw.close()  # back to the pool: rolled back, or dropped if the connection broke
        return None if row is None else row[0]
