"""What a picture sees at one position of the log, read from the public-record model.

The public records (``docs/PROTOCOL.md`` section 3, oldest first, ``seq`` equal to the
position) are folded by :class:`domain.public_log.PublicLog` alone; a picture gets a
:class:`Moment` (that fold up to one record, with the public view replayed there) and an
account gets the :class:`~domain.public_log.PublicStep` it tells. The helpers below read a
step's reveals, defaults and pending decisions as plain values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.public_log import PublicLog, PublicStep, Request
from domain.vocabulary import StepStatus
from replay.state import MatchReplay, ReplayError
from web import svg

if TYPE_CHECKING:
    from collections.abc import Iterable

Record = Mapping[str, Any]

__all__ = [
    "Moment",
    "PublicStep",
    "Record",
    "defaulted",
    "game_of",
    "moment_at",
    "pending",
    "revealed",
    "seated",
]


@dataclass(frozen=True)
class Moment:
    """The public facts at one position of the log: the public log so far and the view."""

    game: str
    players: list[str]
    seq: int
    record_type: str
    view: dict[str, Any]
    log: PublicLog

    @property
    def colours(self) -> dict[str, str]:
        """Each player's colour."""
        return svg.colours(self.players)

    @property
    def open_step(self) -> PublicStep | None:
        """The step opened last, while it is not resolved."""
        step = self.log.current
        return step if step is not None and step.status is not StepStatus.RESOLVED else None

    @property
    def resolved(self) -> PublicStep | None:
        """The step resolved last, if any."""
        done = [s for s in self.log.steps.values() if s.resolved_seq is not None]
        return max(done, key=lambda s: s.resolved_seq or 0, default=None)

    @property
    def outcome(self) -> Mapping[str, Any]:
        """The outcome of the step resolved last (``{}`` before any)."""
        step = self.resolved
        return (step.outcome or {}) if step is not None else {}


def game_of(records: Sequence[Record]) -> tuple[str, list[str]]:
    """The game's wire name and the players in seat order, from ``MatchCreated``.

    :raises ValueError: when ``records`` is empty.
    """
    if not records:
        msg = "a match has at least its MatchCreated record"
        raise ValueError(msg)
    data = records[0].get("data") or {}
    players = data.get("players")
    return str(data.get("game")), [str(p) for p in players] if isinstance(players, list) else []


def _recorded_view(records: Sequence[Record]) -> dict[str, Any]:
    """The last view the log recorded (for a game the replay cannot run)."""
    for record in reversed(records):
        view = (record.get("data") or {}).get("view")
        if isinstance(view, dict):
            return dict(view)
    return {}


def moment_at(records: Sequence[Record], seq: int, board: MatchReplay | None = None) -> Moment:
    """The public facts just after record ``seq``; ``board`` may pass a replay of ``records``.

    :raises ValueError: when ``records`` is empty.
    :raises IndexError: when there is no record ``seq``.
    """
    game, players = game_of(records)
    if not isinstance(seq, int) or not 0 <= seq < len(records):
        msg = f"record {seq!r} does not exist; this match has records 0 to {len(records) - 1}"
        raise IndexError(msg)
    seen = records[: seq + 1]
    try:
        view = (board or MatchReplay(records)).view_at(seq)
    except ReplayError:
        view = _recorded_view(seen)
    return Moment(game, players, seq, str(records[seq].get("type")), view, PublicLog.of(seen))


def revealed(step: PublicStep) -> dict[str, Any]:
    """Each revealed pick of ``step``, by player."""
    return {player: reveal.payload for player, reveal in step.reveals.items()}


def defaulted(step: PublicStep) -> dict[str, Any]:
    """Each default pick applied in ``step``, by player."""
    return {player: default.payload for player, default in step.defaults.items()}


def pending(step: PublicStep) -> tuple[Request, ...]:
    """The decision requests of ``step`` not answered yet."""
    return step.requests[len(step.decisions) :]


def seated(players: Sequence[str], values: Any) -> list[tuple[Any, Any]]:
    """The items of a ``{player: ...}`` mapping in seat order (JSON keys are sorted)."""
    if not isinstance(values, Mapping):
        return []
    seats = {p: i for i, p in enumerate(players)}
    items: Iterable[tuple[Any, Any]] = values.items()
    return sorted(items, key=lambda item: seats.get(item[0], len(seats)))
