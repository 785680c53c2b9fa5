"""The benchmarks still run: each one, at a tiny size, prints its figures and a ratio line.

Nothing is timed here; the figures themselves are in bench/README.md.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.conftest import PG_URL, REPO

RATIO = re.compile(r"^\s*ratio [\w/-]+: \d+\.\d+", re.MULTILINE)


def bench(*args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALERROOM_")}
    done = subprocess.run(
        [sys.executable, "-m", *args],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_the_ingest_bench_compares_the_service_with_raw_appends(store: str) -> None:
    if store == "postgres" and not PG_URL:
        pytest.skip("DEALERROOM_TEST_POSTGRES_URL is not set")
    where = ["--postgres", PG_URL or ""] if store == "postgres" else ["--no-postgres"]
    out = bench("bench.ingest", "--events", "200", "--players", "4", *where)
    assert re.search(r"service ingest .*: [\d,]+ events/s", out)
    assert re.search(r"raw eventsourcing appends: +[\d,]+ events/s", out)
    assert len(RATIO.findall(out)) == (2 if store == "postgres" else 1), out


def test_the_state_at_bench_compares_snapshots_with_replaying_from_the_start() -> None:
    out = bench("bench.state_at", "--events", "200", "--samples", "20", "--baseline-samples", "5")
    assert re.search(r"snapshots every 64 .*: p50 [\d.]+ ms, p99 [\d.]+ ms", out)
    assert len(RATIO.findall(out)) == 1, out


def test_the_verify_bench_compares_the_merkle_check_with_hashing_alone() -> None:
    assert len(RATIO.findall(bench("bench.verify", "2000"))) == 1


def test_a_postgres_that_is_not_there_is_one_line_and_exit_2() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALERROOM_")}
    done = subprocess.run(
        [sys.executable, "-m", "bench.ingest", "--events", "20",
         "--postgres", "postgresql+psycopg://nobody@127.0.0.1:1/none"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("bench.ingest: error: cannot use PostgreSQL at 127.0.0.1:1/none")
    assert len(done.stderr.splitlines()) == 1


def test_the_growth_bench_compares_sizes_and_match_counts() -> None:
    out = bench("bench.growth", "--sizes", "20,60", "--matches", "2,6", "--samples", "5")
    assert re.search(r"one match at +60 records: submit +[\d.]+ ms", out)
    assert re.search(r"6 open matches: submit +[\d.]+ ms", out)
    assert len(RATIO.findall(out)) == 4, out
