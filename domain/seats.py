"""The seats of the ``Match`` aggregate (:mod:`domain.match`): claiming, re-inviting, joining.

:class:`MatchSeats` is a base of ``Match``. A player claims their seat with its single-use
invite (``SeatClaimed``), the host can re-invite a seat (``SeatReinvited``), and a seated
player joins, optionally adding public entropy (``PlayerJoined``); :meth:`~MatchSeats.seats`
and :meth:`~MatchSeats.check_credential` read what those events recorded.
"""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING, Any

from domain.match_errors import BadInvite, MatchError, SeatTaken
from domain.match_reading import MatchReading
from domain.records import token_hash
from domain.sealed import Sealed
from domain.submission_signing import public_key_from_text

if TYPE_CHECKING:
    from datetime import datetime

MAX_ENTROPY = 256


class MatchSeats(MatchReading):
    """The seat commands of a match, and what they recorded (a base of ``Match``)."""

    # Attributes set by the match's events (see domain.match.Match), read here.
    credentials: dict[str, str]
    invites: dict[str, str]
    joined: set[str]

    if TYPE_CHECKING:  # defined by Match
        SeatClaimed: type[Any]
        SeatReinvited: type[Any]
        PlayerJoined: type[Any]

    def seats(self) -> dict[str, dict[str, Any]]:
        """Each seat: whether it is claimed, and the signing key it registered (public)."""
        return {
            p: {"claimed": p in self.credentials, "public_key": self.player_keys.get(p)}
            for p in self.players
        }

    def check_credential(self, role: str, token: str) -> bool:
        """Whether ``token`` is the credential of ``role`` (constant-time comparison)."""
        stored = self.credentials.get(role)
        if stored is None or not isinstance(token, str):
            return False
        return hmac.compare_digest(stored, token_hash(token))

    def claim(
        self, player: str, invite: str, credential: str, public_key: str | None, at: datetime
    ) -> None:
        """Claim ``player``'s seat with its invite; ``credential`` is the new token's hash.

        :raises NotAPlayer, SeatTaken, BadInvite, SignatureError: for a stranger, a seat
            already claimed, a wrong invite or a malformed key.
        :raises MatchOver: once the match has ended.
        """
        self.check_not_ended()
        self.check_player(player)
        stored = self.invites.get(player)
        if stored is None:
            msg = (
                f"the seat of {player} was already claimed; if that was not you, ask the host "
                "for a new invite"
            )
            raise SeatTaken(msg)
        if not isinstance(invite, str) or not hmac.compare_digest(stored, token_hash(invite)):
            msg = f"that is not the current invite for {player}'s seat"
            raise BadInvite(msg)
        if public_key is not None:
            public_key_from_text(public_key)
        self.trigger_event(
            self.SeatClaimed,
            timestamp=at,
            player=player,
            public_key=public_key,
            credential=Sealed(credential, self.bind(player, "credential")),
        )

    def reinvite(self, player: str, invite: str, at: datetime) -> None:
        """Issue a new invite for ``player``'s seat (``invite`` is its hash).

        The seat's credential and key are revoked; the new invite alone can claim it.

        :raises NotAPlayer, MatchOver:
        """
        self.check_not_ended()
        self.check_player(player)
        self.trigger_event(
            self.SeatReinvited,
            timestamp=at,
            player=player,
            invite=Sealed(invite, self.bind(player, "invite")),
        )

    def join(self, player: str, entropy: str | None, at: datetime) -> bool:
        """Take a seat, optionally adding public entropy before the first deal.

        Joining twice is harmless (returns ``False``, records nothing).

        :raises NotAPlayer, MatchError: for a stranger, or entropy after the first deal.
        :raises MatchOver: once the match has ended.
        """
        self.check_not_ended()
        self.check_player(player)
        if entropy is not None:
            if not isinstance(entropy, str) or not entropy or len(entropy) > MAX_ENTROPY:
                msg = f"entropy is text of 1 to {MAX_ENTROPY} characters"
                raise MatchError(msg)
            if self.steps:
                msg = "entropy can only be added before the first deal"
                raise MatchError(msg)
        if player in self.joined and (entropy is None or self.entropy.get(player) == entropy):
            return False
        if player in self.joined:
            msg = f"{player!r} has already joined; entropy is given once, when joining"
            raise MatchError(msg)
        self.trigger_event(self.PlayerJoined, timestamp=at, player=player, entropy=entropy)
        return True
