"""The layers of ARCHITECTURE.md, checked on the source: who may import whom.

``domain`` imports only the standard library, ``eventsourcing.domain`` and ``cryptography``
(plus ``rfc8785`` for canonical JSON); ``replay`` only ``domain``; ``service`` never ``replay``
or ``web``. Every import in a file counts, including those inside functions and under
``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIRST_PARTY = {"domain", "service", "replay", "web"}
ALLOWED = {
    "domain": {"domain", "eventsourcing", "cryptography", "rfc8785"},
    "replay": {"domain", "replay"},
    "service": {
        "domain",
        "service",
        "eventsourcing",
        "eventsourcing_sqlalchemy",
        "sqlalchemy",
        "cryptography",
        "precis_i18n",
        "confusable_homoglyphs",
    },
}


def imported_packages(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return {name.split(".")[0] for name in names}


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_a_layer_imports_only_what_it_may(layer: str) -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    wrong = {}
    for path in sorted((REPO / layer).rglob("*.py")):
        outside = imported_packages(path) - stdlib - ALLOWED[layer]
        if outside:
            wrong[str(path.relative_to(REPO))] = sorted(outside)
    assert wrong == {}


def test_the_domain_uses_only_the_domain_part_of_eventsourcing() -> None:
    for path in sorted((REPO / "domain").rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("eventsourcing"):
                assert node.module == "eventsourcing.domain", (path, node.module)
