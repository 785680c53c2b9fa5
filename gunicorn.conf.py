"""gunicorn settings for dealerroom: ``gunicorn -c gunicorn.conf.py web.wsgi:app``.

Every value comes from the environment; the defaults suit a 2-core machine (docs/deploy.md):

============================== =============================================================
``DEALERROOM_BIND``            address to listen on (default ``127.0.0.1:8000``)
``DEALERROOM_WORKERS``         worker processes (default 1 on SQLite, 2 on PostgreSQL)
``DEALERROOM_THREADS``         threads per worker (default 32)
``DEALERROOM_TIMEOUT``         seconds before a silent worker is restarted (default 30)
``DEALERROOM_PROXY_HOPS``      trusted reverse proxies in front (default 0; see web/proxies.py)
``DEALERROOM_CONTROL_SOCKET``  path of gunicorn's control socket for ``gunicornc`` (default none)
============================== =============================================================

Why one worker on SQLite: SQLite has one writer at a time per database file. Inside one
process, eventsourcing-sqlalchemy queues writers on a lock, first come first served; writers
in different processes instead poll the file lock until the busy timeout (0.5 s), so under
load a worker can be starved and its save tried again. One worker with 8 threads keeps
every write in the fair queue, and a request spends most of its time in SQLite, which
releases the GIL. On PostgreSQL, each worker is a process of its own with its own pool, and
two use both cores.

The deadline ticker (:mod:`service.ticker`, a component of the service the composition root
builds) runs in exactly one worker: each worker asks for an exclusive ``flock`` on
``<instance>/ticker.lock`` in a background thread; the first one gets it and ticks, the
others wait on the lock. When the ticking worker dies (a crash,
``max_requests``, a restart) the kernel releases its lock and a waiting worker takes over
at once. Ticks are idempotent commands retried on conflict, so two tickers would do no harm
(several hosts over one PostgreSQL each run one), but one per instance does the work once.
"""

from __future__ import annotations

import os
import sys
from typing import Any


def _count(name: str, default: int, least: int = 1) -> int:
    """A whole number from the environment; a bad one stops gunicorn with one line."""
    text = os.environ.get(name) or str(default)
    try:
        value = int(text)
    except ValueError:
        value = least - 1
    if value < least:
        sys.stderr.write(
            f"dealerroom: error: {name} must be a whole number >= {least}, not {text!r}\n"
        )
        raise SystemExit(2)
    return value


def _on_sqlite() -> bool:
    url = os.environ.get("DEALERROOM_DATABASE_URL") or "sqlite:"  # the default store
    return url.startswith("sqlite")


bind = [os.environ.get("DEALERROOM_BIND") or "127.0.0.1:8000"]
workers = _count("DEALERROOM_WORKERS", 1 if _on_sqlite() else 2)
threads = _count("DEALERROOM_THREADS", 32)
worker_class = "gthread"
timeout = _count("DEALERROOM_TIMEOUT", 30)
_count("DEALERROOM_PROXY_HOPS", 0, least=0)  # checked here, used by web/wsgi.py (web/proxies.py)
# Each worker imports the app itself after the fork, so no database connection is shared.
preload_app = False
accesslog = "-"
errorlog = "-"
# The same access lines for a fraction of the CPU (web/access_log.py).
logger_class = "web.access_log.AccessLogger"
# gunicorn >= 25 opens a control socket for gunicornc at one path per user, which two
# instances would fight over: it is opt-in, at a path of your choosing.
if os.environ.get("DEALERROOM_CONTROL_SOCKET"):
    control_socket = os.environ["DEALERROOM_CONTROL_SOCKET"]
else:
    control_socket_disable = True


def on_starting(server: Any) -> None:
    """Create the store's tables and the instance's keys once, in the master, before forking.

    Workers starting together on a new store would otherwise race to create them, and the
    loser fails to boot ("table ... already exists"), which stops gunicorn.

    A bad setting, or keys that are not the store's (:mod:`service.keys`), stops gunicorn
    here with one line, ``dealerroom: error: ...``, and exit status 2.
    """
    from service.config import ConfigError  # noqa: PLC0415 - only the master needs it here
    from web import create_app  # noqa: PLC0415
    from web.extension import services  # noqa: PLC0415

    try:
        services(create_app()).close()
    except ConfigError as exc:
        sys.stderr.write(f"dealerroom: error: {exc}\n")
        raise SystemExit(2) from None
    server.log.info("dealerroom: store and keys ready")


def post_worker_init(worker: Any) -> None:
    """Start the deadline ticker in this worker once it holds the instance's ticker lock."""
    from web.extension import services  # noqa: PLC0415 - the worker has just imported the app

    services(worker.wsgi).start_ticker(one_per_instance=True, say=worker.log)
