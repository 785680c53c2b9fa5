"""Concurrent matches played over HTTP, and what every store must show afterwards.

:class:`Load` plays matches the way hosts and players do, all at once: for each step the
host opens it, every player commits and keeps amending (each amendment a new pick, so a new
commitment) from a thread of their own, and the host seals at a random moment while they
are still submitting; a deadline ticker may seal first. Resolution reveals the picks and,
in 6 nimmt!, may ask a decision, which the host defaults. Every answer is written down in
a :class:`Ledger`: accepted submissions with their receipts, refusals by status, and
anything that must never happen (a 5xx, an unexpected 4xx).

:func:`check_matches` then reads every match back through the API and checks it with the
project's own verifiers (``domain.receipt.verify_receipt``, ``replay.verify``).
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from domain.receipt import verify_receipt
from replay.bundle import load_bundle
from replay.verify import verify_bundle
from tests.load.server import Api, ServerGone

CANDIDATES = ["ana", "ben", "cai", "dan", "eve", "fay"]
RESOLVE_WAIT = 60.0  # seconds a sealed step may take to resolve on a loaded machine
CREATED = 201
REFUSED_AFTER_SEAL = 409  # StepNotOpen: the step was sealed while the pick was on its way


@dataclass(frozen=True)
class Plan:
    """One match to play: game, players, how many steps and when each is sealed.

    Each step's deadline is ``seconds`` from its opening; the host seals it after a random
    delay in ``seal_after`` (seconds), so a deadline shorter than that delay lets the
    ticker race the host. A player amends up to ``amendments`` times per step.
    """

    game: str
    players: tuple[str, ...]
    steps: int
    seconds: int = 3600
    seal_after: tuple[float, float] = (0.05, 0.4)
    amendments: int = 6
    options: dict[str, Any] = field(default_factory=dict)


def vote(players: int = 4, **kw: Any) -> Plan:
    """A one-step vote among six candidates (so every amendment can change the vote)."""
    return Plan("vote", tuple(CANDIDATES[:players]), 1, options={"candidates": CANDIDATES}, **kw)


def six_nimmt(players: int = 4, steps: int = 3, **kw: Any) -> Plan:
    """``steps`` turns of 6 nimmt! (with the virtual player)."""
    return Plan("six-nimmt", tuple(CANDIDATES[:players]), steps, **kw)


@dataclass
class Table:
    """A match created over the API: its id, plan and tokens."""

    match_id: str
    plan: Plan
    host: str
    tokens: dict[str, str]


@dataclass(frozen=True)
class Accepted:
    """A 2xx submission: what was sent and the receipt that came back."""

    match_id: str
    player: str
    step: int
    payload: dict[str, Any]
    commitment: str
    receipt: dict[str, Any]


class Ledger:
    """Every answer of a load, written from many threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.accepted: list[Accepted] = []
        self.refused: Counter[int] = Counter()
        self.problems: list[str] = []
        self.unanswered = 0  # requests sent that got no answer (the server went down)
        self.latencies: list[float] = []  # seconds, of every answered submission

    def accept(self, item: Accepted, seconds: float) -> None:
        """Record an accepted submission."""
        with self._lock:
            self.accepted.append(item)
            self.latencies.append(seconds)

    def refuse(self, status: int, seconds: float) -> None:
        """Record an expected refusal (a pick that arrived after the seal)."""
        with self._lock:
            self.refused[status] += 1
            self.latencies.append(seconds)

    def problem(self, what: str) -> None:
        """Record something that must not happen."""
        with self._lock:
            self.problems.append(what)

    def gone(self) -> None:
        """Record a request that got no answer."""
        with self._lock:
            self.unanswered += 1


