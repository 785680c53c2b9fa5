"""The ``receipts`` check: each receipt verifies and the bundle holds what it proves.

Each receipt verifies (its checkpoint with the log's key or the trusted one) and the bundle
holds the very record it names, in a log that extends the receipt's checkpoint.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

from domain.merkle import record_leaf_hash
from replay.bundle import BundleError, verifier_key
from replay.receipt import ReceiptError, verify_receipt
from replay.verify.visitor import CheckVisitor, Shared

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from replay.verify.merkle import MerkleCheck


class ReceiptsCheck(CheckVisitor):
    """The receipts of the bundle and the caller, against the merkle check's tree."""

    per_record = False
    names = ("receipts",)
    needs_log = False

    def __init__(self, shared: Shared, merkle: MerkleCheck) -> None:
        """Check receipts against the tree ``merkle`` builds."""
        super().__init__(shared)
        self.merkle = merkle
        self.match_id = ""
        self.public_key = ""
        self.header_receipts: list[Any] = []

    def begin(self, header: Mapping[str, Any]) -> None:
        """Keep the bundle's receipts and key."""
        self.match_id = str(header.get("match_id"))
        self.public_key = str(header.get("public_key"))
        self.header_receipts = list(header.get("receipts", ()))

    def visit(self, record: Mapping[str, Any]) -> None:
        """Nothing to do per record: the merkle check hashes them."""

    def end(self) -> None:
        """Check each receipt, then where the bundle departs from what the receipts prove.

        A receipt proves the hashes of its leaf and of the sibling subtrees on its path, and the
        root at its size. Each of them that the bundle reproduces marks a range of records as
        unchanged; each that it does not marks a range that holds a change. The first bad record
        of a failing receipt is the start of its leftmost changed range, moved past every range
        some receipt shows unchanged.
        """
        receipts = [*self.header_receipts, *self.shared.extra_receipts]
        log, n = self.merkle.tree, len(self.merkle.tree)
        key = self.shared.trusted or verifier_key(self.public_key)
        good: list[tuple[int, int]] = []
        bad: list[tuple[int, int, int, str]] = []  # (lo, hi, receipt, message)
        checked = 0
        for i, receipt in enumerate(receipts):
            try:
                ok = verify_receipt(receipt, trusted_key=key)
            except (ReceiptError, BundleError) as exc:
                seq = receipt.get("leaf_index") if isinstance(receipt, dict) else None
                self.fail(
                    "receipts",
                    seq if isinstance(seq, int) else None,
                    f"receipt {i} does not verify: {exc}",
                )
                continue
            if ok.match_id != self.match_id:
                self.fail("receipts", None, f"receipt {i} is for match {ok.match_id}, not this one")
                continue
            index, size = ok.leaf_index, ok.checkpoint.size
            if size > n:
                bad.append(
                    (
                        n,
                        size,
                        i,
                        (
                            f"receipt {i} covers {size} records; the bundle holds {n}: "
                            "records were cut off"
                        ),
                    )
                )
                continue
            failures = len(bad)
            if log.leaf_hash(index) == record_leaf_hash(ok.record):
                good.append((index, index + 1))
            else:
                bad.append(
                    (
                        index,
                        index + 1,
                        i,
                        f"record {index} is not the one receipt {i} holds: the log was rewritten",
                    )
                )
            proof = [base64.b64decode(h) for h in receipt["inclusion_proof"]]
            for (lo, hi), theirs, ours in zip(
                _path_ranges(index, size), proof, log.inclusion_proof(index, size), strict=True
            ):
                if theirs == ours:
                    good.append((lo, hi))
                else:
                    bad.append(
                        (
                            lo,
                            hi,
                            i,
                            (
                                f"records {lo}..{hi - 1} are not the ones receipt {i}'s proof "
                                "covers: the log was rewritten"
                            ),
                        )
                    )
            if log.root(size) == ok.checkpoint.root_hash:
                good.append((0, size))
            elif len(bad) == failures:  # pragma: no cover - a root mismatch shows on the path
                bad.append((0, size, i, f"the first {size} records do not give receipt {i}'s root"))
            checked += len(bad) == failures
        worst: dict[int, tuple[int, int, str]] = {}  # receipt -> (first bad, last, message)
        for lo, hi, i, message in bad:
            first = _first_uncovered(lo, hi, good)
            if i not in worst or first < worst[i][0]:
                worst[i] = (first, hi - 1, message)
        for first, last, message in worst.values():
            self.fail("receipts", first, message, (first, last))
        self.summary(
            "receipts",
            f"{checked} receipt(s) verified against the log"
            if receipts
            else "no receipts to check",
        )


def _path_ranges(index: int, size: int) -> list[tuple[int, int]]:
    """The leaf ranges of the subtrees on the inclusion path of ``index`` (lowest first)."""
    ranges = []
    lo, hi = 0, size
    while hi - lo > 1:
        k = 1 << ((hi - lo - 1).bit_length() - 1)
        if index < lo + k:
            ranges.append((lo + k, hi))
            hi = lo + k
        else:
            ranges.append((lo, lo + k))
            lo += k
    ranges.reverse()
    return ranges


def _first_uncovered(lo: int, hi: int, good: Sequence[tuple[int, int]]) -> int:
    """The first index of ``[lo, hi)`` that no range in ``good`` shows unchanged."""
    moved = True
    while moved and lo < hi:
        moved = False
        for a, b in good:
            if a <= lo < b:
                lo, moved = b, True
    return min(lo, hi - 1)


__all__ = ["ReceiptsCheck"]
