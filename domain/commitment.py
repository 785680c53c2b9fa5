"""The commitment scheme for sealed picks (ARCHITECTURE.md, "Commitments").

::

    commitment = SHA-256( b"dealerroom/commit/v1" || 0x00
                          || lp(match_id) || lp(step) || lp(player)
                          || lp(JCS(payload)) || lp(salt) )

``lp(x)`` is the 4-byte big-endian length of ``x`` followed by ``x`` (text as UTF-8);
``match_id`` is the lowercase canonical UUID text, ``step`` the decimal ASCII step number,
``salt`` 32 random bytes, ``JCS`` RFC 8785 canonical JSON. Commitments and salts travel
as lowercase hex.

Hiding comes from the 256-bit salt; binding from SHA-256; binding the match, step and
player into the hash stops a commitment copied from elsewhere from verifying here.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import uuid
from dataclasses import dataclass
from typing import Any

from domain.canonical import canonical_json, lp
from domain.errors import UserError

TAG = b"dealerroom/commit/v1"
SALT_SIZE = 32
MAX_PAYLOAD_DEPTH = 32
"""The deepest nesting of lists and objects a committed payload may have (picks use 3)."""
_HEX64 = re.compile(r"[0-9a-f]{64}")


class CommitmentError(UserError):
    """A commitment, salt or opening is malformed or does not match."""


def check_payload_depth(payload: Any) -> None:
    """Refuse a payload nested deeper than :data:`MAX_PAYLOAD_DEPTH`, without recursion.

    Canonical JSON recurses once per level, so a payload from a caller is measured first
    (a self-custody opening is hashed before the rules look at it).

    >>> check_payload_depth({"wants": ["R1"]})
    >>> check_payload_depth([[[]]] * 2)

    :raises CommitmentError: when it is nested deeper.
    """
    level: list[Any] = [payload]
    for _ in range(MAX_PAYLOAD_DEPTH + 1):
        inner: list[Any] = []
        for value in level:
            if isinstance(value, dict):
                inner.extend(value.values())
            elif isinstance(value, list | tuple):
                inner.extend(value)
        if not inner:
            return
        level = inner
    msg = f"a pick is nested at most {MAX_PAYLOAD_DEPTH} levels deep"
    raise CommitmentError(msg)


_CANONICAL_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def canonical_match_id(match_id: str) -> str:
    """Return the lowercase canonical UUID text of ``match_id``.

    :raises CommitmentError: if it is not a UUID.

    >>> canonical_match_id("6F9619FF-8B86-D011-B42D-00C04FC964FF")
    '6f9619ff-8b86-d011-b42d-00c04fc964ff'
    """
    if isinstance(match_id, str) and _CANONICAL_ID.fullmatch(match_id):
        return match_id  # already canonical (as every id the service hands out is)
    try:
        return str(uuid.UUID(str(match_id)))
    except ValueError:
        msg = f"{match_id!r} is not a match id (a UUID)"
        raise CommitmentError(msg) from None


def commit(match_id: str, step: int, player: str, payload: Any, salt: bytes) -> str:
    """Return the lowercase hex commitment to ``payload``.

    :raises CommitmentError: for a salt that is not 32 bytes, a bad step or a payload
        nested deeper than :data:`MAX_PAYLOAD_DEPTH`.

    >>> commit("00000000-0000-4000-8000-000000000000", 1, "ana", {"card": 11}, bytes(32))[:16]
    'd41df6541a57051e'
    """
    if not isinstance(salt, bytes) or len(salt) != SALT_SIZE:
        msg = f"a salt is {SALT_SIZE} bytes ({2 * SALT_SIZE} hex digits)"
        raise CommitmentError(msg)
    if isinstance(step, bool) or not isinstance(step, int) or step < 0:
        msg = "a step number is a non-negative integer"
        raise CommitmentError(msg)
    check_payload_depth(payload)
    message = (
        TAG
        + b"\x00"
        + lp(canonical_match_id(match_id).encode())
        + lp(str(step).encode())
        + lp(player.encode())
        + lp(canonical_json(payload))
        + lp(salt)
    )
    return hashlib.sha256(message).hexdigest()


def check_commitment_hex(value: Any) -> str:
    """Return ``value`` if it is 64 lowercase hex digits.

    :raises CommitmentError: otherwise.
    """
    if not isinstance(value, str) or not _HEX64.fullmatch(value):
        msg = "a commitment is 64 lowercase hex digits"
        raise CommitmentError(msg)
    return value


def salt_from_hex(value: Any) -> bytes:
    """Decode a salt given as 64 lowercase hex digits.

    :raises CommitmentError: if it is not.
    """
    if not isinstance(value, str) or not _HEX64.fullmatch(value):
        msg = "a salt is 64 lowercase hex digits"
        raise CommitmentError(msg)
    return bytes.fromhex(value)


@dataclass(frozen=True)
class Opening:
    """A pick and the salt that opens its commitment."""

    payload: Any
    salt: str  # lowercase hex

    def commitment(self, match_id: str, step: int, player: str) -> str:
        """Recompute the commitment this opening opens."""
        return commit(match_id, step, player, self.payload, salt_from_hex(self.salt))

    def opens(self, commitment: str, match_id: str, step: int, player: str) -> bool:
        """Whether this opening matches ``commitment`` (compared in constant time)."""
        try:
            mine = self.commitment(match_id, step, player)
        except (CommitmentError, TypeError, ValueError):
            return False
        return hmac.compare_digest(mine, commitment)

    def to_json(self) -> dict[str, Any]:
        """The wire form ``{"payload": ..., "salt": hex}``."""
        return {"payload": self.payload, "salt": self.salt}
