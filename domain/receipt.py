"""Checking a player's receipt offline: leaf, inclusion proof, signed checkpoint.

A receipt (``dealerroom/receipt/v1``) is what the service returns for an accepted
submission::

    {"format": "dealerroom/receipt/v1", "match_id", "origin", "public_key",
     "record": <public record of the SubmissionCommitted event>,
     "leaf_index", "tree_size", "inclusion_proof": [base64 hashes], "checkpoint": <signed note>}

This module holds the one implementation of each check (``replay.receipt`` adds the
bundle verifier's stricter shape rules on top). Checking needs no database and no network:
the leaf hash of the record must lead, through the inclusion proof, to the root of the
checkpoint, whose signature must verify with the host key. A *later* checkpoint
(``dealerroom/consistency/v1``: ``{"format", "match_id", "old_size", "checkpoint",
"consistency_proof"}``, :func:`later_checkpoint`; the older forms are read too,
:func:`read_later`) is proven to extend the receipt's checkpoint, so the host cannot later
show a history without the pick.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any

from domain.errors import UserError
from domain.merkle import ProofError, record_leaf_hash, verify_consistency, verify_inclusion
from domain.signed_note import Checkpoint, NoteError, Verifier, open_checkpoint

RECEIPT_FORMAT = "dealerroom/receipt/v1"
CONSISTENCY_FORMAT = "dealerroom/consistency/v1"
LATER_KEYS = ("format", "match_id", "old_size", "checkpoint", "consistency_proof")
"""The members of a later checkpoint, exactly, as every writer writes it."""
_LEGACY_LATER_KEYS = frozenset({"checkpoint", "consistency_proof"})  # protocol-bundles.md, before
_OPTIONAL_LATER_KEYS = frozenset({"format", "match_id", "old_size", "public_key"})


class ReceiptError(UserError):
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


def decode_hashes(values: Any, where: str) -> list[bytes]:
    """Decode a list of base64 SHA-256 hashes.

    :raises ReceiptError: naming the first entry that is not one.
    """
    if not isinstance(values, list):
        msg = f"{where} is a list of base64 hashes"
        raise ReceiptError(msg)
    out = []
    for i, value in enumerate(values):
        try:
            raw = base64.b64decode(value, validate=True) if isinstance(value, str) else b""
        except (binascii.Error, ValueError):
            raw = b""
        if len(raw) != 32:  # noqa: PLR2004 - SHA-256
            msg = f"{where}[{i}] is not the base64 of a 32-byte hash"
            raise ReceiptError(msg)
        out.append(raw)
    return out


def open_signed_checkpoint(
    note: Any, key: Verifier | str, origin: str, what: str = "the receipt's checkpoint"
) -> Checkpoint:
    """Open a checkpoint note signed by ``key`` for ``origin``.

    :raises ReceiptError: when it is not text or does not verify.
    """
    if not isinstance(note, str):
        msg = f"{what} is a signed note (text)"
        raise ReceiptError(msg)
    try:
        return open_checkpoint(note, [key], origin=origin)
    except NoteError as exc:
        msg = f"{what} does not verify: {exc}"
        raise ReceiptError(msg) from None


def check_inclusion(
    record: Any, index: int, size: int, proof: list[bytes], checkpoint: Checkpoint
) -> None:
    """Check that ``record`` is leaf ``index`` of the tree whose checkpoint is at ``size``.

    :raises ReceiptError: when the sizes disagree or the proof does not lead to the root.
    """
    if checkpoint.size != size:
        msg = f"the checkpoint is at size {checkpoint.size}, the receipt says {size}"
        raise ReceiptError(msg)
    try:
        verify_inclusion(record_leaf_hash(record), index, size, proof, checkpoint.root_hash)
    except (ProofError, ValueError, TypeError) as exc:
        msg = (
            f"the record is not in the checkpoint's tree: the inclusion proof of leaf {index} "
            f"at size {size} does not verify: {exc}"
        )
        raise ReceiptError(msg) from None


def check_extension(
    checkpoint: Checkpoint, later_note: Any, proof: list[bytes], key: Verifier | str, origin: str
) -> Checkpoint:
    """Check that the later checkpoint extends ``checkpoint``; return the later one.

    :raises ReceiptError: when the later note does not verify or the proof fails.
    """
    newer = open_signed_checkpoint(later_note, key, origin, "the later checkpoint")
    try:
        verify_consistency(
            checkpoint.size, newer.size, checkpoint.root_hash, newer.root_hash, proof
        )
    except ProofError as exc:
        msg = (
            f"the log at size {newer.size} does not extend the receipt's checkpoint at size "
            f"{checkpoint.size}: {exc}"
        )
        raise ReceiptError(msg) from None
    return newer


def later_checkpoint(match_id: str, old_size: int, note: str, proof: list[str]) -> dict[str, Any]:
    """The later checkpoint object, the one shape every writer writes.

    ``{"format": "dealerroom/consistency/v1", "match_id", "old_size", "checkpoint": <signed
    note at the later size>, "consistency_proof": [base64 hashes]}``
    (``docs/protocol-bundles.md`` section 2).
    """
    return {
        "format": CONSISTENCY_FORMAT,
        "match_id": match_id,
        "old_size": old_size,
        "checkpoint": note,
        "consistency_proof": list(proof),
    }


def read_later(
    later: Any, *, match_id: str, old_size: int, key: Verifier | str
) -> tuple[Any, list[bytes]]:
    """The note and proof hashes of a later checkpoint, in any form written so far.

    Read: the canonical object of :func:`later_checkpoint`; the bare
    ``{"checkpoint", "consistency_proof"}`` that ``protocol-bundles.md`` described before; and
    the canonical object with ``"public_key"`` that ``dealerroom checkpoint --from`` printed
    before. Each member besides the two required ones must agree when present: the format,
    the receipt's match, its ``tree_size`` as ``old_size``, the key checking it.

    :raises ReceiptError: naming the first thing that does not fit.
    """
    if not isinstance(later, dict) or not later.keys() >= _LEGACY_LATER_KEYS:
        msg = (
            f'a later checkpoint is {{"format": "{CONSISTENCY_FORMAT}", "match_id", "old_size", '
            '"checkpoint": signed note, "consistency_proof": [base64 hashes]}'
        )
        raise ReceiptError(msg)
    unknown = sorted(set(later) - _LEGACY_LATER_KEYS - _OPTIONAL_LATER_KEYS)
    if unknown:
        msg = f"a later checkpoint has no member {', '.join(unknown)}"
        raise ReceiptError(msg)
    if "format" in later and later["format"] != CONSISTENCY_FORMAT:
        msg = f'a later checkpoint has "format": "{CONSISTENCY_FORMAT}"'
        raise ReceiptError(msg)
    if "match_id" in later and later["match_id"] != match_id:
        msg = "the later checkpoint is for another match than the receipt"
        raise ReceiptError(msg)
    if "old_size" in later and (
        isinstance(later["old_size"], bool) or later["old_size"] != old_size
    ):
        shown = later["old_size"] if isinstance(later["old_size"], int) else "another size"
        msg = f"the consistency proof starts at size {shown}, not at the receipt's {old_size}"
        raise ReceiptError(msg)
    if "public_key" in later:
        text = key.vkey() if isinstance(key, Verifier) else key
        if later["public_key"] != text:
            msg = "the later checkpoint names another key than the one checking the receipt"
            raise ReceiptError(msg)
    return later["checkpoint"], decode_hashes(later["consistency_proof"], "consistency_proof")


def verify_receipt(
    receipt: Any, *, trusted_key: str | None = None, later: Any = None
) -> ReceiptCheck:
    """Check a receipt (and, with ``later``, that a later checkpoint extends it).

    ``trusted_key`` is the host's verifier key obtained out of band; without it the key in
    the receipt is used, which proves integrity but not who signed. ``later`` is a
    ``dealerroom/consistency/v1`` object as the service serves it.

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
    if not (isinstance(record, dict) and isinstance(origin, str) and isinstance(key, str)):
        msg = "a receipt's record is an object, its origin and public_key are text"
        raise ReceiptError(msg)
    if record.get("type") != "SubmissionCommitted" or record.get("seq") != index:
        msg = "the receipt's record is not the SubmissionCommitted event at its leaf index"
        raise ReceiptError(msg)
    if not origin.endswith(f"/match/{receipt.get('match_id')}"):
        msg = "the receipt's origin does not name its match"
        raise ReceiptError(msg)
    checkpoint = open_signed_checkpoint(receipt["checkpoint"], key, origin)
    proof = decode_hashes(receipt.get("inclusion_proof"), "inclusion_proof")
    check_inclusion(record, index, size, proof, checkpoint)
    later_size = None
    if later is not None:
        note, proof = read_later(
            later, match_id=str(receipt.get("match_id")), old_size=checkpoint.size, key=key
        )
        later_size = check_extension(checkpoint, note, proof, key, origin).size
    return ReceiptCheck(receipt["match_id"], player, step, commitment, size, later_size)
