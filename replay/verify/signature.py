"""The ``signature`` check: every checkpoint note verifies with the log's key.

Every checkpoint is listed at a size from 1 to 2^63-1 and its note verifies with the
bundle's ``public_key`` (and with the caller's trusted key, if given), its origin is the
bundle's and the key is named after the origin's prefix.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.signed_note import MAX_TREE_SIZE, NoteError, open_checkpoint
from replay.bundle import split_origin, verifier_key
from replay.verify.visitor import CheckVisitor

if TYPE_CHECKING:
    from collections.abc import Mapping


class SignatureCheck(CheckVisitor):
    """The checkpoints in the header; no record is needed."""

    per_record = False
    names = ("signature",)
    needs_log = False

    def visit(self, record: Mapping[str, Any]) -> None:
        """Nothing to do per record."""

    def begin(self, header: Mapping[str, Any]) -> None:
        """Check every checkpoint note of the header."""
        origin = header["origin"]
        prefix, _ = split_origin(origin)
        key = verifier_key(header["public_key"])
        if key.name != prefix:
            message = f"the log key is named {key.name!r}, not after the origin {prefix!r}"
            self.fail("signature", 0, message)
        if self.shared.trusted is not None and self.shared.trusted != key:
            self.fail("signature", 0, f"the bundle names the key {key.vkey()}, not the trusted key")
        previous = 0
        checkpoints = header["checkpoints"]
        for cp in checkpoints:
            size, note = cp["size"], cp["note"]
            if not 0 < size <= MAX_TREE_SIZE:
                self.fail(
                    "signature",
                    previous,
                    f"a checkpoint is listed at size {size}; a bundle's checkpoints have sizes 1 "
                    "to 2^63-1 (one of the empty log vouches for nothing)",
                )
                previous = size if size <= MAX_TREE_SIZE else previous
                continue
            keys = [key] if self.shared.trusted is None else [self.shared.trusted]
            try:
                body = open_checkpoint(note, keys, origin)
                if self.shared.trusted is not None and key != self.shared.trusted:
                    open_checkpoint(note, [key], origin)
            except NoteError as exc:
                whose = "the trusted key" if self.shared.trusted is not None else "the bundle's key"
                self.fail(
                    "signature",
                    previous,
                    f"the checkpoint at size {size} does not verify with {whose}: {exc}",
                )
            else:
                if body.size != size:
                    self.fail(
                        "signature",
                        previous,
                        f"the checkpoint listed at size {size} signs size {body.size}",
                    )
            previous = size if isinstance(size, int) else previous
        self.summary("signature", f"{len(checkpoints)} checkpoint(s) signed by {key.vkey()}")


__all__ = ["SignatureCheck"]
