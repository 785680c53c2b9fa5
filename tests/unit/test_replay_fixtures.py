"""Golden bundles: honest matches of every game, tampered copies, and their verdicts.

``python -m tests.unit.test_replay_fixtures`` writes ``fixtures/bundles/``: for each honest
match ``<name>.bundle.json`` and ``<name>.verdict.json``, and for each tampered copy
``<name>.<tamper>.bundle.json`` with its ``.verdict.json``. Everything is deterministic
(fixed match ids, times and salts, the TEST key of ``docs/protocol-tamper-evidence.md``),
so regenerating gives the same bytes, which a test checks.

A verdict file says which checks must fail and at which record, independently of the
verifier (``must_fail``: the generator knows where it tampered), and records the whole
verdict the verifier gave when the fixture was made (``checks``).
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.commitment import canonical_match_id
from domain.fairrand import Rng
from domain.rules import get_rules
from domain.rules.base import play_step
from domain.signed_note import Signer
from replay.bundle import (
    build_bundle,
    dump_bundle,
    export_bundle,
    jcs,
    load_bundle,
    play_scenario,
    sign_checkpoints,
    sign_submission,
)
from replay.receipt import make_receipt
from replay.verify import CHECKS, verify_bundle

REPO = Path(__file__).resolve().parents[2]
SCENARIOS = REPO / "fixtures" / "scenarios"
BUNDLES = REPO / "fixtures" / "bundles"
START = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
TEST_KEY = Signer("dealerroom.example", bytes(range(32)))  # TEST KEY: never for real logs
OTHER_KEY = Signer("dealerroom.example", bytes(range(32, 64)))  # the forger's key
BOT_SEED = bytes(32)


def player_key(player: str) -> bytes:
    """A deterministic TEST Ed25519 key for a player."""
    return hashlib.sha256(f"dealerroom/test-player-key/{player}".encode()).digest()


def match_id(n: int) -> UUID:
    return UUID(f"00000000-0000-4000-8000-{n:012d}")


# ---------------------------------------------------------------------------
# Matches
# ---------------------------------------------------------------------------


def bot_scenario(
    game: str,
    players: list[str],
    options: dict[str, Any],
    *,
    seed: bytes,
    mid: UUID,
    entropy: dict[str, str] | None = None,
    rigged: tuple[int, ...] = (),
) -> dict[str, Any]:
    """A scenario whose deals come from the seed and whose picks are the rules' bot picks.

    Steps in ``rigged`` get a host-chosen deal; decisions get their defaults.
    """
    rules = get_rules(game)
    text_id = canonical_match_id(str(mid))
    state = rules.setup(rules.normalise_options(options), players)
    steps: list[dict[str, Any]] = []
    number = 0
    while (spec := rules.next_step(state)) is not None:
        number += 1
        step: dict[str, Any] = {}
        if spec.needs_deal and number in rigged:
            rigged_deal = rules.deal(state, Rng(BOT_SEED, text_id, f"rigged/{number}"))
            step["deal"] = rules.scenario_deal(rigged_deal)
        picks: dict[str, Any] = {}

        def bot(
            state: dict[str, Any], player: str, n: int = number, chosen: dict[str, Any] = picks
        ) -> Any:
            """The rules' bot pick, kept for the scenario."""
            rng = Rng(BOT_SEED, text_id, f"bot/{n}/{player}")
            chosen[player] = rules.bot_pick(state, player, rng)
            return chosen[player]

        def stream(purpose: str, n: int = number) -> Rng:
            return Rng(seed, text_id, f"{purpose}/{n}", entropy or {})

        played = play_step(rules, state, stream, deal=step.get("deal"), submit=bot)
        step["submit"] = picks
        state = played.resolution.state
        steps.append(step)
    return {
        "game": game,
        "options": options,
        "players": players,
        "seed": seed.hex(),
        "steps": steps,
    }


def scenario(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / f"{name}.json").read_text())


