"""Benchmark (c): the state at any event of a 10,000-event match, from snapshots.

Run: ``.venv/bin/python -m bench.state_at [--events N] [--samples S]`` (default 10,000 events,
1,000 samples). It plays a long, finished 6 nimmt! match through the domain aggregate
(:func:`replay.bundle.play_scenario`), then times :meth:`replay.state.MatchReplay.view_at`
at random events, with the replay's snapshots and, as the baseline in the same run, with no
snapshot but the start (every state replayed from the first record). Prints p50/p99 ms of
both and their ratio; the target is under 10 ms per state.

The match: nine humans and the virtual player, every pick sealed and revealed, every
too-low decision defaulted, played until the start points run out. A first pass with
endless points learns each player's pick (the lowest card in hand, which is also what a
missing pick defaults to, so the match it plays is the same) and how many points the
rounds cost; the second pass submits those picks with start points that run out in the
round that brings the log to at least ``--events`` records.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from replay.bundle import play_scenario
from replay.state import MatchReplay

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from replay.bundle import Record

PLAYERS = tuple(f"p{i}" for i in range(1, 10))  # the most humans beside the virtual player
TURNS_PER_ROUND = 10
ENDLESS = 10**6  # the most start points the rules take
MATCH_ID = UUID("00000000-0000-4000-8000-00000000be7c")
START = datetime(2026, 1, 1, tzinfo=UTC)
SEED = "be7c" * 16


def _play(start_points: int, steps: Sequence[dict[str, Any]]) -> list[Record]:
    scenario = {
        "game": "six-nimmt",
        "options": {"start_points": start_points},
        "players": list(PLAYERS),
        "seed": SEED,
        "steps": list(steps),
    }
    return play_scenario(scenario, match_id=MATCH_ID, start_time=START).records


def long_match(events: int) -> list[Record]:
    """The public records of a finished 6 nimmt! match with at least ``events`` records."""
    # Pass 1: nobody submits, so everyone plays the default (the lowest card in hand).
    per_turn = 2 * len(PLAYERS) + 3  # opened, committed, sealed, revealed, resolved
    rounds = events // (TURNS_PER_ROUND * per_turn) + 2
    first = _play(ENDLESS, [{}] * (rounds * TURNS_PER_ROUND))
    picks: dict[int, dict[str, Any]] = {}
    worst_loss: list[int] = []  # the biggest loss of points so far, after each round
    size = 2  # MatchCreated, SeedCommitted
    sizes: list[int] = []  # the second pass's log size after each round (the end aside)
    for record in first[2:]:
        data = record["data"]
        size += 1
        if record["type"] == "DefaultApplied":
            picks.setdefault(data["step"], {})[data["player"]] = data["payload"]
            size += 1  # committed and revealed instead of defaulted
        elif record["type"] == "StepResolved" and data["outcome"]["round_end"]:
            worst_loss.append(max(ENDLESS - p for p in data["view"]["points"].values()))
            sizes.append(size)
    # Pass 2: the same picks, sealed and revealed, until someone's points run out.
    last = next((i for i, s in enumerate(sizes) if s >= events), len(sizes) - 1)
    points = worst_loss[last]
    end = next(i for i, loss in enumerate(worst_loss) if loss >= points)
    steps = [{"submit": picks[n]} for n in range(1, (end + 1) * TURNS_PER_ROUND + 1)]
    records = _play(points, steps)
    if not any(r["type"] == "MatchFinished" for r in records):  # pragma: no cover
        msg = "the long match did not finish"
        raise RuntimeError(msg)
    return records


def _percentiles(samples: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49] * 1000, cuts[98] * 1000


def time_views(board: MatchReplay, seqs: Sequence[int]) -> list[float]:
    """Seconds each ``board.view_at(seq)`` took."""
    clock: Callable[[], float] = time.perf_counter
    took = []
    for seq in seqs:
        start = clock()
        board.view_at(seq)
        took.append(clock() - start)
    return took


def main(argv: Sequence[str] | None = None) -> None:
    """Measure both in the same run and print the ratio."""
    parser = argparse.ArgumentParser(prog="python -m bench.state_at", description=__doc__)
    parser.add_argument("--events", type=int, default=10_000, help="records in the match")
    parser.add_argument("--samples", type=int, default=1_000, help="states read from snapshots")
    parser.add_argument("--baseline-samples", type=int, default=50,
                        help="states replayed from the start")  # fmt: skip
    parser.add_argument("--snapshot-every", type=int, default=64)
    args = parser.parse_args(argv)

    start = time.perf_counter()
    records = long_match(args.events)
    played = time.perf_counter() - start
    rounds = sum(1 for r in records if r["type"] == "StepOpened") // TURNS_PER_ROUND
    print(
        f"match: six-nimmt, {len(PLAYERS)} humans + virtual, {rounds} rounds, "
        f"{len(records):,} records (played in {played:.1f} s)"
    )
    rng = random.Random(7)  # noqa: S311 - the same positions on every run, not a secret
    start = time.perf_counter()
    board = MatchReplay(records, snapshot_every=args.snapshot_every)
    built = time.perf_counter() - start
    if board.at(len(records) - 1).unknown:  # pragma: no cover - the seed is revealed at the end
        msg = f"the replay cannot compute the states: {board.at(len(records) - 1).unknown}"
        raise RuntimeError(msg)
    fast = time_views(board, [rng.randrange(len(records)) for _ in range(args.samples)])
    plain = MatchReplay(records, snapshot_every=len(records) + 1)  # one snapshot: the start
    slow = time_views(plain, [rng.randrange(len(records)) for _ in range(args.baseline_samples)])
    fast50, fast99 = _percentiles(fast)
    slow50, slow99 = _percentiles(slow)
    print(
        f"snapshots every {args.snapshot_every} (built in {built * 1000:.0f} ms): "
        f"p50 {fast50:.3f} ms, p99 {fast99:.3f} ms over {len(fast)} random view_at"
    )
    print(
        f"replayed from the start:    p50 {slow50:.3f} ms, p99 {slow99:.3f} ms "
        f"over {len(slow)} random view_at"
    )
    print(
        f"ratio snapshots/from-start: {fast50 / slow50:.4f}x at p50 "
        f"({slow50 / fast50:,.0f} times faster; target p99 < 10 ms per state)"
    )


if __name__ == "__main__":
    main()
