"""Small helpers the accounts tell their sentences with."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterable


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, plural unless one.

    >>> plural(1, "tile"), plural(3, "tile")
    ('1 tile', '3 tiles')
    """
    return f"{count} {word}{'' if count == 1 else 's'}"


def listed(items: Iterable[Any]) -> str:
    """The items joined by commas, or "none".

    >>> listed([4, 8]), listed([])
    ('4, 8', 'none')
    """
    shown = [str(i) for i in items]
    return ", ".join(shown) if shown else "none"
