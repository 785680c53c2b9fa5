"""Catching up from the position a worker last saw.

When another worker has moved on, the guard on the tracked position makes it read the
position again; nothing is applied twice, nothing is skipped, and every receipt either worker
issued verifies against the final log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import func, select

from domain.receipt import verify_receipt
from service.application import DealerRoom

if TYPE_CHECKING:
    from service.config import Settings

PLAYERS = [f"p{i}" for i in range(7)]


def test_two_workers_taking_turns_sign_every_size_once_and_their_receipts_verify(
    settings: Settings,
) -> None:
    one, two = DealerRoom(settings), DealerRoom(settings)
    try:
        # 1. Two workers take turns on one match, so each one's remembered position is stale.
        mid = one.create_match("vote", PLAYERS)["match_id"]
        assert two.matches()[0]["match_id"] == mid
        one.open_step(mid)
        receipts = [
            (one if i % 2 else two).submit(mid, player, {"vote": "p0"})["receipt"]
            for i, player in enumerate(PLAYERS)
        ]
        assert one.seal(mid) == "finished"
        assert two.matches()[0]["status"] == "finished"
        assert one.index.catch_up() == two.index.catch_up() == 0
        # 2. Check every leaf and every checkpoint size is there exactly once.
        size = len(one.records(mid))
        log = one.tlog
        with one.index.engine.connect() as conn:
            leaves = conn.execute(
                select(log.leaves.c.seq).where(log.leaves.c.match_id == mid).order_by("seq")
            ).scalars()
            assert list(leaves) == list(range(size))
            sizes = conn.execute(
                select(func.count(), func.min(log.checkpoints.c.size))
                .where(log.checkpoints.c.match_id == mid)
            ).one()  # fmt: skip
            assert tuple(sizes) == (size, 1)
        # 3. Check each receipt against the final checkpoint, from either worker.
        for i, receipt in enumerate(receipts):
            later = (one, two)[i % 2].consistency(mid, receipt["tree_size"])
            checked = verify_receipt(receipt, trusted_key=one.public_key(), later=later)
            assert checked.later_size == size
    finally:
        one.close()
        two.close()


def test_a_read_does_not_wait_for_a_writer_to_catch_up(settings: Settings) -> None:
    import subprocess
    import sys
    import time

    from sqlalchemy import create_engine, text

    room = DealerRoom(settings)
    try:
        shown = room.create_match("vote", ["ana", "ben"])["match_id"]
        assert [m["match_id"] for m in room.matches()] == [shown]
        hidden = room.create_match("vote", ["cai", "dan"])["match_id"]  # saved, not projected
        # 1. Another connection holds the lock the catch-up needs (the whole SQLite file; the
        #    tracking row on PostgreSQL, as a worker in the middle of its own catch-up does).
        if settings.database_url.startswith("sqlite"):
            holder = subprocess.Popen(
                [sys.executable, "-c", ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1], "
                 "isolation_level=None); c.execute('BEGIN EXCLUSIVE'); print('held', flush=True);"
                 " sys.stdin.read()"), settings.database_url.removeprefix("sqlite:///")],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            )  # fmt: skip
            assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
            release = holder.communicate
        else:
            engine = create_engine(settings.database_url)
            conn = engine.connect()
            conn.execute(text(f'SET search_path TO "{settings.db_schema}"'))
            conn.execute(text("UPDATE dealerroom_readmodel_tracking SET position = position"))

            def release() -> None:
                conn.rollback()
                conn.close()
                engine.dispose()

        # 2. Check that the match list answers at once with what is projected.
        try:
            started = time.monotonic()
            listed = [m["match_id"] for m in room.matches()]
            assert time.monotonic() - started < 1.0
            assert listed == [shown]
        finally:
            release()
        # 3. Check that the next read catches up.
        assert {m["match_id"] for m in room.matches()} == {shown, hidden}
    finally:
        room.close()
