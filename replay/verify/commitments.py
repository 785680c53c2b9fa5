"""The ``commitments`` check: every reveal opens its player's latest commitment.

An opening names the latest commitment of its player; a reveal's payload and salt hash to
it (``docs/PROTOCOL.md`` section 2); every commitment is opened once disclosure is due (when
its step resolves, or when the match ends for a game that reveals at the end). After an early
end (``MatchEnded``) every pick the service held is revealed, in any game: each commitment in
sealed custody, and each self-custody one whose opening came.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.commitment import CommitmentError, commit, salt_from_hex
from domain.rules import get_rules
from domain.rules.base import Disclosure
from domain.vocabulary import StepStatus
from replay.verify.structure import HEX64
from replay.verify.visitor import CheckVisitor, Shared, current_step, options_of

if TYPE_CHECKING:
    from collections.abc import Mapping


class CommitmentsCheck(CheckVisitor):
    """Openings and reveals against the commitments they open."""

    names = ("commitments",)

    def __init__(self, shared: Shared) -> None:
        """Start with nothing seen."""
        super().__init__(shared)
        self.match_id = str(shared.header.get("match_id"))
        self.disclosure: Disclosure | None = None
        self.used: set[str] = set()
        self.reveals = 0

    def on_MatchCreated(self, data: Mapping[str, Any]) -> None:  # noqa: N802 - event name
        """Learn when the game discloses picks."""
        if self.seq == 0:
            try:
                self.disclosure = get_rules(data["game"]).disclosure_for(options_of(data))
            except ValueError:
                self.disclosure = None  # the structure check reports an unknown game

    def on_SubmissionCommitted(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """Count the distinct commitments."""
        value = data["commitment"]
        if isinstance(value, str) and HEX64.fullmatch(value):
            self.used.add(value)

    def on_OpeningReceived(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """An opening names its player's latest commitment."""
        cur = current_step(self.log, data, StepStatus.SEALED)
        player = data["player"]
        if cur is None or player not in cur.submitters:
            return
        latest = cur.commitments.get(player)
        if latest is None or data["commitment"] != latest.commitment:
            self.fail(
                "commitments",
                self.seq,
                f"{player}'s opening in step {cur.number} names a commitment that is not their "
                "latest",
            )

    def on_SubmissionRevealed(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """A reveal opens its player's latest commitment of its step."""
        number, player = data["step"], data["player"]
        if self.disclosure is Disclosure.AT_END or self.log.ended is not None:
            target = self.log.step(number) if isinstance(number, int) else None
        else:
            target = current_step(self.log, data, StepStatus.SEALED)
        if target is None or player not in target.submitters:
            return
        latest = target.commitments.get(player)
        if latest is None or data["commitment"] != latest.commitment:
            self.fail(
                "commitments",
                self.seq,
                f"the reveal of {player} in step {number} names a commitment that is not their "
                "latest",
            )
            return
        try:
            opened = commit(
                self.match_id, number, player, data["payload"], salt_from_hex(data["salt"])
            )
        except (CommitmentError, TypeError, ValueError) as exc:
            self.fail(
                "commitments",
                self.seq,
                f"the reveal of {player} in step {number} is malformed: {exc}",
            )
            return
        if opened != latest.commitment:
            self.fail(
                "commitments",
                self.seq,
                f"the reveal of {player} in step {number} does not open their commitment (seq "
                f"{latest.seq})",
            )
        else:
            self.reveals += 1

    def on_StepResolved(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """A game that reveals on resolution reveals every pick before the step resolves."""
        cur = current_step(self.log, data, StepStatus.SEALED)
        if cur is None or self.disclosure is not Disclosure.ON_RESOLVE:
            return
        for player in cur.submitters:
            if player in cur.defaults or player not in cur.commitments:
                continue
            if self.log.custody.get(player) == "self" and player not in cur.openings:
                continue
            if player not in cur.reveals:
                self.fail(
                    "commitments",
                    self.seq,
                    f"step {cur.number} resolves without revealing {player}'s pick",
                )

    def end(self) -> None:
        """A game that reveals at the end has opened every commitment once it finished."""
        log = self.log
        if log.ended is not None:
            self.ended_disclosure()
        elif self.disclosure is Disclosure.AT_END:
            for step in log.steps.values():
                for player, entry in step.commitments.items():
                    if player in step.defaults or player in step.reveals:
                        continue
                    if log.finished:
                        self.fail(
                            "commitments",
                            entry.seq,
                            f"{player}'s commitment in step {step.number} was never revealed",
                        )
                    else:
                        self.pend("commitments", "this game reveals picks when the match ends")
        self.summary(
            "commitments",
            f"{len(self.used)} distinct commitment(s); {self.reveals} reveal(s) open them",
        )

    def ended_disclosure(self) -> None:
        """After an early end, every pick held is revealed (the interrupted step's too)."""
        log = self.log
        for step in log.steps.values():
            for player, entry in step.commitments.items():
                if player in step.defaults or player in step.reveals:
                    continue
                if log.custody.get(player) == "self" and player not in step.openings:
                    continue  # never opened: the pick stays with its player
                self.fail(
                    "commitments",
                    entry.seq,
                    f"{player}'s commitment in step {step.number} was never revealed, though "
                    "the match ended early and the service held the pick",
                )


__all__ = ["CommitmentsCheck"]
