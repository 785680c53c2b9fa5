"""The dealerroom command line, run as a user runs it (a real process)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from typing import TYPE_CHECKING, Any

import pytest

from tests.conftest import SCENARIOS, expected_lines

if TYPE_CHECKING:
    from pathlib import Path


def dealerroom(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALERROOM_")}
    env["DEALERROOM_INSTANCE"] = str(tmp_path / "instance")
    return subprocess.run(
        [sys.executable, "-c", "from web.cli import main; main()", *args],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip


def test_simulate_prints_one_json_line_of_public_state_per_step(tmp_path: Path) -> None:
    path = SCENARIOS / "vote-basic.json"
    done = dealerroom(tmp_path, "simulate", str(path))
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines == expected_lines(path.with_suffix(".expected.jsonl"))


def test_matches_and_timeline_show_what_simulate_recorded(tmp_path: Path) -> None:
    dealerroom(tmp_path, "simulate", str(SCENARIOS / "vote-basic.json"))
    listing = dealerroom(tmp_path, "matches")
    assert listing.returncode == 0 and "vote" in listing.stdout and "finished" in listing.stdout
    match_id = listing.stdout.splitlines()[1].split()[0]
    table = dealerroom(tmp_path, "timeline", match_id)
    assert table.returncode == 0
    assert "SubmissionCommitted" in table.stdout and "SeedRevealed" in table.stdout
    records = [
        json.loads(x)
        for x in dealerroom(tmp_path, "timeline", match_id, "--json").stdout.splitlines()
    ]
    assert [r["seq"] for r in records] == list(range(len(records)))


@pytest.mark.parametrize(
    ("scenario", "message"),
    [
        ({"game": "vote", "players": ["a", "b"], "steps": [{"submit": {"a": {"vote": "zed"}}}]},
         'step 1, player a: "zed" is not a candidate'),
        ({"game": "vote", "players": ["a", "b"], "steps": [{"submit": {"zed": {"vote": "a"}}}]},
         "step 1, player zed:"),
        ({"game": "poker", "players": ["a", "b"], "steps": []}, 'unknown game "poker"'),
        ({"game": "vote", "players": "ab", "steps": []}, 'needs "players"'),
        ({"game": "vote", "players": ["a", "b"], "steps": [{}, {}]}, "step 2: the match finished"),
    ],
)  # fmt: skip
def test_a_bad_scenario_exits_2_with_one_line_naming_step_and_player(
    tmp_path: Path, scenario: dict, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(scenario))
    done = dealerroom(tmp_path, "simulate", str(path))
    assert done.returncode == 2
    errors = [line for line in done.stderr.splitlines() if line.startswith("dealerroom: error:")]
    assert len(errors) == 1 and message in errors[0], done.stderr
    assert "Traceback" not in done.stderr


def test_an_unreadable_or_malformed_file_exits_2(tmp_path: Path) -> None:
    assert dealerroom(tmp_path, "simulate", str(tmp_path / "missing.json")).returncode == 2
    (tmp_path / "x.json").write_text("{not json")
    done = dealerroom(tmp_path, "simulate", str(tmp_path / "x.json"))
    assert done.returncode == 2 and "is not JSON" in done.stderr


def test_timeline_of_an_unknown_match_exits_2(tmp_path: Path) -> None:
    done = dealerroom(tmp_path, "timeline", "nope")
    assert done.returncode == 2 and done.stderr.count("\n") == 1


def test_serve_on_a_taken_port_exits_2_with_one_line_naming_the_port(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = dealerroom(tmp_path, "serve", "--port", str(port))
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.splitlines()
    assert line == (
        f"dealerroom: error: port {port} on 127.0.0.1 is taken by another program; stop it or "
        "choose another port with --port"
    )


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda _p: "/dev/zero", "is not JSON text: it holds a NUL byte"),
        (lambda p: _write(p, b'{"game": ' + b"9" * 5000 + b"}"), "a number of 5,000 characters"),
        (lambda p: _write(p, b"[" * 5000 + b"]" * 5000), "more than 100 levels deep"),
        (lambda p: _write(p, b"[" * 500 + b"]" * 500), "more than 100 levels deep"),
    ],
)  # fmt: skip
def test_simulate_bounds_its_scenario_file(tmp_path: Path, make: Any, message: str) -> None:
    done = dealerroom(tmp_path, "simulate", make(tmp_path))
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith("dealerroom: error: scenario ") and message in line, line


def _write(folder: Path, data: bytes) -> str:
    path = folder / "input.json"
    path.write_bytes(data)
    return str(path)
