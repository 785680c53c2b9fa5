"""The browser's fair randomness, deals and defaults agree with the Python reference.

The JavaScript modules under ``web/static/js/crypto/`` (fairrand.js, fairness.js) and each
game's ``web/games/<package>/static/deals.js`` run in Node (``node`` on the PATH; without it
these tests are skipped, except under ``CI``) with its WebCrypto. Expected values come from
the protocol's vectors, from ``domain.fairrand`` and each game's ``deal`` in ``domain.rules``
on many states, and from the golden bundles' verdicts in ``fixtures/bundles``.
"""

from __future__ import annotations

import copy
import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from domain.fairrand import Rng, seed_hash
from domain.rules import get_rules
from replay.verify import verify_bundle
from web import games

REPO = Path(__file__).resolve().parents[2]
CRYPTO = REPO / "web" / "static" / "js" / "crypto"
BUNDLES = REPO / "fixtures" / "bundles"
VECTORS = json.loads((REPO / "docs" / "protocol-vectors.json").read_text())["randomness"]
EVERY_BUNDLE = sorted(BUNDLES.glob("*.bundle.json"))
MATCH = "6f9619ff-8b86-d011-b42d-00c04fc964ff"
NODE = shutil.which("node")

if NODE is None and os.environ.get("CI"):
    pytest.fail("CI: node is missing; the JavaScript fairness tests need it", pytrace=False)
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

# Reads {"cases": [...]} on stdin, runs `job(modules, case)` for each, prints the answers.
RUNNER = """
const url = (name) => new URL(name, "file://%s/").href;
const folders = %s; // each game's deals module, in its presentation folder
const load = async (game) => (Object.hasOwn(folders, game) ? import(folders[game]) : null);
const modules = {
  fairrand: await import(url("fairrand.js")),
  deals: { load },
  fairness: await import(url("fairness.js")),
};
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { cases } = JSON.parse(input);
const job = %s;
const out = [];
for (const c of cases) out.push(await job(modules, c));
process.stdout.write(JSON.stringify(out));
"""


def deal_modules() -> dict[str, str]:
    """Each game's deals module (``static/deals.js`` of its presentation folder), as a file URL."""
    found = {}
    for game in games.presentations():
        folder = games.static_folder(game)
        if folder is not None and (folder / "deals.js").is_file():
            found[game] = (folder / "deals.js").as_uri()
    return found


def run_js(job: str, cases: list[Any]) -> list[Any]:
    """Run the async JavaScript function ``job(modules, case)`` on each case in Node."""
    assert NODE is not None
    script = RUNNER % (CRYPTO.as_posix(), json.dumps(deal_modules()), job)
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        input=json.dumps({"cases": cases}),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def load(path: Path) -> Any:
    return json.loads(path.read_text())


# ---------------------------------------------------------------------------------------
# The stream: seed hash, bytes, below, shuffle
# ---------------------------------------------------------------------------------------

STREAM_JOB = """async ({ fairrand }, v) => {
  const { Rng, seedHash } = fairrand;
  const open = () => Rng.open(v.seed, v.match_id, v.purpose, v.entropy);
  let rng = await open();
  const bytes = Array.from(await rng.read(64), (b) => b.toString(16).padStart(2, "0")).join("");
  rng = await open();
  const below = [];
  for (const n of v.below.n) below.push(await rng.below(n));
  rng = await open();
  const shuffled = await rng.shuffled(v.shuffle);
  return { hash: await seedHash(v.seed), bytes, below, shuffled };
}"""


def test_the_browser_stream_equals_the_protocol_vectors() -> None:
    cases = [{**v, "shuffle": list(range(1, 11))} for v in VECTORS]
    for v, got in zip(VECTORS, run_js(STREAM_JOB, cases), strict=True):
        assert got["hash"] == v["seed_hash"]
        assert got["bytes"] == v["stream_first_64_bytes"]
        assert got["below"] == v["below"]["values"]
        assert got["shuffled"] == v["shuffle_1_to_10"]


