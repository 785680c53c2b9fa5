"""Who holds which seat: the credentials of a match as committed, checked with one read.

Every request that acts as a role checks its token against the match's current credentials
(a claim or a re-invite changes them). Loading the match for that brought it up to date with
every event since the last load, decrypting the sealed pick in each: under a stream of
submissions, a third of a submission's time. Instead every save notes its matches'
credentials and players at their new version (:meth:`SeatNotes.note`), and the match index
holds each match's committed version (written in the same transaction), so the usual check
is one indexed read. A note that is behind (another process saved the match) is replaced
from the match itself.

A save of this process is noted once it has committed; a check that reads the new version
in the moment between the commit and the note (under load, the saving thread waits for the
interpreter lock after its fsync) finds the save *pending* at that version and waits for
its outcome instead of loading the match: only a save known to have committed is trusted,
so a save that failed, while another process committed the same version, is never taken
for the stored one.
"""

from __future__ import annotations

import hmac
import threading
from typing import TYPE_CHECKING, Any, TypeVar

from domain.commitment import CommitmentError, canonical_match_id
from domain.errors import Refused
from domain.match import token_hash

if TYPE_CHECKING:
    from collections.abc import Callable

    from domain.match import Match
    from service.readmodel import MatchIndex

HOST = "host"
T = TypeVar("T")
SEAT_NOTES = 4096  # matches whose committed credentials a process remembers
PENDING_WAIT = 1.0  # seconds a check waits for a pending save's outcome before loading


class Pending:
    """A save of some matches by this process, from before its commit until its outcome."""

    def __init__(self, notes: SeatNotes, matches: list[Match]) -> None:
        """A save of ``matches``, at their versions once saved, noted in ``notes``."""
        self._notes = notes
        self.versions = {str(m.id): m.version for m in matches}
        self.outcome = threading.Event()

    def committed(self, matches: list[Match]) -> None:
        """The save committed: note its matches, then let waiting checks read them."""
        for match in matches:
            self._notes.note(match)
        self._end()

    def failed(self) -> None:
        """The save did not commit: waiting checks load the match as stored."""
        self._end()

    def _end(self) -> None:
        self._notes.unpend(self)
        self.outcome.set()


class SeatNotes:
    """The committed credentials and players of recently used matches."""

    def __init__(self, index: MatchIndex, current: Callable[[str], Match | None]) -> None:
        """Versions come from ``index``; ``current`` loads a match as it stands."""
        self._index = index
        self._current = current
        self._notes: dict[str, tuple[int, dict[str, str], tuple[str, ...]]] = {}
        self._pending: dict[str, Pending] = {}  # the latest uncommitted save of each match
        self._lock = threading.Lock()  # request threads note and read at once

    def pend(self, matches: list[Match]) -> Pending:
        """Say that a save of ``matches`` (at their new versions) is about to commit."""
        pending = Pending(self, matches)
        with self._lock:
            for key in pending.versions:
                self._pending[key] = pending
        return pending

    def unpend(self, pending: Pending) -> None:
        """Forget a save whose outcome is known."""
        with self._lock:
            for key in pending.versions:
                if self._pending.get(key) is pending:
                    del self._pending[key]

    def note(self, match: Match) -> None:
        """Note a match's credentials and players at its version (a bounded memo).

        A note never goes back: a check that loaded the match before a later save was noted
        keeps the later note (both are committed states; the later one is the store's now).
        """
        key = str(match.id)
        noted = (match.version, dict(match.credentials), tuple(match.players))
        with self._lock:
            before = self._notes.pop(key, None)
            if before is not None and before[0] > noted[0]:
                noted = before
            self._notes[key] = noted
            while len(self._notes) > SEAT_NOTES:
                self._notes.pop(next(iter(self._notes)), None)

    def seats(self, match_id: str) -> tuple[dict[str, str], tuple[str, ...]] | None:
        """The credentials and players of a match as committed now (``None``: no match)."""
        try:
            key = canonical_match_id(str(match_id))
        except CommitmentError:
            return None
        committed = self._index.version_of(key)
        # The pending save first, then the note: a save ends by noting, then leaving pending,
        # so a note read after finding no pending save is at least the version read above
        # whenever that version is this process's own. A note past that version is of a
        # save committed since: newer still, and as good.
        pending = self._pending.get(key)
        noted = self._notes.get(key)
        if noted is not None and committed is not None and noted[0] >= committed:
            return noted[1], noted[2]
        if pending is not None and pending.versions[key] == committed:
            pending.outcome.wait(PENDING_WAIT)  # this process's save of that very version
            noted = self._notes.get(key)
            if noted is not None and noted[0] >= committed:
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


class NotThisSeat(Refused):
    """A bearer token that is not the seat's credential in the match (HTTP 403)."""


def as_seat(player: str, token: Any, command: Callable[[Match], T]) -> Callable[[Match], T]:
    """``command``, run only if ``token`` is ``player``'s credential in the match it runs on.

    With no ``token`` (``None``: the caller was authorised another way) it is ``command``.

    The check runs in the command's batch, on the working copy that the batch saves (one
    checked against the store, or saved under optimistic concurrency), so it needs no read
    of its own and sees exactly the credentials the command acts under: a seat re-invited
    by an earlier command of the same batch is refused. Constant-time, like
    :meth:`SeatNotes.role_of`.
    """
    if token is None:
        return command
    offered = token_hash(token) if isinstance(token, str) else None

    def checked(match: Match) -> T:
        stored = match.credentials.get(player) if player != HOST else None
        if offered is None or stored is None or not hmac.compare_digest(stored, offered):
            msg = f"this token does not act as {player!r} in this match"
            raise NotThisSeat(msg)
        return command(match)

    return checked
