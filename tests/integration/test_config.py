"""Keys come from configuration, or are generated once into the instance folder (mode 0600)."""

from __future__ import annotations

import stat
from typing import TYPE_CHECKING

import pytest

from service.config import ConfigError, Settings

if TYPE_CHECKING:
    from pathlib import Path


def test_missing_keys_are_generated_once_with_owner_only_permissions(tmp_path: Path) -> None:
    first = Settings.load({"DEALERROOM_INSTANCE": str(tmp_path)})
    again = Settings.load({"DEALERROOM_INSTANCE": str(tmp_path)})
    assert first.sealing_keys == again.sealing_keys and first.signing_seed == again.signing_seed
    for name in ("sealing.key", "signing.key"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600


def test_configured_keys_win_and_older_sealing_keys_may_follow(tmp_path: Path) -> None:
    env = {
        "DEALERROOM_INSTANCE": str(tmp_path),
        "DEALERROOM_SEALING_KEY": "11" * 32 + "," + "22" * 32,
        "DEALERROOM_SIGNING_KEY": "33" * 32,
    }
    settings = Settings.load(env)
    assert settings.sealing_keys == (bytes([0x11]) * 32, bytes([0x22]) * 32)
    assert settings.signing_seed == bytes([0x33]) * 32
    assert not (tmp_path / "sealing.key").exists()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DEALERROOM_SEALING_KEY", "abc"),
        ("DEALERROOM_SIGNING_KEY", "zz" * 32),
        ("DEALERROOM_DATABASE_URL", "nowhere"),
    ],
)
def test_a_malformed_setting_is_named(tmp_path: Path, name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        Settings.load({"DEALERROOM_INSTANCE": str(tmp_path), name: value})


def test_events_sealed_with_a_rotated_key_still_open(tmp_path: Path) -> None:
    from service.application import DealerRoom

    old = {"DEALERROOM_INSTANCE": str(tmp_path), "DEALERROOM_SEALING_KEY": "11" * 32}
    app = DealerRoom(Settings.load(old))
    mid = app.create_match("vote", ["ana", "ben"])["match_id"]
    app.open_step(mid)
    app.submit(mid, "ana", {"vote": "ben"})
    app.close()
    rotated = DealerRoom(
        Settings.load({**old, "DEALERROOM_SEALING_KEY": "22" * 32 + "," + "11" * 32})
    )
    assert rotated.seal(mid) == "finished"
    assert rotated.public_state(mid)["tally"]["ben"] == 1
    rotated.close()


def test_processes_creating_the_key_files_at_once_all_get_the_same_whole_keys(
    tmp_path: Path,
) -> None:
    import subprocess
    import sys

    instance = tmp_path / "race"
    code = (
        "import sys; from service.config import Settings; "
        f"s = Settings.load({{'DEALERROOM_INSTANCE': {str(instance)!r}}}); "
        "print(s.sealing_keys[0].hex(), s.signing_seed.hex(), s.session_key.hex())"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        for _ in range(6)
    ]
    outputs = {p.communicate(timeout=60)[0] for p in procs}
    assert all(p.returncode == 0 for p in procs)
    assert len(outputs) == 1  # every process read the same three keys
    assert sorted(f.name for f in instance.iterdir() if f.name.endswith(".key")) == [
        "sealing.key",
        "session.key",
        "signing.key",
    ]
    assert not [f for f in instance.iterdir() if f.name.startswith(".")]  # no temporary left
