"""A real dealerroom server process for the load and crash tests and ``bench.http``.

:class:`Server` runs the production path, ``gunicorn -c gunicorn.conf.py web.wsgi:app``
(gthread workers, the deadline ticker in one worker), on ``127.0.0.1`` and a port the
kernel picks, in a process group of its own so :meth:`Server.kill` can ``kill -9`` the
master and every worker at once, as a power cut would. Its log goes to a file
(``server.log`` beside the instance folder) so a load never blocks on a full pipe.

:class:`Api` is a small JSON client over :mod:`http.client` with one keep-alive connection
per thread. A request that gets no answer raises :class:`ServerGone`; it is never retried,
since a submission that reached the server may have been recorded.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

REPO = Path(__file__).resolve().parents[2]
LISTENING = re.compile(r"Listening at: http://([\d.]+):(\d+)")
TICKER = "deadline ticker running in worker"
START_WAIT = 60.0  # seconds a start may take on a busy machine
IDLE_RECONNECT = 1.0  # gunicorn closes keep-alive connections idle for 2 s; reconnect before
# Per-player and per-address limits would throttle the load itself; the tests measure the
# service, not the limiter (tests/e2e covers the limits).
UNLIMITED = {"DEALERROOM_SUBMIT_RATE": "100000/second", "DEALERROOM_CREATE_RATE": "100000/minute"}


class ServerGone(ConnectionError):
    """The request got no answer: the server is down or the connection broke."""


@dataclass(frozen=True)
class Reply:
    """One HTTP answer: status, decoded JSON body (``None`` when not JSON) and raw bytes."""

    status: int
    body: Any
    raw: bytes = b""

    @property
    def ok(self) -> bool:
        """Whether the status is 2xx."""
        return 200 <= self.status < 300


class Server:
    """A gunicorn master and its workers serving one store.

    ``env`` holds the ``DEALERROOM_*`` settings (instance, database URL, schema...);
    :data:`UNLIMITED` rates are added unless ``env`` sets its own.
    """

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = {**UNLIMITED, **env}
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0
        self._log_start = 0

    @property
    def url(self) -> str:
        """The base URL, ``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Self:
        """Start the server and wait until the API answers (the log is kept on failure).

        :raises RuntimeError: when it does not come up within :data:`START_WAIT` seconds.
        """
        clean = {k: v for k, v in os.environ.items() if not k.startswith("DEALERROOM_")}
        env = {**clean, "DEALERROOM_BIND": "127.0.0.1:0", **self.env}
        self.log.parent.mkdir(parents=True, exist_ok=True)
        self._log_start = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "web.wsgi:app"],
                cwd=REPO,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: kill() reaches every worker
            )
        deadline = time.monotonic() + START_WAIT
        found = self.wait_for_log(LISTENING, deadline)
        self.port = int(found[2])
        with Api(self.url) as api:
            while True:
                try:
                    if api.get("/api/key").ok:
                        return self
                except ServerGone:
                    pass
                self._check_alive(deadline)
                time.sleep(0.05)

    def log_text(self) -> str:
        """What this run of the server has logged so far."""
        with self.log.open("rb") as handle:
            handle.seek(self._log_start)
            return handle.read().decode(errors="replace")

    def wait_for_log(self, pattern: re.Pattern[str], deadline: float) -> re.Match[str]:
        """The first match of ``pattern`` in this run's log, waiting for it.

        :raises RuntimeError: when the server exits or the deadline passes first.
        """
        while True:
            found = pattern.search(self.log_text())
            if found:
                return found
            self._check_alive(deadline)
            time.sleep(0.05)

    def _check_alive(self, deadline: float) -> None:
        assert self.proc is not None
        if self.proc.poll() is not None or time.monotonic() > deadline:
            tail = self.log_text()[-4000:]
            self.kill()
            msg = f"the server did not come up (exit status {self.proc.returncode}):\n{tail}"
            raise RuntimeError(msg)

    def kill(self) -> None:
        """``kill -9`` the master and all its workers at once, and reap the master."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):  # already gone
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        self._wait_group_gone(self.proc.pid)

    def stop(self) -> None:
        """Stop gracefully (SIGTERM to the master), or kill after :data:`START_WAIT` seconds."""
        if self.proc is None or self.proc.poll() is not None:
            self.kill()
            return
        self.proc.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=START_WAIT)
        self.kill()

    @staticmethod
    def _wait_group_gone(pgid: int) -> None:
        """Wait until no process of the group is left (workers die with the master)."""
        deadline = time.monotonic() + START_WAIT
        while time.monotonic() < deadline:
            try:
                os.killpg(pgid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.02)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Api:
    """JSON requests to one server; each thread keeps its own keep-alive connection.

    :meth:`close` (or leaving a ``with`` block) closes the connections of every thread.
    """

    def __init__(self, url: str, timeout: float = 60.0) -> None:
        host, _, port = url.removeprefix("http://").partition(":")
        self.host, self.port, self.timeout = host, int(port), timeout
        self._local = threading.local()
        self._lock = threading.Lock()
        self._open: set[http.client.HTTPConnection] = set()

    def _connection(self) -> http.client.HTTPConnection:
        conn: http.client.HTTPConnection | None = getattr(self._local, "conn", None)
        idle = time.monotonic() - getattr(self._local, "used", 0.0)
        if conn is not None and (idle > IDLE_RECONNECT or conn not in self._open):
            self._drop(conn)  # stale, or closed by close()
            conn = None
        if conn is None:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            with self._lock:
                self._open.add(conn)
            self._local.conn = conn
        return conn

    def _drop(self, conn: http.client.HTTPConnection) -> None:
        conn.close()
        with self._lock:
            self._open.discard(conn)
        self._local.conn = None

    def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> Reply:
        """Send one request and read its answer.

        :raises ServerGone: when no answer comes (the connection is dropped).
        """
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        conn = self._connection()
        try:
            conn.request(method, path, body=data, headers=headers)
            answer = conn.getresponse()
            raw = answer.read()
        except (OSError, http.client.HTTPException) as exc:
            self._drop(conn)
            msg = f"{method} {path}: no answer ({exc!r})"
            raise ServerGone(msg) from None
        self._local.used = time.monotonic()
        if answer.will_close:
            self._drop(conn)
        try:
            decoded = json.loads(raw) if raw else None
        except ValueError:
            decoded = None
        return Reply(answer.status, decoded, raw)

    def get(self, path: str, token: str | None = None) -> Reply:
        """``GET path``."""
        return self.request("GET", path, token=token)

    def post(self, path: str, body: Any, token: str | None = None) -> Reply:
        """``POST path`` with a JSON body."""
        return self.request("POST", path, body, token)

    def get_ok(self, path: str) -> Any:
        """The JSON body of a ``GET`` that must succeed.

        :raises AssertionError: naming the status and error otherwise.
        """
        reply = self.get(path)
        assert reply.ok, f"GET {path}: {reply.status} {reply.body}"
        return reply.body

    def close(self) -> None:
        """Close every thread's connection (a thread that goes on reconnects)."""
        with self._lock:
            conns, self._open = self._open, set()
        for conn in conns:
            conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def store_env(
    instance: Path, database_url: str | None = None, schema: str | None = None
) -> dict[str, str]:
    """The ``DEALERROOM_*`` settings of a store: SQLite in ``instance``, or PostgreSQL."""
    env = {"DEALERROOM_INSTANCE": str(instance)}
    if database_url:
        env["DEALERROOM_DATABASE_URL"] = database_url
    if schema:
        env["DEALERROOM_DB_SCHEMA"] = schema
    return env
