"""The errors of the ``Match`` aggregate (:mod:`domain.match`), and the salt check.

A shallow hierarchy under :class:`MatchError` (a :class:`~domain.errors.UserError`), with the
conflicts (HTTP 409) under :class:`MatchConflict`; :class:`RevealMismatch` is an operator's
problem, never a user's. :mod:`domain.match` re-exports every name here.
"""

from __future__ import annotations

from domain.errors import Conflict, Refused, UserError


class MatchError(UserError):
    """A command that the match's current state does not allow."""


class MatchConflict(MatchError, Conflict):
    """A command that is well formed but conflicts with where the match stands (HTTP 409)."""


class NotAPlayer(MatchError):
    """The name is not a player of this match, or not one asked in this step."""


class StepNotOpen(MatchConflict):
    """There is no step open for submissions."""


class DeadlinePassed(StepNotOpen):
    """The step's (or the decision's) deadline has passed."""


class StepStillOpen(MatchConflict):
    """The current step has not resolved, so the next one cannot open."""


class CommitmentReused(MatchConflict):
    """A commitment already used in this match was submitted again."""


class NoDecisionPending(MatchConflict):
    """Nobody is asked for a decision, or not this player."""


class MatchOver(MatchConflict):
    """The match has finished."""


class SeatTaken(MatchConflict):
    """The seat was already claimed with its invite."""


class BadInvite(MatchError, Refused):
    """The invite is not this seat's current invite."""


class BadSalt(MatchError):
    """A client-chosen salt that was used before in the match or is not random."""


class RevealMismatch(RuntimeError):
    """A stored opening does not open its recorded commitment: the store was altered.

    An operator's problem, never a user's (not a ``ValueError``): nothing is recorded.
    """


MIN_DISTINCT_SALT_BYTES = 16


def check_salt_randomness(salt: bytes) -> None:
    """:raises BadSalt: for a salt that is obviously not random.

    A salt is 32 random bytes; one with a single repeated byte value, or fewer than 16
    distinct byte values among its 32 (a uniformly random salt has about 26), would let
    anyone recover a small pick from its public commitment.

    >>> check_salt_randomness(bytes(range(32)))
    >>> try:
    ...     check_salt_randomness(bytes(32))
    ... except BadSalt as exc:
    ...     print(exc)
    the salt is not random (1 distinct byte values in 32); draw 32 random bytes
    """
    distinct = len(set(salt))
    if distinct < MIN_DISTINCT_SALT_BYTES:
        msg = (
            f"the salt is not random ({distinct} distinct byte values in {len(salt)}); "
            "draw 32 random bytes"
        )
        raise BadSalt(msg)


__all__ = [
    "MIN_DISTINCT_SALT_BYTES",
    "BadInvite",
    "BadSalt",
    "CommitmentReused",
    "DeadlinePassed",
    "MatchConflict",
    "MatchError",
    "MatchOver",
    "NoDecisionPending",
    "NotAPlayer",
    "RevealMismatch",
    "SeatTaken",
    "StepNotOpen",
    "StepStillOpen",
    "check_salt_randomness",
]
