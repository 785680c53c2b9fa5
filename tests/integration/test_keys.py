"""Keys at start-up (issue 14, point 5).

A store that holds events is served only with the keys it was made with; keys are generated
only into an empty store; rotation of the sealing key works and a changed signing key does
not pass silently; the service's files are private.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from service.application import DealerRoom
from service.config import ConfigError, Settings
from service.keys import KeyProblem
from tests.conftest import REPO, settings_for

if TYPE_CHECKING:
    from service.config import Settings as SettingsT


def env_of(settings: SettingsT) -> dict[str, str]:
    """The environment that loads ``settings``' store (its keys left to the instance folder)."""
    env = {"DEALERROOM_INSTANCE": str(settings.instance)}
    if settings.db_schema:
        env["DEALERROOM_DATABASE_URL"] = settings.database_url
        env["DEALERROOM_DB_SCHEMA"] = settings.db_schema
    return env


def start(env: dict[str, str]) -> DealerRoom:
    return DealerRoom(Settings.load(env))


@pytest.fixture
def played(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> dict[str, str]:
    """A store with one match in it (a pick sealed, checkpoints signed); its environment."""
    env = env_of(settings_for(backend, tmp_path, request))
    room = start(env)
    try:
        match_id = room.create_match("vote", ["ana", "ben"])["match_id"]
        room.open_step(match_id)
        room.submit(match_id, "ana", {"vote": "ben"})
    finally:
        room.close()
    return {**env, "match_id": match_id}


def without_match(env: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k != "match_id"}


@pytest.mark.parametrize("name", ["sealing.key", "signing.key"])
def test_a_missing_key_file_stops_the_start_and_is_not_regenerated(
    played: dict[str, str], name: str
) -> None:
    env = without_match(played)
    path = Path(env["DEALERROOM_INSTANCE"]) / name
    original = path.read_bytes()
    path.unlink()
    # 1. The start stops with one line naming the file.
    with pytest.raises(KeyProblem, match=f"the key file {path} is missing") as caught:
        start(env)
    assert "\n" not in str(caught.value)
    assert isinstance(caught.value, ConfigError)  # the CLI's one line, exit 2
    # 2. Check nothing was left behind: a second start stops the same way.
    assert not path.exists()
    with pytest.raises(KeyProblem, match="is missing"):
        start(env)
    # 3. Restoring the file is all it takes.
    path.write_bytes(original)
    room = start(env)
    try:
        assert room.status(played["match_id"])["players"] == ["ana", "ben"]
    finally:
        room.close()


def test_a_missing_session_key_is_regenerated(played: dict[str, str]) -> None:
    env = without_match(played)
    path = Path(env["DEALERROOM_INSTANCE"]) / "session.key"
    before = path.read_text()
    path.unlink()
    start(env).close()  # it only signs cookies: everyone signs in again with their link
    assert path.read_text() != before


def test_keys_are_generated_into_an_empty_store_and_are_its_own_from_then_on(
    tmp_path: Path,
) -> None:
    settings = Settings.load({"DEALERROOM_INSTANCE": str(tmp_path / "new")})
    assert sorted(settings.generated) == ["sealing.key", "session.key", "signing.key"]
    first = DealerRoom(settings)
    try:
        first.create_match("vote", ["ana", "ben"])
    finally:
        first.close()
    again = DealerRoom(settings)  # the same settings, now over a store with events
    again.close()
    assert settings.generated == []


@pytest.mark.parametrize("name", ["sealing.key", "signing.key"])
def test_a_missing_key_file_stops_the_start_before_anything_was_signed(
    tmp_path: Path, name: str
) -> None:
    instance = tmp_path / "instance"
    room = start({"DEALERROOM_INSTANCE": str(instance)})
    room.create_match("vote", ["ana", "ben"])  # saved, not yet projected or signed
    room.close()
    (instance / name).unlink()
    with pytest.raises(KeyProblem, match=f"{name} is missing"):
        start({"DEALERROOM_INSTANCE": str(instance)})


def test_a_replaced_sealing_key_stops_the_start(played: dict[str, str]) -> None:
    env = without_match(played)
    with pytest.raises(KeyProblem, match=r"the sealing key .* does not open the sealed data"):
        start({**env, "DEALERROOM_SEALING_KEY": "11" * 32})


def test_a_rotated_sealing_key_starts_and_keeps_reading_old_events(played: dict[str, str]) -> None:
    env = without_match(played)
    old = (Path(env["DEALERROOM_INSTANCE"]) / "sealing.key").read_text().strip()
    new = "22" * 32
    # 1. The new key first, the old one after it: old picks open, new ones use the new key.
    room = start({**env, "DEALERROOM_SEALING_KEY": f"{new},{old}"})
    try:
        room.submit(played["match_id"], "ben", {"vote": "ana"})
        assert room.seal(played["match_id"]) == "finished"
        assert room.public_state(played["match_id"])["tally"] == {"ana": 1, "ben": 1}
        second = room.create_match("vote", ["cai", "dan"])["match_id"]
    finally:
        room.close()
    # 2. Dropping the old key while the store still holds its data stops the start.
    with pytest.raises(KeyProblem, match="list that key after the new one"):
        start({**env, "DEALERROOM_SEALING_KEY": new})
    # 3. The new key alone opens what it sealed (the newest sealed field is checked too).
    with pytest.raises(KeyProblem):
        start({**env, "DEALERROOM_SEALING_KEY": old})
    room = start({**env, "DEALERROOM_SEALING_KEY": f"{new},{old}"})
    try:
        assert room.status(second)["players"] == ["cai", "dan"]
    finally:
        room.close()


@pytest.mark.parametrize(
    "change", [{"DEALERROOM_SIGNING_KEY": "33" * 32}, {"DEALERROOM_ORIGIN": "elsewhere.example"}]
)
def test_a_changed_signing_key_or_origin_stops_the_start(
    played: dict[str, str], change: dict[str, str]
) -> None:
    with pytest.raises(KeyProblem, match=r"signing key .* is not the one that signed"):
        start({**without_match(played), **change})


def test_the_cli_stops_with_one_line_and_exit_2_when_a_key_is_missing(tmp_path: Path) -> None:
    instance = tmp_path / "cli"
    room = start({"DEALERROOM_INSTANCE": str(instance)})
    room.create_match("vote", ["ana", "ben"])
    room.close()
    (instance / "sealing.key").unlink()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALERROOM_")}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "dealerroom"), "matches"],
        env={**env, "DEALERROOM_INSTANCE": str(instance)}, cwd=REPO,
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("dealerroom: error: the key file ")
    assert "sealing.key is missing" in done.stderr


def test_files_the_service_creates_are_private_to_its_user(tmp_path: Path) -> None:
    instance = tmp_path / "deep" / "instance"
    previous = os.umask(0o022)  # the usual umask would leave them world-readable
    try:
        room = start({"DEALERROOM_INSTANCE": str(instance)})
        try:
            room.create_match("vote", ["ana", "ben"])
            with room.factory.datastore.engine.connect():  # type: ignore[attr-defined]
                files = {p.name: stat.S_IMODE(p.stat().st_mode) for p in instance.iterdir()}
        finally:
            room.close()
    finally:
        os.umask(previous)
    assert stat.S_IMODE(instance.stat().st_mode) == 0o700
    assert {"dealerroom.sqlite3", "dealerroom.sqlite3-wal", "dealerroom.sqlite3-shm",
            "sealing.key", "signing.key", "session.key"} <= set(files)  # fmt: skip
    assert {name: mode for name, mode in files.items() if mode != 0o600} == {}


def test_a_restored_key_file_with_loose_permissions_is_made_private(played: dict[str, str]) -> None:
    path = Path(played["DEALERROOM_INSTANCE"]) / "signing.key"
    path.chmod(0o644)
    start(without_match(played)).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
