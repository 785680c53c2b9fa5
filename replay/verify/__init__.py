"""The offline verifier: checks a match bundle without the database, the service or a network.

A verifier is a visitor, modelled on python-chess's ``BaseVisitor``: :func:`walk` calls
``begin(header)``, then ``visit(record)`` for every record in order, then ``end()``, and
returns ``result()``. :class:`BundleVerifier` returns a :class:`Verdict`: one :class:`Check`
per question, each ``pass``, ``fail`` or ``pending`` with a one-line detail and, when it
fails, the first record that is wrong (``first_bad_seq``).

The checks (``docs/protocol-bundles.md`` section 4):

``signature``
    Every checkpoint is listed at a size from 1 to 2^63-1 and its note verifies with the
    bundle's ``public_key`` (and with the caller's trusted key, if given), its origin is the
    bundle's and the key is named after the origin's prefix.
``merkle``
    Records are numbered 0, 1, 2, ...; the root over each checkpoint's first ``size`` leaves
    is the checkpoint's root, and the last checkpoint covers exactly all records. A
    rewritten, dropped, swapped or truncated history fails, naming the first record that
    can differ (the range between the last checkpoint that holds and the first that fails).
``structure``
    The events come in protocol order (``docs/PROTOCOL.md`` section 3) and agree with the
    bundle's header; each record has exactly its type's fields; times never go backwards;
    no pick is committed after its step's deadline and no decision made after its own;
    seats are claimed by their players and re-invited by the host; no commitment is used
    twice.
``commitments``
    Every reveal opens its player's latest commitment of its step; every commitment is
    opened once disclosure is due.
``seed``
    The revealed seed hashes to the committed seed hash.
``deals``
    Seed deals are recomputed from the seed; explicit deals must be dealable.
``outcomes``
    The whole match is replayed through the rules from the revealed inputs
    (:mod:`replay.state`): defaults, decision requests, decisions, outcomes, views and the
    result must all be the rules' own.
``signatures``
    Submissions of players who hold a key at that point (their latest seat claim's, else
    ``MatchCreated``'s) carry their Ed25519 signature; others carry none.
``receipts``
    Each receipt verifies and the bundle holds the very record it names, in a log that
    extends the receipt's checkpoint.

Checks that need something not yet disclosed (the seed, sealed picks, private deals) are
``pending`` while the match is under way; a verdict is ``ok`` when no check failed. The
verdict also says whether the key was pinned: without a trusted key, an ok verdict shows the
log unchanged since its own key signed it, not whose key that is (:attr:`Verdict.key_note`).

Run it as ``python -m replay.verify BUNDLE [--trusted-key KEY] [--receipt FILE] [--json]``;
the exit status is 0 when the verdict is ok, 1 when a check failed, 2 when the bundle
cannot be read.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import json
import re
import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from domain.commitment import CommitmentError, commit, salt_from_hex
from domain.fairrand import seed_hash
from domain.match import format_time
from domain.merkle import EMPTY_ROOT, MerkleLog, leaf_hash, record_leaf_hash
from domain.rules import get_rules
from domain.rules.base import Disclosure
from domain.signed_note import MAX_TREE_SIZE, NoteError, Verifier, open_checkpoint
from replay.bundle import (
    BundleError,
    check_bundle,
    check_submission_signature,
    load_bundle,
    split_origin,
    verifier_key,
)
from replay.inputs import BUNDLE_LIMIT, SMALL_LIMIT, load_json_file, read_limited
from replay.receipt import ReceiptError, verify_receipt
from replay.state import (
    DEALS,
    OUTCOMES,
    ReplayContext,
    ReplayError,
    advance,
    finish,
    initial_frame,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence
    from typing import TextIO

ResultT = TypeVar("ResultT")

CHECKS = (
    "signature", "merkle", "structure", "commitments", "seed", "deals", "outcomes",
    "signatures", "receipts",
)  # fmt: skip
PASS, FAIL, PENDING = "pass", "fail", "pending"
VERDICT_FORMAT = "dealerroom/verdict/v1"
PROGRESS_EVERY = 4096
PROGRESS_LARGE = 50_000  # records; a bundle this long shows progress even off a terminal

_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")
_HEX64 = re.compile(r"[0-9a-f]{64}")
# The fields of each record's data besides "actor" (PROTOCOL.md section 3): exactly these.
_FIELDS: dict[str, frozenset[str]] = {
    kind: frozenset(names.split())
    for kind, names in {
        "MatchCreated": "game rules_version options players origin custody player_keys",
        "SeedCommitted": "seed_hash",
        "PlayerJoined": "player entropy",
        "SeatClaimed": "player public_key",
        "SeatReinvited": "player",
        "StepOpened": "step kind submitters deadline deal_source deal view",
        "SubmissionCommitted": "step player commitment custody supersedes signature",
        "StepSealed": "step submitted missing",
        "DefaultApplied": "step player payload reason",
        "OpeningReceived": "step player commitment",
        "SubmissionRevealed": "step player commitment payload salt",
        "DecisionRequested": "step index player kind prompt default deadline",
        "DecisionMade": "step index player payload defaulted",
        "StepResolved": "step outcome view",
        "MatchFinished": "result",
        "DealRevealed": "step private",
        "SeedRevealed": "seed",
    }.items()
}
_TYPES = tuple(_FIELDS)
# Seats are claimed and re-invited at any time after SeedCommitted, even after the match
# ended; these records take no part in the order of steps.
_SEAT_TYPES = frozenset({"SeatClaimed", "SeatReinvited"})
_DEADLINE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?(Z|[+-]\d\d:\d\d)")


# ---------------------------------------------------------------------------
# Verdicts
# ---------------------------------------------------------------------------


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


class _Tally:
    """Collects the findings of one check."""

    __slots__ = ("count", "first", "name", "pending", "range", "summary", "unchecked")

    def __init__(self, name: str) -> None:
        self.name = name
        self.first: tuple[int | None, str] | None = None  # (seq, message) of the first failure
        self.range: tuple[int, int] | None = None
        self.count = 0
        self.pending: str | None = None
        self.unchecked: str | None = None
        self.summary = ""

    def fail(self, seq: int | None, message: str, seq_range: tuple[int, int] | None = None) -> None:
        self.count += 1
        first = self.first
        if first is None or (seq is not None and (first[0] is None or seq < first[0])):
            self.first = (seq, message)
            self.range = seq_range

    def pend(self, message: str) -> None:
        if self.pending is None:
            self.pending = message

    def check(self) -> Check:
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


# ---------------------------------------------------------------------------
# Visitors
# ---------------------------------------------------------------------------


class Visitor(ABC, Generic[ResultT]):
    """Base of bundle visitors: ``begin``, ``visit`` each record, ``end``, ``result``."""

    def begin(self, header: Mapping[str, Any]) -> None:  # noqa: B027 - optional hook
        """Called first with the bundle without its records (plus ``"size"``: their count)."""

    def visit(self, record: Mapping[str, Any]) -> None:  # noqa: B027 - optional hook
        """Called for each record, in order."""

    def end(self) -> None:  # noqa: B027 - optional hook
        """Called after the last record."""

    @abstractmethod
    def result(self) -> ResultT:
        """Return what the visitor found."""


def walk(bundle: Mapping[str, Any], visitor: Visitor[ResultT]) -> ResultT:
    """Drive ``visitor`` over a bundle and return its result."""
    records = bundle["records"]
    header = {k: v for k, v in bundle.items() if k != "records"}
    header["size"] = len(records)
    visitor.begin(header)
    visit = visitor.visit
    for record in records:
        visit(record)
    visitor.end()
    return visitor.result()


class BundleVerifier(Visitor[Verdict]):
    """Checks a bundle; ``result()`` is the :class:`Verdict`.

    ``trusted_key`` (a verifier key pinned by the caller) must have signed every checkpoint
    and receipt; ``receipts`` adds receipts held outside the bundle; ``checks`` selects which
    checks run (default: all); ``progress(done, total)`` is called every few thousand
    records of work, where ``total`` counts each record once per pass over the log (two
    passes when deals or outcomes are checked).
    """

    def __init__(
        self,
        *,
        trusted_key: Verifier | str | None = None,
        receipts: Iterable[Mapping[str, Any]] = (),
        checks: Iterable[str] = CHECKS,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        wanted = tuple(checks)
        unknown = sorted(set(wanted) - set(CHECKS))
        if unknown:
            msg = f"unknown check(s) {', '.join(unknown)}; the checks are {', '.join(CHECKS)}"
            raise ValueError(msg)
        self.wanted = tuple(c for c in CHECKS if c in wanted)
        self.trusted = None if trusted_key is None else verifier_key(trusted_key)
        self.extra_receipts = list(receipts)
        self.progress = progress
        self.tallies = {name: _Tally(name) for name in self.wanted}
        self.records: list[Mapping[str, Any]] = []
        self.match_id = ""
        self.size = 0
        self.public_key = ""
        self.header_receipts: list[Any] = []
        self.done = 0
        self.total = 0
        self._parts: list[_Part] = []
        self._visits: list[Callable[[Mapping[str, Any]], None]] = []
        self.merkle: _MerklePart | None = None

    def begin(self, header: Mapping[str, Any]) -> None:
        """Read the header: key, origin, checkpoints; check the checkpoint signatures."""
        self.match_id = str(header.get("match_id"))
        self.size = int(header.get("size", 0))
        self.public_key = str(header.get("public_key"))
        self.header_receipts = list(header.get("receipts", ()))
        want = set(self.wanted)
        if want & {"merkle", "receipts"}:
            self.merkle = _MerklePart(self, header)
            self._parts.append(self.merkle)
        if want & {"structure", "commitments", "seed", "signatures"}:
            self._parts.append(_LogPart(self, header))
        if "signature" in want:
            _check_signatures(self, header)
        replaying = bool(want & {DEALS, OUTCOMES})
        self.total = self.size * (2 if replaying else 1)
        self._visits = [part.visit for part in self._parts]

    def visit(self, record: Mapping[str, Any]) -> None:
        """Check one record (hash, order, commitments, signatures) and keep it for replay."""
        self.records.append(record)
        for visit in self._visits:
            visit(record)
        self.tick()

    def tick(self) -> None:
        """Count one record of work; report progress every few thousand."""
        self.done += 1
        if self.progress is not None and (self.done % PROGRESS_EVERY == 0):
            self.progress(self.done, self.total)

    def end(self) -> None:
        """Finish every check: truncation, disclosure due, the rules replay, receipts."""
        for part in self._parts:
            part.end()
        if DEALS in self.tallies or OUTCOMES in self.tallies:
            _replay(self)
        if "receipts" in self.tallies:
            _check_receipts(self)
        if self.progress is not None:
            self.progress(self.total, self.total)

    def fail(
        self, check: str, seq: int | None, message: str, seq_range: tuple[int, int] | None = None
    ) -> None:
        """Record a failure of ``check`` (ignored when that check is not run)."""
        tally = self.tallies.get(check)
        if tally is not None:
            tally.fail(seq, message, seq_range)

    def pend(self, check: str, message: str) -> None:
        """Record that ``check`` waits for disclosure."""
        tally = self.tallies.get(check)
        if tally is not None:
            tally.pend(message)

    def summary(self, check: str, text: str) -> None:
        """Set the detail shown when ``check`` passes."""
        tally = self.tallies.get(check)
        if tally is not None:
            tally.summary = text

    def result(self) -> Verdict:
        """The verdict."""
        pinned = self.trusted is not None
        return Verdict(
            self.match_id,
            len(self.records),
            tuple(t.check() for t in self.tallies.values()),
            self.trusted.vkey() if self.trusted is not None else self.public_key,
            pinned,
        )


def verify_bundle(
    bundle: Mapping[str, Any],
    *,
    trusted_key: Verifier | str | None = None,
    receipts: Iterable[Mapping[str, Any]] = (),
    checks: Iterable[str] = CHECKS,
    progress: Callable[[int, int], None] | None = None,
) -> Verdict:
    """Verify a bundle and return its verdict.

    See :class:`BundleVerifier` for the arguments.

    :raises BundleError: if ``bundle`` does not even have the bundle's shape.
    """
    check_bundle(bundle)
    verifier = BundleVerifier(
        trusted_key=trusted_key, receipts=receipts, checks=checks, progress=progress
    )
    return walk(bundle, verifier)


class _Part(ABC):
    """One group of checks fed record by record."""

    @abstractmethod
    def visit(self, record: Mapping[str, Any]) -> None:
        """Check one record."""

    @abstractmethod
    def end(self) -> None:
        """Finish the checks after the last record."""


# ---------------------------------------------------------------------------
# signature: the checkpoint notes
# ---------------------------------------------------------------------------


def _check_signatures(v: BundleVerifier, header: Mapping[str, Any]) -> None:
    origin = header["origin"]
    prefix, _ = split_origin(origin)
    key = verifier_key(header["public_key"])
    if key.name != prefix:
        v.fail(
            "signature", 0, f"the log key is named {key.name!r}, not after the origin {prefix!r}"
        )
    if v.trusted is not None and v.trusted != key:
        v.fail("signature", 0, f"the bundle names the key {key.vkey()}, not the trusted key")
    previous = 0
    checkpoints = header["checkpoints"]
    for cp in checkpoints:
        size, note = cp["size"], cp["note"]
        if not 0 < size <= MAX_TREE_SIZE:
            v.fail(
                "signature",
                previous,
                f"a checkpoint is listed at size {size}; a bundle's checkpoints have sizes 1 to "
                "2^63-1 (one of the empty log vouches for nothing)",
            )
            previous = size if size <= MAX_TREE_SIZE else previous
            continue
        keys = [key] if v.trusted is None else [v.trusted]
        try:
            body = open_checkpoint(note, keys, origin)
            if v.trusted is not None and key != v.trusted:
                open_checkpoint(note, [key], origin)
        except NoteError as exc:
            whose = "the trusted key" if v.trusted is not None else "the bundle's key"
            v.fail(
                "signature",
                previous,
                f"the checkpoint at size {size} does not verify with {whose}: {exc}",
            )
        else:
            if body.size != size:
                v.fail(
                    "signature",
                    previous,
                    f"the checkpoint listed at size {size} signs size {body.size}",
                )
        previous = size if isinstance(size, int) else previous
    v.summary("signature", f"{len(checkpoints)} checkpoint(s) signed by {key.vkey()}")


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


# ---------------------------------------------------------------------------
# merkle: leaves, roots, truncation
# ---------------------------------------------------------------------------


class _MerklePart(_Part):
    """Hashes each record once, building the tree incrementally; compares checkpoint roots."""

    def __init__(self, v: BundleVerifier, header: Mapping[str, Any]) -> None:
        self.v = v
        self.log = MerkleLog()
        self.roots: dict[int, bytes | None] = {}
        self.order: list[int] = []
        for cp in header["checkpoints"]:
            self.roots[cp["size"]] = _note_root(cp["note"])
            self.order.append(cp["size"])
        self.good: dict[int, bool] = {}
        if 0 in self.roots:
            self.good[0] = self.roots[0] == EMPTY_ROOT
        self.misplaced: tuple[int, Any] | None = None  # (position, seq found there)

    def visit(self, record: Mapping[str, Any]) -> None:
        log = self.log
        index = len(log)
        try:
            leaf = record_leaf_hash(record)
        except (ValueError, TypeError):
            leaf = leaf_hash(repr(record).encode())
            self.v.fail("merkle", index, f"record {index} cannot be put in canonical JSON")
        log.append(leaf)
        if record.get("seq") != index and self.misplaced is None:
            self.misplaced = (index, record.get("seq"))
        size = index + 1
        if size in self.roots:
            self.good[size] = self.roots[size] == log.root()

    def end(self) -> None:
        v, n = self.v, len(self.log)
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
            v.fail("merkle", at, message, span)
        elif differs is not None:
            lo, hi = differs
            where = (
                f"record {lo} differs"
                if lo == hi
                else f"the first difference is in records {lo}..{hi}"
            )
            v.fail(
                "merkle",
                lo,
                f"the records do not give the root signed at size {hi + 1}: {where}",
                differs,
            )
        if cut is not None:
            v.fail(
                "merkle",
                n,
                f"the bundle holds {n} records but a checkpoint covers {cut}: records were cut "
                "off the end",
                (n, cut - 1),
            )
        if self.order and self.order[-1] < n:
            v.fail(
                "merkle",
                self.order[-1],
                f"records {self.order[-1]}..{n - 1} come after the last checkpoint (size "
                f"{self.order[-1]}); no signature covers them",
                (self.order[-1], n - 1),
            )
        v.summary("merkle", f"{n} leaves; the roots of {len(self.order)} checkpoint(s) match")


# ---------------------------------------------------------------------------
# structure, commitments, seed, signatures: one pass over the events
# ---------------------------------------------------------------------------


@dataclass
class _StepLog:
    number: int
    submitters: list[str]
    deal_source: str
    phase: str = "open"  # open -> sealed -> resolved
    rank: int = 0
    commitments: dict[str, tuple[str, int]] = field(default_factory=dict)  # player -> (c, seq)
    missing: list[str] = field(default_factory=list)
    defaults: dict[str, str] = field(default_factory=dict)  # player -> reason
    openings: set[str] = field(default_factory=set)
    revealed: set[str] = field(default_factory=set)
    requests: list[str] = field(default_factory=list)  # player of each request
    decisions: int = 0
    deadline: str | None = None  # as record times are written, to compare as text
    request_deadlines: list[str | None] = field(default_factory=list)


# The order of events within a step (PROTOCOL.md section 3). A self-custody player whose
# opening never came gets the default after the openings that did come, so the two kinds of
# DefaultApplied have two ranks.
_RANK = {
    "StepOpened": 0, "SubmissionCommitted": 1, "StepSealed": 2, "missing": 3,
    "OpeningReceived": 4, "not-revealed": 5, "SubmissionRevealed": 6, "DecisionRequested": 7,
    "DecisionMade": 7, "StepResolved": 8,
}  # fmt: skip
# After the last step: MatchFinished, the at-end reveals, the private deals, the seed.
_AFTER = {"MatchFinished": 1, "SubmissionRevealed": 2, "DealRevealed": 3, "SeedRevealed": 4}


class _LogPart(_Part):
    """Protocol order, commitments, the seed and player signatures, event by event."""

    def __init__(self, v: BundleVerifier, header: Mapping[str, Any]) -> None:
        self.v = v
        self.header = header
        self.match_id = str(header.get("match_id"))
        self.seq = -1
        self.players: list[str] = []
        self.custody: dict[str, str] = {}
        self.keys: dict[str, str] = {}
        self.disclosure: Disclosure | None = None
        self.steps: dict[int, _StepLog] = {}
        self.current: _StepLog | None = None
        self.used: dict[str, int] = {}
        self.joined: set[str] = set()
        self.after = 0  # rank after the last step (_AFTER)
        self.finished = False
        self.last_type = ""
        self.seed_hash: str | None = None
        self.seed_ok = False
        self.reveal_step = 0
        self.deal_step = 0
        self.reveals = 0
        self.signed = 0
        self.at = ""  # this record's time, when well formed
        self.claimed: set[str] = set()  # seats claimed and not re-invited since

    # -- reporting --------------------------------------------------------------------

    def bad(self, message: str) -> None:
        self.v.fail("structure", self.seq, message)

    def visit(self, record: Mapping[str, Any]) -> None:
        self.seq += 1
        kind, data = record.get("type"), record.get("data")
        if not isinstance(data, dict):
            self.bad(f"record {self.seq} has no data object")
            return
        if not isinstance(data.get("actor"), str):
            self.bad(f"record {self.seq} ({kind}) names no actor")
        self.check_time(record.get("at"))
        if self.seq == 0 and kind != "MatchCreated":
            self.bad("the log must start with MatchCreated")
        elif self.seq == 1 and kind != "SeedCommitted":
            self.bad("the second record must be SeedCommitted")
        if self.after == _AFTER["SeedRevealed"] and kind not in _SEAT_TYPES:
            self.bad(f"{kind} comes after SeedRevealed, which ends the log")
        if kind not in _FIELDS:
            self.bad(f"record {self.seq} has the unknown type {kind!r}")
            return
        extra = sorted(set(data) - _FIELDS[kind] - {"actor"})
        if extra:
            self.bad(
                f"record {self.seq} ({kind}) has the field(s) {', '.join(map(repr, extra))}, "
                "which the protocol does not define for it"
            )
        try:
            getattr(self, f"_{kind}")(data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            self.bad(f"{kind} at {self.seq} is malformed: {type(exc).__name__}: {exc}")
        if kind not in _SEAT_TYPES:
            self.last_type = str(kind)

    def check_time(self, at: Any) -> None:
        """``at`` is RFC 3339 UTC with microseconds and never before the record before."""
        if not isinstance(at, str) or not _TIME.fullmatch(at):
            self.bad(
                f"record {self.seq} has the time {at!r}, not RFC 3339 UTC with microseconds"
            )
            return
        if self.at and at < self.at:  # this format orders as text does
            self.bad(
                f"record {self.seq} is at {at}, before the record before it ({self.at}): "
                "times never go backwards"
            )
        self.at = at

    def deadline(self, value: Any, what: str) -> str | None:
        """A deadline (RFC 3339 or null) written as record times are, to compare as text."""
        if value is None:
            return None
        if not isinstance(value, str) or not _DEADLINE.fullmatch(value):
            self.bad(f"{what} has the deadline {value!r}, not an RFC 3339 time or null")
            return None
        try:
            return format_time(datetime.fromisoformat(value.replace("Z", "+00:00")))
        except (ValueError, OverflowError):
            self.bad(f"{what} has the deadline {value!r}, which is not a time")
            return None

    # -- the set-up -------------------------------------------------------------------

    def _MatchCreated(self, data: Mapping[str, Any]) -> None:  # noqa: N802 - event name
        if self.seq != 0:
            self.bad("MatchCreated appears again")
            return
        rules = self.header.get("rules", {})
        if data.get("origin") != self.header.get("origin"):
            self.bad(f"MatchCreated names the origin {data.get('origin')!r}, the bundle another")
        if data.get("game") != rules.get("game") or data.get("rules_version") != rules.get(
            "version"
        ):
            self.bad("MatchCreated's game and rules version are not the bundle's")
        try:
            self.disclosure = get_rules(data["game"]).disclosure
        except ValueError as exc:
            self.bad(str(exc))
        players = data["players"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            self.bad("MatchCreated.players is not a list of names")
            players = []
        self.players = list(players)
        custody = data["custody"]
        if (
            not isinstance(custody, dict)
            or set(custody) != set(self.players)
            or not all(mode in ("sealed", "self") for mode in custody.values())
        ):
            self.bad('MatchCreated.custody must give every player "sealed" or "self"')
            custody = {}
        self.custody = dict(custody)
        keys = data["player_keys"]
        if not isinstance(keys, dict):
            self.bad("MatchCreated.player_keys must be an object")
            keys = {}
        for player, key in keys.items():
            if player not in self.players or not _is_key(key):
                self.v.fail(
                    "signatures", 0, f"the key of {player!r} is not a player's base64 Ed25519 key"
                )
        self.keys = {p: k for p, k in keys.items() if isinstance(k, str)}

    def _SeedCommitted(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        if self.seq != 1:
            self.bad("SeedCommitted appears again")
            return
        value = data["seed_hash"]
        if not isinstance(value, str) or not _HEX64.fullmatch(value):
            self.v.fail("seed", self.seq, "SeedCommitted.seed_hash is not 64 lowercase hex digits")
        else:
            self.seed_hash = value

    def _PlayerJoined(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        player, entropy = data["player"], data["entropy"]
        if player not in self.players:
            self.bad(f"{player!r} joins but is not a player")
        if player in self.joined:
            self.bad(f"{player!r} joins twice")
        self.joined.add(player)
        if entropy is not None:
            if not isinstance(entropy, str) or not 1 <= len(entropy) <= 256:  # noqa: PLR2004
                self.bad(f"the entropy of {player!r} is not text of 1 to 256 characters")
            if self.steps:
                self.bad(f"{player!r} adds entropy after the first deal")

    def _SeatClaimed(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        player, key = data["player"], data["public_key"]
        if player not in self.players:
            self.bad(f"a seat is claimed for {player!r}, who is not a player")
            return
        if data["actor"] != player:
            self.bad(f"{player}'s seat is claimed by {data['actor']!r}; only the player claims it")
        if player in self.claimed:
            self.bad(f"{player}'s seat is claimed again without a re-invite")
        self.claimed.add(player)
        if key is None:
            self.keys.pop(player, None)
        elif _is_key(key):
            self.keys[player] = key
        else:
            self.keys.pop(player, None)
            self.v.fail(
                "signatures",
                self.seq,
                f"{player} claimed the seat with a key that is not base64 of a 32-byte Ed25519 "
                "key",
            )

    def _SeatReinvited(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        player = data["player"]
        if player not in self.players:
            self.bad(f"a seat is re-invited for {player!r}, who is not a player")
            return
        if data["actor"] != "host":
            self.bad(
                f"{player}'s seat is re-invited by {data['actor']!r}; only the host re-invites"
            )
        self.claimed.discard(player)
        self.keys.pop(player, None)

    # -- a step -----------------------------------------------------------------------

    def step(self, data: Mapping[str, Any], kind: str, *, phase: str = "sealed") -> _StepLog | None:
        """The current step, if the record is about it and it is in ``phase``."""
        cur = self.current
        if cur is None or data["step"] != cur.number:
            self.bad(
                f"{kind} is about step {data['step']!r}, but step {cur.number if cur else None} "
                "is current"
            )
            return None
        if cur.phase != phase:
            self.bad(f"{kind} in step {cur.number} while the step is {cur.phase}")
            return None
        return cur

    def order(self, cur: _StepLog, kind: str, rank: int) -> None:
        if rank < cur.rank:
            self.bad(
                f"{kind} comes too late in step {cur.number} (the order is StepOpened, "
                "commitments, StepSealed, defaults, openings, reveals, decisions, StepResolved)"
            )
        cur.rank = max(cur.rank, rank)

    def submitter(self, cur: _StepLog, player: Any, kind: str) -> bool:
        if player not in cur.submitters:
            self.bad(f"{kind}: {player!r} is not asked to submit in step {cur.number}")
            return False
        return True

    def _StepOpened(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        number = data["step"]
        if self.finished:
            self.bad(f"step {number} opens after MatchFinished")
        cur = self.current
        if cur is not None and cur.phase != "resolved":
            self.bad(f"step {number} opens before step {cur.number} resolved")
        expected = (cur.number if cur else 0) + 1
        if number != expected:
            self.bad(f"step {number} opens; the next step is {expected}")
        submitters = data["submitters"]
        if (
            not isinstance(submitters, list)
            or len(set(submitters)) != len(submitters)
            or any(p not in self.players for p in submitters)
        ):
            self.bad(f"step {number}'s submitters {submitters!r} are not distinct players")
            submitters = []
        if data["deal_source"] not in ("seed", "explicit", "none"):
            self.bad(f"step {number} has the deal_source {data['deal_source']!r}")
        if not isinstance(data["deal"], dict) or not isinstance(data["view"], dict):
            self.bad(f"step {number}'s deal and view must be objects")
        deadline = self.deadline(data["deadline"], f"step {number}")
        self.current = _StepLog(
            number, list(submitters), str(data["deal_source"]), deadline=deadline
        )
        if isinstance(number, int):
            self.steps[number] = self.current

    def _SubmissionCommitted(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        cur = self.step(data, "SubmissionCommitted", phase="open")
        player, value = data["player"], data["commitment"]
        if not isinstance(value, str) or not _HEX64.fullmatch(value):
            self.bad("a commitment is 64 lowercase hex digits")
            return
        if value in self.used:
            self.bad(f"the commitment at {self.seq} was already used at {self.used[value]}")
        self.used.setdefault(value, self.seq)
        self.check_signature(data, value)
        if cur is None or not self.submitter(cur, player, "SubmissionCommitted"):
            return
        if cur.deadline is not None and self.at > cur.deadline:
            self.bad(
                f"{player}'s submission at {self.seq} was committed at {self.at}, after step "
                f"{cur.number}'s deadline {cur.deadline}"
            )
        self.order(cur, "SubmissionCommitted", _RANK["SubmissionCommitted"])
        if data["custody"] != self.custody.get(player):
            self.bad(
                f"{player}'s submission says custody {data['custody']!r}, the match says "
                f"{self.custody.get(player)!r}"
            )
        earlier = cur.commitments.get(player)
        if data["supersedes"] != (earlier[0] if earlier else None):
            self.bad(
                f"{player}'s submission supersedes {data['supersedes']!r}, but their commitment "
                f"was {earlier[0] if earlier else None!r}"
            )
        cur.commitments[player] = (value, self.seq)

    def check_signature(self, data: Mapping[str, Any], value: str) -> None:
        player, signature = data["player"], data["signature"]
        key = self.keys.get(player)
        if key is None:
            if signature is not None:
                self.v.fail(
                    "signatures",
                    self.seq,
                    f"{player} registered no key, yet the submission at {self.seq} carries a "
                    "signature",
                )
            return
        if not isinstance(signature, str) or not check_submission_signature(
            key, signature, self.match_id, data["step"], player, value
        ):
            what = "lacks" if signature is None else "has an invalid"
            self.v.fail(
                "signatures", self.seq, f"the submission of {player} at {self.seq} {what} signature"
            )
            return
        self.signed += 1

    def _StepSealed(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        cur = self.step(data, "StepSealed", phase="open")
        if cur is None:
            return
        submitted = [p for p in cur.submitters if p in cur.commitments]
        missing = [p for p in cur.submitters if p not in cur.commitments]
        if data["submitted"] != submitted or data["missing"] != missing:
            self.bad(
                f"StepSealed of step {cur.number} lists submitted {data['submitted']} and missing "
                f"{data['missing']}; the commitments say {submitted} and {missing}"
            )
        cur.missing = missing
        cur.phase = "sealed"
        self.order(cur, "StepSealed", _RANK["StepSealed"])

    def _DefaultApplied(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        cur = self.step(data, "DefaultApplied")
        player, reason = data["player"], data["reason"]
        if cur is None or not self.submitter(cur, player, "DefaultApplied"):
            return
        if player in cur.defaults or player in cur.revealed:
            self.bad(f"{player} gets a default twice, or after their reveal, in step {cur.number}")
        if reason == "missing":
            if player not in cur.missing:
                self.bad(
                    f"{player} gets the default for a missing pick in step {cur.number} but "
                    "submitted"
                )
        elif reason == "not-revealed":
            if (
                self.custody.get(player) != "self"
                or player not in cur.commitments
                or player in cur.openings
            ):
                self.bad(
                    f"{player} gets the default for an unopened commitment in step {cur.number}, "
                    "but had nothing to open"
                )
        else:
            self.bad(f"DefaultApplied gives the unknown reason {reason!r}")
        self.order(cur, "DefaultApplied", _RANK.get(reason, 3))
        cur.defaults[player] = str(reason)

    def _OpeningReceived(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        cur = self.step(data, "OpeningReceived")
        player = data["player"]
        if cur is None or not self.submitter(cur, player, "OpeningReceived"):
            return
        self.order(cur, "OpeningReceived", _RANK["OpeningReceived"])
        if self.custody.get(player) != "self":
            self.bad(f"{player} is in sealed custody and sends no opening")
        if player in cur.openings or player in cur.defaults:
            self.bad(f"{player} opens twice, or after their default, in step {cur.number}")
        latest = cur.commitments.get(player)
        if latest is None or data["commitment"] != latest[0]:
            self.v.fail(
                "commitments",
                self.seq,
                f"{player}'s opening in step {cur.number} names a commitment that is not their "
                "latest",
            )
        cur.openings.add(player)

    def _SubmissionRevealed(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        number, player = data["step"], data["player"]
        if self.disclosure is Disclosure.AT_END:
            target = self.steps.get(number) if isinstance(number, int) else None
            if not self.finished:
                self.bad(
                    f"{player}'s pick of step {number} is revealed before the match ends; this "
                    "game reveals at the end"
                )
            elif target is None or number < self.reveal_step:
                self.bad(f"the reveal of step {number!r} is out of step order")
            self.after_rank("SubmissionRevealed")
            self.reveal_step = max(self.reveal_step, number if isinstance(number, int) else 0)
        else:
            target = self.step(data, "SubmissionRevealed")
            if target is not None:
                self.order(target, "SubmissionRevealed", _RANK["SubmissionRevealed"])
        if target is None or not self.submitter(target, player, "SubmissionRevealed"):
            return
        if player in target.defaults:
            self.bad(f"{player} got the default in step {number}, yet a pick is revealed")
        if player in target.revealed:
            self.bad(f"{player}'s pick of step {number} is revealed twice")
        if self.custody.get(player) == "self" and player not in target.openings:
            self.bad(
                f"{player}'s self-custody pick of step {number} is revealed without their opening"
            )
        target.revealed.add(player)
        latest = target.commitments.get(player)
        if latest is None or data["commitment"] != latest[0]:
            self.v.fail(
                "commitments",
                self.seq,
                f"the reveal of {player} in step {number} names a commitment that is not their "
                "latest",
            )
            return
        try:
            opened = commit(
                self.match_id, number, player, data["payload"], salt_from_hex(data["salt"])
            )
        except (CommitmentError, TypeError, ValueError) as exc:
            self.v.fail(
                "commitments",
                self.seq,
                f"the reveal of {player} in step {number} is malformed: {exc}",
            )
            return
        if opened != latest[0]:
            self.v.fail(
                "commitments",
                self.seq,
                f"the reveal of {player} in step {number} does not open their commitment (seq "
                f"{latest[1]})",
            )
        else:
            self.reveals += 1

    def _DecisionRequested(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        cur = self.step(data, "DecisionRequested")
        if cur is None:
            return
        self.order(cur, "DecisionRequested", _RANK["DecisionRequested"])
        if len(cur.requests) != cur.decisions:
            self.bad(f"a decision is requested in step {cur.number} before the last one was made")
        if data["index"] != len(cur.requests):
            self.bad(
                f"decision request {data['index']!r} of step {cur.number} should be number "
                f"{len(cur.requests)}"
            )
        if data["player"] not in self.players:
            self.bad(f"a decision is requested of {data['player']!r}, who is not a player")
        cur.requests.append(data["player"])
        what = f"decision request {data['index']!r} of step {cur.number}"
        cur.request_deadlines.append(self.deadline(data["deadline"], what))

    def _DecisionMade(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        cur = self.step(data, "DecisionMade")
        if cur is None:
            return
        self.order(cur, "DecisionMade", _RANK["DecisionMade"])
        index = cur.decisions
        if (
            index >= len(cur.requests)
            or data["index"] != index
            or data["player"] != cur.requests[index]
        ):
            self.bad(
                f"decision {data['index']!r} by {data['player']!r} in step {cur.number} answers "
                "no open request"
            )
        if not isinstance(data["defaulted"], bool) or not isinstance(data["payload"], dict):
            self.bad("a decision has a payload object and a defaulted flag")
        due = cur.request_deadlines[index] if index < len(cur.request_deadlines) else None
        if data["defaulted"] is False and due is not None and self.at > due:
            self.bad(
                f"decision {index} of step {cur.number} was made at {self.at}, after its "
                f"deadline {due} (only its default may come later)"
            )
        cur.decisions += 1

    def _StepResolved(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        cur = self.step(data, "StepResolved")
        if cur is None:
            return
        self.order(cur, "StepResolved", _RANK["StepResolved"])
        if len(cur.requests) != cur.decisions:
            self.bad(f"step {cur.number} resolves with a decision still open")
        for player in cur.submitters:
            if player in cur.defaults:
                continue
            if player not in cur.commitments:
                self.bad(f"step {cur.number} resolves without a pick or default for {player}")
            elif self.custody.get(player) == "self" and player not in cur.openings:
                self.bad(f"step {cur.number} resolves without {player}'s opening or default")
            elif self.disclosure is Disclosure.ON_RESOLVE and player not in cur.revealed:
                self.v.fail(
                    "commitments",
                    self.seq,
                    f"step {cur.number} resolves without revealing {player}'s pick",
                )
        cur.phase = "resolved"

    # -- after the last step ----------------------------------------------------------

    def after_rank(self, kind: str) -> None:
        rank = _AFTER[kind]
        if rank < self.after:
            self.bad(
                f"{kind} comes too late (after the match: MatchFinished, reveals, DealRevealed, "
                "SeedRevealed)"
            )
        self.after = max(self.after, rank)

    def _MatchFinished(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        if self.finished:
            self.bad("MatchFinished appears again")
        elif self.last_type != "StepResolved":
            self.bad("MatchFinished must follow the last StepResolved")
        if not isinstance(data["result"], dict):
            self.bad("MatchFinished.result must be an object")
        self.finished = True
        self.after_rank("MatchFinished")

    def _DealRevealed(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        number = data["step"]
        if not self.finished:
            self.bad(f"the private deal of step {number} is revealed before the match ends")
        self.after_rank("DealRevealed")
        step = self.steps.get(number) if isinstance(number, int) else None
        if step is None or step.deal_source == "none" or number <= self.deal_step:
            self.bad(
                f"DealRevealed for step {number!r}, which dealt nothing or was revealed already"
            )
        if not isinstance(data["private"], dict):
            self.bad("DealRevealed.private must be an object")
        self.deal_step = max(self.deal_step, number if isinstance(number, int) else 0)

    def _SeedRevealed(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        if not self.finished:
            self.bad("the seed is revealed before the match ends")
        self.after_rank("SeedRevealed")
        value = data["seed"]
        if not isinstance(value, str) or not _HEX64.fullmatch(value):
            self.v.fail("seed", self.seq, "SeedRevealed.seed is not 64 lowercase hex digits")
        elif self.seed_hash is not None and seed_hash(bytes.fromhex(value)) != self.seed_hash:
            self.v.fail(
                "seed", self.seq, "the revealed seed does not hash to the committed seed_hash"
            )
        else:
            self.seed_ok = True

    # -- the end of the log -----------------------------------------------------------

    def end(self) -> None:
        v, n = self.v, self.seq + 1
        if n < 2:  # noqa: PLR2004 - MatchCreated and SeedCommitted
            v.fail("structure", n, "the log must start with MatchCreated and SeedCommitted")
        if self.disclosure is Disclosure.AT_END:
            for step in self.steps.values():
                for player, (_, seq) in step.commitments.items():
                    if player in step.defaults or player in step.revealed:
                        continue
                    if self.finished:
                        v.fail(
                            "commitments",
                            seq,
                            f"{player}'s commitment in step {step.number} was never revealed",
                        )
                    else:
                        v.pend("commitments", "this game reveals picks when the match ends")
        if not self.seed_ok:
            if self.finished:
                v.fail("seed", n, "the match finished but the seed was never revealed")
            else:
                v.pend("seed", "the seed is revealed when the match ends")
        v.summary(
            "structure",
            f"{n} events in protocol order, {len(self.steps)} step(s)"
            + (", finished" if self.finished else ", under way"),
        )
        v.summary(
            "commitments",
            f"{len(self.used)} distinct commitment(s); {self.reveals} reveal(s) open them",
        )
        v.summary("seed", "the revealed seed matches the committed seed hash")
        v.summary(
            "signatures",
            f"{self.signed} submission(s) signed by their players"
            if self.keys
            else "no player registered a key",
        )


def _is_key(value: Any) -> bool:
    try:
        return isinstance(value, str) and len(base64.b64decode(value, validate=True)) == 32  # noqa: PLR2004
    except (binascii.Error, ValueError):
        return False


# ---------------------------------------------------------------------------
# deals and outcomes: the rules replay
# ---------------------------------------------------------------------------


def _replay(v: BundleVerifier) -> None:
    try:
        ctx = ReplayContext.from_records(v.records)
    except ReplayError as exc:
        for check in (DEALS, OUTCOMES):
            v.fail(check, 0, f"the match cannot be replayed: {exc}")
        return
    if ctx.rules.version != ctx.rules_version:
        for check in (DEALS, OUTCOMES):
            v.fail(
                check,
                0,
                f"the match used {ctx.game} rules version {ctx.rules_version}; this verifier has "
                f"version {ctx.rules.version}",
            )
        return
    counts = {DEALS: 0, OUTCOMES: 0}

    def report(
        check: str, seq: int, message: str, *, pending: bool = False, unchecked: bool = False
    ) -> None:
        if unchecked:
            if check in v.tallies:
                v.tallies[check].unchecked = f"{message} (seq {seq})"
        elif pending:
            v.pend(check, message)
        else:
            v.fail(check, seq, message)

    frame = initial_frame()
    for record in v.records:
        kind = record.get("type")
        if kind == "StepOpened" and record.get("data", {}).get("deal_source") != "none":
            counts[DEALS] += 1
        elif kind == "StepResolved":
            counts[OUTCOMES] += 1
        frame = advance(ctx, frame, record, report)
        v.tick()
    finish(ctx, frame, report)
    v.summary(
        DEALS,
        f"{counts[DEALS]} deal(s) recomputed or checked"
        if counts[DEALS]
        else "no step dealt anything",
    )
    v.summary(
        OUTCOMES,
        f"{counts[OUTCOMES]} step(s) replayed through the {ctx.game} rules; every outcome follows",
    )


# ---------------------------------------------------------------------------
# receipts
# ---------------------------------------------------------------------------


def _check_receipts(v: BundleVerifier) -> None:
    """Check each receipt, then where the bundle departs from what the receipts prove.

    A receipt proves the hashes of its leaf and of the sibling subtrees on its path, and the
    root at its size. Each of them that the bundle reproduces marks a range of records as
    unchanged; each that it does not marks a range that holds a change. The first bad record
    of a failing receipt is the start of its leftmost changed range, moved past every range
    some receipt shows unchanged.
    """
    receipts = [*v.header_receipts, *v.extra_receipts]
    merkle = v.merkle
    if merkle is None:  # pragma: no cover - receipts always bring the merkle part
        return
    log, n = merkle.log, len(merkle.log)
    key = v.trusted or verifier_key(v.public_key)
    good: list[tuple[int, int]] = []
    bad: list[tuple[int, int, int, str]] = []  # (lo, hi, receipt, message)
    checked = 0
    for i, receipt in enumerate(receipts):
        try:
            ok = verify_receipt(receipt, trusted_key=key)
        except (ReceiptError, BundleError) as exc:
            seq = receipt.get("leaf_index") if isinstance(receipt, dict) else None
            v.fail(
                "receipts",
                seq if isinstance(seq, int) else None,
                f"receipt {i} does not verify: {exc}",
            )
            continue
        if ok.match_id != v.match_id:
            v.fail("receipts", None, f"receipt {i} is for match {ok.match_id}, not this one")
            continue
        index, size = ok.leaf_index, ok.checkpoint.size
        if size > n:
            bad.append(
                (
                    n,
                    size,
                    i,
                    f"receipt {i} covers {size} records; the bundle holds {n}: records were cut "
                    "off",
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
                        f"records {lo}..{hi - 1} are not the ones receipt {i}'s proof covers: the "
                        "log was rewritten",
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
        v.fail("receipts", first, message, (first, last))
    v.summary(
        "receipts",
        f"{checked} receipt(s) verified against the log" if receipts else "no receipts to check",
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


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------


def progress_reporter(
    records: int, stream: TextIO | None = None
) -> Callable[[int, int], None] | None:
    """A ``progress`` callback for :func:`verify_bundle` that writes to ``stream`` (stderr).

    On a terminal, a bundle of at least :data:`PROGRESS_EVERY` records gets one line
    rewritten in place and cleared at the end; off a terminal, a bundle of at least
    :data:`PROGRESS_LARGE` records gets a line at every tenth of the work. Otherwise there
    is nothing to report (``None``): a small bundle is checked before anyone would wait.

    >>> import io
    >>> stream = io.StringIO()
    >>> report = progress_reporter(100_000, stream)
    >>> for done in (50_000, 52_000, 100_000, 200_000):
    ...     report(done, 200_000)
    >>> print(stream.getvalue(), end="")
    verifying 100,000 records: 25%
    verifying 100,000 records: 50%
    verifying 100,000 records: 100%
    >>> progress_reporter(10, io.StringIO()) is None
    True
    """
    out = sys.stderr if stream is None else stream
    terminal = bool(getattr(out, "isatty", lambda: False)())
    if records < (PROGRESS_EVERY if terminal else PROGRESS_LARGE):
        return None
    shown = [-1]

    def report(done: int, total: int) -> None:
        percent = 100 * done // max(total, 1)
        if terminal:
            end = done >= total
            text = "" if end else f"verifying {records:,} records: {percent}%"
            out.write(f"\r\x1b[K{text}")
        elif percent // 10 > shown[0]:
            shown[0] = percent // 10
            out.write(f"verifying {records:,} records: {percent}%\n")
        out.flush()

    return report


def _one_line(text: str) -> str:
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def main(argv: Sequence[str] | None = None, *, error_prefix: str = "error: ") -> int:
    """Verify a bundle file; print the verdict; return 0 (ok), 1 (a check failed) or 2.

    A file that cannot be read is one line on standard error, ``error_prefix`` first.
    """
    parser = argparse.ArgumentParser(
        prog="python -m replay.verify", description="Verify a dealerroom match bundle offline."
    )
    parser.add_argument("bundle", help="the bundle file (-: standard input)")
    parser.add_argument("--trusted-key", help="the log's verifier key, pinned")
    parser.add_argument(
        "--receipt", action="append", default=[], help="a receipt file (repeatable)"
    )
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
    parser.add_argument(
        "--no-progress", action="store_true", help="never report progress on stderr"
    )
    args = parser.parse_args(argv)
    try:
        trusted = None if args.trusted_key is None else verifier_key(args.trusted_key, "--trusted-key")
        bundle = load_bundle(read_limited(args.bundle, BUNDLE_LIMIT, "bundle"))
        receipts = [load_json_file(path, SMALL_LIMIT, "receipt") for path in args.receipt]
        progress = None if args.no_progress else progress_reporter(len(bundle["records"]))
        verdict = verify_bundle(bundle, trusted_key=trusted, receipts=receipts, progress=progress)
    except ValueError as exc:  # InputError, BundleError: one line
        print(f"{error_prefix}{_one_line(str(exc))}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(verdict.to_json(), indent=1, ensure_ascii=False))
    else:
        print(verdict)
    return 0 if verdict.ok else 1


__all__ = [
    "CHECKS",
    "BundleVerifier",
    "Check",
    "Verdict",
    "Visitor",
    "main",
    "progress_reporter",
    "verify_bundle",
    "walk",
]

if __name__ == "__main__":
    sys.exit(main())
