"""The ``seed`` check: the seed revealed after the match hashes to the one committed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.fairrand import seed_hash
from replay.verify.structure import HEX64
from replay.verify.visitor import CheckVisitor, Shared

if TYPE_CHECKING:
    from collections.abc import Mapping


class SeedCheck(CheckVisitor):
    """``SeedCommitted`` against ``SeedRevealed``."""

    names = ("seed",)

    def __init__(self, shared: Shared) -> None:
        """Start with nothing seen."""
        super().__init__(shared)
        self.seed_hash: str | None = None
        self.seed_ok = False

    def on_SeedCommitted(self, data: Mapping[str, Any]) -> None:  # noqa: N802 - event name
        """The committed hash is 64 lowercase hex digits."""
        if self.seq != 1:
            return  # the structure check reports it
        value = data["seed_hash"]
        if not isinstance(value, str) or not HEX64.fullmatch(value):
            self.fail("seed", self.seq, "SeedCommitted.seed_hash is not 64 lowercase hex digits")
        else:
            self.seed_hash = value

    def on_SeedRevealed(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """The revealed seed hashes to the committed hash."""
        value = data["seed"]
        if not isinstance(value, str) or not HEX64.fullmatch(value):
            self.fail("seed", self.seq, "SeedRevealed.seed is not 64 lowercase hex digits")
        elif self.seed_hash is not None and seed_hash(bytes.fromhex(value)) != self.seed_hash:
            self.fail(
                "seed", self.seq, "the revealed seed does not hash to the committed seed_hash"
            )
        else:
            self.seed_ok = True

    def end(self) -> None:
        """A finished match has revealed its seed."""
        if not self.seed_ok:
            if self.log.finished:
                over = "ended" if self.log.ended is not None else "finished"
                message = f"the match {over} but the seed was never revealed"
                self.fail("seed", self.seq + 1, message)
            else:
                self.pend("seed", "the seed is revealed when the match ends")
        self.summary("seed", "the revealed seed matches the committed seed hash")


__all__ = ["SeedCheck"]
