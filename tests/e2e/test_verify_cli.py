"""`dealerroom verify`: the offline verifier as a reviewer runs it."""

from __future__ import annotations

from pathlib import Path

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
