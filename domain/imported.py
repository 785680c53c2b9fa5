"""Another host's match, imported as a verified bundle: a read-only aggregate.

An :class:`ImportedMatch` keeps a bundle that the offline verifier passed as one event
holding the bundle's canonical text, so it is stored like every other event (SQLite or
PostgreSQL) and projected into the match list marked as imported. The checkpoints stay the
foreign host's, signed with its key; this service never signs an imported log.

Importing the identical bundle again changes nothing. A bundle that *extends* the imported
one (:func:`extension_problem`: same origin, rules and key; the imported records as a
prefix; every imported checkpoint and receipt kept) replaces it with a second event, so a
match imported while under way can be brought up to date. The use cases that verify and
keep bundles are :class:`service.archive.Archive`.

Leaves and canonical text come from :mod:`domain` (the same code the offline verifier
uses), so the service and a reviewer's verifier agree on every byte.

Until issue 15 these classes lived in ``service.archive``: events stored before then name
:data:`LEGACY_TOPIC`, which the service registers for :class:`ImportedMatch`.
"""

from __future__ import annotations

import base64
import json
from dataclasses import field
from typing import TYPE_CHECKING, Any

from eventsourcing.domain import Aggregate

from domain.canonical import canonical_json
from domain.errors import Conflict, UserError
from domain.match import MatchError, actor
from domain.merkle import MerkleLog, record_leaf_hash
from domain.public_log import PublicLog
from domain.receipt import CONSISTENCY_FORMAT

if TYPE_CHECKING:
    from collections.abc import Mapping
    from datetime import datetime
    from uuid import UUID

LEGACY_TOPIC = "service.archive:ImportedMatch"
"""Where :class:`ImportedMatch` lived before issue 15; events stored then name it."""

IMPORT_TOPICS = ("domain.imported:ImportedMatch.", f"{LEGACY_TOPIC}.")
"""The notification topics of :class:`ImportedMatch` events start with one of these."""


class ArchiveError(UserError):
    """A bundle that cannot be imported here, with the reason."""


class ImportConflict(ArchiveError, Conflict):
    """The match id is taken: by a match of this service, or by another imported log."""


class ImportedMatchError(MatchError):
    """A command was given for an imported match, which is a read-only record."""


class ImportedMatch(Aggregate):
    """Another host's match, imported as a verified bundle: read-only, never re-signed.

    The aggregate id is the match id, so an imported match and a match of this service can
    never share one.
    """

    class Event(Aggregate.Event):
        """Base of import events: records who acted."""

        actor: str = field(default_factory=actor.get, init=False)

    class BundleKept(Event):
        """Base of the events that keep a verified bundle.

        ``bundle`` is its RFC 8785 canonical text; ``summary`` what the match list shows
        (derived from the bundle by :func:`summarize`); ``verdict`` the verifier's verdict
        at import; ``trusted_key`` the key the importer pinned, if any.
        """

        bundle: str
        summary: dict[str, Any]
        verdict: dict[str, Any]
        trusted_key: str | None

        def apply(self, aggregate: ImportedMatch) -> None:
            """Keep the bundle (replacing the one kept before)."""
            aggregate.text = self.bundle
            aggregate.summary = dict(self.summary)
            aggregate.verdict = dict(self.verdict)
            # An extension keeps the imported key (extension_problem), so a pin still holds.
            aggregate.trusted_key = self.trusted_key or aggregate.trusted_key

    class Imported(BundleKept, Aggregate.Created):
        """A verified bundle was imported."""

    class Extended(BundleKept):
        """A verified bundle extending the imported one replaced it."""

    text: str
    summary: dict[str, Any]
    verdict: dict[str, Any]

    def __init__(self, **kwargs: Any) -> None:  # called by Imported on replay
        """Start with no pinned key; the ``Imported`` event sets the rest."""
        del kwargs
        self.trusted_key: str | None = None  # the key the importer pinned, if any

    @classmethod
    def create(
        cls,
        match_id: UUID,
        text: str,
        verdict: dict[str, Any],
        trusted_key: str | None,
        at: datetime,
    ) -> ImportedMatch:
        """Import a verified bundle given as its canonical text."""
        bundle = json.loads(text)
        imported: ImportedMatch = cls._create(
            cls.Imported,
            id=match_id,
            timestamp=at,
            bundle=text,
            summary=summarize(bundle),
            verdict=dict(verdict),
            trusted_key=trusted_key,
        )
        return imported

    def extend(
        self, text: str, verdict: dict[str, Any], trusted_key: str | None, at: datetime
    ) -> None:
        """Replace the bundle by a verified one that extends it (see :func:`extension_problem`)."""
        self.trigger_event(
            self.Extended,
            timestamp=at,
            bundle=text,
            summary=summarize(json.loads(text)),
            verdict=dict(verdict),
            trusted_key=trusted_key,
        )

    # -- reading ----------------------------------------------------------------------

    def bundle(self) -> dict[str, Any]:
        """A fresh copy of the imported bundle."""
        return json.loads(self.text)  # type: ignore[no-any-return]

    def records(self) -> list[dict[str, Any]]:
        """The imported public records."""
        return self.bundle()["records"]  # type: ignore[no-any-return]

    def public_view(self) -> dict[str, Any]:
        """The public view the imported log last recorded (``StepResolved`` or ``StepOpened``).

        The state at any event, replayed through the rules, is :mod:`replay`'s business
        (the timeline page reads it from there).
        """
        for record in reversed(self.records()):
            view = record["data"].get("view")
            if record["type"] in ("StepResolved", "StepOpened") and isinstance(view, dict):
                return dict(view)
        return {}

    @property
    def public_key(self) -> str:
        """The foreign host's verifier key, which signed every imported checkpoint."""
        return str(self.summary["public_key"])

    def checkpoint(self, size: int | None = None) -> dict[str, Any]:
        """The foreign host's signed checkpoint at ``size`` (default: the latest).

        :raises ArchiveError: if the bundle holds no checkpoint of that size.
        """
        checkpoints = self.bundle()["checkpoints"]
        if size is None:
            return dict(checkpoints[-1])
        for checkpoint in checkpoints:
            if checkpoint["size"] == size:
                return dict(checkpoint)
        msg = f"the imported bundle of match {self.id} has no checkpoint at size {size}"
        raise ArchiveError(msg)

    def consistency(self, old_size: int, new_size: int | None = None) -> dict[str, Any]:
        """A foreign checkpoint and the proof that it extends the log at ``old_size``.

        :raises ArchiveError: unless ``0 < old_size <= new_size`` and the bundle holds a
            checkpoint at ``new_size`` (default: its latest).
        """
        later = self.checkpoint(new_size)
        if not 0 < old_size <= later["size"]:
            msg = (
                f"a consistency proof needs 0 < old size <= new size (got {old_size}, "
                f"{later['size']})"
            )
            raise ArchiveError(msg)
        log = MerkleLog()
        for record in self.records()[: later["size"]]:
            log.append(record_leaf_hash(record))
        proof = log.consistency_proof(old_size, later["size"])
        return {
            "format": CONSISTENCY_FORMAT,
            "match_id": str(self.id),
            "old_size": old_size,
            "checkpoint": later["note"],
            "consistency_proof": [base64.b64encode(h).decode() for h in proof],
        }