def honest_matches() -> dict[str, dict[str, Any]]:
    """Each honest match: how to play it (scenario and play_scenario options)."""
    seeded = hashlib.sha256(b"dealerroom/fixture-seed").digest()
    nimmt_entropy = {"ana": "ana rolled a 4", "cai": "cai's lucky number is 9"}
    return {
        "vote-basic": {
            "scenario": scenario("vote-basic"),
            "match_id": match_id(1),
            # keys and signatures, a self-custody player who opens after the seal, a missing vote
            "player_keys": {p: player_key(p) for p in ("ana", "ben", "cai")},
            "custody": {"cai": "self"},
        },
        "vote-seats": {
            # seats claimed with keys and without; ana re-invited and claiming again with a
            # new key, which then signs; cai in self-custody
            "scenario": scenario("vote-basic"),
            "match_id": match_id(9),
            "custody": {"cai": "self"},
            "seats": {
                1: [
                    ("claim", "ana", player_key("ana")),
                    ("claim", "ben", None),
                    ("claim", "cai", player_key("cai")),
                    ("reinvite", "ana", None),
                    ("claim", "ana", player_key("ana/2")),
                ]
            },
        },
        "six-nimmt-classic": {"scenario": scenario("six-nimmt-classic"), "match_id": match_id(2)},
        "six-nimmt-even-odd": {"scenario": scenario("six-nimmt-even-odd"), "match_id": match_id(3)},
        "apocalypse-bot-match": {
            "scenario": scenario("apocalypse-bot-match"),
            "match_id": match_id(4),
        },
        "picking-nine-six-bots": {
            "scenario": scenario("picking-nine-six-bots"),
            "match_id": match_id(5),
        },
        "grid-adaptation-ec-vote": {
            "scenario": scenario("grid-adaptation-ec-vote"),
            "match_id": match_id(6),
        },
        "six-nimmt-seeded": {
            # every deal from the seed, with players' entropy; hands are private until the end
            "scenario": bot_scenario(
                "six-nimmt",
                ["ana", "ben", "cai"],
                {"start_points": 30},
                seed=seeded,
                mid=match_id(7),
                entropy=nimmt_entropy,
            ),
            "match_id": match_id(7),
            "entropy": {"ana": nimmt_entropy["ana"], "ben": None, "cai": nimmt_entropy["cai"]},
        },
        "picking-nine-seeded": {
            "scenario": bot_scenario(
                "picking-nine",
                ["tog", "pengu", "grunkle", "dems", "edan", "shard"],
                {},
                seed=seeded,
                mid=match_id(8),
            ),
            "match_id": match_id(8),
        },
        # custom games (RULINGS §5): picks disclosed at the end; winners declared by the host
        "custom-majority-at-end": {
            "scenario": scenario("custom-majority-at-end"),
            "match_id": match_id(10),
        },
        "custom-host-auction": {
            "scenario": scenario("custom-host-auction"),
            "match_id": match_id(11),
        },
    }


def play(spec: dict[str, Any]) -> Any:
    kwargs = {k: v for k, v in spec.items() if k != "scenario"}
    return play_scenario(spec["scenario"], start_time=START, **kwargs)


def play_to_the_end(spec: dict[str, Any]) -> Any:
    """Play a scenario, adding steps of default picks until the match finishes."""
    while True:
        played = play(spec)
        if played.records[-1]["type"] == "SeedRevealed":
            return played
        spec["scenario"]["steps"].append({})


def checkpoint_sizes(played: Any, *, every_command: bool) -> list[int]:
    """Where the fixtures sign: after every command, or after set-up and after each step."""
    if every_command:
        return list(played.boundaries)
    ends = {"SeedCommitted", "StepResolved", "SeedRevealed"}
    sizes = [b for b in played.boundaries if played.records[b - 1]["type"] in ends]
    return sizes if sizes[-1] == len(played.records) else [*sizes, len(played.records)]


def receipts_for(records: list[dict[str, Any]], steps: int = 1) -> list[dict[str, Any]]:
    """A receipt for every submission of the first ``steps`` steps, signed right after it."""
    return [
        make_receipt(records, r["seq"], TEST_KEY)
        for r in records
        if r["type"] == "SubmissionCommitted" and r["data"]["step"] <= steps
    ]


# ---------------------------------------------------------------------------
# Tampering
# ---------------------------------------------------------------------------


def resign(bundle: dict[str, Any], signer: Signer = TEST_KEY) -> dict[str, Any]:
    """Re-sign every checkpoint of a bundle over its (changed) records; the last covers all."""
    records = bundle["records"]
    sizes = [c["size"] for c in bundle["checkpoints"] if c["size"] < len(records)] + [len(records)]
    checkpoints = sign_checkpoints(bundle["records"], signer, bundle["origin"], sizes)
    return build_bundle(
        bundle["records"], checkpoints, signer.verifier(), receipts=bundle["receipts"]
    )


