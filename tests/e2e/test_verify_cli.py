"""`dealerroom verify`: the offline verifier as a reviewer runs it."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.e2e.test_cli import dealerroom

BUNDLES = REPO / "fixtures" / "bundles"


def test_an_honest_bundle_verifies_with_exit_0(tmp_path: Path) -> None:
    done = dealerroom(tmp_path, "verify", str(BUNDLES / "six-nimmt-even-odd.bundle.json"))
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_tampered_bundle_fails_with_exit_1_and_names_the_fault(tmp_path: Path) -> None:
    done = dealerroom(tmp_path, "verify", str(BUNDLES / "six-nimmt-even-odd.changed-reveal.bundle.json"))
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
