"""Benchmark (a): ingest through the service against raw ``eventsourcing`` appends.

Run: ``.venv/bin/python -m bench.ingest [--events N] [--players P] [--postgres URL]``
(default 10,000 events, 8 voters). On the embedded SQLite store (a temporary instance, WAL,
``synchronous=FULL`` unless ``--synchronous NORMAL``) and then on PostgreSQL (a throwaway
schema, dropped afterwards; the URL defaults to ``DEALERROOM_TEST_POSTGRES_URL``, else the
local server; ``--no-postgres`` skips it), it plays vote matches through
:class:`service.application.DealerRoom`, every step in full: create, open, a sealed commit
by every voter (each answered with its receipt), seal, reveal and resolve. The baseline, in
the same run and the same store, is a bare ``eventsourcing`` Application saving a trivial
aggregate in the same transactions: as many saves as the service made, each of as many
events. Prints events/s of both and the ratio; the target is a ratio of at least 0.5.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from sqlalchemy import create_engine, text
from sqlalchemy.exc import SQLAlchemyError

from service.bootstrap import bootstrap
from service.config import Settings
from service.sqlite_pragmas import SYNCHRONOUS_LEVELS, tune_sqlite

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

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


class CountingSaves:
    """Records how many events each of the service's saves stored (the baseline repeats them)."""

    def __init__(self, room: DealerRoom) -> None:
        """Wrap ``room.save`` so every save is counted."""
        self.batches: list[int] = []
        self._save = room.save
        room.save = self  # type: ignore[method-assign]

    def __call__(self, *objs: Any, **kwargs: Any) -> Any:
        """Save through the room's own ``save`` and note how many events it stored."""
        recordings = self._save(*objs, **kwargs)
        self.batches.append(len(recordings))
        return recordings


def play_match(room: DealerRoom, voters: Sequence[str]) -> None:
    """One vote match through the service, every step in full."""
    match_id = room.create_match("vote", voters)["match_id"]
    room.open_step(match_id)
    for i, voter in enumerate(voters):
        room.submit(match_id, voter, {"vote": voters[i % 2]})
    room.seal(match_id)  # seal, reveal every vote, resolve, finish, reveal the seed


def raw_appends(app: RawAppends, batches: Sequence[int]) -> None:
    """Save the same transactions, of trivial events, with the bare application."""
    for size in batches:
        tally = Tally()  # its creation is the first event of the transaction
        for _ in range(size - 1):
            tally.add()
        app.save(tally)


def compare(name: str, settings: Settings, env: dict[str, str], args: argparse.Namespace) -> None:
    """Measure the service and the baseline on one store and print both and the ratio.

    They take turns, one match each, so that a change in the machine's load between the
    two cannot make the ratio. The CPU time of this process is measured too: on a busy
    machine it is the steadier figure (it leaves out waiting for the disk, and for SQLite,
    which runs in this process, it is nearly all the work).
    """
    services = bootstrap(settings)
    room = services.room
    raw = RawAppends(env=env)
    tune_sqlite(raw.factory.datastore.engine, settings.sqlite_synchronous)  # type: ignore[attr-defined]
    saves = CountingSaves(room)
    voters = [f"v{i}" for i in range(args.players)]
    service = [0.0, 0.0]  # wall seconds, CPU seconds
    baseline = [0.0, 0.0]
    try:
        while sum(saves.batches) < args.events:
            done = len(saves.batches)
            with timed(service):
                play_match(room, voters)
            with timed(baseline):
                raw_appends(raw, saves.batches[done:])
    finally:
        services.close()
        raw.close()
        raw.factory.datastore.engine.dispose()  # type: ignore[attr-defined]
    events = sum(saves.batches)
    print(f"{name}: {events:,} events in {len(saves.batches):,} saves")
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
    parser.add_argument("--synchronous", choices=SYNCHRONOUS_LEVELS, default="FULL",
                        help="SQLite's fsync level (DEALERROOM_SQLITE_SYNCHRONOUS)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.events < 1 or args.players < 2:
        parser.error("--events is at least 1 and --players at least 2")
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
