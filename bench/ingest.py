"""Benchmark (a): ingest through the service against raw ``eventsourcing`` appends.

Run: ``.venv/bin/python -m bench.ingest [--events N] [--players P] [--clients C]
[--postgres URL]`` (default 10,000 events, 8 voters, 8 clients). On the embedded SQLite
store (a temporary instance, WAL, ``synchronous=FULL`` unless ``--synchronous NORMAL``) and
then on PostgreSQL (a throwaway schema, dropped afterwards; the URL defaults to
``DEALERROOM_TEST_POSTGRES_URL``, else the local server; ``--no-postgres`` skips it), it
plays vote matches through :class:`service.application.DealerRoom`, every step in full:
create, open, a sealed commit by every voter (each answered with its receipt), seal, reveal
and resolve, ``C`` matches at a time from ``C`` threads (commands that arrive together
share a transaction: group commit). The baseline, in the same run and the same store, is a
bare ``eventsourcing`` Application saving a trivial aggregate for each of the service's
commands, each command its own transaction of as many events, from as many threads.
Prints events/s of both and the ratio; the target is a ratio of at least 0.5.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
import uuid
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, Any

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from sqlalchemy import create_engine, text
from sqlalchemy.exc import SQLAlchemyError

from service.bootstrap import bootstrap
from service.config import Settings
from service.sqlite_pragmas import SYNCHRONOUS_LEVELS, tune_sqlite

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from service.application import DealerRoom

DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


class Tally(Aggregate):
    """The trivial aggregate of the baseline: it only counts."""

    def __init__(self) -> None:
        """A tally at zero."""
        self.count = 0

    @event("Counted")
    def add(self) -> None:
        """Count one more (one event)."""
        self.count += 1


class RawAppends(Application[uuid.UUID]):
    """A bare application on the same store as the service (its own table)."""

    name = "RawAppends"


class CountingCommands:
    """Records how many events each command of the service stored (the baseline repeats them).

    A command's events are what it recorded, whether its batch saved it with others (group
    commit) or it was saved alone; a match's creation is a save of its own.
    """

    def __init__(self, room: DealerRoom) -> None:
        """Wrap the room's command path and its direct saves so every command is counted."""
        self.commands: list[int] = []
        self._lock = threading.Lock()
        self._command = room._recorded_command  # noqa: SLF001 - the one path every command takes
        self._save = room.save
        room._recorded_command = self.command  # type: ignore[method-assign]  # noqa: SLF001
        room.save = self.save  # type: ignore[method-assign]

    def _count(self, events: int) -> None:
        if events:
            with self._lock:
                self.commands.append(events)

    def command(self, *args: Any, **kwargs: Any) -> Any:
        """Run a command through the room and note how many events it recorded."""
        done = self._command(*args, **kwargs)
        self._count(len(done[1]))
        return done

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        """Save directly (a new match) and note how many events were stored."""
        recordings = self._save(*objs, **kwargs)
        self._count(len(recordings))
        return recordings


def play_match(room: DealerRoom, voters: Sequence[str]) -> None:
    """One vote match through the service, every step in full."""
    match_id = room.create_match("vote", voters)["match_id"]
    room.open_step(match_id)
    for i, voter in enumerate(voters):
        room.submit(match_id, voter, {"vote": voters[i % 2]})
    room.seal(match_id)  # seal, reveal every vote, resolve, finish, reveal the seed


def raw_appends(app: RawAppends, commands: Sequence[int]) -> None:
    """Save the same commands, of trivial events, each in its own transaction."""
    for size in commands:
        tally = Tally()  # its creation is the first event of the transaction
        for _ in range(size - 1):
            tally.add()
        app.save(tally)


def append_share(app: RawAppends, shares: Sequence[Sequence[int]], i: int) -> None:
    """Client ``i``'s share of the raw appends."""
    raw_appends(app, shares[i])


