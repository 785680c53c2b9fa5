"""Signed checkpoints, receipts, consistency proofs and signed submissions, on both stores."""

from __future__ import annotations

import base64
import os
from typing import TYPE_CHECKING

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from domain.canonical import canonical_json
from domain.commitment import commit
from domain.merkle import leaf_hash, verify_consistency, verify_inclusion
from domain.signed_note import NoteError, Signer, open_checkpoint
from domain.submission_signing import SignatureError, sign_submission

if TYPE_CHECKING:
    from service.application import DealerRoom

PLAYERS = ["ana", "ben", "cai"]


def check_receipt(receipt: dict, key: str) -> bytes:
    """Verify a receipt offline the way the protocol document says; return its root."""
    cp = open_checkpoint(receipt["checkpoint"], [key], origin=receipt["origin"])
    assert cp.size == receipt["tree_size"]
    verify_inclusion(
        leaf_hash(canonical_json(receipt["record"])),
        receipt["leaf_index"],
        receipt["tree_size"],
        [base64.b64decode(h) for h in receipt["inclusion_proof"]],
        cp.root_hash,
    )
    return cp.root_hash


def test_every_receipt_issued_during_a_match_verifies_and_its_checkpoint_extends_to_the_final_one(
    service: DealerRoom,
) -> None:
    mid = service.create_match("vote", PLAYERS)["match_id"]
    service.open_step(mid)
    receipts = [service.submit(mid, p, {"vote": "ben"})["receipt"] for p in PLAYERS]
    receipts.append(service.submit(mid, "ana", {"vote": "cai"})["receipt"])  # an amendment
    service.seal(mid)
    key = service.public_key()
    final = open_checkpoint(service.checkpoint(mid)["note"], [key])
    assert final.size == len(service.records(mid))
    for receipt in receipts:
        root = check_receipt(receipt, key)
        later = service.consistency(mid, receipt["tree_size"])
        assert open_checkpoint(later["checkpoint"], [key]).root_hash == final.root_hash
        verify_consistency(
            receipt["tree_size"], final.size, root, final.root_hash,
            [base64.b64decode(h) for h in later["consistency_proof"]],
        )  # fmt: skip


def test_a_checkpoint_signed_by_another_key_fails(service: DealerRoom) -> None:
    mid = service.create_match("vote", PLAYERS)["match_id"]
    note = service.checkpoint(mid)["note"]
    stranger = Signer(service.public_key().split("+")[0], os.urandom(32)).verifier().vkey()
    with pytest.raises(NoteError):
        open_checkpoint(note, [stranger])


def test_a_receipt_with_a_changed_record_no_longer_verifies(service: DealerRoom) -> None:
    mid = service.create_match("vote", PLAYERS)["match_id"]
    service.open_step(mid)
    receipt = service.submit(mid, "ana", {"vote": "ben"})["receipt"]
    receipt["record"]["data"]["player"] = "ben"
    with pytest.raises(ValueError, match=r"(?i)root|mismatch|differ"):
        check_receipt(receipt, service.public_key())


def test_every_save_keeps_one_signed_checkpoint_of_its_match(service: DealerRoom) -> None:
    mid = service.create_match("vote", PLAYERS)["match_id"]  # MatchCreated + SeedCommitted
    service.open_step(mid)  # StepOpened
    service.submit(mid, "ana", {"vote": "ben"})  # SubmissionCommitted
    size = len(service.records(mid))
    notes = [service.checkpoint(mid, n)["note"] for n in (2, 3, 4)]
    assert (
        [open_checkpoint(n, [service.public_key()]).size for n in notes]
        == [2, 3, 4]
        == [c["size"] for c in service.tlog.every_checkpoint(mid)]
    )
    assert size == 4


def _player_key() -> tuple[Ed25519PrivateKey, str]:
    private = Ed25519PrivateKey.generate()
    raw = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return private, base64.b64encode(raw).decode()


def test_a_signing_player_s_submission_needs_their_signature(service: DealerRoom) -> None:
    private, public = _player_key()
    mid = service.create_match("vote", PLAYERS, player_keys={"ana": public})["match_id"]
    service.open_step(mid)
    salt = os.urandom(32)
    value = commit(mid, 1, "ana", {"vote": "ben"}, salt)
    with pytest.raises(SignatureError, match="missing"):
        service.submit(mid, "ana", {"vote": "ben"}, salt=salt.hex())
    forged = sign_submission(Ed25519PrivateKey.generate(), mid, 1, "ana", value)
    with pytest.raises(SignatureError, match="does not verify"):
        service.submit(mid, "ana", {"vote": "ben"}, salt=salt.hex(), signature=forged)
    good = sign_submission(private, mid, 1, "ana", value)
    result = service.submit(mid, "ana", {"vote": "ben"}, salt=salt.hex(), signature=good)
    assert result["commitment"] == value
    assert result["receipt"]["record"]["data"]["signature"] == good
    service.submit(mid, "ben", {"vote": "ben"})  # players without a key sign nothing


def test_a_key_for_a_stranger_or_a_malformed_key_is_refused(service: DealerRoom) -> None:
    _, public = _player_key()
    with pytest.raises(ValueError, match="not a player"):
        service.create_match("vote", PLAYERS, player_keys={"zed": public})
    with pytest.raises(SignatureError):
        service.create_match("vote", PLAYERS, player_keys={"ana": "not-a-key"})
