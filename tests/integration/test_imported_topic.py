"""A store written before ``ImportedMatch`` moved to ``domain.imported`` still loads.

Until issue 15 the class lived in ``service.archive``, so its stored events name the topic
``service.archive:ImportedMatch.<Event>`` (and the creation event's ``originator_topic``).
The test writes such a store (an import, with the old topics put back in the rows and the
read model emptied so it projects them again) and reads it with the service of today.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

from eventsourcing.utils import resolve_topic

from domain.imported import LEGACY_TOPIC, ImportedMatch
from replay.bundle import load_bundle
from service.bootstrap import bootstrap
from service.config import Settings
from web.extension import replay_bundles

if TYPE_CHECKING:
    from service.bootstrap import Services

REPO = Path(__file__).resolve().parents[2]
BUNDLE = REPO / "fixtures" / "bundles" / "six-nimmt-classic.bundle.json"
NEW = "domain.imported:ImportedMatch"


def _open(instance: Path) -> Services:
    settings = Settings.load({"DEALERROOM_INSTANCE": str(instance)})
    return bootstrap(settings, bundles=replay_bundles())


def _write_as_before_the_move(database: Path) -> int:
    """Rename the stored topics as the code before the move wrote them; forget projections."""
    with sqlite3.connect(database) as conn:
        rows = conn.execute("SELECT id, topic, state FROM dealerroom_events").fetchall()
        renamed = 0
        for row_id, topic, state in rows:
            if topic.startswith(NEW):
                old_topic = LEGACY_TOPIC + topic.removeprefix(NEW)
                old_state = bytes(state).replace(NEW.encode(), LEGACY_TOPIC.encode())
                conn.execute(
                    "UPDATE dealerroom_events SET topic = ?, state = ? WHERE id = ?",
                    (old_topic, old_state, row_id),
                )
                renamed += 1
        for table in ("match_index", "imports", "readmodel_tracking"):
            conn.execute(f"DELETE FROM dealerroom_{table}")  # noqa: S608 - fixed names
    return renamed


def test_the_old_topic_names_the_moved_class() -> None:
    assert resolve_topic(LEGACY_TOPIC) is ImportedMatch
    assert resolve_topic(f"{LEGACY_TOPIC}.Imported") is ImportedMatch.Imported
    assert resolve_topic(f"{LEGACY_TOPIC}.Extended") is ImportedMatch.Extended


def test_an_import_stored_under_the_old_topic_is_read_listed_exported_and_extended(
    tmp_path: Path,
) -> None:
    instance = tmp_path / "instance"
    bundle: dict[str, Any] = load_bundle(BUNDLE.read_bytes())
    mid = bundle["match_id"]
    # 1. An import, then its rows as the code before the move stored them.
    early = {**bundle, "records": bundle["records"][: bundle["checkpoints"][0]["size"]],
             "checkpoints": bundle["checkpoints"][:1], "receipts": []}  # fmt: skip
    first = _open(instance)
    try:
        assert first.archive.import_bundle(early).action == "imported"
    finally:
        first.close()
    assert _write_as_before_the_move(instance / "dealerroom.sqlite3") == 1
    # 2. Today's service reads it: the aggregate, its records, the list, the status.
    again = _open(instance)
    try:
        room = again.room
        imported = room.imported(mid)
        assert isinstance(imported, ImportedMatch)
        assert room.records(mid) == early["records"]
        (listed,) = [m for m in room.matches() if m["match_id"] == mid]
        assert listed["imported"]
        assert listed["events"] == len(early["records"])
        assert room.status(mid)["imported"]["public_key"] == bundle["public_key"]
        assert again.archive.export_bundle(mid) == early
        # 3. Importing it again changes nothing; the whole bundle extends it (a new event).
        assert again.archive.import_bundle(early).action == "unchanged"
        assert again.archive.import_bundle(bundle).action == "extended"
        assert again.archive.export_bundle(mid) == bundle
        (listed,) = [m for m in room.matches() if m["match_id"] == mid]
        assert listed["events"] == len(bundle["records"])
    finally:
        again.close()
