"""The deadline ticker: applies passed deadlines in the background, so nobody has to click.

Every ``every`` seconds it calls :meth:`DealerRoom.tick <service.application.DealerRoom.tick>`
(seal steps whose deadline passed, default decisions whose deadline passed). Ticks are
idempotent commands retried on conflict, so two tickers would do no harm, but one per
instance does the work once: given a ``lock`` file, the ticker first takes an exclusive
``flock`` on it and ticks only once it holds it (gunicorn's workers each start one; the
first ticks, the others wait, and when the ticking worker dies the kernel releases its lock
and a waiting one takes over at once).

A tick that fails is logged and retried on the next one.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pathlib import Path

    from service.application import DealerRoom

LOCK_FILE = "ticker.lock"
"""The lock file in the instance folder that lets one ticker per instance run."""

log = logging.getLogger("dealerroom.ticker")


class Log(Protocol):
    """Where the ticker says that it waits for the lock and that it runs (a worker's log)."""

    def info(self, msg: str, *args: Any) -> None:
        """Log a line."""


class Ticker:
    """Applies a service's passed deadlines every ``every`` seconds, in a daemon thread."""

    def __init__(self, room: DealerRoom, every: float = 1.0) -> None:
        """A ticker applying ``room``'s deadlines every ``every`` seconds, once started."""
        self.room = room
        self.every = every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        """Whether the ticker's thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    def start(self, *, lock: Path | None = None, say: Log | None = None) -> threading.Thread:
        """Start ticking in a daemon thread (once: a running ticker is returned as it is).

        With ``lock``, tick only while holding an exclusive lock on that file, saying on
        ``say`` (default: this module's logger) when this process waits and when it runs.
        """
        if self._thread is not None:
            return self._thread
        target = self._loop if lock is None else lambda: self._loop_when_first(lock, say or log)
        name = "dealerroom-ticker" if lock is None else "dealerroom-ticker-lock"
        self._thread = threading.Thread(target=target, name=name, daemon=True)
        self._thread.start()
        return self._thread

    def stop(self) -> None:
        """Stop after the current tick (a ticker waiting for its lock stops once it has it)."""
        self._stop.set()

    def tick(self) -> None:
        """Apply the passed deadlines once; a failure is logged, never raised."""
        try:
            self.room.tick()
        except Exception:  # a failed tick is logged and retried on the next one
            log.exception("deadline tick failed")

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.tick()
            self._stop.wait(self.every)

    def _loop_when_first(self, path: Path, say: Log) -> None:
        pid = os.getpid()
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)  # private
        with os.fdopen(descriptor, "a") as lock:  # open for the ticker's life: closing unlocks
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                say.info("dealerroom: worker %s waits to run the deadline ticker", pid)
                fcntl.flock(lock, fcntl.LOCK_EX)
            say.info("dealerroom: deadline ticker running in worker %s", pid)
            self._loop()


__all__ = ["LOCK_FILE", "Ticker"]
