"""The ``signatures`` check: players who hold a key sign each of their submissions.

A player's key at a submission is the one of their latest seat claim, else the one in
``MatchCreated``; a re-invite revokes it. Submissions of players without a key carry no
signature.
"""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING, Any

from replay.bundle import check_submission_signature
from replay.verify.structure import HEX64
from replay.verify.visitor import CheckVisitor, Shared

if TYPE_CHECKING:
    from collections.abc import Mapping


def is_key(value: Any) -> bool:
    """Whether ``value`` is standard base64 of a 32-byte Ed25519 public key."""
    try:
        return isinstance(value, str) and len(base64.b64decode(value, validate=True)) == 32  # noqa: PLR2004
    except (binascii.Error, ValueError):
        return False


class SignaturesCheck(CheckVisitor):
    """Each submission against its player's key at that point."""

    names = ("signatures",)

    def __init__(self, shared: Shared) -> None:
        """Start with nothing seen."""
        super().__init__(shared)
        self.match_id = str(shared.header.get("match_id"))
        self.keys: dict[str, str] = {}
        self.signed = 0

    def on_MatchCreated(self, data: Mapping[str, Any]) -> None:  # noqa: N802 - event name
        """The keys registered at creation are players' Ed25519 keys."""
        if self.seq != 0:
            return
        data["game"]
        players = data["players"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            players = []
        data["custody"]
        keys = data["player_keys"]
        if not isinstance(keys, dict):
            keys = {}
        for player, key in keys.items():
            if player not in players or not is_key(key):
                self.fail(
                    "signatures", 0, f"the key of {player!r} is not a player's base64 Ed25519 key"
                )
        self.keys = {p: k for p, k in keys.items() if isinstance(k, str)}

    def on_SeatClaimed(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """A claim registers the seat's key (or none)."""
        player, key = data["player"], data["public_key"]
        if player not in self.log.players:
            return
        data["actor"]
        if key is None:
            self.keys.pop(player, None)
        elif is_key(key):
            self.keys[player] = key
        else:
            self.keys.pop(player, None)
            self.fail(
                "signatures",
                self.seq,
                f"{player} claimed the seat with a key that is not base64 of a 32-byte Ed25519 key",
            )

    def on_SeatReinvited(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """A re-invite revokes the seat's key."""
        player = data["player"]
        if player in self.log.players:
            self.keys.pop(player, None)

    def on_SubmissionCommitted(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """A submission is signed by its player's key, or unsigned when they hold none."""
        value = data["commitment"]
        if not isinstance(value, str) or not HEX64.fullmatch(value):
            return  # the structure check reports it
        player, signature = data["player"], data["signature"]
        key = self.keys.get(player)
        if key is None:
            if signature is not None:
                self.fail(
                    "signatures",
                    self.seq,
                    f"{player} registered no key, yet the submission at {self.seq} carries a "
                    "signature",
                )
            return
        if not isinstance(signature, str) or not check_submission_signature(
            key, signature, self.match_id, data["step"], player, value
        ):
            what = "lacks" if signature is None else "has an invalid"
            self.fail(
                "signatures", self.seq, f"the submission of {player} at {self.seq} {what} signature"
            )
            return
        self.signed += 1

    def end(self) -> None:
        """Say how many submissions were signed."""
        self.summary(
            "signatures",
            f"{self.signed} submission(s) signed by their players"
            if self.keys
            else "no player registered a key",
        )


__all__ = ["SignaturesCheck", "is_key"]
