"""Bundles in and out of the service: the import and export use cases (:class:`Archive`).

**Export** (:meth:`Archive.export_bundle`): a match of this service becomes a
self-contained ``dealerroom/bundle/v1`` bundle (``docs/protocol-bundles.md``): all its
public records, every signed checkpoint the service stored (one per tree size), the
service's verifier key, the rules and no receipts. An imported match exports exactly the
bundle imported.

**Import** (:meth:`Archive.import_bundle`): a bundle is first checked by the offline
verifier and refused, with nothing written, if any check fails; a bundle whose checks are
only *pending* (a match still under way) is accepted. A verified bundle is kept as an
:class:`~domain.imported.ImportedMatch` (read-only, never re-signed). Importing the
identical bundle again changes nothing; a bundle that extends the imported one replaces
it (:func:`~domain.imported.extension_problem`); any other bundle for the same match id
is refused, as is one whose id is a match of this service.

The bundle format and the verifier are :mod:`replay`'s, which the service does not import
(``ARCHITECTURE.md``): the composition root (:func:`service.bootstrap.bootstrap`) passes
them in as a :class:`BundleFormat`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Protocol
from uuid import UUID

from eventsourcing.persistence import IntegrityError, OperationalError

from domain.canonical import canonical_json
from domain.imported import (
    ArchiveError,
    ImportConflict,
    ImportedMatch,
    ImportedMatchError,
    extension_problem,
)
from domain.match import Match, actor
from domain.public_log import PublicLog

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from domain.signed_note import Verifier
    from service.application import DealerRoom

IMPORTER = "host"
"""The actor recorded on import events: the operator of this service."""


class CheckLike(Protocol):
    """One check of a verdict (``replay.verify.Check``)."""

    @property
    def name(self) -> str:
        """The check's name."""

    @property
    def status(self) -> str:
        """``pass``, ``fail`` or ``pending``."""

    @property
    def detail(self) -> str:
        """What it found."""

    @property
    def first_bad_seq(self) -> int | None:
        """The first record that is (or may be) wrong."""


class VerdictLike(Protocol):
    """The offline verifier's verdict on a bundle (``replay.verify.Verdict``)."""

    @property
    def ok(self) -> bool:
        """Whether no check failed."""

    @property
    def checks(self) -> Sequence[CheckLike]:
        """Every check, in order."""

    @property
    def pinned(self) -> bool:
        """Whether the caller pinned the key."""

    @property
    def public_key(self) -> str:
        """The log's verifier key."""

    def failed(self) -> Sequence[CheckLike]:
        """The checks that failed."""

    def to_json(self) -> dict[str, Any]:
        """The ``dealerroom/verdict/v1`` JSON."""


