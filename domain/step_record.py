"""What the ``Match`` aggregate (:mod:`domain.match`) knows of one step."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from domain.vocabulary import DealSource, StepStatus

if TYPE_CHECKING:
    from domain.rules.base import DecisionRequest, Payload, State


@dataclass
class StepRecord:
    """What the aggregate knows of one step (private parts included)."""

    number: int
    kind: str
    submitters: list[str]
    deadline: str | None
    deal_source: DealSource
    deal_public: dict[str, Any]
    deal_private: dict[str, Any]
    state_at_open: State
    status: StepStatus = StepStatus.OPEN  # open -> sealed -> resolved
    commitments: dict[str, str] = field(default_factory=dict)
    openings: dict[str, dict[str, Any]] = field(default_factory=dict)
    signatures: dict[str, str | None] = field(default_factory=dict)
    defaults: dict[str, Payload] = field(default_factory=dict)
    revealed: set[str] = field(default_factory=set)
    requests: list[DecisionRequest] = field(default_factory=list)
    request_deadlines: list[str | None] = field(default_factory=list)
    decisions: list[Payload] = field(default_factory=list)
    outcome: dict[str, Any] | None = None

    def picks(self) -> dict[str, Payload]:
        """Each submitter's pick: the opened payload, or the default applied."""
        out: dict[str, Payload] = {}
        for player in self.submitters:
            if player in self.defaults:
                out[player] = self.defaults[player]
            else:
                out[player] = self.openings[player]["payload"]
        return out

    def awaiting_openings(self) -> list[str]:
        """Self-custody submitters whose opening has not arrived (and no default yet)."""
        return [
            p
            for p in self.submitters
            if p in self.commitments and p not in self.openings and p not in self.defaults
        ]
