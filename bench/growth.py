"""Benchmark (e): a submission's cost as one match grows and as open matches multiply.

Run: ``.venv/bin/python -m bench.growth [--sizes 1000,10000,100000] [--matches 10,10000]
[--samples 200] [--postgres URL]`` (SQLite in a temporary instance by default, WAL,
``synchronous=FULL``; ``--postgres`` uses a throwaway schema of that server).

*Growth of one match*: a two-player vote whose step stays open; the players amend their
votes, one event each, until the match's log holds each size of ``--sizes``; at each size,
``--samples`` more submissions are timed (wall and CPU of this process, which is all of the
work on SQLite) and their receipts measured (inclusion-proof hashes, JSON bytes). The ratio is
against the first size, measured in the same run: a cost that does not grow with history
stays near 1, and a receipt grows by one hash each time the log doubles.

*Many open matches*: matches of two players, each with its step open, are created until each
count of ``--matches`` is open; at each count, ``--samples`` matches are picked at random and
one submission to each is timed twice: the first touch (with many matches, a match no cache
of the process holds any more: it is loaded from the store) and again (the working set of a
busy night: every match in play is in the process's caches). The ratio compares the second
with the first count's; the first touch is printed beside it.

1,000,000 records in one match take about 20 minutes to build here (``--sizes
1000,1000000``); the default stops at 100,000.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from contextlib import ExitStack
from typing import TYPE_CHECKING

from bench.ingest import throwaway_schema
from service.bootstrap import bootstrap
from service.config import Settings

if TYPE_CHECKING:
    from collections.abc import Sequence

    from service.application import DealerRoom

PLAYERS = ["ana", "ben"]


def timed_submissions(room: DealerRoom, targets: Sequence[str], samples: int) -> dict[str, float]:
    """Time ``samples`` submissions to ``targets`` (cycled); return per-submission figures."""
    wall = cpu = 0.0
    hashes = size = 0
    for i in range(samples):
        match_id = targets[i % len(targets)]
        player = PLAYERS[i % 2]
        vote = PLAYERS[(i // 2) % 2]
        started, used = time.perf_counter(), time.process_time()
        answer = room.submit(match_id, player, {"vote": vote})
        wall += time.perf_counter() - started
        cpu += time.process_time() - used
        hashes = max(hashes, len(answer["receipt"]["inclusion_proof"]))
        size = max(size, len(json.dumps(answer["receipt"])))
    return {"ms": wall / samples * 1e3, "cpu": cpu / samples * 1e3, "hashes": hashes, "bytes": size}


def grow_one_match(room: DealerRoom, sizes: Sequence[int], samples: int) -> None:
    """One match's log grows through ``sizes``; the cost of a submission at each."""
    match_id = room.create_match("vote", PLAYERS)["match_id"]
    room.open_step(match_id)
    first: dict[str, float] | None = None
    count = len(room.records(match_id))
    for size in sizes:
        while count < size:
            player = PLAYERS[count % 2]
            room.submit(match_id, player, {"vote": PLAYERS[(count // 2) % 2]})
            count += 1
        figures = timed_submissions(room, [match_id], samples)
        count += samples
        first = first or figures
        print(
            f"one match at {size:>9,} records: submit {figures['ms']:6.2f} ms "
            f"(cpu {figures['cpu']:5.2f} ms), receipt {figures['hashes']:2d} hashes, "
            f"{figures['bytes']:,} bytes"
        )
        print(f"  ratio submit-ms/first-size: {figures['ms'] / first['ms']:.2f}")


def many_matches(room: DealerRoom, counts: Sequence[int], samples: int) -> None:
    """Open matches multiply through ``counts``; the cost of a submission at each."""
    opened: list[str] = []
    first: dict[str, float] | None = None
    rng = random.Random(7)  # noqa: S311 - which matches are sampled, not a secret
    for count in counts:
        while len(opened) < count:
            match_id = room.create_match("vote", PLAYERS)["match_id"]
            room.open_step(match_id)
            opened.append(match_id)
        picked = rng.sample(opened, min(samples, len(opened)))
        cold = timed_submissions(room, picked, samples)  # the first touch of each since long
        figures = timed_submissions(room, picked, samples)  # the same matches again
        first = first or figures
        print(
            f"{count:>9,} open matches: submit {figures['ms']:6.2f} ms "
            f"(cpu {figures['cpu']:5.2f} ms), receipt {figures['hashes']:2d} hashes; "
            f"first touch {cold['ms']:.2f} ms"
        )
        print(f"  ratio submit-ms/first-count: {figures['ms'] / first['ms']:.2f}")


def numbers(text: str) -> list[int]:
    """Comma-separated whole numbers, ascending and positive."""
    values = [int(part) for part in text.split(",") if part.strip()]
    if not values or any(v < 1 for v in values) or values != sorted(values):
        msg = f"{text!r} is not a list of ascending positive numbers"
        raise argparse.ArgumentTypeError(msg)
    return values


def main(argv: Sequence[str] | None = None) -> int:
    """Measure both kinds of growth on one store; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bench.growth", description=__doc__)
    parser.add_argument("--sizes", type=numbers, default=[1_000, 10_000, 100_000])
    parser.add_argument("--matches", type=numbers, default=[10, 10_000])
    parser.add_argument("--samples", type=int, default=200, help="timed submissions per point")
    parser.add_argument("--postgres", default=None, metavar="URL", help="measure PostgreSQL")
    args = parser.parse_args(argv)
    if not 1 <= args.samples <= 100_000:
        parser.error("--samples is 1 to 100,000")
    with ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="dealerroom-bench-"))
        env = {"DEALERROOM_INSTANCE": folder}
        if args.postgres:
            schema = stack.enter_context(throwaway_schema(args.postgres))
            env |= {"DEALERROOM_DATABASE_URL": args.postgres, "DEALERROOM_DB_SCHEMA": schema}
        services = bootstrap(Settings.load(env))
        stack.callback(services.close)
        store = "PostgreSQL" if args.postgres else "SQLite (WAL, synchronous=FULL)"
        print(f"store: {store}; {args.samples} timed submissions per point")
        grow_one_match(services.room, args.sizes, args.samples)
        many_matches(services.room, args.matches, args.samples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
