"""The ``merkle`` check: the records give the roots the checkpoints sign.

Records are numbered 0, 1, 2, ...; the root over each checkpoint's first ``size`` leaves is
the checkpoint's root, and the last checkpoint covers exactly all records. A rewritten,
dropped, swapped or truncated history fails, naming the first record that can differ (the
range between the last checkpoint that holds and the first that fails).
"""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING, Any

from domain.merkle import EMPTY_ROOT, MerkleLog, leaf_hash, record_leaf_hash
from replay.verify.visitor import CheckVisitor, Shared

if TYPE_CHECKING:
    from collections.abc import Mapping


def _note_root(note: str) -> bytes | None:
    """The root hash a checkpoint note states, unverified and parsed leniently.

    The signature check parses and verifies every note strictly; the merkle check only
    needs the root, and a note it cannot read is left to the signature check.
    """
    lines = note.split("\n", 3)
    if len(lines) < 4:  # noqa: PLR2004 - origin, size, root, and more
        return None
    try:
        root = base64.b64decode(lines[2], validate=True)
    except (binascii.Error, ValueError):
        return None
    return root if len(root) == 32 else None  # noqa: PLR2004 - SHA-256


class MerkleCheck(CheckVisitor):
    """Hashes each record once, building the tree incrementally; compares checkpoint roots."""

    names = ("merkle",)
    needs_log = False

    def __init__(self, shared: Shared) -> None:
        """Start with nothing seen."""
        super().__init__(shared)
        self.tree = MerkleLog()
        self.roots: dict[int, bytes | None] = {}
        self.order: list[int] = []
        self.good: dict[int, bool] = {}
        self.misplaced: tuple[int, Any] | None = None  # (position, seq found there)

    def begin(self, header: Mapping[str, Any]) -> None:
        """Read the root each checkpoint states."""
        for cp in header["checkpoints"]:
            self.roots[cp["size"]] = _note_root(cp["note"])
            self.order.append(cp["size"])
        if 0 in self.roots:
            self.good[0] = self.roots[0] == EMPTY_ROOT

    def visit(self, record: Mapping[str, Any]) -> None:
        """Hash the record into the tree; compare the root at each checkpoint's size."""
        log = self.tree
        index = len(log)
        try:
            leaf = record_leaf_hash(record)
        except (ValueError, TypeError):
            leaf = leaf_hash(repr(record).encode())
            self.fail("merkle", index, f"record {index} cannot be put in canonical JSON")
        log.append(leaf)
        if record.get("seq") != index and self.misplaced is None:
            self.misplaced = (index, record.get("seq"))
        size = index + 1
        if size in self.roots:
            self.good[size] = self.roots[size] == log.root()

    def end(self) -> None:
        """Say where the signed roots put the first difference, and what is cut off."""
        n = len(self.tree)
        # Where the signed roots put the first difference: after the last checkpoint that
        # holds, up to the first that does not.
        last_good, differs, cut = 0, None, None
        for size in self.order:
            if size > n:
                cut = size
                break
            if self.roots[size] is None:
                continue  # a malformed note: the signature check reports it
            if not self.good.get(size, False):
                differs = (last_good, size - 1)
                break
            last_good = size
        if self.misplaced is not None:
            # A record out of place is known to be wrong: it is the first bad record.
            at, seq = self.misplaced
            message = (
                f"position {at} holds seq {seq!r}: a record is missing, repeated or out of order"
            )
            span = None
            if differs is not None and differs[0] <= at <= differs[1]:
                span = (differs[0], at)
                lo, hi = differs
                message += f"; the signed roots put the first difference in records {lo}..{hi}"
            self.fail("merkle", at, message, span)
        elif differs is not None:
            lo, hi = differs
            where = (
                f"record {lo} differs"
                if lo == hi
                else f"the first difference is in records {lo}..{hi}"
            )
            self.fail(
                "merkle",
                lo,
                f"the records do not give the root signed at size {hi + 1}: {where}",
                differs,
            )
        if cut is not None:
            self.fail(
                "merkle",
                n,
                f"the bundle holds {n} records but a checkpoint covers {cut}: records were cut "
                "off the end",
                (n, cut - 1),
            )
        if self.order and self.order[-1] < n:
            self.fail(
                "merkle",
                self.order[-1],
                f"records {self.order[-1]}..{n - 1} come after the last checkpoint (size "
                f"{self.order[-1]}); no signature covers them",
                (self.order[-1], n - 1),
            )
        self.summary("merkle", f"{n} leaves; the roots of {len(self.order)} checkpoint(s) match")


__all__ = ["MerkleCheck"]
