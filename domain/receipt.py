"""Checking a player's receipt offline: leaf, inclusion proof, signed checkpoint.

A receipt (``dealerroom/receipt/v1``) is what the service returns for an accepted
submission::

    {"format": "dealerroom/receipt/v1", "match_id", "origin", "public_key",
     "record": <public record of the SubmissionCommitted event>,
     "leaf_index", "tree_size", "inclusion_proof": [base64 hashes], "checkpoint": <signed note>}

Checking it needs no database and no network: the leaf hash of the record must lead,
through the inclusion proof, to the root of the checkpoint, whose signature must verify
with the host key. A *later* checkpoint (``dealerroom/consistency/v1``: ``{"old_size",
"checkpoint", "consistency_proof"}``) is proven to extend the receipt's checkpoint, so the
host cannot later show a history without the pick.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any

from domain.merkle import ProofError, record_leaf_hash, verify_consistency, verify_inclusion
from domain.signed_note import Checkpoint, NoteError, open_checkpoint

RECEIPT_FORMAT = "dealerroom/receipt/v1"
CONSISTENCY_FORMAT = "dealerroom/consistency/v1"


class ReceiptError(ValueError):
    """A receipt or later checkpoint that is malformed or does not verify."""


@dataclass(frozen=True)
class ReceiptCheck:
    """What a verified receipt proves."""

    match_id: str
    player: str
    step: int
    commitment: str
    tree_size: int
    later_size: int | None


def _hashes(values: Any, what: str) -> list[bytes]:
    if not isinstance(values, list):
        msg = f"{what} is a list of base64 hashes"
        raise ReceiptError(msg)
    try:
        return [base64.b64decode(v, validate=True) for v in values]
    except (binascii.Error, TypeError, ValueError):
        msg = f"{what} holds something that is not base64"
        raise ReceiptError(msg) from None


def _open(note: Any, keys: list[str], origin: str) -> Checkpoint:
    if not isinstance(note, str):
        msg = "a checkpoint is a signed note (text)"
        raise ReceiptError(msg)
    try:
        return open_checkpoint(note, keys, origin=origin)
    except NoteError as exc:
        msg = f"the checkpoint does not verify: {exc}"
        raise ReceiptError(msg) from None


def verify_receipt(
    receipt: Any, *, trusted_key: str | None = None, later: Any = None
) -> ReceiptCheck:
    """Check a receipt (and, with ``later``, that a later checkpoint extends it).

    ``trusted_key`` is the host's verifier key obtained out of band; without it the key in
    the receipt is used, which proves integrity but not who signed.

    :raises ReceiptError: naming what does not verify.
    """
    if not isinstance(receipt, dict) or receipt.get("format") != RECEIPT_FORMAT:
        msg = f'a receipt is a JSON object with "format": "{RECEIPT_FORMAT}"'
        raise ReceiptError(msg)
    try:
        record, index, size = receipt["record"], receipt["leaf_index"], receipt["tree_size"]
        origin, key = receipt["origin"], trusted_key or receipt["public_key"]
        data = record["data"]
        step, player, commitment = data["step"], data["player"], data["commitment"]
    except (KeyError, TypeError):
        msg = "the receipt lacks a field (record, leaf_index, tree_size, origin, public_key)"
        raise ReceiptError(msg) from None
    if record.get("type") != "SubmissionCommitted" or record.get("seq") != index:
        msg = "the receipt's record is not the SubmissionCommitted event at its leaf index"
        raise ReceiptError(msg)
    if not origin.endswith(f"/match/{receipt.get('match_id')}"):
        msg = "the receipt's origin does not name its match"
        raise ReceiptError(msg)
    checkpoint = _open(receipt["checkpoint"], [key], origin)
    if checkpoint.size != size:
        msg = f"the checkpoint is of size {checkpoint.size}, the receipt says {size}"
        raise ReceiptError(msg)
    try:
        verify_inclusion(
            record_leaf_hash(record),
            index,
            size,
            _hashes(receipt["inclusion_proof"], "inclusion_proof"),
            checkpoint.root_hash,
        )
    except (ProofError, KeyError) as exc:
        msg = f"the record is not in the checkpoint's tree: {exc}"
        raise ReceiptError(msg) from None
    later_size = None
    if later is not None:
        later_size = _check_later(later, key, origin, checkpoint)
    return ReceiptCheck(receipt["match_id"], player, step, commitment, size, later_size)


def _check_later(later: Any, key: str, origin: str, earlier: Checkpoint) -> int:
    if not isinstance(later, dict) or later.get("format") != CONSISTENCY_FORMAT:
        msg = f'a later checkpoint is a JSON object with "format": "{CONSISTENCY_FORMAT}"'
        raise ReceiptError(msg)
    newer = _open(later.get("checkpoint"), [key], origin)
    if later.get("old_size") != earlier.size:
        msg = f"the consistency proof starts at size {later.get('old_size')}, not {earlier.size}"
        raise ReceiptError(msg)
    try:
        verify_consistency(
            earlier.size,
            newer.size,
            earlier.root_hash,
            newer.root_hash,
            _hashes(later.get("consistency_proof"), "consistency_proof"),
        )
    except ProofError as exc:
        msg = f"the later checkpoint does not extend the receipt's: {exc}"
        raise ReceiptError(msg) from None
    return newer.size
