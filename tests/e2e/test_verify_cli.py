"""`dealerroom verify`: the offline verifier as a reviewer runs it."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import REPO
from tests.e2e.test_cli import dealerroom
from tests.unit.test_replay_verify import TRUSTED
from web.cli import verify_command

BUNDLES = REPO / "fixtures" / "bundles"


def verify(*args: str) -> tuple[int, str, str]:
    """Run ``dealerroom verify`` in this process: exit status, stdout, stderr."""
    done = CliRunner().invoke(verify_command, list(args))
    return done.exit_code, done.stdout, done.stderr


def test_an_honest_bundle_verifies_with_exit_0(tmp_path: Path) -> None:
    done = dealerroom(tmp_path, "verify", str(BUNDLES / "six-nimmt-even-odd.bundle.json"))
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_tampered_bundle_fails_with_exit_1_and_names_the_fault(tmp_path: Path) -> None:
    done = dealerroom(
        tmp_path, "verify", str(BUNDLES / "six-nimmt-even-odd.changed-reveal.bundle.json")
    )
    assert done.returncode == 1
    assert "commitments" in done.stdout


def test_an_unreadable_bundle_exits_2(tmp_path: Path) -> None:
    (tmp_path / "b.json").write_text("{}")
    assert dealerroom(tmp_path, "verify", str(tmp_path / "b.json")).returncode == 2


@pytest.mark.parametrize(
    ("contents", "message"),
    [
        (None, "bundle /dev/zero is not JSON text: it holds a NUL byte"),
        (b'{"format": ' + b"9" * 5000 + b"}", "a number of 5,000 characters"),
        (b"[" * 5000 + b"]" * 5000, "more than 100 levels deep"),
        (b'{"x": ' + b"[" * 300 + b"]" * 300 + b"}", "more than 100 levels deep"),
    ],
)  # fmt: skip
def test_an_unbounded_input_fails_fast_in_one_line(
    tmp_path: Path, contents: bytes | None, message: str
) -> None:
    path = "/dev/zero"
    if contents is not None:
        path = str(tmp_path / "b.json")
        Path(path).write_bytes(contents)
    started = time.monotonic()
    done = dealerroom(tmp_path, "verify", path)
    assert done.returncode == 2 and time.monotonic() - started < 30
    (line,) = done.stderr.splitlines()
    assert line.startswith("dealerroom: error: ") and message in line, line


def test_receipt_files_are_bounded_too(tmp_path: Path) -> None:
    bundle = str(BUNDLES / "vote-basic.bundle.json")
    for command in (["verify", bundle, "--receipt", "/dev/zero"],
                    ["receipt", "check", "/dev/zero"]):  # fmt: skip
        done = dealerroom(tmp_path, *command)
        assert done.returncode == 2
        (line,) = done.stderr.splitlines()
        assert "receipt /dev/zero is not JSON text: it holds a NUL byte" in line, line


# --- The one command line of the verifier (moved from tests/unit/test_replay_verify.py) --


def test_the_command_line_exits_0_for_an_honest_bundle() -> None:
    path = BUNDLES / "vote-basic.bundle.json"
    code, out, _ = verify(str(path), "--trusted-key", TRUSTED)
    assert code == 0
    assert out.splitlines()[-1] == "verdict: ok"
    assert f"key: pinned: every checkpoint must be signed by the trusted key {TRUSTED}" in out


def test_without_a_pinned_key_the_verdict_says_what_is_and_is_not_proven() -> None:
    path = str(BUNDLES / "vote-basic.bundle.json")
    code, out, _ = verify(path)
    assert code == 0
    lines = out.splitlines()
    assert lines[-2] == (
        f"key: NOT PINNED: the checks show the log consistent and unchanged since it was signed "
        f"by {TRUSTED}, but nothing says whose key that is; pin it with --trusted-key KEY, "
        "obtained from the host out of band (e.g. its /api/key)"
    )
    assert lines[-1] == "verdict: ok (key not pinned: see above)"
    code, out, _ = verify(path, "--json")
    assert code == 0
    key = json.loads(out)["key"]
    assert key["public_key"] == TRUSTED and key["pinned"] is False
    assert key["note"].startswith("NOT PINNED: ") and "--trusted-key" in key["note"]
    code, out, _ = verify(path, "--json", "--trusted-key", TRUSTED)
    assert code == 0
    assert json.loads(out)["key"]["pinned"] is True


def test_the_command_line_exits_1_for_a_tampered_bundle_and_prints_json() -> None:
    code, out, _ = verify(str(BUNDLES / "vote-basic.forged-outcome.bundle.json"), "--json")
    assert code == 1
    document = json.loads(out)
    assert document["ok"] is False


def test_the_command_line_exits_2_for_an_unreadable_bundle(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("{}")
    code, _, err = verify(str(path))
    assert code == 2
    assert err.startswith("dealerroom: error: ") and "the bundle lacks" in err