# ---------------------------------------------------------------------------
# Summaries and extension
# ---------------------------------------------------------------------------


def summarize(bundle: Mapping[str, Any]) -> dict[str, Any]:
    """What the match list shows of a (verified) bundle.

    The status and step follow the log as the service's own match index does; times are
    the records' own (the foreign host's clock).

    >>> summarize({"origin": "h.example/match/00000000-0000-4000-8000-000000000001",
    ...   "rules": {"game": "vote", "version": "1"}, "public_key": "k",
    ...   "records": [{"seq": 0, "type": "MatchCreated", "at": "T0", "data": {"players": ["a"]}},
    ...               {"seq": 1, "type": "StepOpened", "at": "T1", "data": {"step": 1}}]})
    ... # doctest: +NORMALIZE_WHITESPACE
    {'match_id': '00000000-0000-4000-8000-000000000001', 'host': 'h.example',
     'origin': 'h.example/match/00000000-0000-4000-8000-000000000001', 'public_key': 'k',
     'game': 'vote', 'rules_version': '1', 'players': ['a'], 'status': 'open', 'step': 1,
     'events': 2, 'created_at': 'T0', 'last_activity': 'T1'}
    """
    records = bundle["records"]
    host, _, match_id = bundle["origin"].rpartition("/match/")  # checked by the verifier
    log = PublicLog.of(records)
    step = log.current.number if log.current is not None else 0
    return {
        "match_id": match_id,
        "host": host,
        "origin": bundle["origin"],
        "public_key": bundle["public_key"],
        "game": bundle["rules"]["game"],
        "rules_version": bundle["rules"]["version"],
        "players": list(records[0]["data"]["players"]),
        "status": str(log.status),
        "step": step,
        "events": len(records),
        "created_at": records[0]["at"],
        "last_activity": records[-1]["at"],
    }


def extension_problem(old: Mapping[str, Any], new: Mapping[str, Any]) -> str | None:
    """Why ``new`` does not extend the imported bundle ``old`` (``None`` when it does).

    ``new`` extends ``old`` when it names the same origin, rules and key, holds ``old``'s
    records as a prefix, keeps every checkpoint and receipt of ``old`` (so replacing loses
    no signed evidence) and adds something.
    """
    for name in ("origin", "rules", "public_key"):
        if new[name] != old[name]:
            return f"it names another {name.replace('_', ' ')} than the imported bundle"
    ours, theirs = old["records"], new["records"]
    for seq, (a, b) in enumerate(zip(ours, theirs, strict=False)):
        if a != b:
            return f"record {seq} differs from the imported one"
    if len(theirs) < len(ours):
        return (
            f"the imported bundle holds {len(ours)} records; this one holds only "
            f"{len(theirs)} of them"
        )
    kept = {(c["size"], c["note"]) for c in new["checkpoints"]}
    for checkpoint in old["checkpoints"]:
        if (checkpoint["size"], checkpoint["note"]) not in kept:
            return f"it leaves out the imported checkpoint of size {checkpoint['size']}"
    receipts = {canonical_json(r) for r in new["receipts"]}
    for i, receipt in enumerate(old["receipts"]):
        if canonical_json(receipt) not in receipts:
            return f"it leaves out imported receipt {i}"
    return None


__all__ = [
    "IMPORT_TOPICS",
    "LEGACY_TOPIC",
    "ArchiveError",
    "ImportConflict",
    "ImportedMatch",
    "ImportedMatchError",
    "extension_problem",
    "summarize",
]