class Load:
    """Plays matches concurrently against one server, writing every answer to ``ledger``."""

    def __init__(self, api: Api, ledger: Ledger, seed: int = 0) -> None:
        self.api = api
        self.ledger = ledger
        self.seed = seed
        self.stop = threading.Event()  # set: players stop after their current request
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    def create(self, plan: Plan) -> Table:
        """Create the match of ``plan``."""
        body = {
            "game": plan.game,
            "players": list(plan.players),
            "options": plan.options,
            "auto_open": False,  # the host opens and seals each step itself
            "auto_seal": False,
        }
        reply = self.api.post("/api/matches", body)
        assert reply.status == CREATED, f"create {plan.game}: {reply.status} {reply.body}"
        created = reply.body
        mid = created["match_id"]
        tokens = {}
        for player, invite in created["invites"].items():
            claimed = self.api.post(
                f"/api/matches/{mid}/players/{player}/claim", {"invite": invite}
            )
            assert claimed.status == CREATED, f"claim {player}: {claimed.status} {claimed.body}"
            tokens[player] = claimed.body["token"]
        return Table(mid, plan, created["host_token"], tokens)

    def start(self, tables: list[Table]) -> None:
        """Play every table in a host thread of its own, in the background."""
        for i, table in enumerate(tables):
            self._spawn(self._host, table, i, name=f"host-{i}")

    def _spawn(self, target: Any, *args: Any, name: str) -> threading.Thread:
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        with self._lock:
            self._threads.append(thread)
        thread.start()
        return thread

    def join(self, timeout: float) -> list[str]:
        """Wait for every host and player thread; return the names of those still running."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                alive = [t for t in self._threads if t.is_alive()]
            if not alive or time.monotonic() > deadline:
                return [t.name for t in alive]
            alive[0].join(max(0.0, deadline - time.monotonic()))

    def run(self, tables: list[Table], timeout: float) -> None:
        """Play every table to the end of its plan.

        :raises AssertionError: when a host has not finished within ``timeout`` seconds.
        """
        self.start(tables)
        stuck = self.join(timeout)
        self.stop.set()
        assert not stuck, f"still playing after {timeout} s: {stuck}"

    # ------------------------------------------------------------------ the host

    def _rng(self, key: str) -> random.Random:
        """A generator seeded with the load's seed and ``key``: the same moves on every run."""
        return random.Random(f"{self.seed}/{key}")  # noqa: S311 - a reproducible load, no secret

    def _host(self, table: Table, index: int) -> None:
        rng = self._rng(f"{index}")
        mid, plan = table.match_id, table.plan
        try:
            for _ in range(plan.steps):
                if self.stop.is_set():
                    return
                body = {"seconds": plan.seconds}
                opened = self.api.post(f"/api/matches/{mid}/steps", body, table.host)
                if opened.status != CREATED:
                    self.ledger.problem(f"{mid} open step: {opened.status} {opened.body}")
                    return
                step = opened.body["step"]
                players = [
                    self._spawn(
                        self._player,
                        table,
                        step,
                        player,
                        self._rng(f"{index}/{step}/{player}"),
                        name=f"player-{index}-{step}-{player}",
                    )
                    for player in plan.players
                ]
                time.sleep(rng.uniform(*plan.seal_after))
                sealed = self.api.post(f"/api/matches/{mid}/seal", {}, table.host)
                if not sealed.ok and sealed.status != REFUSED_AFTER_SEAL:  # the ticker was first
                    self.ledger.problem(f"{mid} seal step {step}: {sealed.status} {sealed.body}")
                    return
                finished = self.resolve(table, step)
                for thread in players:
                    thread.join()
                if finished:
                    return
        except ServerGone:
            self.ledger.gone()

    def resolve(self, table: Table, step: int) -> bool:
        """Default every decision until ``step`` resolves; return whether the match finished."""
        mid = table.match_id
        deadline = time.monotonic() + RESOLVE_WAIT
        while time.monotonic() < deadline and not self.stop.is_set():
            reply = self.api.get(f"/api/matches/{mid}")
            if not reply.ok:
                self.ledger.problem(f"{mid} status: {reply.status} {reply.body}")
                return True
            status, current = reply.body, reply.body["step"]
            resolved = current["number"] == step and current["status"] == "resolved"
            if status["finished"] or resolved:
                return bool(status["finished"])
            if current["decision"] is not None:
                answer = self.api.post(f"/api/matches/{mid}/decisions/default", {}, table.host)
                if not answer.ok and answer.status != REFUSED_AFTER_SEAL:  # already answered
                    self.ledger.problem(f"{mid} default decision: {answer.status} {answer.body}")
                    return True
            time.sleep(0.02)
        if not self.stop.is_set():
            self.ledger.problem(f"{mid} step {step} did not resolve in {RESOLVE_WAIT} s")
        return True

    # ------------------------------------------------------------------ the players

    def _player(self, table: Table, step: int, player: str, rng: random.Random) -> None:
        mid, token = table.match_id, table.tokens[player]
        try:
            if table.plan.game == "six-nimmt":
                mine = self.api.get(f"/api/matches/{mid}/players/{player}", token)
                if not mine.ok:
                    self.ledger.problem(f"{mid} {player}'s view: {mine.status} {mine.body}")
                    return
                choices = [{"card": c} for c in mine.body["view"]["hand"]]
            else:
                choices = [{"vote": c} for c in CANDIDATES]
            last = None
            for _ in range(table.plan.amendments):
                if self.stop.is_set():
                    return
                others = [c for c in choices if c != last]
                if not others:  # the last card of the hand: nothing to amend to
                    return
                last = rng.choice(others)
                if not self.submit(table, step, player, last):
                    return
                time.sleep(rng.uniform(0, 0.03))
        except ServerGone:
            self.ledger.gone()

    def submit(self, table: Table, step: int, player: str, payload: dict[str, Any]) -> bool:
        """Submit once; return whether the step still takes picks."""
        mid = table.match_id
        path = f"/api/matches/{mid}/players/{player}/submissions"
        began = time.perf_counter()
        reply = self.api.post(path, {"payload": payload, "step": step}, table.tokens[player])
        took = time.perf_counter() - began
        if reply.status == CREATED:
            body = reply.body
            accepted = Accepted(
                mid, player, body["step"], payload, body["commitment"], body["receipt"]
            )
            self.ledger.accept(accepted, took)
            return True
        if reply.status == REFUSED_AFTER_SEAL:
            self.ledger.refuse(reply.status, took)
            return False
        self.ledger.problem(f"{mid} step {step} {player} submit: {reply.status} {reply.body}")
        return False


