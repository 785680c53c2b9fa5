"""The registry of rules modules, by wire name.

Every module of this package that exposes ``RULES`` (a :class:`~domain.rules.base.Rules`)
is a game: a sixth game needs only its module file. The games are found once, on first
use, in a stable order: the five first games as they have always been listed, then any
other by wire name.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import TYPE_CHECKING

from domain.rules.base import Rules, RulesError, describe

if TYPE_CHECKING:
    from collections.abc import Iterable

FIRST_GAMES = ("vote", "six-nimmt", "apocalypse", "picking-nine", "grid-adaptation")
"""The games listed first, in this order (the order they have always been listed in)."""


class UnknownGame(RulesError):
    """No rules module has that name."""


def discover(package: str, path: Iterable[str]) -> dict[str, Rules]:
    """Return the games of every module of ``package`` (found on ``path``) exposing ``RULES``.

    Ordered as :data:`FIRST_GAMES`, then the others by wire name.

    :raises TypeError: when a module's ``RULES`` is not a rules object, or two modules
        claim one wire name.
    """
    found: dict[str, Rules] = {}
    for module in pkgutil.iter_modules(list(path)):
        rules = getattr(importlib.import_module(f"{package}.{module.name}"), "RULES", None)
        if rules is None:
            continue
        if not isinstance(rules, Rules):
            msg = f"{package}.{module.name}.RULES is not a Rules object"
            raise TypeError(msg)
        if rules.name in found:
            msg = f"two rules modules are called {rules.name!r}"
            raise TypeError(msg)
        found[rules.name] = rules

    def place(name: str) -> tuple[int, str]:
        first = FIRST_GAMES.index(name) if name in FIRST_GAMES else len(FIRST_GAMES)
        return first, name

    return {name: found[name] for name in sorted(found, key=place)}


@cache
def _games() -> dict[str, Rules]:
    return discover(__name__, __path__)


def game_names() -> list[str]:
    """Return the wire names of every game, in a stable order."""
    return list(_games())


def get_rules(name: str) -> Rules:
    """Return the rules object for a game's wire name.

    :raises UnknownGame: for a name no module has.
    """
    games = _games()
    rules = games.get(name) if isinstance(name, str) else None
    if rules is None:
        msg = f"unknown game {describe(name)}; the games are {', '.join(games)}"
        raise UnknownGame(msg)
    return rules
