"""Who holds which seat: the credentials of a match as committed, checked with one read.

Every request that acts as a role checks its token against the match's current credentials
(a claim or a re-invite changes them). Loading the match for that brought it up to date with
every event since the last load, decrypting the sealed pick in each: under a stream of
submissions, a third of a submission's time. Instead every save notes its matches'
credentials and players at their new version (:meth:`SeatNotes.note`), and the match index
holds each match's committed version (written in the same transaction), so the usual check
is one indexed read. A note that is behind (another process saved the match) is replaced
from the match itself.
"""

from __future__ import annotations

import hmac
import threading
from typing import TYPE_CHECKING

from domain.commitment import CommitmentError, canonical_match_id
from domain.match import token_hash

if TYPE_CHECKING:
    from collections.abc import Callable

    from domain.match import Match
    from service.readmodel import MatchIndex

HOST = "host"
SEAT_NOTES = 4096  # matches whose committed credentials a process remembers


class SeatNotes:
    """The committed credentials and players of recently used matches."""

    def __init__(self, index: MatchIndex, current: Callable[[str], Match | None]) -> None:
        """Versions come from ``index``; ``current`` loads a match as it stands."""
        self._index = index
        self._current = current
        self._notes: dict[str, tuple[int, dict[str, str], tuple[str, ...]]] = {}
        self._lock = threading.Lock()  # request threads note and read at once

    def note(self, match: Match) -> None:
        """Note a match's credentials and players at its version (a bounded memo)."""
        key = str(match.id)
        noted = (match.version, dict(match.credentials), tuple(match.players))
        with self._lock:
            self._notes.pop(key, None)
            self._notes[key] = noted
            while len(self._notes) > SEAT_NOTES:
                self._notes.pop(next(iter(self._notes)), None)

    def seats(self, match_id: str) -> tuple[dict[str, str], tuple[str, ...]] | None:
        """The credentials and players of a match as committed now (``None``: no match)."""
        try:
            key = canonical_match_id(str(match_id))
        except CommitmentError:
            return None
        noted = self._notes.get(key)
        if noted is not None and noted[0] == self._index.version_of(key):
            return noted[1], noted[2]
        match = self._current(key)
        if match is None:
            return None
        self.note(match)
        return dict(match.credentials), tuple(match.players)

    def role_of(self, match_id: str, token: str) -> str | None:
        """The role ``token`` grants (``"host"``, a player) or ``None`` (constant-time checks)."""
        seats = self.seats(match_id)
        if seats is None or not isinstance(token, str):
            return None
        offered = token_hash(token)
        for role in (HOST, *seats[1]):
            stored = seats[0].get(role)
            if stored is not None and hmac.compare_digest(stored, offered):
                return role
        return None

    def credential_of(self, match_id: str, role: str) -> str | None:
        """The stored hash of ``role``'s current credential (``None``: none, or no match)."""
        seats = self.seats(match_id)
        return None if seats is None else seats[0].get(role)
