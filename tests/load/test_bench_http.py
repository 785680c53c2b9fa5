"""``python -m bench.http`` still runs: at a tiny size it prints every figure and both ratios.

Nothing is timed here; the figures are in bench/HTTP.md.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.conftest import REPO

RATIO = re.compile(r"^ratio [\w/-]+: \d+\.\d+$", re.MULTILINE)
FIGURE = r"{} +[\d,.]+ {}  p50 +[\d.]+ ms  p99 +[\d.]+ ms"


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALERROOM_")}
    return subprocess.run(
        [sys.executable, "-m", "bench.http", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_http_bench_measures_submissions_against_both_baselines() -> None:
    done = bench("--seconds", "1", "--clients", "2", "--warm-up", "0.2")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.search(r"^machine: \d+ cores", out, re.MULTILINE)
    assert re.search(FIGURE.format(re.escape("GET /api/key (baseline)"), "req/s"), out)
    assert re.search(FIGURE.format(re.escape("POST .../submissions"), "sub/s"), out)
    assert re.search(FIGURE.format("DealerRoom.submit in-process", "sub/s"), out)
    assert " x 4" not in out and " x 5" not in out and "unanswered" not in out, out
    assert re.search(r"receipts: \d+ sampled, all verify", out)
    assert len(RATIO.findall(out)) == 2, out
    assert re.search(r"^target: .*: (met|MISSED)$", out, re.MULTILINE)


def test_a_postgres_that_is_not_there_is_one_line_and_exit_2() -> None:
    done = bench("--seconds", "1", "--postgres", "postgresql+psycopg://nobody@127.0.0.1:1/none")
    assert done.returncode == 2
    assert done.stderr.startswith("bench.http: error: cannot use PostgreSQL at 127.0.0.1:1/none")
    assert len(done.stderr.splitlines()) == 1
