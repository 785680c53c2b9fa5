"""Verdicts: one :class:`Check` per question, and the :class:`Verdict` of a bundle."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

CHECKS = (
    "signature", "merkle", "structure", "commitments", "seed", "deals", "outcomes",
    "signatures", "receipts",
)  # fmt: skip
PASS, FAIL, PENDING = "pass", "fail", "pending"
VERDICT_FORMAT = "dealerroom/verdict/v1"


@dataclass(frozen=True)
class Check:
    """The answer to one question about a bundle.

    ``status`` is ``"pass"``, ``"fail"`` or ``"pending"`` (cannot be answered until more
    is disclosed); ``first_bad_seq`` is the first record that is (or may be) wrong, and
    ``seq_range`` the inclusive range it lies in when only a range is known.
    """

    name: str
    status: str
    detail: str
    first_bad_seq: int | None = None
    seq_range: tuple[int, int] | None = None

    @property
    def ok(self) -> bool:
        """Whether the check did not fail (pending counts as ok)."""
        return self.status != FAIL

    def to_json(self) -> dict[str, Any]:
        """``{"name", "ok", "status", "detail", "first_bad_seq", "seq_range"}``."""
        return {
            "name": self.name,
            "ok": self.ok,
            "status": self.status,
            "detail": self.detail,
            "first_bad_seq": self.first_bad_seq,
            "seq_range": None if self.seq_range is None else list(self.seq_range),
        }


@dataclass(frozen=True)
class Verdict:
    """The checks of one bundle; ``ok`` when none failed, ``complete`` when none is pending.

    ``public_key`` is the log's key (the bundle's own) and ``pinned`` whether the caller
    pinned a trusted key: without one, the checks show the log unchanged since that key
    signed it, but not whose key it is (:attr:`key_note`).
    """

    match_id: str
    records: int
    checks: tuple[Check, ...]
    public_key: str = ""
    pinned: bool = False

    @property
    def key_note(self) -> str:
        """One line on what the key proves: pinned, or not pinned and what that means."""
        if self.pinned:
            return (
                f"pinned: every checkpoint must be signed by the trusted key {self.public_key}, "
                "obtained out of band"
            )
        return (
            f"NOT PINNED: the checks show the log consistent and unchanged since it was signed "
            f"by {self.public_key}, but nothing says whose key that is; pin it with "
            "--trusted-key KEY, obtained from the host out of band (e.g. its /api/key)"
        )

    @property
    def ok(self) -> bool:
        """Whether no check failed."""
        return all(c.ok for c in self.checks)

    @property
    def complete(self) -> bool:
        """Whether every check could be answered (none pending)."""
        return all(c.status != PENDING for c in self.checks)

    def check(self, name: str) -> Check:
        """Return the check called ``name``.

        :raises KeyError: if it was not run.
        """
        for c in self.checks:
            if c.name == name:
                return c
        raise KeyError(name)

    def failed(self) -> list[Check]:
        """The checks that failed."""
        return [c for c in self.checks if not c.ok]

    def to_json(self) -> dict[str, Any]:
        """The verdict JSON (``docs/protocol-bundles.md`` section 5)."""
        return {
            "format": VERDICT_FORMAT,
            "match_id": self.match_id,
            "records": self.records,
            "ok": self.ok,
            "complete": self.complete,
            "key": {"public_key": self.public_key, "pinned": self.pinned, "note": self.key_note},
            "checks": [c.to_json() for c in self.checks],
        }

    def __str__(self) -> str:
        """The report the command line prints: one line per check, then the verdict."""
        lines = [f"match {self.match_id}: {self.records} records"]
        for c in self.checks:
            where = "" if c.first_bad_seq is None else f" (first bad seq {c.first_bad_seq})"
            lines.append(f"  {c.name:<12} {c.status:<8} {c.detail}{where}")
        lines.append(f"key: {self.key_note}")
        lines.append(
            "verdict: "
            + ("ok" if self.ok else "FAILED")
            + ("" if self.complete else " (some checks wait for disclosure)")
            + ("" if self.pinned else " (key not pinned: see above)")
        )
        return "\n".join(lines)


class Tally:
    """Collects the findings of one check; :meth:`check` is its verdict."""

    __slots__ = ("count", "first", "name", "pending", "range", "summary", "unchecked")

    def __init__(self, name: str) -> None:
        """Start the tally of the check ``name``, with no findings."""
        self.name = name
        self.first: tuple[int | None, str] | None = None  # (seq, message) of the first failure
        self.range: tuple[int, int] | None = None
        self.count = 0
        self.pending: str | None = None
        self.unchecked: str | None = None
        self.summary = ""

    def fail(self, seq: int | None, message: str, seq_range: tuple[int, int] | None = None) -> None:
        """Count a failure at ``seq``; the first (lowest) one is the detail."""
        self.count += 1
        first = self.first
        if first is None or (seq is not None and (first[0] is None or seq < first[0])):
            self.first = (seq, message)
            self.range = seq_range

    def pend(self, message: str) -> None:
        """Note that the check waits for disclosure (the first reason is kept)."""
        if self.pending is None:
            self.pending = message

    def check(self) -> Check:
        """The check's verdict: fail, pending or pass."""
        if self.first is not None:
            seq, message = self.first
            more = f" (and {self.count - 1} more)" if self.count > 1 else ""
            return Check(self.name, FAIL, message + more, seq, self.range)
        if self.pending is not None:
            return Check(self.name, PENDING, self.pending)
        summary = self.summary or "ok"
        if self.unchecked is not None:
            summary += f"; {self.unchecked}"
        return Check(self.name, PASS, summary)


__all__ = ["CHECKS", "FAIL", "PASS", "PENDING", "VERDICT_FORMAT", "Check", "Tally", "Verdict"]
