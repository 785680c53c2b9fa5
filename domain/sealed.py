"""Sealed values: the only event fields that are not public.

An event field holding a :class:`Sealed` value is left out of the event's public record
(and so out of the Merkle log, bundles, pages and the API) and is encrypted at rest by the
service's transcoding. Its ``repr`` never shows the content, so a log line cannot leak it.

Every sealed value is *bound* to its place: the match, the event's position in the match
log (its version, 1-based), the player it belongs to (``""`` for match-wide values) and the
event field that holds it. The binding is authenticated with the ciphertext (the AES-GCM
associated data), and the aggregate checks, when it applies an event, that each sealed field
carries the binding of exactly that event and field (:meth:`Sealed.check_bound`). So a
ciphertext copied or swapped in the database (no key needed for that) is refused instead of
being revealed or resolved as someone else's pick.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.canonical import canonical_json


class SealedBindingError(RuntimeError):
    """A sealed field is not bound to the event and field that hold it (a tampered store).

    This is an operator's problem, never a user's: it is not a ``ValueError``.
    """


def binding(match_id: str, position: int, player: str, field: str) -> str:
    """The binding text of a sealed value: canonical JSON of its place.

    >>> binding("0b9c3c1e-4b8a-4f3e-9a57-2d1c9f0e7a11", 5, "ana", "opening")
    '["0b9c3c1e-4b8a-4f3e-9a57-2d1c9f0e7a11",5,"ana","opening"]'
    """
    return canonical_json([match_id, position, player, field]).decode()


@dataclass(frozen=True, repr=False)
class Sealed:
    """A JSON value that stays secret until the game's disclosure policy allows it.

    ``bound`` is the :func:`binding` of the place that holds it.
    """

    value: Any
    bound: str | None = None

    def __repr__(self) -> str:
        """Never show the content."""
        return "Sealed(<hidden>)"

    __str__ = __repr__

    def check_bound(self, match_id: str, position: int, player: str, field: str) -> None:
        """:raises SealedBindingError: unless this value is bound to exactly that place."""
        expected = binding(match_id, position, player, field)
        if self.bound != expected:
            msg = (
                f"the sealed {field} of event {position} in match {match_id} is not bound to "
                "that event: the store was altered (sealed values were copied or swapped)"
            )
            raise SealedBindingError(msg)
