"""Receipts: a submission's leaf, its inclusion proof and a signed checkpoint."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import pytest

from replay.bundle import play_scenario
from replay.receipt import (
    RECEIPT_FORMAT,
    ReceiptError,
    extend_receipt,
    make_receipt,
    verify_receipt,
)
from tests.unit.test_replay_fixtures import OTHER_KEY, TEST_KEY, scenario

START = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
TRUSTED = TEST_KEY.verifier().vkey()


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    sc = scenario("six-nimmt-classic")
    return play_scenario(sc, match_id=UUID(int=0xC1), start_time=START).records


@pytest.fixture(scope="module")
def receipt(records: list[dict[str, Any]]) -> dict[str, Any]:
    index = next(r["seq"] for r in records if r["type"] == "SubmissionCommitted")
    return make_receipt(records, index, TEST_KEY)


def test_a_receipt_holds_the_submission_and_proves_it_in_the_signed_log(
    receipt: dict[str, Any],
) -> None:
    assert receipt["format"] == RECEIPT_FORMAT
    assert receipt["record"]["type"] == "SubmissionCommitted"
    assert receipt["tree_size"] == receipt["leaf_index"] + 1

    proved = verify_receipt(receipt, trusted_key=TRUSTED)

    assert proved.leaf_index == receipt["leaf_index"]
    assert proved.checkpoint.size == receipt["tree_size"]
    assert proved.later is None


def test_a_later_checkpoint_with_a_consistency_proof_shows_the_log_still_holds_it(
    records: list[dict[str, Any]], receipt: dict[str, Any]
) -> None:
    later = extend_receipt(records, receipt, TEST_KEY)

    proved = verify_receipt(receipt, trusted_key=TRUSTED, later=later)

    assert proved.later is not None and proved.later.size == len(records)


def test_a_rewritten_log_cannot_extend_the_receipt(
    records: list[dict[str, Any]], receipt: dict[str, Any]
) -> None:
    # The host rewrites the submission and signs a new log with the same key.
    forged = copy.deepcopy(records)
    forged[receipt["leaf_index"]]["data"]["commitment"] = "00" * 32
    later = extend_receipt(forged, receipt, TEST_KEY)

    with pytest.raises(ReceiptError, match="does not extend the receipt's checkpoint"):
        verify_receipt(receipt, trusted_key=TRUSTED, later=later)


def test_a_later_checkpoint_by_another_key_does_not_count(
    records: list[dict[str, Any]], receipt: dict[str, Any]
) -> None:
    later = extend_receipt(records, receipt, OTHER_KEY)
    with pytest.raises(ReceiptError, match="later checkpoint does not verify"):
        verify_receipt(receipt, trusted_key=TRUSTED, later=later)


def changed(receipt: dict[str, Any], change: Any) -> dict[str, Any]:
    out = copy.deepcopy(receipt)
    change(out)
    return out


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda r: r["record"]["data"].update(commitment="00" * 32),
            "inclusion proof .* does not verify",
        ),
        (lambda r: r["record"].update(seq=0), "seq 0 but leaf_index"),
        (lambda r: r.update(tree_size=r["tree_size"] + 1), "checkpoint is at size"),
        (lambda r: r["inclusion_proof"].reverse(), "does not verify"),
        (
            lambda r: r["inclusion_proof"].append("AAAA"),
            r"inclusion_proof\[\d+\] is not the base64",
        ),
        (
            lambda r: r.update(checkpoint=r["checkpoint"].replace("\n\n", "\nx\n\n")),
            "checkpoint does not verify",
        ),
        (
            lambda r: r.update(
                origin="dealerroom.example/match/00000000-0000-4000-8000-000000000000"
            ),
            "match_id",
        ),
        (lambda r: r.update(format="dealerroom/receipt/v0"), "this reader knows"),
        (lambda r: r.pop("checkpoint"), "exactly the keys"),
    ],
)
def test_a_tampered_receipt_does_not_verify(
    receipt: dict[str, Any], change: Any, message: str
) -> None:
    with pytest.raises(ReceiptError, match=message):
        verify_receipt(changed(receipt, change), trusted_key=TRUSTED)


def test_a_receipt_signed_by_another_key_fails_against_the_trusted_key(
    records: list[dict[str, Any]],
) -> None:
    forged = make_receipt(records, 5, OTHER_KEY)
    verify_receipt(forged)  # consistent in itself
    with pytest.raises(ReceiptError, match="not the trusted key"):
        verify_receipt(forged, trusted_key=TRUSTED)


def test_a_receipt_may_be_against_any_later_size(records: list[dict[str, Any]]) -> None:
    receipt = make_receipt(records, 5, TEST_KEY, tree_size=len(records))
    assert verify_receipt(receipt, trusted_key=TRUSTED).checkpoint.size == len(records)
    with pytest.raises(ReceiptError, match="no receipt for leaf"):
        make_receipt(records, 5, TEST_KEY, tree_size=5)


# --- one later checkpoint, read in every form written so far ---------------------------------


def test_a_later_checkpoint_is_written_in_one_shape(
    records: list[dict[str, Any]], receipt: dict[str, Any]
) -> None:
    later = extend_receipt(records, receipt, TEST_KEY)
    assert list(later) == ["format", "match_id", "old_size", "checkpoint", "consistency_proof"]
    assert later["format"] == "dealerroom/consistency/v1"
    assert later["match_id"] == receipt["match_id"]
    assert later["old_size"] == receipt["tree_size"]


def older_forms(later: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        "canonical": later,
        "protocol-bundles.md before": {k: later[k] for k in ("checkpoint", "consistency_proof")},
        "checkpoint --from before": {**later, "public_key": TRUSTED},
    }


@pytest.mark.parametrize(
    "form", ["canonical", "protocol-bundles.md before", "checkpoint --from before"]
)
def test_both_verifiers_read_every_form_of_a_later_checkpoint(
    records: list[dict[str, Any]], receipt: dict[str, Any], form: str
) -> None:
    from domain.receipt import verify_receipt as check_receipt

    later = older_forms(extend_receipt(records, receipt, TEST_KEY))[form]
    assert verify_receipt(receipt, trusted_key=TRUSTED, later=later).later is not None
    assert check_receipt(receipt, trusted_key=TRUSTED, later=later).later_size == len(records)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "dealerroom/consistency/v2"}, "format"),
        ({"match_id": "00000000-0000-4000-8000-000000000999"}, "another match"),
        ({"old_size": 1}, "starts at size 1"),
        ({"old_size": True}, "starts at size"),
        ({"public_key": OTHER_KEY.verifier().vkey()}, "another key"),
        ({"size": 3}, "no member size"),
        ({"consistency_proof": None}, "list of base64"),
    ],
)  # fmt: skip
def test_a_later_checkpoint_whose_members_disagree_is_refused(
    records: list[dict[str, Any]], receipt: dict[str, Any], change: dict[str, Any], message: str
) -> None:
    from domain.receipt import verify_receipt as check_receipt

    later = {**extend_receipt(records, receipt, TEST_KEY), **change}
    with pytest.raises(ReceiptError, match=message):
        verify_receipt(receipt, trusted_key=TRUSTED, later=later)
    with pytest.raises(ReceiptError, match=message):
        check_receipt(receipt, trusted_key=TRUSTED, later=later)
