"""The registry of rules modules, by wire name.

A sixth game needs only a new module exposing ``RULES`` and one line here.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from domain.rules.base import RulesError, describe

if TYPE_CHECKING:
    from domain.rules.base import Rules

_MODULES = {
    "vote": "domain.rules.vote",
    "six-nimmt": "domain.rules.six_nimmt",
    "apocalypse": "domain.rules.apocalypse",
    "picking-nine": "domain.rules.picking_nine",
    "grid-adaptation": "domain.rules.grid_adaptation",
}


class UnknownGame(RulesError):
    """No rules module has that name."""


def game_names() -> list[str]:
    """Return the wire names of every game, in a stable order."""
    return list(_MODULES)


def get_rules(name: str) -> Rules:
    """Return the rules object for a game's wire name.

    :raises UnknownGame: for a name no module has.
    """
    module = _MODULES.get(name) if isinstance(name, str) else None
    if module is None:
        msg = f"unknown game {describe(name)}; the games are {', '.join(_MODULES)}"
        raise UnknownGame(msg)
    return importlib.import_module(module).RULES  # type: ignore[no-any-return]
