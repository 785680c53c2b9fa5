"""The queries and guards of the ``Match`` aggregate (:mod:`domain.match`).

:class:`MatchReading` is a base of ``Match``: what a match can say about itself (its rules,
views, the pending decision, what falls due) and the ``check_*`` guards its commands run
before recording anything. Nothing here triggers an event.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from domain.commitment import canonical_match_id
from domain.fairrand import Rng
from domain.match_errors import (
    CommitmentReused,
    DeadlinePassed,
    MatchOver,
    NotAPlayer,
    StepNotOpen,
)
from domain.records import parse_time
from domain.rules import get_rules
from domain.sealed import binding
from domain.submission_signing import SignatureError, check_submission_signature
from domain.vocabulary import Automatic, StepStatus

if TYPE_CHECKING:
    from datetime import datetime
    from uuid import UUID

    from domain.rules.base import DecisionRequest, Resolution, Rules, State
    from domain.step_record import StepRecord


class MatchReading:
    """The queries and ``check_*`` guards of a match (a base of ``Match``)."""

    # Attributes set by the match's events (see domain.match.Match), read here.
    game: str
    players: list[str]
    player_keys: dict[str, str]
    seed: bytes
    state: State
    result: dict[str, Any] | None
    ended: dict[str, str] | None  # {"reason", "at"} once the host ended the match early
    settings: dict[str, Any]
    credentials: dict[str, str]
    entropy: dict[str, str]
    step: int
    steps: dict[int, StepRecord]
    used_commitments: set[str]

    if TYPE_CHECKING:  # given by eventsourcing's Aggregate, the other base of Match

        @property
        def id(self) -> UUID:
            """The match's id."""

        version: int  # the number of its events

        def trigger_event(self, event_class: type[Any], **kwargs: Any) -> None:
            """Record an event of ``event_class`` (Match, over eventsourcing's)."""

    @property
    def rules(self) -> Rules:
        """The game's rules module."""
        return get_rules(self.game)

    @property
    def match_id(self) -> str:
        """The canonical lowercase UUID text of this match."""
        return canonical_match_id(str(self.id))

    @property
    def finished(self) -> bool:
        """Whether the match has finished by its rules (``MatchFinished``)."""
        return self.result is not None

    @property
    def over(self) -> bool:
        """Whether the match is over: finished by its rules, or ended early by the host."""
        return self.result is not None or self.ended is not None

    @property
    def current(self) -> StepRecord | None:
        """The latest step, if any."""
        return self.steps.get(self.step)

    def bind(self, player: str, field: str) -> str:
        """The binding of a sealed ``field`` of the next event (see :mod:`domain.sealed`)."""
        return binding(self.match_id, self.version + 1, player, field)

    def rng(self, purpose: str) -> Rng:
        """The fair-randomness stream for ``purpose`` (e.g. ``"deal/3"``)."""
        return Rng(self.seed, self.match_id, purpose, self.entropy)

    def public_view(self) -> dict[str, Any]:
        """The public game state now."""
        return self.rules.public_view(self.state)

    def private_view(self, player: str) -> dict[str, Any]:
        """What ``player`` alone may see now."""
        return self.rules.private_view(self.state, player)

    def own_step(self, player: str, most: int) -> dict[str, Any]:
        """What ``player`` has and may do in the current step.

        ``current_pick`` (their pick that stands, when the service holds it), and while the
        step waits for their pick: ``default_pick``, ``legal`` (every legal pick, or ``None``
        when there are more than ``most``) and the pick's ``fields``.
        """
        record = self.current
        own: dict[str, Any] = {}
        if record is not None and player in record.openings:
            own = {"step": record.number, "pick": record.openings[player]["payload"]}
        answer: dict[str, Any] = {
            "current_pick": own,
            "default_pick": None,
            "legal": None,
            "fields": [],
            "kind": None if record is None else record.kind,
        }
        if record is not None and record.status == StepStatus.OPEN and player in record.submitters:
            state = record.state_at_open
            listed = list(
                itertools.islice(self.rules.generate_legal_picks(state, player), most + 1)
            )
            answer |= {
                "default_pick": self.rules.default_pick(state, player),
                "legal": listed if len(listed) <= most else None,
                "fields": [f.as_json() for f in self.rules.pick_fields_for(state, record.kind)],
            }
        return answer

    def pending_request(self) -> tuple[int, DecisionRequest, str | None] | None:
        """The open decision request of the current step: (index, request, deadline)."""
        record = self.current
        if record is None or record.status != StepStatus.SEALED:
            return None
        if len(record.requests) > len(record.decisions):
            index = len(record.decisions)
            return index, record.requests[index], record.request_deadlines[index]
        return None

    def resolve_step(self, record: StepRecord) -> Resolution | DecisionRequest:
        """Run the rules' resolution of ``record`` with the decisions made so far."""
        return self.rules.resolve(
            record.state_at_open,
            record.picks(),
            list(record.decisions),
            self.rng(f"resolve/{record.number}"),
        )

    def check_not_finished(self) -> None:
        """:raises MatchOver: once the match has finished or ended."""
        self.check_not_ended()
        if self.finished:
            msg = "the match has finished"
            raise MatchOver(msg)

    def check_not_ended(self) -> None:
        """:raises MatchOver: once the host ended the match early (only disclosure follows)."""
        if self.ended is not None:
            msg = "the match has ended"
            raise MatchOver(msg)

    def automatic(self) -> Automatic | None:
        """What the match's settings do now by themselves, if anything.

        :attr:`~Automatic.SEAL` with ``auto_seal`` when everyone asked in the open step has
        submitted; :attr:`~Automatic.OPEN` with ``auto_open`` when the last step resolved
        (or, before the first step, once every seat is claimed) and the rules have a next
        step. ``None`` once the match is over.
        """
        if self.over:
            return None
        record = self.current
        if record is None:
            ready = all(p in self.credentials for p in self.players)
            return Automatic.OPEN if self.settings["auto_open"] and ready else None
        if record.status == StepStatus.OPEN:
            everyone = all(p in record.commitments for p in record.submitters)
            return Automatic.SEAL if self.settings["auto_seal"] and everyone else None
        if record.status == StepStatus.RESOLVED and self.settings["auto_open"]:
            return Automatic.OPEN if self.rules.next_step(self.state) is not None else None
        return None

    def check_player(self, player: str) -> None:
        """:raises NotAPlayer: unless ``player`` plays in this match."""
        if player not in self.players:
            msg = f"{player!r} is not a player of this match"
            raise NotAPlayer(msg)

    def check_open_step(self, step: int | None = None, at: datetime | None = None) -> StepRecord:
        """:raises StepNotOpen: unless a step (``step`` if given) is open (at ``at``).

        :raises DeadlinePassed: when the step's deadline has passed at ``at``.
        :raises MatchOver: once the match has ended.
        """
        self.check_not_ended()
        record = self.current
        if record is not None and at is not None:
            self.check_deadline(record.deadline, at, f"step {record.number}")
        if record is None or record.status != StepStatus.OPEN:
            msg = "no step is open for submissions"
            raise StepNotOpen(msg)
        if step is not None and step != record.number:
            msg = f"step {step} is not open; step {record.number} is"
            raise StepNotOpen(msg)
        return record

    def check_submitter(self, record: StepRecord, player: str) -> None:
        """:raises NotAPlayer: unless ``player`` is asked to submit in ``record``."""
        self.check_player(player)
        if player not in record.submitters:
            msg = f"{player!r} is not asked to submit in step {record.number}"
            raise NotAPlayer(msg)

    def check_unused(self, commitment: str) -> None:
        """:raises CommitmentReused: if this match has seen ``commitment`` before."""
        if commitment in self.used_commitments:
            msg = "this commitment was already used in this match; commit with a fresh salt"
            raise CommitmentReused(msg)

    def check_signature(self, record: StepRecord, player: str, commitment: str, sig: Any) -> None:
        """:raises SignatureError: unless ``sig`` fits the player's key.

        A player with a registered key must sign; a player without one must not send a
        signature (nobody could check it, and the log must stay verifiable).
        """
        key = self.player_keys.get(player)
        if key is not None:
            check_submission_signature(key, sig, self.match_id, record.number, player, commitment)
        elif sig is not None:
            msg = (
                f"{player} registered no signing key when claiming the seat, so a submission "
                "cannot carry a signature; send it without one"
            )
            raise SignatureError(msg)

    def check_deadline(self, deadline: str | None, at: datetime, what: str) -> None:
        """:raises DeadlinePassed: when ``at`` is past ``deadline``."""
        if deadline is not None and at > parse_time(deadline):
            msg = f"the deadline of {what} passed at {deadline}; it takes nothing more"
            raise DeadlinePassed(msg)

    def overdue(self, at: datetime) -> str | None:
        """What falls due at ``at``: ``"seal"`` (an open step), ``"decision"`` or ``None``."""
        record = self.current
        if record is None or self.over:
            return None
        if record.status == StepStatus.OPEN and record.deadline is not None:
            return "seal" if at > parse_time(record.deadline) else None
        pending = self.pending_request()
        if pending is not None and pending[2] is not None and at > parse_time(pending[2]):
            return "decision"
        return None

    def _check_missed_decision(self, player: str, at: datetime) -> None:
        """:raises DeadlinePassed: when ``player``'s last decision went by its deadline."""
        record = self.current
        if record is None:
            return
        answered = range(min(len(record.requests), len(record.decisions)))
        for index in reversed(answered):
            if record.requests[index].player == player:
                deadline = record.request_deadlines[index]
                if deadline is not None and at > parse_time(deadline):
                    msg = f"the deadline of this decision passed at {deadline}; the default applied"
                    raise DeadlinePassed(msg)
                return