def test_the_browser_stream_equals_domain_fairrand_on_many_contexts() -> None:
    chance = random.Random(17)  # noqa: S311 - reproducible test data, no secret
    cases = []
    for i in range(40):
        seed = chance.randbytes(32)
        entropy = {} if i % 3 == 0 else {"ana": "rolled a 4", "Zoë": "🎲 ünïcode", "ben": ""}
        ns = [chance.choice([1, 2, 3, 7, 52, 104, 256, 257, 1000, 2**31 + 5, 2**40 + 3, 2**53 - 1])]
        ns += [chance.randint(1, 10**6) for _ in range(8)]
        cases.append(
            {
                "seed": seed.hex(),
                "match_id": MATCH,
                "purpose": f"deal/{i}",
                "entropy": entropy,
                "below": {"n": ns},
                "shuffle": list(range(chance.randint(0, 120))),
            }
        )
    for case, got in zip(cases, run_js(STREAM_JOB, cases), strict=True):
        seed = bytes.fromhex(case["seed"])
        args = (seed, MATCH, case["purpose"], case["entropy"])
        assert got["hash"] == seed_hash(seed)
        assert got["bytes"] == Rng(*args).read(64).hex()
        rng = Rng(*args)
        assert got["below"] == [rng.below(n) for n in case["below"]["n"]]
        assert got["shuffled"] == Rng(*args).shuffled(case["shuffle"])


def test_a_seed_that_is_not_32_bytes_of_hex_is_refused_in_the_browser() -> None:
    job = """async ({ fairrand }, seed) => {
      try { await fairrand.seedHash(seed); return "accepted"; } catch (e) { return e.message; }
    }"""
    answers = run_js(job, ["00" * 31, "zz" * 32, "AB" * 32, 7])
    assert all(a == "a host seed is 64 lowercase hex digits (32 bytes)" for a in answers)


# ---------------------------------------------------------------------------------------
# Each game's deal
# ---------------------------------------------------------------------------------------

DEAL_JOB = """async ({ fairrand, deals }, c) => {
  const rng = await fairrand.Rng.open(c.seed, c.match_id, c.purpose, c.entropy);
  const game = await deals.load(c.game);
  try { return await game.deal(c.state, rng); } catch (e) { return { error: e.message }; }
}"""


def python_deal(game: str, state: dict[str, Any], seed: bytes, purpose: str) -> Any:
    try:
        deal = get_rules(game).deal(state, Rng(seed, MATCH, purpose, {"ana": "x"}))
    except ValueError as exc:
        return {"error": str(exc)}
    return {"public": dict(deal.public), "private": dict(deal.private)}