def first(records: list[dict[str, Any]], kind: str, **match: Any) -> dict[str, Any]:
    return next(
        r
        for r in records
        if r["type"] == kind and all(r["data"].get(k) == v for k, v in match.items())
    )


def tamper_changed_reveal(
    honest: dict[str, Any], player: str, payload: Any
) -> tuple[dict[str, Any], dict[str, int], str]:
    bundle = copy.deepcopy(honest)
    record = first(bundle["records"], "SubmissionRevealed", player=player)
    record["data"]["payload"] = payload
    why = f"the host changed {player}'s revealed pick at seq {record['seq']} and re-signed the log"
    return resign(bundle), {"commitments": record["seq"]}, why


def tamper_forged_outcome(
    honest: dict[str, Any], step: int, change: Any
) -> tuple[dict[str, Any], dict[str, int], str]:
    bundle = copy.deepcopy(honest)
    record = first(bundle["records"], "StepResolved", step=step)
    change(record["data"]["outcome"])
    why = f"the outcome of step {step} (seq {record['seq']}) does not follow from its inputs"
    why += "; re-signed"
    return resign(bundle), {"outcomes": record["seq"]}, why


def tamper_dropped(honest: dict[str, Any], kind: str) -> tuple[dict[str, Any], dict[str, int], str]:
    bundle = copy.deepcopy(honest)
    record = first(bundle["records"], kind)
    bundle["records"].remove(record)
    why = f"the {kind} at seq {record['seq']} was dropped; the checkpoints were left as signed"
    return bundle, {"merkle": record["seq"]}, why


def tamper_truncated(
    honest: dict[str, Any], keep: int
) -> tuple[dict[str, Any], dict[str, int], str]:
    bundle = copy.deepcopy(honest)
    bundle["records"] = bundle["records"][:keep]
    why = f"the records after seq {keep - 1} were cut off; the checkpoints were left as signed"
    return bundle, {"merkle": keep}, why


def tamper_rewritten(
    honest: dict[str, Any],
    spec: dict[str, Any],
    what: str,
    change: Any,
    *,
    same_key: bool,
    every_command: bool = False,
) -> tuple[dict[str, Any], dict[str, int], str]:
    """Play the match again with ``change(scenario)`` applied: a consistent rewritten history."""
    forged_spec = copy.deepcopy(spec)
    change(forged_spec["scenario"])
    forged = play_to_the_end(forged_spec)
    changed = next(
        i for i, (a, b) in enumerate(zip(honest["records"], forged.records, strict=False)) if a != b
    )
    if not same_key:
        sizes = checkpoint_sizes(forged, every_command=every_command)
        bundle = export_bundle(forged.records, OTHER_KEY, sizes=sizes, receipts=honest["receipts"])
        why = (
            f"history rewritten from seq {changed} ({what}) and every "
            "checkpoint re-signed with another key, which the bundle names as its own; the "
            "players' receipts and the pinned key expose it"
        )
        return bundle, {"signature": 0, "receipts": changed}, why
    # Same key, but only a new final checkpoint: the earlier ones still sign the old history.
    final = sign_checkpoints(forged.records, TEST_KEY, honest["origin"], [len(forged.records)])
    earlier = [c for c in honest["checkpoints"] if c["size"] < len(forged.records)]
    bundle = build_bundle(
        forged.records, [*earlier, *final], TEST_KEY.verifier(), receipts=honest["receipts"]
    )
    why = (
        f"history rewritten from seq {changed} ({what}) and re-signed with the same key, but only "
        "in a "
        "new final checkpoint: the earlier checkpoints still sign the old records"
    )
    # The merkle check can only bound the change: it lies after the last checkpoint that holds.
    holds = max(c["size"] for c in earlier if c["size"] <= changed)
    return bundle, {"merkle": holds, "receipts": changed}, why


def tamper_record(
    honest: dict[str, Any], kind: str, change: Any, why: str, check: str = "structure", **match: Any
) -> tuple[dict[str, Any], dict[str, int], str]:
    """Change the first ``kind`` record (``change(records, seq)``) and re-sign the log."""
    bundle = copy.deepcopy(honest)
    seq = first(bundle["records"], kind, **match)["seq"]
    bad = change(bundle["records"], seq)
    return resign(bundle), {check: seq if bad is None else bad}, why.format(seq=seq)


def add_field(records: list[dict[str, Any]], seq: int) -> None:
    records[seq]["data"]["note"] = "the host was here"


def step_back_in_time(records: list[dict[str, Any]], seq: int) -> None:
    records[seq]["at"] = records[seq - 2]["at"]


