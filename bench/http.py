"""Benchmark (d): sealed submissions per second over HTTP, with p50/p99 latency.

Run: ``.venv/bin/python -m bench.http [--seconds S] [--clients C] [--postgres URL]
[--workers W] [--threads T] [--warm-up S]`` (defaults: 20 s per phase, 32 clients, SQLite,
2 s of warm-up before each phase counts).

It starts the production path, ``gunicorn -c gunicorn.conf.py web.wsgi:app`` with the
defaults of ``gunicorn.conf.py`` (``--workers``/``--threads`` override them), on loopback
and a fresh store: SQLite in a temporary instance (WAL, ``synchronous=FULL``), or with
``--postgres`` a throwaway schema of that PostgreSQL. ``C`` client threads (keep-alive
connections) each act as one player of a vote among six candidates, four players per
match, and submit as fast as answers come, a new vote each time so every submission
records a new commitment and returns its receipt. Steps are never sealed, so every answer
should be 201.

Baselines, measured in the same run on the same machine:

* the same server and clients answering ``GET /api/key`` (HTTP, Flask and gunicorn alone);
* ``DealerRoom.submit`` called directly in one process and one thread on the same store,
  as many times as the HTTP phase made submissions (at most ``S`` seconds' worth).

Prints the machine (cores, load average, the disk's fsync time, the store), each figure with
the CPU time spent per request by the server, PostgreSQL, the clients and everything else
on the machine, the ratios, and whether the target of issue #10 is met: at least 500
submissions/s with p99 under 200 ms on 2 cores. Figures and analysis: ``bench/HTTP.md``.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import create_engine, text
from sqlalchemy.exc import SQLAlchemyError

from bench.ingest import throwaway_schema
from domain.receipt import verify_receipt
from service.bootstrap import bootstrap
from service.config import Settings
from tests.load.server import Api, Server, ServerGone, store_env

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

CANDIDATES = ["ana", "ben", "cai", "dan", "eve", "fay"]
PLAYERS_PER_MATCH = 4
TARGET_RATE = 500.0  # submissions/s
TARGET_P99 = 0.200  # seconds


TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: str) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (``None`` once it is gone)."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return [raw[raw.index("(") + 1 : raw.rindex(")")], *raw[raw.rindex(")") + 2 :].split()]


class CpuMeter:
    """CPU seconds spent by the server's processes, PostgreSQL's, this process and the machine.

    Read from ``/proc`` (Linux): the server is every process in its process group, PostgreSQL
    every process named ``postgres``; ``machine`` is the busy time of all cores. A process
    that exits between two samples takes its CPU time with it (PostgreSQL's short-lived
    connections barely count).
    """

    def __init__(self, server_group: int) -> None:
        """Meter the processes of ``server_group`` (the server's process group id)."""
        self.group = str(server_group)

    def sample(self) -> dict[str, float]:
        """Cumulative CPU seconds now: ``(kind, pid)`` for each process, and the totals."""
        used: dict[Any, float] = {}
        for pid in (p.name for p in Path("/proc").iterdir() if p.name.isdigit()):
            fields = _stat(pid)
            if fields is None:
                continue
            kind = "server" if fields[3] == self.group else fields[0]
            if kind in ("server", "postgres"):
                used[(kind, pid)] = (int(fields[12]) + int(fields[13])) / TICK  # utime + stime
        used["client"] = time.process_time()
        cpu = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
        idle = int(cpu[3]) + int(cpu[4])  # idle + iowait
        used["machine"] = (sum(int(v) for v in cpu[:8]) - idle) / TICK
        return used

    @staticmethod
    def spent(before: dict[Any, float], after: dict[Any, float]) -> dict[str, float]:
        """CPU seconds between two samples: server, postgres, client and machine."""
        out = {"server": 0.0, "postgres": 0.0}
        for key, seconds in after.items():
            name = key[0] if isinstance(key, tuple) else key
            out[name] = out.get(name, 0.0) + seconds - before.get(key, 0.0)
        return out


@dataclass
class Phase:
    """What one timed phase saw: answers by status and the latency of each 2xx."""

    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    errors: dict[int, str] = field(default_factory=dict)  # the first message of each status
    unanswered: int = 0
    receipts: list[dict[str, Any]] = field(default_factory=list)
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds by consumer

    def cpu_line(self) -> str:
        """Milliseconds of CPU per successful request, by consumer, and the machine's load."""
        done = max(1, len(self.latencies))
        ours = {k: v for k, v in self.cpu.items() if k != "machine" and v}
        ours["other processes"] = max(0.0, self.cpu.get("machine", 0.0) - sum(ours.values()))
        parts = [f"{k} {v / done * 1000:.2f}" for k, v in ours.items()]
        busy = self.cpu.get("machine", 0.0) / self.seconds / (os.cpu_count() or 1) * 100
        return f"{'':4}CPU ms per request: {', '.join(parts)}; all cores {busy:.0f}% busy"

    @property
    def rate(self) -> float:
        """Successful requests per second."""
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def quantile(self, q: int) -> float:
        """The ``q``-th percentile latency in seconds."""
        if len(self.latencies) < 2:
            return self.latencies[0] if self.latencies else float("nan")
        return statistics.quantiles(self.latencies, n=100, method="inclusive")[q - 1]

    def line(self, what: str, unit: str) -> str:
        """One line: rate, p50, p99, and any answer that was not a success."""
        bad = {s: n for s, n in self.statuses.items() if not 200 <= s < 300}
        others = "".join(f"  {n} x {s} ({self.errors.get(s)!r})" for s, n in bad.items())
        if self.unanswered:
            others += f"  unanswered: {self.unanswered}"
        return (
            f"{what:<34} {self.rate:8,.1f} {unit}  p50 {self.quantile(50) * 1000:7.1f} ms  "
            f"p99 {self.quantile(99) * 1000:7.1f} ms  ({len(self.latencies):,} in "
            f"{self.seconds:.1f} s){others}"
        )


def drive(
    args: argparse.Namespace,
    request: Callable[[int, int], tuple[int, Any]],
    meter: CpuMeter | None = None,
) -> Phase:
    """Run ``request(client, n)`` from ``args.clients`` threads for warm-up plus ``seconds``.

    ``request`` returns the status and, for a 2xx, a receipt (or ``None``), else the error
    message. Only requests begun inside the measured window count; each thread stops at its
    end. With a ``meter``, the CPU spent in the window is measured too.
    """
    phase = Phase(seconds=args.seconds)
    lock = threading.Lock()
    start = time.perf_counter() + args.warm_up
    stop = start + args.seconds
    before: dict[Any, float] = {}
    if meter is not None:
        threading.Timer(args.warm_up, lambda: before.update(meter.sample())).start()

    def client(index: int) -> None:
        n = 0
        while (began := time.perf_counter()) < stop:
            try:
                status, detail = request(index, n)
            except ServerGone:
                with lock:
                    phase.unanswered += 1
                return
            took = time.perf_counter() - began
            n += 1
            if began < start:
                continue
            with lock:
                phase.statuses[status] = phase.statuses.get(status, 0) + 1
                if not 200 <= status < 300:
                    phase.errors.setdefault(status, str(detail))
                    continue
                phase.latencies.append(took)
                if detail is not None:
                    phase.receipts.append(detail)

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(args.clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if meter is not None:  # the window ended when the last thread began its last request
        phase.cpu = meter.spent(before, meter.sample())
    return phase


class Players:
    """``clients`` players of vote matches (four per match), created over the API."""

    def __init__(self, api: Api, clients: int) -> None:
        """Create the matches over ``api`` and seat ``clients`` players in them."""
        self.api = api
        self.seats: list[tuple[str, str, str]] = []  # (match id, player, token)
        for first in range(0, clients, PLAYERS_PER_MATCH):
            players = CANDIDATES[: min(PLAYERS_PER_MATCH, clients - first)]
            body = {
                "game": "vote",
                "players": players,
                "options": {"candidates": CANDIDATES},
                "auto_open": False,  # the bench opens the step itself, before the seats fill
                "auto_seal": False,  # and keeps it open while the players submit
            }
            created = api.post("/api/matches", body)
            assert created.status == 201, created.body
            mid = created.body["match_id"]
            opened = api.post(
                f"/api/matches/{mid}/steps", {"seconds": 86400}, created.body["host_token"]
            )
            assert opened.status == 201, opened.body
            for player, invite in created.body["invites"].items():
                claim = f"/api/matches/{mid}/players/{player}/claim"
                claimed = api.post(claim, {"invite": invite})
                assert claimed.status == 201, claimed.body
                self.seats.append((mid, player, claimed.body["token"]))

    def submit(self, client: int, n: int) -> tuple[int, Any]:
        """Submission ``n`` of a client: a vote other than its previous one."""
        mid, player, token = self.seats[client]
        vote = CANDIDATES[n % len(CANDIDATES)]
        path = f"/api/matches/{mid}/players/{player}/submissions"
        reply = self.api.post(path, {"payload": {"vote": vote}}, token)
        if reply.ok:
            return reply.status, reply.body["receipt"]
        return reply.status, (reply.body or {}).get("error")


def in_process(settings: Settings, calls: int, seconds: float) -> Phase:
    """``DealerRoom.submit`` called directly, one thread, on the same store."""
    services = bootstrap(settings)
    room = services.room
    try:
        players = CANDIDATES[:PLAYERS_PER_MATCH]
        mid = room.create_match("vote", players, {"candidates": CANDIDATES})["match_id"]
        room.open_step(mid, seconds=86400)
        phase = Phase()
        began = time.perf_counter()
        for n in range(calls):
            if time.perf_counter() - began > seconds:
                break
            start = time.perf_counter()
            room.submit(mid, players[n % len(players)], {"vote": CANDIDATES[n // len(players) % 6]})
            phase.latencies.append(time.perf_counter() - start)
        phase.seconds = time.perf_counter() - began
        phase.statuses = {201: len(phase.latencies)}
        return phase
    finally:
        services.close()


def machine(folder: Path, url: str | None) -> list[str]:
    """What the figures were measured on."""
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    probe = folder / "fsync-probe"
    with probe.open("wb") as handle:
        began = time.perf_counter()
        for _ in range(50):
            handle.write(b"\0" * 4096)
            handle.flush()
            os.fsync(handle.fileno())
        fsync_ms = (time.perf_counter() - began) / 50 * 1000
    probe.unlink()
    if url:
        engine = create_engine(url)
        with engine.connect() as conn:
            version = conn.execute(text("SHOW server_version")).scalar()
            commit = conn.execute(text("SHOW synchronous_commit")).scalar()
        engine.dispose()
        store = f"PostgreSQL {version} on loopback (synchronous_commit={commit})"
    else:
        store = f"SQLite {sqlite3.sqlite_version} (WAL, synchronous=FULL)"
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    return [
        (
            f"machine: {os.cpu_count()} cores ({model}), {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}; load average before the run {load}"
        ),
        f"disk: write+fsync of 4 KiB takes {fsync_ms:.1f} ms",
        f"store: {store}",
    ]


def serve_and_measure(env: dict[str, str], log: Path, args: argparse.Namespace) -> list[Phase]:
    """Start gunicorn on the store, drive both HTTP phases, stop it; return them."""
    server = Server(env, log).start()
    try:
        workers = env.get("DEALERROOM_WORKERS") or ("2" if args.postgres else "1")
        threads = env.get("DEALERROOM_THREADS") or "32"  # gunicorn.conf.py's default
        print(
            f"server: gunicorn (gthread), {workers} worker(s) x {threads} threads; "
            f"{args.clients} client threads on the same machine, {args.seconds:g} s each "
            f"phase after {args.warm_up:g} s of warm-up"
        )
        assert server.proc is not None
        meter = CpuMeter(server.proc.pid)
        with Api(server.url) as api:
            key = api.get_ok("/api/key")["public_key"]

            def get_key(_client: int, _n: int) -> tuple[int, Any]:
                return api.get("/api/key").status, None

            baseline = drive(args, get_key, meter)
            print(baseline.line("GET /api/key (baseline)", "req/s"))
            print(baseline.cpu_line())
            submitted = drive(args, Players(api, args.clients).submit, meter)
            print(submitted.line("POST .../submissions", "sub/s"))
            print(submitted.cpu_line())
    finally:
        server.stop()
    sample = random.Random(0).sample(  # noqa: S311 - a reproducible sample, not a secret
        submitted.receipts, min(50, len(submitted.receipts))
    )
    for receipt in sample:
        verify_receipt(receipt, trusted_key=key)
    print(f"receipts: {len(sample)} sampled, all verify with the server's key")
    return [baseline, submitted]


def run(args: argparse.Namespace) -> int:
    """Measure, print the figures; return 0."""
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="dealerroom-http-")))
        schema = stack.enter_context(throwaway_schema(args.postgres)) if args.postgres else None
        env = store_env(folder / "instance", args.postgres, schema)
        if args.workers:
            env["DEALERROOM_WORKERS"] = str(args.workers)
        if args.threads:
            env["DEALERROOM_THREADS"] = str(args.threads)
        for line in machine(folder, args.postgres):
            print(line)
        baseline, submitted = serve_and_measure(env, folder / "server.log", args)
        direct = in_process(Settings.load(env), len(submitted.latencies), args.seconds)
        print(direct.line("DealerRoom.submit in-process", "sub/s"))
    print(f"ratio HTTP-submissions/GET-key: {_ratio(submitted.rate, baseline.rate):.3f}")
    print(f"ratio HTTP/in-process: {_ratio(submitted.rate, direct.rate):.2f}")
    met = submitted.rate >= TARGET_RATE and submitted.quantile(99) <= TARGET_P99
    print(
        f"target: >= {TARGET_RATE:.0f} sub/s with p99 < {TARGET_P99 * 1000:.0f} ms on 2 cores: "
        + ("met" if met else "MISSED")
    )
    return 0


def _ratio(a: float, b: float) -> float:
    return a / b if b else float("nan")


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments and measure; return the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.http", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
    parser.add_argument("--clients", type=int, default=32, help="concurrent client threads")
    parser.add_argument("--postgres", metavar="URL", help="measure on this PostgreSQL")
    parser.add_argument("--workers", type=int, help="gunicorn workers (default: gunicorn.conf.py)")
    parser.add_argument(
        "--threads", type=int, help="threads per worker (default: gunicorn.conf.py)"
    )
    parser.add_argument(
        "--warm-up", type=float, default=2.0, help="seconds of load before each phase counts"
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.clients < 1 or args.warm_up < 0:
        parser.error("--seconds is positive, --clients at least 1, --warm-up not negative")
    try:
        return run(args)
    except SQLAlchemyError as exc:
        where = (args.postgres or "").rsplit("@", 1)[-1]
        reason = str(exc).splitlines()[0]
        print(f"bench.http: error: cannot use PostgreSQL at {where}: {reason}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
