"""Bundles in and out of the service, on both stores: export, verified import, extension."""

from __future__ import annotations

import base64
import json
import uuid
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy import create_engine, text

from domain.merkle import verify_consistency
from domain.signed_note import open_checkpoint
from replay.bundle import dump_bundle, export_bundle, load_bundle, play_scenario
from replay.verify import verify_bundle
from service.application import DealerRoom, NotFound
from service.archive import BundleRefused, ImportConflict, ImportedMatchError
from service.config import Settings
from service.demo import DEMOS
from service.simulate import load_scenario, run_scenario
from tests.conftest import PG_URL, SCENARIOS, archive_of
from tests.unit.test_replay_fixtures import BUNDLES, OTHER_KEY, START, TEST_KEY, match_id

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

EVERY_GAME = DEMOS  # a complete match of every game
HONEST = sorted(p for p in BUNDLES.glob("*.bundle.json") if p.name.count(".") == 2)
TAMPERED = sorted(p for p in BUNDLES.glob("*.bundle.json") if p.name.count(".") == 3)


@pytest.fixture
def fresh(backend: str, tmp_path: Path) -> Iterator[DealerRoom]:
    """A second, empty instance on the same kind of store, with keys of its own."""
    env = {"DEALERROOM_INSTANCE": str(tmp_path / "fresh")}
    schema = "t_" + uuid.uuid4().hex[:16]
    engine = None
    if backend == "postgres":
        if not PG_URL:
            pytest.skip("DEALERROOM_TEST_POSTGRES_URL is not set")
        engine = create_engine(PG_URL)
        with engine.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        env |= {"DEALERROOM_DATABASE_URL": PG_URL, "DEALERROOM_DB_SCHEMA": schema}
    app = DealerRoom(Settings.load(env))
    try:
        yield app
    finally:
        app.close()
        if engine is not None:
            with engine.begin() as conn:
                conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
            engine.dispose()


def play(app: DealerRoom, name: str) -> str:
    lines = run_scenario(app, load_scenario(SCENARIOS / f"{name}.json"))
    match = next(lines)["match_id"]
    for _ in lines:
        pass
    return str(match)


def fixture(path: Path) -> dict[str, Any]:
    return load_bundle(path.read_bytes())


def verdict_of(path: Path) -> dict[str, Any]:
    """The fixture's verdict file: ``trusted_key``, ``must_fail``..."""
    return json.loads(path.with_name(path.name.replace(".bundle.", ".verdict.")).read_text())


def written(app: DealerRoom) -> int:
    """How many events the store holds (to show that a refusal wrote nothing)."""
    return app.recorder.max_notification_id() or 0


def assert_refused(app: DealerRoom, bundle: dict[str, Any], message: str) -> None:
    """Importing ``bundle`` is refused (an id conflict) with ``message``; nothing is written."""
    before = written(app)
    with pytest.raises(ImportConflict, match=message):
        archive_of(app).import_bundle(bundle)
    assert written(app) == before


def prefix(bundle: dict[str, Any], checkpoints: int) -> dict[str, Any]:
    """The bundle as its host would have exported it after its first few checkpoints."""
    kept = bundle["checkpoints"][:checkpoints]
    size = kept[-1]["size"]
    return {
        **bundle,
        "records": bundle["records"][:size],
        "checkpoints": kept,
        "receipts": [r for r in bundle["receipts"] if r["tree_size"] <= size],
    }


# ---------------------------------------------------------------------------- export


