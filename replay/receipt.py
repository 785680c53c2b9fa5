"""Receipts: a player's proof that their submission is in the match's signed log.

A receipt (``docs/protocol-bundles.md``)::

    {"format": "dealerroom/receipt/v1",
     "match_id": "<lowercase UUID>",
     "origin": "<prefix>/match/<match_id>",
     "public_key": "<verifier key of the log>",
     "record": <the public record of the SubmissionCommitted event>,
     "leaf_index": <its 0-based leaf index, equal to record.seq>,
     "tree_size": <size of the checkpoint below>,
     "inclusion_proof": [<base64 of each 32-byte hash, lowest level first>],
     "checkpoint": "<signed checkpoint note at tree_size>"}

Whoever holds a receipt can later ask the log for a newer checkpoint and a consistency
proof from ``tree_size`` to it, and check with :func:`verify_receipt` (``later=``) that the
log still contains their submission unchanged. A bundle's verifier also compares every
receipt with the bundle's own records (:mod:`replay.verify`).
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any, NamedTuple

from domain.receipt import (
    RECEIPT_FORMAT,
    ReceiptError,
    check_extension,
    check_inclusion,
    decode_hashes,
    later_checkpoint,
    open_signed_checkpoint,
    read_later,
)
from domain.signed_note import MAX_TREE_SIZE, Checkpoint, Signer, Verifier
from replay.bundle import (
    BundleError,
    check_record_shape,
    merkle_log,
    sign_checkpoints,
    split_origin,
    verifier_key,
)

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from domain.merkle import MerkleLog

RECEIPT_KEYS = frozenset({
    "format", "match_id", "origin", "public_key", "record", "leaf_index", "tree_size",
    "inclusion_proof", "checkpoint",
})  # fmt: skip


class VerifiedReceipt(NamedTuple):
    """What a verified receipt proves: this record is leaf ``leaf_index`` of the signed log."""

    match_id: str
    leaf_index: int
    record: dict[str, Any]
    checkpoint: Checkpoint
    later: Checkpoint | None


def _b64(hashes: Sequence[bytes]) -> list[str]:
    return [base64.b64encode(h).decode() for h in hashes]


def make_receipt(
    records: Sequence[Mapping[str, Any]],
    leaf_index: int,
    signer: Signer,
    *,
    tree_size: int | None = None,
    log: MerkleLog | None = None,
) -> dict[str, Any]:
    """Return the receipt of record ``leaf_index`` against a checkpoint signed at ``tree_size``.

    ``tree_size`` defaults to ``leaf_index + 1`` (the log right after the submission);
    ``log`` may pass the records' :func:`~replay.bundle.merkle_log`.

    :raises ReceiptError: if the index or the size is out of range or the records start
        without an origin.
    """
    size = leaf_index + 1 if tree_size is None else tree_size
    if not 0 <= leaf_index < size <= len(records):
        msg = f"no receipt for leaf {leaf_index} at size {size} of a log of {len(records)}"
        raise ReceiptError(msg)
    origin = records[0].get("data", {}).get("origin")
    try:
        _, match_id = split_origin(origin)
    except BundleError as exc:
        raise ReceiptError(str(exc)) from None
    log = merkle_log(records[:size]) if log is None else log
    try:
        note = sign_checkpoints(records[:size], signer, origin, [size], log=log)[0]["note"]
    except BundleError as exc:
        raise ReceiptError(str(exc)) from None
    return {
        "format": RECEIPT_FORMAT,
        "match_id": match_id,
        "origin": origin,
        "public_key": signer.verifier().vkey(),
        "record": dict(records[leaf_index]),
        "leaf_index": leaf_index,
        "tree_size": size,
        "inclusion_proof": _b64(log.inclusion_proof(leaf_index, size)),
        "checkpoint": note,
    }


def extend_receipt(
    records: Sequence[Mapping[str, Any]],
    receipt: Mapping[str, Any],
    signer: Signer,
    *,
    new_size: int | None = None,
) -> dict[str, Any]:
    """Return the later checkpoint proving the log at ``new_size`` extends the receipt's one.

    The one shape every writer writes (:func:`domain.receipt.later_checkpoint`): ``{"format":
    "dealerroom/consistency/v1", "match_id", "old_size", "checkpoint": <note signed at
    new_size>, "consistency_proof": [base64 hashes]}``; ``new_size`` defaults to the whole log.

    :raises ReceiptError: if ``new_size`` is below the receipt's size or beyond the records.
    """
    size = len(records) if new_size is None else new_size
    old = receipt["tree_size"]
    if not 0 < old <= size <= len(records):
        msg = f"cannot extend a receipt at size {old} to size {size} of a log of {len(records)}"
        raise ReceiptError(msg)
    log = merkle_log(records[:size])
    note = sign_checkpoints(records[:size], signer, receipt["origin"], [size], log=log)[0]["note"]
    proof = _b64(log.consistency_proof(old, size))
    return later_checkpoint(receipt["match_id"], old, note, proof)


def check_receipt_shape(receipt: Any) -> dict[str, Any]:
    """Return ``receipt`` if it has the receipt's shape.

    :raises ReceiptError: naming the first thing that is wrong.
    """
    if not isinstance(receipt, dict) or receipt.keys() != RECEIPT_KEYS:
        keys = sorted(RECEIPT_KEYS)
        msg = f"a receipt is an object with exactly the keys {', '.join(keys)}"
        raise ReceiptError(msg)
    if receipt["format"] != RECEIPT_FORMAT:
        msg = f"format is {receipt['format']!r}; this reader knows {RECEIPT_FORMAT!r}"
        raise ReceiptError(msg)
    try:
        _, match_id = split_origin(receipt["origin"])
        check_record_shape(receipt["record"], "receipt.record")
    except BundleError as exc:
        raise ReceiptError(str(exc)) from None
    if receipt["match_id"] != match_id:
        msg = f"match_id {receipt['match_id']!r} is not the match of the origin"
        raise ReceiptError(msg)
    for name in ("leaf_index", "tree_size"):
        value = receipt[name]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_TREE_SIZE:
            msg = f"{name} is a whole number up to 2^63-1, not {value!r}"
            raise ReceiptError(msg)
    if not isinstance(receipt["checkpoint"], str) or not isinstance(receipt["public_key"], str):
        msg = "checkpoint and public_key are text"
        raise ReceiptError(msg)
    return receipt


def verify_receipt(
    receipt: Mapping[str, Any],
    *,
    trusted_key: Verifier | str | None = None,
    later: Mapping[str, Any] | None = None,
) -> VerifiedReceipt:
    """Check a receipt; with ``later``, also that a newer checkpoint extends it.

    The checkpoint must be signed by ``trusted_key`` when one is given (a receipt naming
    another key fails), else by the receipt's own ``public_key``; its origin must be the
    receipt's; the record's ``seq`` must be ``leaf_index``; the inclusion proof must lead
    from ``SHA-256(0x00 || JCS(record))`` to the checkpoint's root at ``tree_size``.
    ``later`` (a later checkpoint, in its canonical form or an older one:
    :func:`domain.receipt.read_later`) must be signed by the same key and its consistency
    proof must lead from the receipt's root to the later root.

    :raises ReceiptError: with the reason the receipt does not hold.
    """
    check_receipt_shape(receipt)
    try:
        own = verifier_key(receipt["public_key"])
        key = own if trusted_key is None else verifier_key(trusted_key)
    except BundleError as exc:
        raise ReceiptError(str(exc)) from None
    if key != own:
        msg = f"the receipt names key {own.vkey()}, not the trusted key {key.vkey()}"
        raise ReceiptError(msg)
    origin = receipt["origin"]
    checkpoint = open_signed_checkpoint(receipt["checkpoint"], key, origin)
    index, size, record = receipt["leaf_index"], receipt["tree_size"], receipt["record"]
    if record["seq"] != index:
        msg = f"the record has seq {record['seq']} but leaf_index {index}"
        raise ReceiptError(msg)
    path = decode_hashes(receipt["inclusion_proof"], "inclusion_proof")
    check_inclusion(record, index, size, path, checkpoint)
    newer = (
        None
        if later is None
        else _verify_later(later, key, origin, checkpoint, receipt["match_id"])
    )
    return VerifiedReceipt(receipt["match_id"], index, dict(record), checkpoint, newer)


def _verify_later(
    later: Mapping[str, Any], key: Verifier, origin: str, checkpoint: Checkpoint, match_id: str
) -> Checkpoint:
    note, proof = read_later(later, match_id=match_id, old_size=checkpoint.size, key=key)
    return check_extension(checkpoint, note, proof, key, origin)


__all__ = [
    "RECEIPT_FORMAT",
    "ReceiptError",
    "VerifiedReceipt",
    "check_receipt_shape",
    "extend_receipt",
    "make_receipt",
    "verify_receipt",
]
