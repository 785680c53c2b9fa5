"""Encryption at rest of sealed event fields (AES-256-GCM, ``cryptography``).

Registered as an ``eventsourcing`` transcoding for :class:`~domain.sealed.Sealed`. A sealed
value is stored as (format 2, docs/PROTOCOL.md §4 "Sealed fields at rest")::

    {"v": 2, "k": key id, "n": nonce (base64), "c": ciphertext (base64), "b": binding}

* The plaintext is the RFC 8785 canonical JSON of the value followed by spaces up to its
  *size class* (:func:`size_class`: 1024, 4096, 16384 or 65536 bytes, then whole multiples
  of 65536). JSON ignores trailing whitespace, so the padding needs no length field. Every
  pick of every game is far below 1024 bytes, so all of a game's picks encrypt to the same
  length and the stored size says nothing about the pick (a vote for ``al`` and one for
  ``bartholomew``, a 6 nimmt! card of one digit or three).
* The associated data is ``b"dealerroom/sealed/v2" || 0x00 || UTF-8(binding)``, where the
  binding (:func:`domain.sealed.binding`) names the match, the event's position, the player
  and the field. It is stored in clear in ``"b"`` and authenticated with the ciphertext:
  altering it, or the ciphertext, fails decryption (:class:`SealingError`). A whole stored
  value copied or swapped to another event decrypts, but carries the binding of its old place,
  which the aggregate checks when it applies the event
  (:meth:`~domain.sealed.Sealed.check_bound`).
* The key id (first 8 hex digits of SHA-256 of the key) lets old events decrypt after the key
  is rotated: list the old key after the new one.

The library's mapper reports any event it cannot read as ``MapperDeserialisationError``, a
``ValueError``, which the web layer would answer as the caller's fault with the event's topic
in it. :class:`SealingMapper` (the application's ``MAPPER_TOPIC``) raises server faults
instead: :class:`SealingError` for a sealed field, :class:`UnreadableEvent` otherwise.

Values in the pre-release format 1 (``{"k", "n", "c"}``: unpadded, unbound) are refused with
a message telling the operator to rebuild the store; no release ever wrote them.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
from typing import TYPE_CHECKING, Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from eventsourcing.persistence import Mapper, MapperDeserialisationError, Transcoding

from domain.canonical import canonical_json
from domain.sealed import Sealed

if TYPE_CHECKING:
    from eventsourcing.domain import DomainEventProtocol
    from eventsourcing.persistence import StoredEvent

FORMAT = 2
AAD_LABEL = b"dealerroom/sealed/v2"
NONCE_SIZE = 12
#: The padded plaintext sizes below the first multiple-of-64-KiB class.
SIZE_CLASSES = (1024, 4096, 16384, 65536)
_LARGE_CLASS = 65536
_FIELDS = frozenset({"v", "k", "n", "c", "b"})
_V1_FIELDS = frozenset({"k", "n", "c"})


class SealingError(RuntimeError):
    """A sealed field cannot be stored or opened (unknown key, altered store, old format).

    A server-side fault for the operator, never a user's error: not a ``ValueError``.
    """


class UnreadableEvent(RuntimeError):
    """A stored event cannot be read back (the store was altered): a server-side fault."""


def key_id(key: bytes) -> str:
    """The short public identifier of a sealing key.

    >>> key_id(bytes(32))
    '66687aad'
    """
    return hashlib.sha256(key).hexdigest()[:8]


def size_class(length: int) -> int:
    """The padded size of a plaintext of ``length`` bytes.

    >>> [size_class(n) for n in (0, 1024, 1025, 65536, 65537, 131073)]
    [1024, 1024, 4096, 65536, 131072, 196608]
    """
    for size in SIZE_CLASSES:
        if length <= size:
            return size
    return -(-length // _LARGE_CLASS) * _LARGE_CLASS


def padded(value: Any) -> bytes:
    """The plaintext of a sealed value: its canonical JSON, space-padded to its size class.

    >>> text = padded({"vote": "al"})
    >>> len(text), text[:13], json.loads(text)
    (1024, b'{"vote":"al"}', {'vote': 'al'})
    """
    plain = canonical_json(value)
    return plain.ljust(size_class(len(plain)), b" ")


def associated_data(bound: str) -> bytes:
    r"""The AES-GCM associated data of a sealed value with that binding.

    >>> associated_data('["m",5,"ana","opening"]')
    b'dealerroom/sealed/v2\\x00["m",5,"ana","opening"]'
    """
    return AAD_LABEL + b"\x00" + bound.encode()


class SealedTranscoding(Transcoding):
    """Encrypts :class:`Sealed` values on the way into the store, decrypts them out."""

    type = Sealed
    name = "sealed"

    def __init__(self, keys: tuple[bytes, ...]) -> None:
        """Seal with the first of ``keys``; open with any of them.

        :raises SealingError: without a key.
        """
        if not keys:
            msg = "at least one sealing key is needed"
            raise SealingError(msg)
        self._current = key_id(keys[0])
        self._keys = {key_id(k): AESGCM(k) for k in keys}

    def encode(self, obj: Sealed) -> dict[str, Any]:
        """Pad and encrypt the sealed value with the current key and a fresh nonce.

        :raises SealingError: for a value with no binding (a programming error: the domain
            binds every sealed value to its place before it is stored).
        """
        if not isinstance(obj.bound, str) or not obj.bound:
            msg = (
                "a sealed value must be bound to its place (domain.sealed.binding) before "
                "it is stored; this one has no binding"
            )
            raise SealingError(msg)
        nonce = os.urandom(NONCE_SIZE)
        ciphertext = self._keys[self._current].encrypt(
            nonce, padded(obj.value), associated_data(obj.bound)
        )
        return {
            "v": FORMAT,
            "k": self._current,
            "n": base64.b64encode(nonce).decode(),
            "c": base64.b64encode(ciphertext).decode(),
            "b": obj.bound,
        }

    def decode(self, data: dict[str, Any]) -> Sealed:
        """Decrypt a stored sealed value; it keeps its binding for the domain to check.

        :raises SealingError: when the value is in the old format 1, malformed, encrypted
            with a key that is not configured, or fails authentication (its ciphertext,
            nonce or binding was altered, or the key is wrong).
        """
        if not isinstance(data, dict):
            msg = "a stored sealed field is not an object: the store was altered"
            raise SealingError(msg)
        if "v" not in data and set(data) == _V1_FIELDS:
            msg = (
                "a stored sealed field is in the pre-release format 1 (unpadded, not bound to "
                "its event), which this version does not read: rebuild the store (delete the "
                "database; scripts/serve reloads the demo matches)"
            )
            raise SealingError(msg)
        if set(data) != _FIELDS or data["v"] != FORMAT or not isinstance(data["b"], str):
            msg = f"a stored sealed field is not in format {FORMAT}: the store was altered"
            raise SealingError(msg)
        aead = self._keys.get(data["k"]) if isinstance(data["k"], str) else None
        if aead is None:
            msg = (
                f"a sealed field was encrypted with key {str(data['k'])[:16]!r}, which is not "
                "configured (list every earlier sealing key after the current one)"
            )
            raise SealingError(msg)
        try:
            nonce = base64.b64decode(data["n"], validate=True)
            ciphertext = base64.b64decode(data["c"], validate=True)
            plain = aead.decrypt(nonce, ciphertext, associated_data(data["b"]))
            value: Any = json.loads(plain)
        except (InvalidTag, TypeError, ValueError, binascii.Error):
            msg = (
                "a sealed field failed authentication: its ciphertext or binding was altered "
                "in the store, or the key is wrong"
            )
            raise SealingError(msg) from None
        return Sealed(value, data["b"])


class SealingMapper(Mapper[Any]):
    """The event mapper, with every event it cannot read reported as a server fault."""

    def to_domain_event(self, stored_event: StoredEvent) -> DomainEventProtocol[Any]:
        """Read a stored event back.

        :raises SealingError: when a sealed field of it cannot be opened.
        :raises UnreadableEvent: when it cannot be read for another reason.
        """
        try:
            return super().to_domain_event(stored_event)
        except MapperDeserialisationError as exc:
            where = f"event {stored_event.originator_version} of match {stored_event.originator_id}"
            if isinstance(exc.__cause__, SealingError):
                msg = f"{exc.__cause__} ({where})"
                raise SealingError(msg) from exc.__cause__
            msg = f"{where} cannot be read: the store was altered ({exc.__cause__})"
            raise UnreadableEvent(msg) from exc.__cause__