@pytest.mark.parametrize("name", EVERY_GAME)
def test_export_then_import_into_a_fresh_instance_then_export_gives_the_same_bytes(
    service: DealerRoom, fresh: DealerRoom, name: str
) -> None:
    # 1. Play the match through the service and export it
    match = play(service, name)
    exported = dump_bundle(archive_of(service).export_bundle(match))
    bundle = load_bundle(exported)

    # Check every record and every stored checkpoint is there, signed by the service
    records = service.records(match)
    assert bundle["records"] == records
    sizes = [c["size"] for c in bundle["checkpoints"]]  # one per save, the last covering all
    assert sizes == sorted(set(sizes)) and sizes[0] >= 1 and sizes[-1] == len(records)
    assert sizes == [c["size"] for c in service.tlog.every_checkpoint(match)]
    assert bundle["public_key"] == service.public_key() and bundle["receipts"] == []
    assert bundle["rules"]["game"] == records[0]["data"]["game"]
    verdict = verify_bundle(bundle, trusted_key=service.public_key())
    assert verdict.ok and verdict.complete, str(verdict)

    # 2. Import it into a fresh instance (another host, another key)
    result = archive_of(fresh).import_bundle(bundle, trusted_key=service.public_key())
    assert (result.action, result.records) == ("imported", len(records))

    # 3. Check the fresh instance exports exactly the same bytes
    assert dump_bundle(archive_of(fresh).export_bundle(match)) == exported

    # Check the imported match is listed, marked, and served with its host's key
    (row,) = fresh.matches()
    assert row["match_id"] == match and row["imported"] is True
    assert row["origin"] == bundle["origin"] and row["events"] == len(records)
    assert row["status"] == "finished" and row["game"] == bundle["rules"]["game"]
    assert fresh.records(match) == records
    assert fresh.checkpoint(match) == bundle["checkpoints"][-1]
    assert fresh.public_key(match) == service.public_key() != fresh.public_key()
    assert fresh.public_state(match) == service.public_state(match)


def test_the_service_lists_its_own_matches_as_not_imported(service: DealerRoom) -> None:
    match = play(service, "vote-basic")
    (row,) = service.matches()
    assert row["imported"] is False
    assert row["origin"] == service.records(match)[0]["data"]["origin"]


def test_exporting_an_unknown_match_is_not_found(service: DealerRoom) -> None:
    with pytest.raises(NotFound):
        archive_of(service).export_bundle(str(uuid.uuid4()))
    with pytest.raises(NotFound):
        archive_of(service).export_bundle("nope")


# ---------------------------------------------------------------------------- import


def test_every_honest_fixture_imports_and_its_reexport_verifies(service: DealerRoom) -> None:
    for path in HONEST:
        result = archive_of(service).import_bundle(
            fixture(path), trusted_key=verdict_of(path)["trusted_key"]
        )
        assert result.action == "imported", path.name
        again = archive_of(service).export_bundle(result.match_id)
        assert dump_bundle(again) == path.read_bytes(), path.name
        assert verify_bundle(again, trusted_key=TEST_KEY.verifier().vkey()).ok, path.name
    listed = {m["match_id"]: m for m in service.matches()}
    assert len(listed) == len(HONEST)
    assert all(m["imported"] for m in listed.values())
    assert all(m["origin"].startswith("dealerroom.example/match/") for m in listed.values())


@pytest.mark.parametrize("path", TAMPERED, ids=lambda p: p.name.removesuffix(".bundle.json"))
def test_every_tampered_fixture_is_refused_naming_the_check_and_nothing_is_written(
    service: DealerRoom, path: Path
) -> None:
    expected = verdict_of(path)
    before = written(service)
    with pytest.raises(BundleRefused) as refused:
        archive_of(service).import_bundle(fixture(path), trusted_key=expected["trusted_key"])
    # Check the refusal names a check that must fail, at the record it must fail at
    assert refused.value.check in expected["must_fail"]
    assert refused.value.first_bad_seq == expected["must_fail"][refused.value.check]
    message = str(refused.value)
    assert f"the {refused.value.check} check failed at seq {refused.value.first_bad_seq}" in message
    assert "\n" not in message and message.endswith("nothing was imported")
    # Check nothing was written
    assert written(service) == before
    assert service.matches() == []


def test_importing_the_identical_bundle_again_changes_nothing(service: DealerRoom) -> None:
    path = BUNDLES / "vote-basic.bundle.json"
    assert archive_of(service).import_bundle(fixture(path)).action == "imported"
    before = written(service)
    # A file with the same content in another layout is the same bundle
    pretty = json.dumps(json.loads(path.read_bytes()), indent=2)
    result = archive_of(service).import_bundle(load_bundle(pretty))
    assert (result.action, result.previous_records) == ("unchanged", 15)
    assert written(service) == before