class Verify(Protocol):
    """``replay.verify.verify_bundle``: the offline verifier."""

    def __call__(
        self,
        bundle: Any,
        *,
        trusted_key: Verifier | str | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> VerdictLike:
        """The verdict on ``bundle``."""


@dataclass(frozen=True)
class BundleFormat:
    """The bundle format and the offline verifier (:mod:`replay`), as the root passes them.

    ``check`` raises a :class:`~domain.errors.UserError` for something not shaped like a
    bundle; ``verify`` is the offline verifier; ``build`` makes a bundle of records, signed
    checkpoints and a key; ``key_text`` gives a verifier key's canonical text (and raises a
    ``UserError`` for a malformed one).
    """

    check: Callable[[Any], object]
    verify: Verify
    build: Callable[[list[dict[str, Any]], list[dict[str, Any]], str], dict[str, Any]]
    key_text: Callable[[Verifier | str], str]


class BundleRefused(ArchiveError):
    """The verifier failed a check of the bundle; ``verdict`` says which and where."""

    def __init__(self, verdict: VerdictLike) -> None:
        """Refuse a bundle for the first check its verdict failed."""
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
    """What :meth:`Archive.import_bundle` did: ``action`` is imported, extended or unchanged."""

    match_id: str
    action: str
    records: int
    previous_records: int
    verdict: VerdictLike

    def to_json(self) -> dict[str, Any]:
        """The result as JSON (the verdict in its ``dealerroom/verdict/v1`` form)."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        return {**values, "verdict": self.verdict.to_json()}


class Archive:
    """Bundles in and out of one service: export a match's bundle, import another host's."""

    def __init__(self, room: DealerRoom, bundles: BundleFormat | None) -> None:
        """Import and export over ``room``, with replay's bundle functions (``bundles``)."""
        self.room = room
        self._bundles = bundles

    @property
    def bundles(self) -> BundleFormat:
        """The bundle format and verifier the root passed in.

        :raises RuntimeError: when the service was built without them.
        """
        if self._bundles is None:
            msg = "this service was built without the bundle format: bootstrap(bundles=...)"
            raise RuntimeError(msg)
        return self._bundles

    def export_bundle(self, match_id: str) -> dict[str, Any]:
        """The bundle of a match of this service, or of an imported match as imported.

        :raises NotFound: for an unknown or malformed id.
        """
        imported = self.room.imported(match_id)
        if imported is not None:
            return imported.bundle()
        records, checkpoints = self.stored_log(match_id)
        return self.bundles.build(records, checkpoints, self.room.public_key())

    def import_bundle(
        self,
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
        self.bundles.check(bundle)
        verdict = self.bundles.verify(bundle, trusted_key=trusted_key, progress=progress)
        if not verdict.ok:
            raise BundleRefused(verdict)
        pinned = None if trusted_key is None else self.bundles.key_text(trusted_key)
        kept = self._keep(bundle, verdict.to_json(), pinned)
        return ImportResult(*kept, verdict=verdict)

    def _keep(
        self, bundle: Mapping[str, Any], verdict: Mapping[str, Any], pinned: str | None
    ) -> tuple[str, str, int, int]:
        """Keep a verified bundle: ``(match id, action, records, previous records)``.

        :raises ImportConflict: if the match id is a match of this service, or an imported
            match that this bundle does not extend (nothing is written).
        """
        room = self.room
        text = canonical_json(bundle).decode()
        key = UUID(bundle["match_id"])
        size = len(bundle["records"])
        token = actor.set(IMPORTER)
        try:
            for _ in range(3):  # a concurrent import of the same match: decide again
                existing = room.stored(key)
                if isinstance(existing, Match):
                    msg = (
                        f"match {key} is a match of this service; a bundle cannot replace it "
                        "(nothing was imported)"
                    )
                    raise ImportConflict(msg)
                if existing is None:
                    imported = ImportedMatch.create(key, text, dict(verdict), pinned, room.now())
                    action, before = "imported", 0
                else:
                    imported = existing
                    before = imported.summary["events"]
                    if imported.text == text:
                        return str(key), "unchanged", size, before
                    problem = extension_problem(imported.bundle(), bundle)
                    if problem is not None:
                        msg = (
                            f"match {key} is already imported from another bundle, which this "
                            f"one does not extend: {problem} (nothing was imported)"
                        )
                        raise ImportConflict(msg)
                    imported.extend(text, dict(verdict), pinned, room.now())
                    action = "extended"
                try:
                    room.save(imported)
                except (IntegrityError, OperationalError):
                    continue
                return str(key), action, size, before
            msg = f"match {key} is being imported by someone else right now; try again"
            raise ArchiveError(msg)
        finally:
            actor.reset(token)

    def stored_log(self, match_id: str | UUID) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """A match's public records and every checkpoint the service signed, oldest first.

        The records are exactly those the last checkpoint covers, even if a command lands
        between the two reads (records are append-only).

        :raises NotFound: for an unknown or malformed id.
        """
        key = str(self.room.match_key(match_id))
        self.room.checkpoint(key)  # catches the projection up; NotFound for an unknown match
        checkpoints = self.room.tlog.every_checkpoint(key)
        return self.room.records(key)[: checkpoints[-1]["size"]], checkpoints


def imported_status(imported: ImportedMatch) -> dict[str, Any]:
    """The status of an imported match, from its records (the foreign host's log)."""
    log = PublicLog.of(imported.records())
    return {
        "match_id": imported.summary["match_id"],
        "game": imported.summary["game"],
        "options": dict(log.options),
        "players": list(log.players),
        "custody": dict(log.custody),
        "name": log.name,
        "settings": dict(log.settings),
        "finished": log.finished and log.ended is None,
        "ended": None if log.ended is None else dict(log.ended),
        "result": log.result,
        "step": None,
        "imported": {
            "host": imported.summary["host"],
            "public_key": imported.public_key,
            "pinned": imported.trusted_key is not None,  # else nobody vouched whose key it is
        },
    }


__all__ = [
    "Archive",
    "ArchiveError",
    "BundleFormat",
    "BundleRefused",
    "ImportConflict",
    "ImportResult",
    "ImportedMatchError",
    "imported_status",
]
