"""Sealed values: the only event fields that are not public.

An event field holding a :class:`Sealed` value is left out of the event's public record
(and so out of the Merkle log, bundles, pages and the API) and is encrypted at rest by the
service's transcoding. Its ``repr`` never shows the content, so a log line cannot leak it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, repr=False)
class Sealed:
    """A JSON value that stays secret until the game's disclosure policy allows it."""

    value: Any

    def __repr__(self) -> str:
        """Never show the content."""
        return "Sealed(<hidden>)"

    __str__ = __repr__