def together(clients: int, work: Callable[[int], None]) -> None:
    """Run ``work(i)`` in ``clients`` threads at once and wait for all of them."""
    threads = [threading.Thread(target=work, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def compare(name: str, settings: Settings, env: dict[str, str], args: argparse.Namespace) -> None:
    """Measure the service and the baseline on one store and print both and the ratio.

    ``--clients`` threads each play one match at a time through the service, as players of
    different matches do; commands that arrive together may share a transaction (group
    commit). The baseline then makes the same commands' appends, each command its own
    transaction, from as many threads. They take turns, a round of matches each, so that a
    change in the machine's load between the two cannot make the ratio. The CPU time of this
    process is measured too: on a busy machine it is the steadier figure.
    """
    services = bootstrap(settings)
    room = services.room
    raw = RawAppends(env=env)
    tune_sqlite(raw.factory.datastore.engine, settings.sqlite_synchronous)  # type: ignore[attr-defined]
    counted = CountingCommands(room)
    voters = [f"v{i}" for i in range(args.players)]
    service = [0.0, 0.0]  # wall seconds, CPU seconds
    baseline = [0.0, 0.0]
    batches = room._batches.group  # noqa: SLF001 - how many transactions the commands took
    try:
        while sum(counted.commands) < args.events:
            done = len(counted.commands)
            with timed(service):
                together(args.clients, lambda _: play_match(room, voters))
            shares = [counted.commands[done:][i :: args.clients] for i in range(args.clients)]
            with timed(baseline):
                together(args.clients, partial(append_share, raw, shares))
    finally:
        services.close()
        raw.close()
        raw.factory.datastore.engine.dispose()  # type: ignore[attr-defined]
    events = sum(counted.commands)
    print(
        f"{name}: {events:,} events in {len(counted.commands):,} commands, "
        f"{args.clients} clients; the service saved them in {batches.batches:,} transactions"
    )
    print(f"  service ingest (vote, {args.players} voters): {events / service[0]:,.0f} events/s")
    print(f"  raw eventsourcing appends:         {events / baseline[0]:,.0f} events/s")
    print(f"  ratio ingest/raw: {baseline[0] / service[0]:.2f} (target >= 0.5)")
    print(
        f"  cpu of this process: service {service[1] / events * 1e3:.3f} ms/event, "
        f"raw {baseline[1] / events * 1e3:.3f} ms/event, ratio {baseline[1] / service[1]:.2f}"
    )


@contextmanager
def timed(total: list[float]) -> Iterator[None]:
    """Add the wall and CPU seconds the block takes to ``total``."""
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        yield
    finally:
        total[0] += time.perf_counter() - wall
        total[1] += time.process_time() - cpu


def run_sqlite(args: argparse.Namespace) -> None:
    """The embedded default: a fresh instance folder, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="dealerroom-bench-") as folder:
        settings = Settings.load({"DEALERROOM_INSTANCE": folder,
                                  "DEALERROOM_SQLITE_SYNCHRONOUS": args.synchronous})  # fmt: skip
        env = {"PERSISTENCE_MODULE": "eventsourcing_sqlalchemy",
               "SQLALCHEMY_URL": settings.database_url}  # fmt: skip
        compare(f"sqlite (WAL, synchronous={settings.sqlite_synchronous})", settings, env, args)


@contextmanager
def throwaway_schema(url: str) -> Iterator[str]:
    """A new PostgreSQL schema, dropped with everything in it afterwards."""
    engine = create_engine(url)
    name = "bench_" + uuid.uuid4().hex[:12]
    try:
        with engine.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{name}"'))
        yield name
    finally:
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
        engine.dispose()


def run_postgres(args: argparse.Namespace) -> None:
    """The deployment store, in a throwaway schema."""
    with (
        tempfile.TemporaryDirectory(prefix="dealerroom-bench-") as folder,
        throwaway_schema(args.postgres) as schema,
    ):
        settings = Settings.load({
            "DEALERROOM_INSTANCE": folder,
            "DEALERROOM_DATABASE_URL": args.postgres,
            "DEALERROOM_DB_SCHEMA": schema,
        })  # fmt: skip
        env = {"PERSISTENCE_MODULE": "eventsourcing_sqlalchemy",
               "SQLALCHEMY_URL": args.postgres, "SQLALCHEMY_SCHEMA": schema}  # fmt: skip
        compare("postgresql", settings, env, args)


def main(argv: Sequence[str] | None = None) -> int:
    """Measure on each store; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bench.ingest", description=__doc__)
    parser.add_argument("--events", type=int, default=10_000, help="events per store")
    parser.add_argument("--players", type=int, default=8, help="voters per match (2 or more)")
    parser.add_argument("--postgres", default=None, metavar="URL",
                        help="SQLAlchemy URL of the PostgreSQL to measure")  # fmt: skip
    parser.add_argument("--no-postgres", action="store_true", help="measure SQLite only")
    parser.add_argument("--clients", type=int, default=8,
                        help="threads playing matches at once (1: one at a time)")  # fmt: skip
    parser.add_argument("--synchronous", choices=SYNCHRONOUS_LEVELS, default="FULL",
                        help="SQLite's fsync level (DEALERROOM_SQLITE_SYNCHRONOUS)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.events < 1 or args.players < 2 or not 1 <= args.clients <= 64:
        parser.error("--events is at least 1, --players at least 2, --clients 1 to 64")
    explicit = args.postgres is not None
    if not explicit:
        args.postgres = os.environ.get("DEALERROOM_TEST_POSTGRES_URL") or DEFAULT_POSTGRES
    run_sqlite(args)
    if args.no_postgres:
        return 0
    try:
        run_postgres(args)
    except SQLAlchemyError as exc:
        where = args.postgres.rsplit("@", 1)[-1]
        reason = str(exc).splitlines()[0]
        if explicit:
            print(
                f"bench.ingest: error: cannot use PostgreSQL at {where}: {reason}", file=sys.stderr
            )
            return 2
        print(f"postgresql: skipped (none at {where}: {reason})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
