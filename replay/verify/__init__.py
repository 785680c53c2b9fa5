"""The offline verifier: checks a match bundle without the database, the service or a network.

A verifier is a visitor, modelled on python-chess's ``BaseVisitor``: :func:`walk` calls
``begin(header)``, then ``visit(record)`` for every record in order, then ``end()``, and
returns ``result()``. Each check is a small visitor of its own (a module of this package)
with its own verdict; :class:`BundleVerifier` composes them over one walk, folding each
record into the public-record model (:class:`domain.public_log.PublicLog`) that the checks
read, and returns a :class:`Verdict`: one :class:`Check` per question, each ``pass``,
``fail`` or ``pending`` with a one-line detail and, when it fails, the first record that
is wrong (``first_bad_seq``).

The checks (``docs/protocol-bundles.md`` section 4), one module each:

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

Run it as ``dealerroom verify BUNDLE [--trusted-key KEY] [--receipt FILE]... [--json]``;
the exit status is 0 when the verdict is ok, 1 when a check failed, 2 when the bundle
cannot be read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from replay.bundle import check_bundle, verifier_key
from replay.state import DEALS, OUTCOMES
from replay.verify.commitments import CommitmentsCheck
from replay.verify.merkle import MerkleCheck
from replay.verify.progress import PROGRESS_EVERY, PROGRESS_LARGE, progress_reporter
from replay.verify.receipts import ReceiptsCheck
from replay.verify.rules import RulesCheck
from replay.verify.seed import SeedCheck
from replay.verify.signature import SignatureCheck
from replay.verify.signatures import SignaturesCheck
from replay.verify.structure import FIELDS, StructureCheck
from replay.verify.verdict import CHECKS, FAIL, PASS, PENDING, VERDICT_FORMAT, Check, Verdict
from replay.verify.visitor import CheckVisitor, Shared, Visitor, walk

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

    from domain.signed_note import Verifier

_FIELDS = FIELDS  # the name the protocol tests know


class BundleVerifier(Visitor[Verdict]):
    """Checks a bundle; ``result()`` is the :class:`Verdict`.

    ``trusted_key`` (a verifier key pinned by the caller) must have signed every checkpoint
    and receipt; ``receipts`` adds receipts held outside the bundle; ``checks`` selects which
    checks run (default: all); ``progress(done, total)`` is called every few thousand
    records of work, where ``total`` counts each record once per pass over the log (two
    passes when deals or outcomes are checked).

    The checks are composed visitors (:class:`~replay.verify.visitor.CheckVisitor`), each
    with its own verdict; this one drives them over one walk and folds each record into
    the public-record model they share once all of them have seen it.
    """

    def __init__(
        self,
        *,
        trusted_key: Verifier | str | None = None,
        receipts: Iterable[Mapping[str, Any]] = (),
        checks: Iterable[str] = CHECKS,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        """Set up the checks named in ``checks``, the key to trust and the extra receipts."""
        wanted = tuple(checks)
        unknown = sorted(set(wanted) - set(CHECKS))
        if unknown:
            msg = f"unknown check(s) {', '.join(unknown)}; the checks are {', '.join(CHECKS)}"
            raise ValueError(msg)
        self.wanted = tuple(c for c in CHECKS if c in wanted)
        self.trusted = None if trusted_key is None else verifier_key(trusted_key)
        self.shared = Shared(trusted=self.trusted, extra_receipts=list(receipts), tick=self.tick)
        self.progress = progress
        self.visitors: list[CheckVisitor] = []
        self.match_id = ""
        self.public_key = ""
        self.size = 0
        self.done = 0
        self.total = 0
        self._visits: list[Callable[[Mapping[str, Any]], None]] = []
        self._fold: Callable[[Mapping[str, Any]], None] | None = None

    @property
    def records(self) -> list[Mapping[str, Any]]:
        """The records visited so far."""
        return self.shared.records

    def begin(self, header: Mapping[str, Any]) -> None:
        """Read the header and set up the checks that were asked for."""
        self.match_id = str(header.get("match_id"))
        self.size = int(header.get("size", 0))
        self.public_key = str(header.get("public_key"))
        self.shared.header = header
        want = set(self.wanted)
        shared = self.shared
        if want & {"merkle", "receipts"}:
            merkle = MerkleCheck(shared)
            self.visitors.append(merkle)
            if "receipts" in want:
                self.visitors.append(ReceiptsCheck(shared, merkle))
        for names, make in (
            ({"structure"}, StructureCheck),
            ({"commitments"}, CommitmentsCheck),
            ({"seed"}, SeedCheck),
            ({"signatures"}, SignaturesCheck),
            ({"signature"}, SignatureCheck),
            ({DEALS, OUTCOMES}, RulesCheck),
        ):
            if want & names:
                self.visitors.append(make(shared))
        for visitor in self.visitors:
            visitor.begin(header)
        replaying = bool(want & {DEALS, OUTCOMES})
        self.total = self.size * (2 if replaying else 1)
        self._visits = [v.visit for v in self.visitors if v.per_record]
        if any(v.needs_log for v in self.visitors):
            self._fold = shared.log.apply

    def visit(self, record: Mapping[str, Any]) -> None:
        """Show the record to every check, then fold it into the shared model."""
        self.shared.records.append(record)
        for visit in self._visits:
            visit(record)
        if self._fold is not None:
            self._fold(record)
        self.tick()

    def tick(self) -> None:
        """Count one record of work; report progress every few thousand."""
        self.done += 1
        if self.progress is not None and (self.done % PROGRESS_EVERY == 0):
            self.progress(self.done, self.total)

    def end(self) -> None:
        """Finish every check (the rules replay and the receipts run here)."""
        for visitor in self.visitors:
            visitor.end()
        if self.progress is not None:
            self.progress(self.total, self.total)

    def result(self) -> Verdict:
        """The verdict: each asked-for check's, in the order of :data:`CHECKS`."""
        found = {check.name: check for v in self.visitors for check in v.result()}
        return Verdict(
            self.match_id,
            len(self.records),
            tuple(found[name] for name in self.wanted),
            self.trusted.vkey() if self.trusted is not None else self.public_key,
            self.trusted is not None,
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


__all__ = [
    "CHECKS",
    "FAIL",
    "PASS",
    "PENDING",
    "PROGRESS_EVERY",
    "PROGRESS_LARGE",
    "VERDICT_FORMAT",
    "BundleVerifier",
    "Check",
    "CheckVisitor",
    "Verdict",
    "Visitor",
    "progress_reporter",
    "verify_bundle",
    "walk",
]
