"""The submissions of the ``Match`` aggregate (:mod:`domain.match`): commitments and openings.

:class:`MatchSubmissions` is a base of ``Match``. A player in sealed custody sends the pick and
the match seals it with its salt; a player in self-custody sends a commitment, and opens it
after the step is sealed. Until then a new submission amends the earlier one
(``SubmissionCommitted`` names what it supersedes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.commitment import CommitmentError, Opening, check_commitment_hex, commit
from domain.match_errors import BadSalt, MatchError, RevealMismatch, check_salt_randomness
from domain.match_reading import MatchReading
from domain.sealed import Sealed
from domain.vocabulary import Custody, StepStatus

if TYPE_CHECKING:
    from datetime import datetime

    from domain.step_record import StepRecord


class MatchSubmissions(MatchReading):
    """The submission commands of a match (a base of ``Match``)."""

    # Attributes set by the match's events (see domain.match.Match), read here.
    custody: dict[str, str]
    used_salts: set[str]

    if TYPE_CHECKING:  # defined by Match
        SubmissionCommitted: type[Any]
        OpeningReceived: type[Any]
        SubmissionRevealed: type[Any]

    def submit_sealed(
        self,
        player: str,
        payload: Any,
        salt: bytes,
        at: datetime,
        *,
        step: int | None = None,
        signature: str | None = None,
        client_salt: bool = False,
    ) -> str:
        """Commit to ``payload`` in sealed custody and return the commitment.

        Submitting the same pick again returns the recorded commitment and records
        nothing, when the service draws the salt (``client_salt`` false) or the client
        sends the same salt again; the same pick with a new client salt is a new
        commitment, an amendment like a different pick, until the step is sealed.

        :raises StepNotOpen, DeadlinePassed, NotAPlayer, IllegalPick, CommitmentReused,
            BadSalt, MatchError:
        """
        record = self.check_open_step(step, at)
        self.check_submitter(record, player)
        if self.custody[player] != Custody.SEALED:
            msg = f"{player} keeps custody of their picks; send a commitment, not a pick"
            raise MatchError(msg)
        pick = self.rules.check_pick(record.state_at_open, player, payload)
        earlier = record.openings.get(player)
        if (
            earlier is not None
            and earlier["payload"] == pick
            and (not client_salt or earlier["salt"] == salt.hex())
        ):
            return record.commitments[player]
        if client_salt:
            check_salt_randomness(salt)
            if salt.hex() in self.used_salts:
                msg = "this salt was already used in this match; draw a fresh random salt"
                raise BadSalt(msg)
        commitment = commit(self.match_id, record.number, player, pick, salt)
        opening = {"payload": pick, "salt": salt.hex()}
        return self._commit(record, player, commitment, signature, opening, at)

    def submit_commitment(
        self,
        player: str,
        commitment: str,
        at: datetime,
        *,
        step: int | None = None,
        signature: str | None = None,
    ) -> str:
        """Record a self-custody commitment (the pick stays with the player).

        :raises StepNotOpen, DeadlinePassed, NotAPlayer, CommitmentError, CommitmentReused,
            MatchError:
        """
        record = self.check_open_step(step, at)
        self.check_submitter(record, player)
        if self.custody[player] != Custody.SELF:
            msg = f"{player} is in sealed custody; send the pick itself"
            raise MatchError(msg)
        commitment = check_commitment_hex(commitment)
        if record.commitments.get(player) == commitment:
            return commitment
        return self._commit(record, player, commitment, signature, None, at)

    def open_commitment(
        self, player: str, step: int, payload: Any, salt_hex: str, at: datetime
    ) -> None:
        """A self-custody player opens their commitment after the step is sealed.

        :raises MatchError, CommitmentError, IllegalPick: when it does not open the
            commitment, comes too late or the pick is not legal.
        :raises MatchOver: once the match has ended.
        """
        self.check_not_ended()
        record = self.steps.get(step)
        if record is None or record.status != StepStatus.SEALED or record.requests:
            msg = f"step {step} is not waiting for openings"
            raise MatchError(msg)
        commitment = record.commitments.get(player)
        if commitment is None or self.custody[player] != Custody.SELF:
            msg = f"{player!r} has no self-custody commitment in step {step}"
            raise MatchError(msg)
        if player in record.openings or player in record.defaults:
            msg = f"{player!r} has already opened (or defaulted) in step {step}"
            raise MatchError(msg)
        opening = Opening(payload, salt_hex)
        if not opening.opens(commitment, self.match_id, step, player):
            msg = "this payload and salt do not open your commitment"
            raise CommitmentError(msg)
        pick = self.rules.check_pick(record.state_at_open, player, payload)
        if pick != payload:
            msg = "the pick is not in its normal form; commit to the normal form"
            raise MatchError(msg)
        self.trigger_event(
            self.OpeningReceived,
            timestamp=at,
            step=step,
            player=player,
            commitment=commitment,
            opening=Sealed(opening.to_json(), self.bind(player, "opening")),
        )

    def reveal_held(self, record: StepRecord, at: datetime) -> None:
        """Reveal every pick held in ``record`` that is neither public nor defaulted yet.

        :raises RevealMismatch: when a stored pick does not open its commitment.
        """
        for player in record.submitters:
            opening = record.openings.get(player)
            if opening is None or player in record.revealed or player in record.defaults:
                continue
            commitment = commit(
                self.match_id,
                record.number,
                player,
                opening["payload"],
                bytes.fromhex(opening["salt"]),
            )
            if commitment != record.commitments[player]:
                msg = (
                    f"the stored pick of {player} in step {record.number} does not open the "
                    "commitment recorded for it: the store was altered; nothing is revealed"
                )
                raise RevealMismatch(msg)
            self.trigger_event(
                self.SubmissionRevealed,
                timestamp=at,
                step=record.number,
                player=player,
                commitment=record.commitments[player],
                payload=opening["payload"],
                salt=opening["salt"],
            )

    def _commit(
        self,
        record: StepRecord,
        player: str,
        commitment: str,
        signature: str | None,
        opening: dict[str, Any] | None,
        at: datetime,
    ) -> str:
        """Record a (new or amending) commitment; the opening is sealed with it, if any."""
        self.check_signature(record, player, commitment, signature)
        self.check_unused(commitment)
        self.trigger_event(
            self.SubmissionCommitted,
            timestamp=at,
            step=record.number,
            player=player,
            commitment=commitment,
            custody=self.custody[player],
            supersedes=record.commitments.get(player),
            signature=signature,
            opening=Sealed(opening, self.bind(player, "opening")),
        )
        return commitment