def deadline_before_last_submission(records: list[dict[str, Any]], seq: int) -> int:
    """Give the step opened at ``seq`` a deadline its last submission missed by 1 µs."""
    step = records[seq]["data"]["step"]
    late = [r for r in records if r["type"] == "SubmissionCommitted" and r["data"]["step"] == step][
        -1
    ]
    records[seq]["data"]["deadline"] = late["at"].replace(".000000Z", ".000000+00:00")
    late["at"] = late["at"].replace(".000000Z", ".000001Z")
    return int(late["seq"])


def decision_after_deadline(records: list[dict[str, Any]], seq: int) -> int:
    """The decision requested at ``seq`` is answered (not defaulted) after its deadline."""
    made = records[seq + 1]
    records[seq]["data"]["deadline"] = records[seq]["at"]
    made["at"] = made["at"].replace(".000000Z", ".000001Z")
    made["data"]["defaulted"] = False
    return int(made["seq"])


def reinvite_before(records: list[dict[str, Any]], seq: int) -> None:
    """The host re-invites the submitter's seat just before it: the key is revoked."""
    record = records[seq]
    data = {"actor": "host", "player": record["data"]["player"]}
    at = records[seq - 1]["at"]
    records.insert(seq, {"seq": seq, "type": "SeatReinvited", "at": at, "data": data})
    for i, later in enumerate(records[seq:], start=seq):
        later["seq"] = i
    return seq + 1


def sign_with_the_revoked_key(records: list[dict[str, Any]], seq: int) -> None:
    """Ana's submission signed with the key her re-invite revoked, not her new one."""
    data = records[seq]["data"]
    match = records[0]["data"]["origin"].rpartition("/match/")[2]
    data["signature"] = sign_submission(
        player_key("ana"), match, data["step"], "ana", data["commitment"]
    )


def tamper_empty_checkpoint(honest: dict[str, Any]) -> tuple[dict[str, Any], dict[str, int], str]:
    """List a signed checkpoint of the empty log first: it vouches for nothing."""
    bundle = copy.deepcopy(honest)
    empty = sign_checkpoints(bundle["records"], TEST_KEY, bundle["origin"], [0])
    bundle = build_bundle(
        bundle["records"], [*empty, *bundle["checkpoints"]], TEST_KEY.verifier(),
        receipts=bundle["receipts"],
    )  # fmt: skip
    return bundle, {"signature": 0}, "a signed checkpoint of size 0 is listed first"


def tamper_deal(spec: dict[str, Any], step: int) -> tuple[dict[str, Any], dict[str, int], str]:
    """The host dealt step ``step`` by hand but the log says it came from the seed."""
    rigged_spec = copy.deepcopy(spec)
    source = rigged_spec["scenario"]
    rigged_spec["scenario"] = bot_scenario(
        source["game"],
        source["players"],
        source["options"],
        seed=bytes.fromhex(source["seed"]),
        mid=spec["match_id"],
        entropy={p: e for p, e in (spec.get("entropy") or {}).items() if e},
        rigged=(step,),
    )
    played = play(rigged_spec)
    record = first(played.records, "StepOpened", step=step)
    assert record["data"]["deal_source"] == "explicit"
    record["data"]["deal_source"] = "seed"
    sizes = checkpoint_sizes(played, every_command=False)
    bundle = export_bundle(
        played.records, TEST_KEY, sizes=sizes, receipts=receipts_for(played.records)
    )
    why = f"step {step} (seq {record['seq']}) was dealt by hand, not from the seed the log claims"
    return bundle, {"deals": record["seq"]}, why


# ---------------------------------------------------------------------------
# Writing the fixtures
# ---------------------------------------------------------------------------