def test_an_unfinished_match_is_imported_pending_and_then_extended(service: DealerRoom) -> None:
    full = fixture(BUNDLES / "six-nimmt-even-odd.bundle.json")
    early = prefix(full, 3)
    size = len(early["records"])

    # 1. The bundle of a match under way: no check fails, some are pending
    result = archive_of(service).import_bundle(early)
    assert result.action == "imported"
    assert result.verdict.ok and not result.verdict.complete
    pending = {c.name for c in result.verdict.checks if c.status == "pending"}
    assert {"seed", "deals"} <= pending
    (row,) = service.matches()
    assert row["status"] != "finished" and row["events"] == size
    assert archive_of(service).export_bundle(full["match_id"]) == early

    # 2. The later bundle of the same match extends it and replaces it
    result = archive_of(service).import_bundle(full)
    assert (result.action, result.previous_records, result.records) == ("extended", size, 424)
    assert dump_bundle(archive_of(service).export_bundle(full["match_id"])) == dump_bundle(full)
    (row,) = service.matches()
    assert row["status"] == "finished" and row["events"] == 424

    # 3. The earlier bundle no longer extends what is imported
    assert_refused(service, early, f"holds 424 records; this one holds only {size} of them")


def test_another_log_under_an_imported_match_id_is_refused(service: DealerRoom) -> None:
    honest = fixture(BUNDLES / "vote-basic.bundle.json")
    archive_of(service).import_bundle(honest)
    scenario = load_scenario(SCENARIOS / "vote-basic.json")

    # The same records re-signed by another key
    resigned = export_bundle(honest["records"], OTHER_KEY, sizes=[len(honest["records"])])
    assert_refused(service, resigned, "names another public key")

    # Another history of the same match id (played an hour later), honestly signed
    later = play_scenario(scenario, match_id=match_id(1), start_time=START + timedelta(hours=1))
    other = export_bundle(later.records, TEST_KEY, sizes=later.boundaries)
    assert verify_bundle(other).ok
    assert_refused(service, other, "record 0 differs from the imported one")

    # The same records, but a checkpoint of the imported bundle left out
    dropped = {**honest, "checkpoints": honest["checkpoints"][1:]}
    assert_refused(service, dropped, "leaves out the imported checkpoint of size 2")
    assert archive_of(service).export_bundle(honest["match_id"]) == honest


def test_a_bundle_of_a_match_of_this_service_is_refused(service: DealerRoom) -> None:
    match = play(service, "vote-basic")
    assert_refused(service, archive_of(service).export_bundle(match), "is a match of this service")


def test_an_imported_match_refuses_every_command_and_serves_proofs(service: DealerRoom) -> None:
    bundle = fixture(BUNDLES / "vote-basic.bundle.json")
    match = bundle["match_id"]
    archive_of(service).import_bundle(bundle)
    before = written(service)
    commands = [
        lambda: service.seal(match),
        lambda: service.open_step(match),
        lambda: service.submit(match, "ana", {"vote": "ben"}),
        lambda: service.decide(match, "ana", {}),
        lambda: service.join(match, "ana"),
    ]
    for command in commands:
        with pytest.raises(
            ImportedMatchError, match=r"from dealerroom\.example: it is a read-only"
        ):
            command()
    assert service.role_of(match, "any token") is None
    assert service.tick() == []
    assert written(service) == before

    # Check a consistency proof between two of the foreign host's checkpoints verifies
    proof = service.consistency(match, 3, 9)
    old = open_checkpoint(bundle["checkpoints"][1]["note"], [TEST_KEY.verifier()])
    new = open_checkpoint(proof["checkpoint"], [TEST_KEY.verifier()])
    assert (old.size, new.size) == (3, 9)
    hashes = [base64.b64decode(h) for h in proof["consistency_proof"]]
    verify_consistency(3, 9, old.root_hash, new.root_hash, hashes)
    with pytest.raises(ValueError, match="no checkpoint at size 7"):
        service.checkpoint(match, 7)
