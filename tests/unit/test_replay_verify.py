"""The offline verifier: each check on its own, pending checks, the verdict, the CLI, speed."""

from __future__ import annotations

import copy
import itertools
import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

import pytest

from domain.commitment import commit
from domain.fairrand import seed_hash
from replay.bundle import build_bundle, dump_bundle, export_bundle, play_scenario, sign_checkpoints
from replay.verify import CHECKS, BundleVerifier, Visitor, verify_bundle, walk
from tests.unit.test_replay_fixtures import OTHER_KEY, TEST_KEY, player_key, scenario

if TYPE_CHECKING:
    from domain.signed_note import Signer

START = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
TRUSTED = TEST_KEY.verifier().vkey()


def bundle_of(
    name: str, *, steps: int | None = None, n: int = 0xD0, **options: Any
) -> dict[str, Any]:
    sc = scenario(name)
    if steps is not None:
        sc["steps"] = sc["steps"][:steps]
    played = play_scenario(sc, match_id=UUID(int=n), start_time=START, **options)
    return export_bundle(played.records, TEST_KEY, sizes=played.boundaries)


@pytest.fixture(scope="module")
def vote() -> dict[str, Any]:
    keys = {p: player_key(p) for p in ("ana", "ben")}
    return bundle_of("vote-basic", player_keys=keys, custody={"cai": "self"})


@pytest.fixture(scope="module")
def nimmt() -> dict[str, Any]:
    return bundle_of("six-nimmt-even-odd")


def forge(bundle: dict[str, Any], change: Any, signer: Signer = TEST_KEY) -> dict[str, Any]:
    """The host changes the records and re-signs every checkpoint (it holds the key)."""
    records = copy.deepcopy(bundle["records"])
    change(records)
    for i, record in enumerate(records):
        record["seq"] = i
    sizes = [c["size"] for c in bundle["checkpoints"] if c["size"] < len(records)] + [len(records)]
    checkpoints = sign_checkpoints(records, signer, bundle["origin"], sizes)
    return build_bundle(records, checkpoints, signer.verifier(), receipts=bundle["receipts"])


def statuses(verdict: Any) -> dict[str, str]:
    return {c.name: c.status for c in verdict.checks}


def only_failures(verdict: Any) -> dict[str, int | None]:
    return {c.name: c.first_bad_seq for c in verdict.failed()}


def seq_of(bundle: dict[str, Any], kind: str, **match: Any) -> int:
    return next(
        r["seq"]
        for r in bundle["records"]
        if r["type"] == kind and all(r["data"].get(k) == v for k, v in match.items())
    )


# --- Honest bundles -----------------------------------------------------------------------


def test_an_honest_bundle_passes_every_check(vote: dict[str, Any]) -> None:
    verdict = verify_bundle(vote, trusted_key=TRUSTED)
    assert verdict.ok and verdict.complete, str(verdict)
    assert [c.name for c in verdict.checks] == list(CHECKS)
    assert verdict.check("signatures").detail == "2 submission(s) signed by their players"


def test_the_verdict_json_has_a_fixed_shape(vote: dict[str, Any]) -> None:
    document = verify_bundle(vote).to_json()
    assert set(document) == {"format", "match_id", "records", "ok", "complete", "key", "checks"}
    assert document["format"] == "dealerroom/verdict/v1"
    assert set(document["key"]) == {"public_key", "pinned", "note"}
    for check in document["checks"]:
        assert set(check) == {"name", "ok", "status", "detail", "first_bad_seq", "seq_range"}
    json.dumps(document)


def test_a_verifier_is_a_visitor_driven_by_walk(vote: dict[str, Any]) -> None:
    class CountTypes(Visitor[dict[str, int]]):
        def __init__(self) -> None:
            self.counts: dict[str, int] = {}

        def visit(self, record: Any) -> None:
            self.counts[record["type"]] = self.counts.get(record["type"], 0) + 1

        def result(self) -> dict[str, int]:
            return self.counts

    assert walk(vote, CountTypes())["SubmissionCommitted"] == 3
    assert walk(vote, BundleVerifier(checks=["merkle"])).ok


def test_checks_can_be_selected(vote: dict[str, Any]) -> None:
    verdict = verify_bundle(vote, checks=["seed", "merkle"])
    assert [c.name for c in verdict.checks] == ["merkle", "seed"]
    with pytest.raises(ValueError, match="unknown check"):
        verify_bundle(vote, checks=["magic"])