# ---------------------------------------------------------------------- the checks


@dataclass
class Findings:
    """What :func:`check_matches` counted."""

    matches: int = 0
    records: int = 0
    receipts: int = 0
    steps_resolved: int = 0
    sealed_by_ticker: int = 0  # steps whose deadline sealed them before the host did
    extra_commitments: int = 0  # in the log without a 2xx answer (only after a crash)


def check_matches(api: Api, tables: list[Table], ledger: Ledger, *, exact: bool = True) -> Findings:
    """Check every match of ``tables`` against what the clients were told.

    * every 2xx submission's commitment is in the log exactly once, at its receipt's leaf;
      with ``exact`` no other commitment is (after a crash, an answer may have been lost);
    * no commitment lands after its step's seal, each amendment supersedes the one before,
      and the reveal of each pick is the last commitment, with the payload that was sent;
    * every step opens, seals and resolves at most once, in that order;
    * every receipt verifies with the pinned key, and the final checkpoint extends it;
    * the bundle passes every check of ``replay.verify`` (with all the receipts);
    * the match index and the signed checkpoints have caught up with the log.

    :raises AssertionError: naming the match and what is wrong.
    """
    key = api.get_ok("/api/key")["public_key"]
    listing = {m["match_id"]: m for m in api.get_ok("/api/matches")}
    mine: dict[str, list[Accepted]] = defaultdict(list)
    for item in ledger.accepted:
        mine[item.match_id].append(item)
    found = Findings()
    for table in tables:
        mid = table.match_id
        records = api.get_ok(f"/api/matches/{mid}/records")
        assert [r["seq"] for r in records] == list(range(len(records))), mid
        found.extra_commitments += _check_commitments(mid, records, mine[mid], exact=exact)
        found.steps_resolved += _check_steps(mid, records)
        found.sealed_by_ticker += sum(
            r["type"] == "StepSealed" and r["data"]["actor"] == "system" for r in records
        )
        _check_reveals(mid, records, mine[mid])
        assert listing[mid]["events"] == len(records), f"{mid}: the index is behind the log"
        _check_receipts(api, mid, key, len(records), mine[mid])
        _check_bundle(api, mid, key, len(records), mine[mid])
        found.matches += 1
        found.records += len(records)
        found.receipts += len(mine[mid])
    return found


