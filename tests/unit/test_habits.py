"""The tree's habits, checked like behaviour.

Ruff ``ALL`` (with the commented ignore list in pyproject.toml), the formatter, mypy strict
over every package, and modules of a readable size.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

PACKAGES = ("domain", "service", "replay", "web")
MOST_LINES = 800


def _tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True, check=False
    )


def test_ruff_all_passes_on_the_whole_tree() -> None:
    checked = _tool("ruff", "check", ".")
    assert checked.returncode == 0, checked.stdout[-4000:]


def test_the_tree_is_formatted() -> None:
    formatted = _tool("ruff", "format", "--check", ".")
    assert formatted.returncode == 0, formatted.stdout[-4000:]


def test_mypy_strict_passes_on_every_package() -> None:
    typed = _tool("mypy")
    assert typed.returncode == 0, typed.stdout[-4000:]


def test_no_module_is_over_800_lines() -> None:
    sources = [p for package in PACKAGES for p in (REPO / package).rglob("*.py")]
    sources += list((REPO / "web" / "static").rglob("*.js"))
    long = {
        str(p.relative_to(REPO)): n
        for p in sources
        if (n := len(Path(p).read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert long == {}
