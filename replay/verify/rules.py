"""The ``deals`` and ``outcomes`` checks: the match replayed through its rules.

Seed deals are recomputed from the revealed seed and explicit deals must be dealable
(``rules.scenario_deal`` and ``check_deal``, the same for every game); defaults, decision
requests, decisions, outcomes, views and the result must all be the rules' own
(:mod:`replay.state`). Both come from one replay, which needs the whole log's disclosures
(the seed, the private deals, at-end reveals), so it runs when the walk ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.vocabulary import DealSource
from replay.state import (
    DEALS,
    OUTCOMES,
    Disclosed,
    ReplayContext,
    ReplayError,
    apply_in_place,
    finish,
    initial_frame,
)
from replay.verify.structure import HOST
from replay.verify.visitor import CheckVisitor

if TYPE_CHECKING:
    from collections.abc import Mapping


class RulesCheck(CheckVisitor):
    """Replays the records through the game's rules when the walk ends."""

    per_record = False
    names = (DEALS, OUTCOMES)

    def visit(self, record: Mapping[str, Any]) -> None:
        """Nothing until the end: the records are kept by the walk."""

    def end(self) -> None:
        """Replay the whole match, reporting every difference from the rules."""
        records = self.shared.records
        try:
            ctx = ReplayContext.from_records(records, disclosed=Disclosed.of(self.log))
        except ReplayError as exc:
            for check in (DEALS, OUTCOMES):
                self.fail(check, 0, f"the match cannot be replayed: {exc}")
            return
        if ctx.rules.version != ctx.rules_version:
            for check in (DEALS, OUTCOMES):
                self.fail(
                    check,
                    0,
                    f"the match used {ctx.game} rules version {ctx.rules_version}; this verifier "
                    f"has version {ctx.rules.version}",
                )
            return
        counts = {DEALS: 0, OUTCOMES: 0}
        declared: set[Any] = set()
        frame = initial_frame()
        tick = self.shared.tick
        for record in records:
            kind = record.get("type")
            data = record.get("data")
            if kind == "StepOpened" and isinstance(data, dict):
                counts[DEALS] += data.get("deal_source") != DealSource.NONE
            elif kind == "StepResolved":
                counts[OUTCOMES] += 1
            elif kind == "DecisionMade" and isinstance(data, dict) and data.get("player") == HOST:
                declared.add(data.get("step"))
            frame = apply_in_place(ctx, frame, record, self.report)
            tick()
        finish(ctx, frame, self.report)
        self.summary(
            DEALS,
            f"{counts[DEALS]} deal(s) recomputed or checked"
            if counts[DEALS]
            else "no step dealt anything",
        )
        summary = (
            f"{counts[OUTCOMES]} step(s) replayed through the {ctx.game} rules; every outcome "
            "follows"
        )
        if declared:
            summary += (
                f"; the winners of {len(declared)} step(s) were declared by the host, whose "
                "declaration is checked for shape only (distinct players, a short note)"
            )
        self.summary(OUTCOMES, summary)

    def report(
        self, check: str, seq: int, message: str, *, pending: bool = False, unchecked: bool = False
    ) -> None:
        """A finding of the replay (:class:`replay.state.Reporter`)."""
        if unchecked:
            self.tallies[check].unchecked = f"{message} (seq {seq})"
        elif pending:
            self.pend(check, message)
        else:
            self.fail(check, seq, message)


__all__ = ["RulesCheck"]