def fixture_set() -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Every fixture: name -> (bundle, verdict expectations)."""
    out: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
    specs = honest_matches()
    honest: dict[str, dict[str, Any]] = {}
    for name, spec in specs.items():
        played = play(spec)
        sizes = checkpoint_sizes(played, every_command=name == "vote-basic")
        bundle = export_bundle(
            played.records, TEST_KEY, sizes=sizes, receipts=receipts_for(played.records)
        )
        honest[name] = bundle
        out[name] = (
            bundle,
            {
                "description": f"an honest, complete {spec['scenario']['game']} match",
                "must_fail": {},
            },
        )

    def add(
        base: str, tamper: str, made: tuple[dict[str, Any], dict[str, int], str], **options: Any
    ) -> None:
        bundle, must_fail, why = made
        out[f"{base}.{tamper}"] = (bundle, {"description": why, "must_fail": must_fail, **options})

    def lose_one_bullhead(outcome: dict[str, Any]) -> None:
        play = next(p for p in outcome["plays"] if p["took"])
        play["bullheads"] -= 1

    def vote_for(payload: dict[str, Any]) -> Any:
        return lambda sc: sc["steps"][0]["submit"].update(ana=payload)

    def swap_first_cards(sc: dict[str, Any]) -> None:
        one, two = sc["steps"][0]["submit"], sc["steps"][1]["submit"]
        one["ana"], two["ana"] = two["ana"], one["ana"]

    trusted = {"trusted_key": TEST_KEY.verifier().vkey()}
    ana_votes_cai = "ana's vote in step 1 changed to cai"
    ana_swaps = "ana's cards of turns 1 and 2 swapped"
    add(
        "vote-basic",
        "changed-reveal",
        tamper_changed_reveal(honest["vote-basic"], "ana", {"vote": "cai"}),
    )
    add(
        "vote-basic",
        "forged-outcome",
        tamper_forged_outcome(honest["vote-basic"], 1, lambda o: o.update(winners=["cai"])),
    )
    add("vote-basic", "dropped-event", tamper_dropped(honest["vote-basic"], "SubmissionCommitted"))
    add(
        "vote-basic",
        "truncated",
        tamper_truncated(honest["vote-basic"], len(honest["vote-basic"]["records"]) - 2),
    )
    add(
        "vote-basic",
        "rewritten-other-key",
        tamper_rewritten(
            honest["vote-basic"],
            specs["vote-basic"],
            ana_votes_cai,
            vote_for({"vote": "cai"}),
            same_key=False,
            every_command=True,
        ),
        **trusted,
    )
    add(
        "vote-basic",
        "inconsistent-checkpoint",
        tamper_rewritten(
            honest["vote-basic"],
            specs["vote-basic"],
            ana_votes_cai,
            vote_for({"vote": "cai"}),
            same_key=True,
        ),
    )
    nimmt = "six-nimmt-even-odd"
    add(nimmt, "changed-reveal", tamper_changed_reveal(honest[nimmt], "ben", {"card": 36}))
    add(nimmt, "forged-outcome", tamper_forged_outcome(honest[nimmt], 1, lose_one_bullhead))
    add(nimmt, "dropped-event", tamper_dropped(honest[nimmt], "DecisionMade"))
    add(
        nimmt,
        "rewritten-other-key",
        tamper_rewritten(honest[nimmt], specs[nimmt], ana_swaps, swap_first_cards, same_key=False),
        **trusted,
    )
    add(
        nimmt,
        "inconsistent-checkpoint",
        tamper_rewritten(honest[nimmt], specs[nimmt], ana_swaps, swap_first_cards, same_key=True),
    )
    add(
        "picking-nine-six-bots",
        "changed-reveal",
        tamper_changed_reveal(
            honest["picking-nine-six-bots"],
            "tog",
            {
                **first(
                    honest["picking-nine-six-bots"]["records"], "SubmissionRevealed", player="tog"
                )["data"]["payload"],
                "priority": 0,
            },
        ),
    )
    add("six-nimmt-seeded", "deal-not-from-seed", tamper_deal(specs["six-nimmt-seeded"], 11))
    vote = honest["vote-basic"]
    add("vote-basic", "undefined-field", tamper_record(
        vote, "SubmissionCommitted", add_field,
        "SubmissionCommitted (seq {seq}) has a field the protocol does not define; re-signed",
    ))  # fmt: skip
    add("vote-basic", "time-backwards", tamper_record(
        vote, "StepSealed", step_back_in_time,
        "StepSealed (seq {seq}) is dated before the record before it; re-signed",
    ))  # fmt: skip
    add("vote-basic", "late-submission", tamper_record(
        vote, "StepOpened", deadline_before_last_submission,
        "the last submission of step 1 came after the deadline StepOpened (seq {seq}) set; "
        "re-signed",
    ))  # fmt: skip
    add("vote-basic", "key-revoked", tamper_record(
        vote, "SubmissionCommitted", reinvite_before,
        "ana's seat was re-invited (revoking her key) right before her signed submission "
        "(seq {seq}); re-signed", check="signatures", player="ana",
    ))  # fmt: skip
    add("vote-basic", "empty-checkpoint", tamper_empty_checkpoint(vote))
    add("vote-seats", "revoked-key", tamper_record(
        honest["vote-seats"], "SubmissionCommitted", sign_with_the_revoked_key,
        "ana's submission (seq {seq}) is signed with the key her re-invite revoked; re-signed",
        check="signatures", player="ana",
    ))  # fmt: skip
    add(nimmt, "late-decision", tamper_record(
        honest[nimmt], "DecisionRequested", decision_after_deadline,
        "the decision requested at seq {seq} was made after its deadline, not defaulted; "
        "re-signed",
    ))  # fmt: skip
    add("picking-nine-seeded", "deal-not-from-seed", tamper_deal(specs["picking-nine-seeded"], 2))
    auction = honest["custom-host-auction"]
    add("custom-host-auction", "changed-reveal", tamper_changed_reveal(
        auction, "ben", {"bid": 35, "partner": None},
    ))  # fmt: skip
    add("custom-host-auction", "forged-outcome", tamper_forged_outcome(
        auction, 1, lambda o: o.update(winners=["ana"]),
    ))  # fmt: skip
    add("custom-majority-at-end", "forged-outcome", tamper_forged_outcome(
        honest["custom-majority-at-end"], 2, lambda o: o.update(top=["Paris"]),
    ))  # fmt: skip
    return out


def generate(directory: Path = BUNDLES) -> list[Path]:
    """Write every fixture bundle and verdict into ``directory``; return the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (bundle, expect) in fixture_set().items():
        verdict = verify_bundle(bundle, trusted_key=expect.get("trusted_key"))
        failed = {c.name: c.first_bad_seq for c in verdict.failed()}
        for check, seq in expect["must_fail"].items():
            assert failed.get(check, "passed") == seq, (name, check, seq, verdict)
        if not expect["must_fail"]:
            assert verdict.ok and verdict.complete, (name, str(verdict))
        document = {
            "bundle": f"{name}.bundle.json",
            "description": expect["description"],
            "trusted_key": expect.get("trusted_key"),
            "ok": verdict.ok,
            "must_fail": expect["must_fail"],
            "checks": {
                c.name: {"status": c.status, "first_bad_seq": c.first_bad_seq}
                for c in verdict.checks
            },
        }
        for path, data in (
            (directory / f"{name}.bundle.json", dump_bundle(bundle)),
            (directory / f"{name}.verdict.json", jcs(document) + b"\n"),
        ):
            path.write_bytes(data)
            written.append(path)
    return written


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------

