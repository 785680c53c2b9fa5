"""The root of every error a user can cause, and the two kinds the web answers apart.

A user error says what was wrong and what to do, in one sentence. Every error class that
a caller's input or timing can cause (a bad pick, a bad file, a step not open) subclasses
:class:`UserError`, directly or through its module's own root (``MatchError``,
``RulesError``, ``CommitmentError``, ``BundleError``...). Only these answer 4xx on the web
and exit 2 on the command line; any other exception, a bare ``ValueError`` or ``KeyError``
from a bug included, is the service's fault (a logged 500).

=================  ======  ====================================================
class              HTTP    meaning
=================  ======  ====================================================
:class:`UserError`  400    the request is wrong (a bad pick, option, file, name)
:class:`Conflict`   409    well formed, but not now (a step not open, a seat taken)
:class:`Refused`    403    a secret that is not this one (a wrong invite)
:class:`Missing`    404    nothing has that name (an unknown match)
=================  ======  ====================================================

>>> issubclass(Conflict, UserError) and issubclass(UserError, ValueError)
True
"""

from __future__ import annotations


class UserError(ValueError):
    """A request the caller can correct: what was wrong and what to do."""


class Conflict(UserError):
    """A well-formed request that conflicts with where things stand (HTTP 409)."""


class Refused(UserError):
    """A secret or credential that is not the one asked for (HTTP 403)."""


class Missing(UserError, LookupError):
    """Nothing has the name given (HTTP 404)."""


__all__ = ["Conflict", "Missing", "Refused", "UserError"]
