"""The deadline ticker: it ticks until stopped, and one lock file lets only one ticker tick."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, cast

from service.ticker import Ticker

if TYPE_CHECKING:
    from pathlib import Path

    from service.application import DealerRoom


class FakeRoom:
    """Counts ticks; the first one fails, as a store down for a moment would."""

    def __init__(self) -> None:
        self.ticks = 0

    def tick(self) -> list[tuple[str, str]]:
        self.ticks += 1
        if self.ticks == 1:
            msg = "the store is down for a moment"
            raise RuntimeError(msg)
        return []


class Said:
    """A worker's log: what the ticker said."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def info(self, msg: str, *args: Any) -> None:
        self.lines.append(msg % args)


def _wait_for(condition: Any, seconds: float = 5.0) -> None:
    give_up = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < give_up, "waited too long"
        time.sleep(0.01)


def test_a_failed_tick_is_logged_and_the_next_one_runs() -> None:
    room = FakeRoom()
    ticker = Ticker(cast("DealerRoom", room), every=0.01)
    thread = ticker.start()
    assert ticker.start() is thread  # started once
    _wait_for(lambda: room.ticks >= 3)
    ticker.stop()
    thread.join(5)
    assert not ticker.running


def test_one_lock_file_lets_one_ticker_tick_and_the_next_takes_over(tmp_path: Path) -> None:
    lock = tmp_path / "ticker.lock"
    first_room, second_room = FakeRoom(), FakeRoom()
    first, second = (Ticker(cast("DealerRoom", r), every=0.01) for r in (first_room, second_room))
    first_said, second_said = Said(), Said()
    # 1. The first ticker takes the lock and ticks.
    first_thread = first.start(lock=lock, say=first_said)
    _wait_for(lambda: first_room.ticks >= 2)
    # 2. The second waits on the lock and does not tick.
    second_thread = second.start(lock=lock, say=second_said)
    _wait_for(lambda: len(second_said.lines) == 1)
    assert "waits to run the deadline ticker" in second_said.lines[0]
    time.sleep(0.1)
    assert second_room.ticks == 0
    # 3. When the first stops (its lock is released), the second takes over.
    first.stop()
    first_thread.join(5)
    _wait_for(lambda: second_room.ticks >= 2)
    assert "deadline ticker running in worker" in second_said.lines[-1]
    assert "deadline ticker running in worker" in first_said.lines[0]
    second.stop()
    second_thread.join(5)
