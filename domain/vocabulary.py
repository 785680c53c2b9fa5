"""The words of a match's life, as enums (their values are the public wire words).

Each is a ``StrEnum``: a member equals its wire text (``StepStatus.OPEN == "open"``), so
records, API answers and stored events keep their exact formats.
"""

from __future__ import annotations

from enum import StrEnum


class StepStatus(StrEnum):
    """Where a step stands: open for submissions, sealed (resolving), or resolved."""

    OPEN = "open"
    SEALED = "sealed"
    RESOLVED = "resolved"


class Custody(StrEnum):
    """Who holds a player's pick until it is revealed."""

    SEALED = "sealed"  # the service, encrypted at rest
    SELF = "self"  # the player; the service holds only the commitment


class DealSource(StrEnum):
    """Where a step's deal came from (``StepOpened.deal_source``)."""

    SEED = "seed"  # the match's fair randomness
    EXPLICIT = "explicit"  # chosen by the host (physical cards, a scenario)
    NONE = "none"  # the step deals nothing


class Advance(StrEnum):
    """How far carrying a sealed step went (:meth:`domain.match.Match.advance`)."""

    IDLE = "idle"  # no sealed step (none yet, or the current one is open)
    OPENINGS = "openings"  # self-custody openings awaited
    DECISION = "decision"  # a player is asked a decision
    RESOLVED = "resolved"  # the step resolved; the match goes on
    FINISHED = "finished"  # the step resolved and the match is over


class Automatic(StrEnum):
    """What a match's own settings do next (:meth:`domain.match.Match.automatic`)."""

    SEAL = "seal"  # auto_seal: everyone asked has submitted
    OPEN = "open"  # auto_open: every seat claimed and no step yet, or the last one resolved
