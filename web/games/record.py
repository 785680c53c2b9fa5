"""What the public records say at one position, and about one step.

The pictures read a :class:`Moment` (the public state just after one record, with the open
step's commitments and reveals), the accounts a :class:`Step` (every public record of one
step). Both are folds over the public records of ``docs/PROTOCOL.md`` section 3, oldest
first, ``seq`` equal to the position.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from replay.state import MatchReplay, ReplayError
from web import svg

Record = Mapping[str, Any]

__all__ = ["Moment", "Record", "Step", "game_of", "moment_at", "step_of"]


@dataclass
class Moment:
    """The public facts at one position of the log."""

    game: str
    players: list[str]
    seq: int
    record_type: str
    view: dict[str, Any]
    resolved: dict[str, Any] | None = None  # data of the last StepResolved so far
    open_step: dict[str, Any] | None = None  # data of a StepOpened not resolved yet
    committed: list[Any] = field(default_factory=list)  # of the open step
    revealed: dict[Any, Any] = field(default_factory=dict)  # of the open step
    defaulted: dict[Any, Any] = field(default_factory=dict)  # of the open step
    requested: list[dict[str, Any]] = field(default_factory=list)  # of the open step
    finished: dict[str, Any] | None = None  # data of MatchFinished

    @property
    def colours(self) -> dict[str, str]:
        """Each player's colour."""
        return svg.colours(self.players)


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
    moment = Moment(game, players, seq, str(records[seq].get("type")), view)
    for record in seen:
        kind, data = record.get("type"), record.get("data") or {}
        if kind == "StepOpened":
            moment.open_step = data
            moment.committed, moment.revealed, moment.defaulted = [], {}, {}
            moment.requested = []
        elif kind == "StepResolved":
            moment.resolved, moment.open_step = data, None
        elif kind == "MatchFinished":
            moment.finished = data
        elif moment.open_step is not None and data.get("step") == moment.open_step.get("step"):
            player = data.get("player")
            if kind == "SubmissionCommitted" and player not in moment.committed:
                moment.committed.append(player)
            elif kind == "SubmissionRevealed":
                moment.revealed[player] = data.get("payload")
            elif kind == "DefaultApplied":
                moment.defaulted[player] = data.get("payload")
            elif kind == "DecisionRequested":
                moment.requested.append(data)
            elif kind == "DecisionMade" and moment.requested:
                moment.requested.pop()
    return moment


@dataclass
class Step:
    """The public records of one step."""

    number: int
    opened: dict[str, Any] | None = None
    committed: list[Any] = field(default_factory=list)
    defaults: list[dict[str, Any]] = field(default_factory=list)
    revealed: dict[Any, Any] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    resolved: dict[str, Any] | None = None
    players: list[str] = field(default_factory=list)  # seat order

    def seated(self, values: Any) -> list[tuple[Any, Any]]:
        """The items of a ``{player: ...}`` mapping in seat order (JSON keys are sorted)."""
        if not isinstance(values, dict):
            return []
        seats = {p: i for i, p in enumerate(self.players)}
        return sorted(values.items(), key=lambda item: seats.get(item[0], len(seats)))


def step_of(records: Sequence[Record], number: int) -> Step:
    """The public records of step ``number`` (nothing opened when it never opened)."""
    step = Step(number, players=game_of(records)[1])
    for record in records:
        kind, data = record.get("type"), dict(record.get("data") or {})
        if data.get("step") != number:
            continue
        if kind == "StepOpened":
            step.opened = data
        elif kind == "SubmissionCommitted" and data.get("player") not in step.committed:
            step.committed.append(data.get("player"))
        elif kind == "DefaultApplied":
            step.defaults.append(data)
        elif kind == "SubmissionRevealed":
            step.revealed[data.get("player")] = data.get("payload")
        elif kind == "DecisionRequested":
            step.requests.append(data)
        elif kind == "DecisionMade":
            step.decisions.append(data)
        elif kind == "StepResolved":
            step.resolved = data
    return step