def six_nimmt_states(chance: random.Random) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(Python state, the browser's state) pairs: first deals, later ones, reshuffles."""
    rules = get_rules("six-nimmt")
    out = []
    for humans, virtual in (
        (["ana", "ben", "cai"], True),
        (["a", "b"], False),
        (list("abcdefghi"), True),
    ):
        state = rules.setup({"virtual_player": virtual}, humans)
        for round_ in (0, 1, 2, 3, 4):
            new = copy.deepcopy(state)
            new["round"] = round_
            if round_:
                cards = list(range(1, 105))
                chance.shuffle(cards)
                on_rows, rest = cards[:4], cards[4:]
                cut = chance.randint(0, len(rest))  # a short draw pile makes the deal reshuffle
                new["rows"] = [[c] for c in on_rows]
                new["draw"], new["discard"] = sorted(rest[:cut]), sorted(rest[cut:])
            everyone = list(new["hands"])
            browser = {"round": round_, "draw": new["draw"], "discard": new["discard"]}
            out.append((new, {**browser, "everyone": everyone}))
    return out


def test_each_game_deals_in_the_browser_exactly_as_its_rules_do() -> None:
    chance = random.Random(6)  # noqa: S311 - reproducible test data, no secret
    cases, expected = [], []

    def add(game: str, state: dict[str, Any], browser: dict[str, Any], i: int) -> None:
        seed = chance.randbytes(32)
        purpose = f"deal/{i}"
        cases.append(
            {
                "game": game,
                "state": browser,
                "seed": seed.hex(),
                "match_id": MATCH,
                "purpose": purpose,
                "entropy": {"ana": "x"},
            }
        )
        expected.append(python_deal(game, state, seed, purpose))

    for i, (state, browser) in enumerate(six_nimmt_states(chance)):
        add("six-nimmt", state, browser, i)
    nine = get_rules("picking-nine")
    deck = [f"{c}{n}" for c in "RGBY" for n in range(1, 11)]
    for i in range(12):
        state = nine.setup({}, ["ana", "ben", "cai", "dee"])
        state["dealt"] = chance.sample(deck, 8 * (i % 5))
        add("picking-nine", state, {"dealt": state["dealt"]}, i)
    grid = get_rules("grid-adaptation")
    for i in range(12):
        players = [f"p{j}" for j in range(chance.randint(2, 8))]
        state = grid.setup({}, players)
        add("grid-adaptation", state, {"players": players}, i)

    got = run_js(DEAL_JOB, cases)
    assert len(got) == len(expected) > 30
    for case, mine, theirs in zip(cases, got, expected, strict=True):
        assert mine == theirs, case["game"]
    # Check the cases cover what they are for: a reshuffle of the discard pile mid-deal.
    short = [c for c in cases if c["game"] == "six-nimmt" and c["state"]["round"]]
    assert any(len(c["state"]["draw"]) < 10 * len(c["state"]["everyone"]) for c in short)


# ---------------------------------------------------------------------------------------
# The whole check on the golden bundles
# ---------------------------------------------------------------------------------------

FAIR_JOB = """async ({ fairness, deals }, b) => {
  const r = await fairness.verifyFairness(b.records, b.match_id, deals.load);
  const findings = [];
  for (const [seq, list] of r.bySeq) for (const f of list) findings.push({ seq, ...f });
  return { summary: r.summary, findings, hostDealt: r.hostDealt };
}"""


def fairness_of(bundles: list[Any]) -> list[Any]:
    return run_js(FAIR_JOB, [{"records": b["records"], "match_id": b["match_id"]} for b in bundles])


def failed(result: Any, check: str) -> list[int]:
    return sorted(
        {f["seq"] for f in result["findings"] if f["status"] == "fail" and f["check"] == check}
    )


def test_the_browser_agrees_with_dealerroom_verify_on_every_golden_bundle() -> None:
    bundles = [load(p) for p in EVERY_BUNDLE]
    for path, bundle, result in zip(EVERY_BUNDLE, bundles, fairness_of(bundles), strict=True):
        verdict = verify_bundle(bundle)
        deals = verdict.check("deals")
        name = path.name
        if deals.status == "fail":
            assert failed(result, "deal")[0] == deals.first_bad_seq, name
            assert result["summary"]["deals"]["failed"] == 1, name
        else:
            assert failed(result, "deal") == [], name
        assert failed(result, "seed") == [], name
        # Outcomes hold in these bundles wherever the host did not forge them, and the
        # defaults are part of the outcomes: none of them fails in the browser.
        assert failed(result, "default") == failed(result, "decision") == [], name
        seeded = [
            r["seq"]
            for r in bundle["records"]
            if r["type"] == "StepOpened" and r["data"]["deal_source"] == "seed"
        ]
        recomputed = {f["seq"] for f in result["findings"] if f["check"] == "deal"}
        assert set(seeded) <= recomputed, name


def test_every_seeded_deal_of_the_golden_matches_is_recomputed_and_equal() -> None:
    names = [
        "six-nimmt-seeded",
        "picking-nine-seeded",
        "six-nimmt-even-odd.inconsistent-checkpoint",
    ]
    bundles = [load(BUNDLES / f"{n}.bundle.json") for n in names]
    results = fairness_of(bundles)
    assert [r["summary"]["deals"]["recomputed"] for r in results] == [3, 5, 1]
    # Check the three rounds of 6 nimmt! include a deal past the end of the draw pile.
    assert results[0]["summary"]["ok"] is True
    assert results[0]["summary"]["seed"] == "pass"
    passes = [f for f in results[0]["findings"] if f["check"] == "deal" and f["status"] == "pass"]
    assert len(passes) == 6  # three StepOpened and three DealRevealed records
    # Check the defaults of the later rounds: the lowest card in each hand.
    defaults = [f for f in results[2]["findings"] if f["check"] == "default"]
    assert len(defaults) == 30
    assert all(f["status"] == "pass" and "lowest card" in f["text"] for f in defaults)


def test_host_chosen_deals_are_named_and_never_passed_as_random() -> None:
    bundle = load(BUNDLES / "picking-nine-six-bots.bundle.json")
    (result,) = fairness_of([bundle])
    opened = [r["seq"] for r in bundle["records"] if r["type"] == "StepOpened"]
    assert [d["seq"] for d in result["hostDealt"]] == opened
    assert [d["step"] for d in result["hostDealt"]] == [1, 2, 3, 4, 5]
    notes = [f for f in result["findings"] if f["seq"] in opened and f["check"] == "deal"]
    assert {f["status"] for f in notes} == {"note"}
    assert all("dealt by the host, not from the seed" in f["text"] for f in notes)
    assert result["summary"]["deals"]["explicit"] == 5
    assert result["summary"]["deals"]["recomputed"] == 0


def tampered(name: str, change: Any) -> Any:
    bundle = load(BUNDLES / f"{name}.bundle.json")
    change(bundle["records"])
    return bundle


def first(records: list[Any], kind: str, **data: Any) -> Any:
    return next(
        r
        for r in records
        if r["type"] == kind and all(r["data"].get(k) == v for k, v in data.items())
    )


def test_a_changed_deal_default_or_seed_fails_with_its_reason() -> None:
    def swap_row_card(records: list[Any]) -> None:
        first(records, "StepOpened", step=1)["data"]["deal"]["rows"][0] = 104

    def change_hand(records: list[Any]) -> None:
        hand = first(records, "DealRevealed", step=21)["data"]["private"]["ben"]
        hand[0] = hand[0] + 1 if hand[0] + 1 not in hand else hand[0] - 1

    def change_default(records: list[Any]) -> None:
        first(records, "DefaultApplied", player="ana", step=41)["data"]["payload"] = {"card": 99}

    def change_seed(records: list[Any]) -> None:
        first(records, "SeedRevealed")["data"]["seed"] = "11" * 32

    def change_abstention(records: list[Any]) -> None:
        first(records, "DefaultApplied")["data"]["payload"] = {"vote": "ana"}

    def change_decision(records: list[Any]) -> None:
        asked = first(records, "DecisionRequested")["data"]
        asked["default"] = {"row": (asked["default"]["row"] + 1) % 4}

    bundles = [
        tampered("six-nimmt-seeded", swap_row_card),
        tampered("six-nimmt-seeded", change_hand),
        tampered("six-nimmt-even-odd.inconsistent-checkpoint", change_default),
        tampered("six-nimmt-seeded", change_seed),
        tampered("vote-basic", change_abstention),
        tampered("six-nimmt-classic", change_decision),
    ]
    opened = first(bundles[0]["records"], "StepOpened", step=1)["seq"]
    hand_at = first(bundles[1]["records"], "DealRevealed", step=21)["seq"]
    step_21 = first(bundles[1]["records"], "StepOpened", step=21)["seq"]
    default_at = first(bundles[2]["records"], "DefaultApplied", player="ana", step=41)["seq"]
    seed_at = first(bundles[3]["records"], "SeedRevealed")["seq"]
    vote_at = first(bundles[4]["records"], "DefaultApplied")["seq"]
    asked_at = first(bundles[5]["records"], "DecisionRequested")["seq"]
    row, hand, default, seed, vote, decision = fairness_of(bundles)

    # A changed first deal changes the draw pile of every later deal too, as in the Python
    # verifier, whose first failing record it is.
    assert (
        failed(row, "deal")[0] == opened == verify_bundle(bundles[0]).check("deals").first_bad_seq
    )
    reason = next(f["text"] for f in row["findings"] if f["status"] == "fail")
    assert reason.startswith("step 1 was not dealt from the seed: the seed gives the row cards")
    assert failed(hand, "deal") == [step_21, hand_at]
    assert "ben's hand" in next(f["text"] for f in hand["findings"] if f["status"] == "fail")
    assert failed(default, "default") == [default_at]
    assert "is card 25 (the lowest card in ana's hand), not card 99" in next(
        f["text"] for f in default["findings"] if f["status"] == "fail"
    )
    assert failed(seed, "seed") == [seed_at]
    assert seed["summary"]["ok"] is False
    assert failed(vote, "default") == [vote_at]
    assert failed(decision, "decision") == [asked_at]
    for result in (row, hand, default, seed, vote, decision):
        assert result["summary"]["ok"] is False
        assert "NOT" in result["summary"]["text"]


def test_a_running_match_waits_for_the_seed_instead_of_failing() -> None:
    bundle = load(BUNDLES / "six-nimmt-seeded.bundle.json")
    cut = first(bundle["records"], "MatchFinished")["seq"]
    bundle["records"] = bundle["records"][:cut]
    (result,) = fairness_of([bundle])
    assert result["summary"]["ok"] is True
    assert result["summary"]["seed"] == "pending"
    assert result["summary"]["deals"]["pending"] == 3
    assert "the seed is revealed when the match ends" in result["summary"]["text"]
    assert {f["status"] for f in result["findings"] if f["check"] == "deal"} == {"note"}


def test_a_finished_match_that_never_reveals_its_seed_fails() -> None:
    bundle = load(BUNDLES / "six-nimmt-seeded.bundle.json")
    bundle["records"] = [r for r in bundle["records"] if r["type"] != "SeedRevealed"]
    (result,) = fairness_of([bundle])
    assert result["summary"]["ok"] is False
    assert "the match finished but the seed was never revealed" in result["summary"]["text"]


def test_a_malformed_log_is_reported_record_by_record_and_never_throws() -> None:
    bundle = load(BUNDLES / "six-nimmt-seeded.bundle.json")
    records = bundle["records"]
    first(records, "StepOpened", step=1)["data"]["deal"] = [1, 2]
    first(records, "DealRevealed", step=11)["data"]["private"] = "x"
    first(records, "StepResolved", step=2)["data"]["outcome"] = 7
    records.append("not a record")
    (result,) = fairness_of([bundle])
    assert result["summary"]["ok"] is False
    assert failed(result, "deal")