VERDICTS = sorted(BUNDLES.glob("*.verdict.json"))


def test_there_is_an_honest_bundle_of_every_game() -> None:
    games = {json.loads(p.read_bytes())["bundle"].split(".")[0] for p in VERDICTS}
    for game in ("vote", "six-nimmt", "apocalypse", "picking-nine", "grid-adaptation"):
        assert any(name.startswith(game) for name in games), game


@pytest.mark.parametrize("path", VERDICTS, ids=lambda p: p.name.removesuffix(".verdict.json"))
def test_every_fixture_gets_its_verdict(path: Path) -> None:
    expected = json.loads(path.read_bytes())
    bundle = load_bundle((BUNDLES / expected["bundle"]).read_bytes())

    verdict = verify_bundle(bundle, trusted_key=expected["trusted_key"])

    assert verdict.ok is expected["ok"]
    failed = {c.name: c.first_bad_seq for c in verdict.failed()}
    for check, seq in expected["must_fail"].items():
        assert failed.get(check, "passed") == seq, str(verdict)
    got = {c.name: {"status": c.status, "first_bad_seq": c.first_bad_seq} for c in verdict.checks}
    assert got == expected["checks"]
    assert list(got) == list(CHECKS)


@pytest.mark.parametrize("path", sorted(BUNDLES.glob("*.bundle.json")), ids=lambda p: p.name)
def test_every_bundle_file_round_trips_byte_for_byte(path: Path) -> None:
    data = path.read_bytes()
    assert dump_bundle(load_bundle(data)) == data


def test_the_fixtures_are_what_the_generator_writes(tmp_path: Path) -> None:
    written = generate(tmp_path)
    assert sorted(p.name for p in written) == sorted(p.name for p in BUNDLES.iterdir())
    for path in written:
        assert path.read_bytes() == (BUNDLES / path.name).read_bytes(), path.name


if __name__ == "__main__":
    for written_path in generate():
        print(written_path.relative_to(REPO), file=sys.stderr)  # noqa: T201 - the generator's report