def _check_commitments(
    mid: str, records: list[dict[str, Any]], mine: list[Accepted], *, exact: bool
) -> int:
    """Each commitment is in the log once; return how many nobody was told about."""
    committed = [r for r in records if r["type"] == "SubmissionCommitted"]
    counts = Counter(r["data"]["commitment"] for r in committed)
    twice = [c for c, n in counts.items() if n > 1]
    assert not twice, f"{mid}: commitments in the log twice: {twice}"
    for item in mine:
        assert counts[item.commitment] == 1, f"{mid}: accepted {item.commitment} is not in the log"
        assert records[item.receipt["leaf_index"]] == item.receipt["record"], (
            f"{mid}: the log at {item.receipt['leaf_index']} is not the receipt's record"
        )
    extra = set(counts) - {item.commitment for item in mine}
    assert not (exact and extra), f"{mid}: commitments nobody was told about: {sorted(extra)}"
    last: dict[tuple[int, str], str | None] = {}
    for r in committed:
        where = (r["data"]["step"], r["data"]["player"])
        assert r["data"]["supersedes"] == last.get(where), f"{mid}: seq {r['seq']} breaks the chain"
        last[where] = r["data"]["commitment"]
    return len(extra)


def _check_steps(mid: str, records: list[dict[str, Any]]) -> int:
    """Each step opens, seals, resolves at most once and in order; return how many resolved."""
    at: dict[str, dict[int, int]] = {}
    for kind in ("StepOpened", "StepSealed", "StepResolved"):
        seqs = [(r["data"]["step"], r["seq"]) for r in records if r["type"] == kind]
        counts = Counter(step for step, _ in seqs)
        again = sorted(s for s, n in counts.items() if n > 1)
        assert not again, f"{mid}: {kind} more than once for step(s) {again}"
        at[kind] = dict(seqs)
    for step, seq in at["StepResolved"].items():
        assert at["StepOpened"][step] < at["StepSealed"][step] < seq, f"{mid}: step {step} order"
    for step, seq in at["StepSealed"].items():
        assert at["StepOpened"][step] < seq, f"{mid}: step {step} sealed before it opened"
    for r in records:
        if r["type"] == "SubmissionCommitted" and r["data"]["step"] in at["StepSealed"]:
            late = r["seq"] > at["StepSealed"][r["data"]["step"]]
            assert not late, f"{mid}: seq {r['seq']} committed after its step's seal"
    return len(at["StepResolved"])


def _check_reveals(mid: str, records: list[dict[str, Any]], mine: list[Accepted]) -> None:
    """Each reveal opens the player's last commitment of the step, with the payload sent."""
    sent = {item.commitment: item.payload for item in mine}
    last: dict[tuple[int, str], str] = {}
    for r in records:
        data = r["data"]
        if r["type"] == "SubmissionCommitted":
            last[(data["step"], data["player"])] = data["commitment"]
        elif r["type"] == "SubmissionRevealed":
            opened = last[(data["step"], data["player"])]
            assert data["commitment"] == opened, f"{mid}: seq {r['seq']} reveals a stale pick"
            if data["commitment"] in sent:
                assert data["payload"] == sent[data["commitment"]], f"{mid}: seq {r['seq']} payload"


def _check_receipts(api: Api, mid: str, key: str, size: int, mine: list[Accepted]) -> None:
    """Every receipt verifies, and the latest checkpoint (at ``size``) extends it."""
    latest = api.get_ok(f"/api/matches/{mid}/checkpoint")
    assert latest["size"] == size, f"{mid}: checkpoint at {latest['size']}, log has {size}"
    later: dict[int, Any] = {}
    for item in mine:
        old = item.receipt["tree_size"]
        if old not in later:
            later[old] = api.get_ok(f"/api/matches/{mid}/checkpoint?from={old}")
        check = verify_receipt(item.receipt, trusted_key=key, later=later[old])
        assert (check.player, check.step) == (item.player, item.step)
        assert check.commitment == item.commitment
        assert check.later_size == size, f"{mid}: proof to size {check.later_size}, not {size}"


def _check_bundle(api: Api, mid: str, key: str, size: int, mine: list[Accepted]) -> None:
    reply = api.get(f"/api/matches/{mid}/bundle")
    assert reply.ok, f"{mid} bundle: {reply.status} {reply.body}"
    receipts = [item.receipt for item in mine]
    verdict = verify_bundle(load_bundle(reply.raw), trusted_key=key, receipts=receipts)
    assert verdict.ok, f"{mid}: {verdict}"
    assert verdict.records == size, f"{mid}: the bundle has {verdict.records} records, not {size}"
