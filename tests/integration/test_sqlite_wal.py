"""The embedded SQLite store: WAL mode, waits for locks, fsync at commit, durable answers.

It runs in WAL mode, waits for locks, fsyncs at commit, and keeps every acknowledged
submission across a ``kill -9`` of the process.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import create_engine, text

from service.application import DealerRoom
from service.config import ConfigError, Settings
from service.sqlite_pragmas import BUSY_TIMEOUT_MS, tune_sqlite
from tests.conftest import REPO

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from sqlalchemy.engine import Connection

SYNCHRONOUS = {1: "NORMAL", 2: "FULL", 3: "EXTRA"}


def pragmas(conn: Connection) -> tuple[str, str, int]:
    journal = conn.execute(text("PRAGMA journal_mode")).scalar_one()
    synchronous = SYNCHRONOUS[conn.execute(text("PRAGMA synchronous")).scalar_one()]
    return journal, synchronous, conn.execute(text("PRAGMA busy_timeout")).scalar_one()


def room_at(instance: Path, **env: str) -> DealerRoom:
    return DealerRoom(Settings.load({"DEALERROOM_INSTANCE": str(instance), **env}))


@pytest.fixture
def room(tmp_path: Path) -> Iterator[DealerRoom]:
    app = room_at(tmp_path / "instance")
    try:
        yield app
    finally:
        app.close()


def test_every_connection_of_the_service_is_in_wal_with_a_busy_timeout_and_full_sync(
    room: DealerRoom,
) -> None:
    engine = room.factory.datastore.engine  # type: ignore[attr-defined]
    # Check the pooled connections, several at once (new ones are opened for them)...
    with engine.connect() as one, engine.connect() as two:
        assert pragmas(one) == pragmas(two) == ("wal", "FULL", BUSY_TIMEOUT_MS)
    # ...the session the event recorder writes with...
    with room.recorder.transaction(commit=False) as session:  # type: ignore[attr-defined]
        assert pragmas(session.connection()) == ("wal", "FULL", BUSY_TIMEOUT_MS)
    # ...and the database file itself: a write goes to the write-ahead log.
    room.create_match("vote", ["ana", "ben"])
    assert (room.settings.instance / "dealerroom.sqlite3-wal").exists()


def test_synchronous_normal_can_be_chosen_and_a_bad_level_is_refused(tmp_path: Path) -> None:
    app = room_at(tmp_path / "a", DEALERROOM_SQLITE_SYNCHRONOUS="normal")
    try:
        with app.factory.datastore.engine.connect() as conn:  # type: ignore[attr-defined]
            assert pragmas(conn) == ("wal", "NORMAL", BUSY_TIMEOUT_MS)
    finally:
        app.close()
    with pytest.raises(ConfigError, match="DEALERROOM_SQLITE_SYNCHRONOUS must be one of"):
        Settings.load({"DEALERROOM_INSTANCE": str(tmp_path / "b"),
                       "DEALERROOM_SQLITE_SYNCHRONOUS": "OFF"})  # fmt: skip


def test_other_databases_and_sqlite_in_memory_are_left_alone() -> None:
    engine = create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")  # never connects
    assert tune_sqlite(engine) is False
    for url in ("sqlite://", "sqlite:///:memory:", "sqlite:///file:x?mode=memory&uri=true"):
        assert tune_sqlite(create_engine(url)) is False
    with pytest.raises(ValueError, match="synchronous must be one of"):
        tune_sqlite(engine, "OFF")


KILLED_WRITER = """
import sys
import time
from service.application import DealerRoom
from service.config import Settings

room = DealerRoom(Settings.load({"DEALERROOM_INSTANCE": sys.argv[1]}))
voters = [f"v{i}" for i in range(100)]  # a vote takes at most 100 players
match_id = room.create_match("vote", voters)["match_id"]
room.open_step(match_id)
print(match_id, flush=True)
for voter in voters:
    print(room.submit(match_id, voter, {"vote": "v0"})["commitment"], flush=True)
time.sleep(600)  # killed long before
"""


def test_every_acknowledged_submission_survives_a_kill_9(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    # 1. A writer acknowledges submissions one by one; it is killed while still writing.
    with subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(instance)],
        stdout=subprocess.PIPE, text=True, cwd=REPO,
        env={k: v for k, v in os.environ.items() if not k.startswith("DEALERROOM_")},
    ) as proc:  # fmt: skip
        watchdog = threading.Timer(120, proc.kill)  # bounded, whatever happens
        watchdog.start()
        try:
            assert proc.stdout is not None
            match_id = proc.stdout.readline().strip()
            acknowledged = [proc.stdout.readline().strip() for _ in range(25)]
            proc.send_signal(signal.SIGKILL)
            acknowledged += [line.strip() for line in proc.stdout]  # said before dying
            proc.wait()
        finally:
            watchdog.cancel()
    assert proc.returncode == -signal.SIGKILL
    acknowledged = [c for c in acknowledged if c]
    assert len(acknowledged) >= 25
    # 2. Check that a new process finds every acknowledged commitment, in order.
    app = room_at(instance)
    try:
        recorded = [
            r["data"]["commitment"]
            for r in app.records(match_id)
            if r["type"] == "SubmissionCommitted"
        ]
        assert recorded[: len(acknowledged)] == acknowledged
        assert app.checkpoint(match_id)["size"] == len(app.records(match_id))
    finally:
        app.close()
