r"""Player-signed submissions: a player who registered an Ed25519 key signs each commitment.

The signed message (UTF-8)::

    dealerroom/submission/v1\n<match_id>\n<step>\n<player>\n<commitment>\n

``match_id`` is the canonical lowercase UUID, ``step`` decimal, ``commitment`` 64 hex
digits. The signature is Ed25519 over those bytes, sent and logged as standard base64
(``SubmissionCommitted.signature``). The player's public key is registered in
``MatchCreated.player_keys`` as standard base64 of its 32 raw bytes. Because the service
never holds the private key, it cannot forge a signed player's pick.
"""

from __future__ import annotations

import base64
import binascii

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from domain.commitment import canonical_match_id
from domain.errors import UserError

TAG = "dealerroom/submission/v1"


class SignatureError(UserError):
    """A missing, malformed or wrong submission signature, or a malformed key."""


def submission_message(match_id: str, step: int, player: str, commitment: str) -> bytes:
    r"""The bytes a player signs for one commitment (the match id in canonical form).

    >>> submission_message("00000000-0000-4000-8000-000000000000", 1, "ana", "ab" * 32)[:25]
    b'dealerroom/submission/v1\n'
    """
    text = f"{TAG}\n{canonical_match_id(match_id)}\n{step}\n{player}\n{commitment}\n"
    return text.encode()


def _raw_key(text: object) -> bytes:
    """Decode standard base64 of 32 bytes; raise ``ValueError`` or ``binascii.Error`` if not."""
    raw = base64.b64decode(str(text), validate=True)
    if len(raw) != 32:  # noqa: PLR2004
        raise ValueError
    return raw


def public_key_from_text(text: object) -> Ed25519PublicKey:
    """Decode a registered key (standard base64 of 32 raw bytes).

    :raises SignatureError: for anything else.
    """
    try:
        return Ed25519PublicKey.from_public_bytes(_raw_key(text))
    except (ValueError, binascii.Error):
        msg = "a player key is standard base64 of a 32-byte Ed25519 public key"
        raise SignatureError(msg) from None


def sign_submission(
    key: Ed25519PrivateKey | bytes, match_id: str, step: int, player: str, commitment: str
) -> str:
    """Sign a commitment (what a player's client does); return base64.

    ``key`` is an Ed25519 private key, or its 32 raw bytes.
    """
    if isinstance(key, bytes):
        key = Ed25519PrivateKey.from_private_bytes(key)
    message = submission_message(match_id, step, player, commitment)
    return base64.b64encode(key.sign(message)).decode()


def check_submission_signature(
    key_text: str, signature: object, match_id: str, step: int, player: str, commitment: str
) -> None:
    """:raises SignatureError: unless ``signature`` is the player's signature of the commitment."""
    if not isinstance(signature, str) or not signature:
        msg = f"{player!r} signs their submissions; the signature is missing"
        raise SignatureError(msg)
    try:
        raw = base64.b64decode(signature, validate=True)
        public_key_from_text(key_text).verify(
            raw, submission_message(match_id, step, player, commitment)
        )
    except (ValueError, binascii.Error, InvalidSignature):
        msg = f"the signature does not verify with {player!r}'s registered key"
        raise SignatureError(msg) from None