def test_progress_is_reported_up_to_the_total(nimmt: dict[str, Any]) -> None:
    calls: list[tuple[int, int]] = []
    verify_bundle(nimmt, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (2 * len(nimmt["records"]), 2 * len(nimmt["records"]))
    assert all(a[0] <= b[0] for a, b in itertools.pairwise(calls))


# --- Matches under way: pending, not failed -----------------------------------------------


def test_a_match_under_way_has_pending_checks_not_failures() -> None:
    # Three turns of 6 nimmt!: hands are private and the seed sealed until the end.
    bundle = bundle_of("six-nimmt-classic", steps=3)
    verdict = verify_bundle(bundle)
    assert verdict.ok and not verdict.complete
    assert statuses(verdict) == {
        "signature": "pass", "merkle": "pass", "structure": "pass", "commitments": "pass",
        "seed": "pending", "deals": "pending", "outcomes": "pending", "signatures": "pass",
        "receipts": "pass",
    }  # fmt: skip
    assert "not disclosed yet" in verdict.check("outcomes").detail


def test_picks_sealed_until_the_end_keep_commitments_pending() -> None:
    verdict = verify_bundle(bundle_of("picking-nine-six-bots", steps=2))
    assert verdict.ok
    assert verdict.check("commitments").status == "pending"
    assert "reveals picks when the match ends" in verdict.check("commitments").detail


def test_a_game_without_secrets_is_checked_as_it_goes() -> None:
    verdict = verify_bundle(bundle_of("apocalypse-knight-beats-pawn", steps=1))
    assert statuses(verdict)["outcomes"] == "pass"
    assert statuses(verdict)["seed"] == "pending"


# --- signature ----------------------------------------------------------------------------


def test_checkpoints_signed_by_another_key_fail_the_signature_check(vote: dict[str, Any]) -> None:
    forged = dict(
        vote,
        checkpoints=sign_checkpoints(
            vote["records"], OTHER_KEY, vote["origin"], [len(vote["records"])]
        ),
    )
    assert only_failures(verify_bundle(forged)) == {"signature": 0}


def test_a_bundle_that_names_another_key_fails_against_the_trusted_key(
    vote: dict[str, Any],
) -> None:
    forged = forge(vote, lambda _records: None, signer=OTHER_KEY)
    assert "signature" not in only_failures(verify_bundle(forged, checks=["signature"]))
    verdict = verify_bundle(forged, trusted_key=TRUSTED, checks=["signature"])
    assert only_failures(verdict) == {"signature": 0}
    assert "not the trusted key" in verdict.check("signature").detail


# --- merkle -------------------------------------------------------------------------------


def test_swapped_records_fail_the_merkle_check(vote: dict[str, Any]) -> None:
    bundle = copy.deepcopy(vote)
    records = bundle["records"]
    records[3], records[4] = records[4], records[3]
    check = verify_bundle(bundle, checks=["merkle"]).check("merkle")
    assert (check.status, check.first_bad_seq) == ("fail", 3)


def test_records_after_the_last_checkpoint_are_not_covered(vote: dict[str, Any]) -> None:
    bundle = dict(vote, checkpoints=vote["checkpoints"][:-1])
    check = verify_bundle(bundle, checks=["merkle"]).check("merkle")
    last = vote["checkpoints"][-2]["size"]
    assert (check.first_bad_seq, check.seq_range) == (last, (last, len(vote["records"]) - 1))


def test_a_rewritten_record_is_located_between_two_checkpoints(nimmt: dict[str, Any]) -> None:
    bundle = copy.deepcopy(nimmt)
    sizes = [c["size"] for c in bundle["checkpoints"]]
    before, after = max(s for s in sizes if s <= 40), min(s for s in sizes if s > 50)
    bundle["checkpoints"] = [
        c for c in bundle["checkpoints"] if c["size"] in (before, after, sizes[-1])
    ]
    bundle["records"][40]["at"] = "2026-11-21T20:00:00.000001Z"
    check = verify_bundle(bundle, checks=["merkle"]).check("merkle")
    assert check.first_bad_seq == before and check.seq_range == (before, after - 1)


# --- structure ----------------------------------------------------------------------------


def test_a_reveal_before_the_seal_breaks_the_order(vote: dict[str, Any]) -> None:
    sealed = seq_of(vote, "StepSealed")
    reveal = seq_of(vote, "SubmissionRevealed", player="ana")

    def move(records: list[dict[str, Any]]) -> None:
        records.insert(sealed, records.pop(reveal))

    verdict = verify_bundle(forge(vote, move))
    assert only_failures(verdict).get("structure") == sealed


def test_a_commitment_used_twice_is_rejected(vote: dict[str, Any]) -> None:
    ana = seq_of(vote, "SubmissionCommitted", player="ana")
    ben = seq_of(vote, "SubmissionCommitted", player="ben")

    def reuse(records: list[dict[str, Any]]) -> None:
        records[ben]["data"]["commitment"] = records[ana]["data"]["commitment"]

    verdict = verify_bundle(forge(vote, reuse))
    assert only_failures(verdict)["structure"] == ben
    assert "already used" in verdict.check("structure").detail


def test_the_header_must_agree_with_match_created(vote: dict[str, Any]) -> None:
    bundle = dict(vote, rules={"game": "vote", "version": "2"})
    assert only_failures(verify_bundle(bundle, checks=["structure"])) == {"structure": 0}


# --- commitments --------------------------------------------------------------------------


def test_a_reveal_of_a_superseded_commitment_fails(vote: dict[str, Any]) -> None:
    reveal = seq_of(vote, "SubmissionRevealed", player="ana")

    def point_elsewhere(records: list[dict[str, Any]]) -> None:
        records[reveal]["data"]["commitment"] = "ab" * 32

    verdict = verify_bundle(forge(vote, point_elsewhere), checks=["commitments"])
    assert only_failures(verdict) == {"commitments": reveal}


def test_a_withheld_reveal_fails_once_disclosure_is_due() -> None:
    bundle = bundle_of("picking-nine-six-bots")
    reveal = seq_of(bundle, "SubmissionRevealed", player="dems", step=3)
    committed = seq_of(bundle, "SubmissionCommitted", player="dems", step=3)
    verdict = verify_bundle(forge(bundle, lambda records: records.pop(reveal)))
    assert only_failures(verdict)["commitments"] == committed
    assert "never revealed" in verdict.check("commitments").detail


# --- seed ---------------------------------------------------------------------------------


def test_a_revealed_seed_must_match_its_hash(vote: dict[str, Any]) -> None:
    def other_seed(records: list[dict[str, Any]]) -> None:
        records[-1]["data"]["seed"] = "11" * 32

    verdict = verify_bundle(forge(vote, other_seed))
    assert only_failures(verdict) == {"seed": len(vote["records"]) - 1}


def test_a_finished_match_must_reveal_its_seed(vote: dict[str, Any]) -> None:
    verdict = verify_bundle(forge(vote, lambda records: records.pop()))
    assert only_failures(verdict) == {"seed": len(vote["records"]) - 1}


# --- deals --------------------------------------------------------------------------------


def test_an_explicit_deal_that_could_not_have_been_dealt_fails() -> None:
    bundle = bundle_of("picking-nine-six-bots")
    opened = seq_of(bundle, "StepOpened", step=2)

    def deal_an_old_card(records: list[dict[str, Any]]) -> None:
        first_pool = records[seq_of(bundle, "StepOpened", step=1)]["data"]["deal"]["pool"]
        pool = records[opened]["data"]["deal"]["pool"]
        pool[0] = first_pool[0]

    verdict = verify_bundle(forge(bundle, deal_an_old_card))
    assert only_failures(verdict).get("deals") == opened
    assert "rules reject the deal" in verdict.check("deals").detail


def test_a_private_deal_revealed_differently_fails() -> None:
    bundle = bundle_of("grid-adaptation-ec-vote")
    revealed = seq_of(bundle, "DealRevealed")
    opened = seq_of(bundle, "StepOpened", step=1)

    def swap_sequences(records: list[dict[str, Any]]) -> None:
        private = records[revealed]["data"]["private"]
        private["ana"], private["ben"] = private["ben"], private["ana"]

    verdict = verify_bundle(forge(bundle, swap_sequences))
    assert "deals" not in only_failures(verdict)  # a different deal that could have been dealt
    assert only_failures(verdict)["outcomes"] > opened  # but the game went otherwise


# --- outcomes -----------------------------------------------------------------------------


def test_a_wrong_default_fails(vote: dict[str, Any]) -> None:
    default = seq_of(vote, "DefaultApplied")

    def vote_for_ana(records: list[dict[str, Any]]) -> None:
        records[default]["data"]["payload"] = {"vote": "ana"}

    assert only_failures(verify_bundle(forge(vote, vote_for_ana)))["outcomes"] == default


def test_a_wrong_decision_request_or_default_decision_fails(nimmt: dict[str, Any]) -> None:
    request = seq_of(nimmt, "DecisionRequested")
    made = seq_of(nimmt, "DecisionMade")

    def cheaper_row(records: list[dict[str, Any]]) -> None:
        records[request]["data"]["default"] = {"row": 3}

    assert only_failures(verify_bundle(forge(nimmt, cheaper_row)))["outcomes"] == request

    def defaulted(records: list[dict[str, Any]]) -> None:
        records[made]["data"]["defaulted"] = True

    verdict = verify_bundle(forge(nimmt, defaulted))
    assert only_failures(verdict)["outcomes"] == made
    assert "not the default" in verdict.check("outcomes").detail


def test_a_result_that_is_not_the_rules_result_fails(vote: dict[str, Any]) -> None:
    finished = seq_of(vote, "MatchFinished")

    def crown_cai(records: list[dict[str, Any]]) -> None:
        records[finished]["data"]["result"]["winners"] = ["cai"]

    assert only_failures(verify_bundle(forge(vote, crown_cai))) == {"outcomes": finished}


def test_an_illegal_revealed_pick_fails_even_when_its_commitment_opens(
    vote: dict[str, Any],
) -> None:
    # The host seals a vote for a non-candidate and reveals it properly.
    ana = seq_of(vote, "SubmissionCommitted", player="ana")
    reveal = seq_of(vote, "SubmissionRevealed", player="ana")
    salt = bytes.fromhex(vote["records"][reveal]["data"]["salt"])
    value = commit(vote["match_id"], 1, "ana", {"vote": "zed"}, salt)

    def illegal(records: list[dict[str, Any]]) -> None:
        for seq in (ana, reveal):
            records[seq]["data"]["commitment"] = value
        records[ana]["data"]["signature"] = None
        records[reveal]["data"]["payload"] = {"vote": "zed"}

    verdict = verify_bundle(forge(vote, illegal))
    assert "commitments" not in only_failures(verdict)
    assert "illegal" in verdict.check("outcomes").detail


# --- signatures ---------------------------------------------------------------------------


def test_a_player_with_a_key_must_sign_their_submission(vote: dict[str, Any]) -> None:
    ben = seq_of(vote, "SubmissionCommitted", player="ben")
    verdict = verify_bundle(
        forge(vote, lambda records: records[ben]["data"].update(signature=None))
    )
    assert only_failures(verdict) == {"signatures": ben}
    assert "lacks" in verdict.check("signatures").detail


def test_a_signature_over_another_submission_fails(vote: dict[str, Any]) -> None:
    ana = seq_of(vote, "SubmissionCommitted", player="ana")
    ben = seq_of(vote, "SubmissionCommitted", player="ben")

    def swap(records: list[dict[str, Any]]) -> None:
        records[ben]["data"]["signature"] = records[ana]["data"]["signature"]

    assert only_failures(verify_bundle(forge(vote, swap))) == {"signatures": ben}


# --- receipts -----------------------------------------------------------------------------


def test_receipts_held_outside_the_bundle_are_checked_too(vote: dict[str, Any]) -> None:
    from replay.receipt import make_receipt

    ana = seq_of(vote, "SubmissionCommitted", player="ana")
    receipt = make_receipt(vote["records"], ana, TEST_KEY)
    assert verify_bundle(vote, receipts=[receipt]).check("receipts").detail.startswith("1 receipt")

    def rewrite(records: list[dict[str, Any]]) -> None:
        records[ana]["data"]["actor"] = "host"  # only the receipt can tell

    verdict = verify_bundle(forge(vote, rewrite), receipts=[receipt])
    assert only_failures(verdict) == {"receipts": ana}


# --- Rules versions -----------------------------------------------------------------------


def test_a_match_played_under_other_rules_cannot_pass(vote: dict[str, Any]) -> None:
    def version_two(records: list[dict[str, Any]]) -> None:
        records[0]["data"]["rules_version"] = "2"

    bundle = forge(vote, version_two)
    bundle["rules"]["version"] = "2"
    verdict = verify_bundle(bundle)
    assert only_failures(verdict) == {"deals": 0, "outcomes": 0}
    assert "rules version 2" in verdict.check("outcomes").detail


# --- Speed --------------------------------------------------------------------------------


def big_bundle(size: int) -> dict[str, Any]:
    origin = "dealerroom.example/match/00000000-0000-4000-8000-000000000099"
    created = {
        "actor": "host", "origin": origin, "game": "vote", "rules_version": "1", "options": {},
        "players": ["ana"], "custody": {"ana": "sealed"}, "player_keys": {},
    }  # fmt: skip
    records = [
        {"seq": 0, "type": "MatchCreated", "at": "2026-11-21T20:00:00.000000Z", "data": created}
    ]
    records += [
        {
            "seq": i,
            "type": "SubmissionCommitted",
            "at": "2026-11-21T20:00:00.000000Z",
            "data": {
                "actor": "ana",
                "step": 1,
                "player": "ana",
                "commitment": f"{i:064x}",
                "custody": "sealed",
                "supersedes": None,
                "signature": None,
            },
        }
        for i in range(1, size)
    ]
    return export_bundle(records, TEST_KEY, sizes=list(range(1000, size + 1, 1000)))


def test_the_merkle_check_of_a_100000_event_bundle_passes() -> None:
    # Its speed is measured in bench/verify.py against hashing alone, not asserted here.
    assert verify_bundle(big_bundle(100_000), checks=["merkle"]).ok


def test_a_dump_of_the_big_bundle_is_canonical() -> None:
    bundle = big_bundle(2_000)
    assert dump_bundle(bundle).startswith(b'{"checkpoints":[{"note":"dealerroom.example/match/')
    assert seed_hash(bytes(32))  # the verifier needs nothing but domain and the standard library
