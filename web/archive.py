"""Bundles in and out of this instance: the bundle format and the offline verifier
(:mod:`replay`) joined with the service's storage (:mod:`service.archive`).

``ARCHITECTURE.md`` lets only the web layer, the composition root of pages, API and CLI,
combine :mod:`replay` with :mod:`service`, so the two use cases live here:

* :func:`export_bundle`: a match's ``dealerroom/bundle/v1`` bundle (every record, every
  checkpoint the service signed, its key, the rules, no receipts); an imported match's
  bundle exactly as imported;
* :func:`import_bundle`: verify another host's bundle with the offline verifier and, only if
  no check failed, keep it read-only (``service.archive.keep_bundle``; the semantics of
  re-imports and extensions are in :mod:`service.archive`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from replay.bundle import build_bundle, check_bundle, verifier_key
from replay.verify import verify_bundle
from service.archive import ArchiveError, find_imported, keep_bundle, stored_log

if TYPE_CHECKING:
    from collections.abc import Callable

    from domain.signed_note import Verifier
    from replay.verify import Verdict
    from service.application import DealerRoom


class BundleRefused(ArchiveError):
    """The verifier failed a check of the bundle; ``verdict`` says which and where."""

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict
        failed = verdict.failed()
        first = failed[0]
        where = "" if first.first_bad_seq is None else f" at seq {first.first_bad_seq}"
        others = ", ".join(
            c.name + ("" if c.first_bad_seq is None else f" (seq {c.first_bad_seq})")
            for c in failed[1:]
        )
        also = f"; also failed: {others}" if others else ""
        super().__init__(
            f"the {first.name} check failed{where}: {first.detail}{also}; nothing was imported"
        )
        self.check = first.name
        self.first_bad_seq = first.first_bad_seq


@dataclass(frozen=True)
class ImportResult:
    """What :func:`import_bundle` did: ``action`` is imported, extended or unchanged."""

    match_id: str
    action: str
    records: int
    previous_records: int
    verdict: Verdict

    def to_json(self) -> dict[str, Any]:
        """The result as JSON (the verdict in its ``dealerroom/verdict/v1`` form)."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        return {**values, "verdict": self.verdict.to_json()}


def export_bundle(room: DealerRoom, match_id: str) -> dict[str, Any]:
    """The bundle of a match of this service, or of an imported match as imported.

    :raises NotFound: for an unknown or malformed id.
    """
    imported = find_imported(room, match_id)
    if imported is not None:
        return imported.bundle()
    records, checkpoints = stored_log(room, match_id)
    return build_bundle(records, checkpoints, room.public_key())


def import_bundle(
    room: DealerRoom,
    bundle: Any,
    *,
    trusted_key: Verifier | str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ImportResult:
    """Verify a bundle and keep it as an imported match.

    ``trusted_key`` pins the foreign host's key (every checkpoint and receipt must be
    signed with it); ``progress(done, total)`` receives the verifier's progress.

    :raises BundleError: if ``bundle`` does not have the bundle's shape.
    :raises BundleRefused: if a check of the verifier fails (nothing is written).
    :raises ImportConflict: if the match id is a match of this service, or an imported
        match that this bundle does not extend (nothing is written).
    """
    check_bundle(bundle)
    verdict = verify_bundle(bundle, trusted_key=trusted_key, progress=progress)
    if not verdict.ok:
        raise BundleRefused(verdict)
    pinned = None if trusted_key is None else verifier_key(trusted_key).vkey()
    kept = keep_bundle(room, bundle, verdict.to_json(), trusted_key=pinned)
    return ImportResult(kept.match_id, kept.action, kept.records, kept.previous_records, verdict)
