"""Encryption at rest of sealed event fields (AES-256-GCM, ``cryptography``).

Registered as an ``eventsourcing`` transcoding for :class:`~domain.sealed.Sealed`: a
sealed value is stored as ``{"k": key id, "n": nonce, "c": ciphertext}`` (base64), the
plaintext being the RFC 8785 canonical JSON of the value and the associated data the
fixed label below. The key id (first 8 hex digits of SHA-256 of the key) lets old events
decrypt after the key is rotated: list the old key after the new one.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from eventsourcing.persistence import Transcoding

from domain.canonical import canonical_json
from domain.sealed import Sealed

_AAD = b"dealerroom/sealed/v1"


class SealingError(RuntimeError):
    """A sealed field cannot be decrypted with any configured key."""


def key_id(key: bytes) -> str:
    """The short public identifier of a sealing key."""
    return hashlib.sha256(key).hexdigest()[:8]


class SealedTranscoding(Transcoding):
    """Encrypts :class:`Sealed` values on the way into the store, decrypts them out."""

    type = Sealed
    name = "sealed"

    def __init__(self, keys: tuple[bytes, ...]) -> None:
        if not keys:
            msg = "at least one sealing key is needed"
            raise SealingError(msg)
        self._current = keys[0]
        self._keys = {key_id(k): AESGCM(k) for k in keys}

    def encode(self, obj: Sealed) -> dict[str, str]:
        """Encrypt the sealed value with the current key and a fresh nonce."""
        nonce = os.urandom(12)
        kid = key_id(self._current)
        ciphertext = self._keys[kid].encrypt(nonce, canonical_json(obj.value), _AAD)
        return {
            "k": kid,
            "n": base64.b64encode(nonce).decode(),
            "c": base64.b64encode(ciphertext).decode(),
        }

    def decode(self, data: dict[str, str]) -> Sealed:
        """Decrypt a stored sealed value.

        :raises SealingError: when no configured key opens it (wrong key, or tampered).
        """
        aead = self._keys.get(data.get("k", ""))
        if aead is None:
            msg = f"sealed field was encrypted with key {data.get('k')!r}, which is not configured"
            raise SealingError(msg)
        try:
            plain = aead.decrypt(base64.b64decode(data["n"]), base64.b64decode(data["c"]), _AAD)
        except (InvalidTag, KeyError, ValueError):
            msg = "a sealed field failed authentication: it was altered or the key is wrong"
            raise SealingError(msg) from None
        value: Any = json.loads(plain)
        return Sealed(value)
