r"""C2SP signed notes with Ed25519, and the C2SP tlog-checkpoint body they carry.

The exact formats (also in ``docs/protocol-tamper-evidence.md``), as in C2SP ``signed-note.md``,
``tlog-checkpoint.md`` and Go's ``golang.org/x/mod/sumdb/note``:

* A note is UTF-8 text with no ASCII control character other than newline. It is a *text*
  ending in a newline, a blank line, then one or more signature lines
  ``"— " name " " base64(key_id(4 bytes, big-endian) || signature) "\n"`` (``—`` is U+2014).
  The text is everything up to and including the newline before the **last** blank line.
* Key names are non-empty and contain no Unicode space and no ``+``.
* ``key_id = SHA-256(name || 0x0A || 0x01 || public_key)[:4]`` for an Ed25519 key (type
  ``0x01``); the signature is Ed25519 over the UTF-8 bytes of the text.
* Verifier key: ``<name>+<key id as 8 lowercase hex digits>+<base64(0x01 || public key)>``;
  signer key: ``PRIVATE+KEY+<name>+<key id hex>+<base64(0x01 || 32-byte seed)>``. Only the
  canonical text is accepted (lowercase key ID, base64 exactly as encoding gives it), so one
  key has one text; all base64 in a note (signatures, root hash) is canonical too.
* Opening a note: signatures from unknown keys (name and key ID not both known) are ignored;
  a signature from a known key must verify, else the whole note is rejected; at least one must
  verify. Repeated signatures by one key count once. More than 100 signature lines is an error.
* A checkpoint body is ``origin "\n" size "\n" base64(root hash) "\n"`` followed by optional
  non-empty extension lines, each ending in a newline; the size is ASCII decimal with no
  leading zero, at most 2^63 - 1.

Errors are :class:`NoteError` (a :class:`ValueError`) with the reason in one sentence.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from domain.errors import UserError

if TYPE_CHECKING:
    from collections.abc import Iterable

ALG_ED25519 = 0x01
MAX_SIGNATURES = 100
EM_DASH = "\u2014"

_SIG_PREFIX = (EM_DASH + " ").encode()
_KEY_ID_HEX = re.compile(r"[0-9a-fA-F]{8}")
_DECIMAL = re.compile(r"0|[1-9][0-9]*")
_HASH_SIZE = 32
_KEY_SIZE = 32  # an Ed25519 public key or private seed
_TYPED_KEY_SIZE = 1 + _KEY_SIZE  # the algorithm byte, then the key
MAX_TREE_SIZE = 2**63 - 1
"""The largest tree size a checkpoint may state (a signed 64-bit integer, as Go's ``tlog``)."""
_MAX_TREE_SIZE = MAX_TREE_SIZE


class NoteError(UserError):
    """A note, key or checkpoint that is malformed or does not verify."""


# ---------------------------------------------------------------------------
# Names, key IDs and keys
# ---------------------------------------------------------------------------


def is_valid_name(name: str) -> bool:
    """Return whether ``name`` may name a key: non-empty, no Unicode space, no ``+``.

    >>> is_valid_name("example.com/foo"), is_valid_name("Bad Name"), is_valid_name("a+b")
    (True, False, False)
    """
    return (
        isinstance(name, str)
        and name != ""
        and "+" not in name
        and not any(c.isspace() for c in name)
        and not _has_control(name)
    )


_CONTROL = re.compile("[\x00-\x09\x0b-\x1f]")  # C0 controls but the newline


def _has_control(text: str) -> bool:
    return _CONTROL.search(text) is not None


def _check_name(name: str) -> None:
    if not is_valid_name(name):
        msg = f"key name {name!r} must be non-empty with no spaces, '+' or control characters"
        raise NoteError(msg)


def key_id(name: str, public_key: bytes) -> int:
    """Return the Ed25519 key ID: the first 4 bytes of ``SHA-256(name || 0x0A || 0x01 || key)``.

    The ID is returned as an unsigned 32-bit integer (big-endian bytes).

    >>> pub = base64.b64decode("AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k")[1:]
    >>> f"{key_id('example.com/foo', pub):08x}"
    '530d903a'
    """
    return _key_hash(name, bytes([ALG_ED25519]) + public_key)


def _key_hash(name: str, typed_key: bytes) -> int:
    digest = hashlib.sha256(name.encode() + b"\n" + typed_key).digest()
    return int.from_bytes(digest[:4], "big")


def _b64decode(text: str) -> bytes:
    """Decode canonical standard base64 with padding, rejecting anything else.

    Only the text that encoding the bytes gives back is accepted: no stray or missing
    ``=``, no non-zero bits in the last character's unused part (Go's ``x/mod`` refuses
    the first; accepting either would let two texts name one key).
    """
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raw = None
    if raw is None or base64.b64encode(raw).decode() != text:
        msg = f"{text[:40]!r} is not canonical standard base64"
        raise NoteError(msg)
    return raw


def _private_key(key: Ed25519PrivateKey | bytes) -> Ed25519PrivateKey:
    if isinstance(key, Ed25519PrivateKey):
        return key
    if isinstance(key, bytes) and len(key) == _KEY_SIZE:
        return Ed25519PrivateKey.from_private_bytes(key)
    msg = "an Ed25519 private key is an Ed25519PrivateKey or its 32-byte seed"
    raise NoteError(msg)


def _raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


@dataclass(frozen=True)
class Verifier:
    """A named Ed25519 public key that checks note signatures.

    >>> v = Verifier.from_vkey("PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW")
    >>> v.name, f"{v.key_id:08x}"
    ('PeterNeumann', 'c74f20a3')
    >>> Verifier.from_vkey(v.vkey()) == v
    True
    """

    name: str
    public_key: bytes

    def __post_init__(self) -> None:
        """Check the name and the key size."""
        _check_name(self.name)
        if not isinstance(self.public_key, bytes) or len(self.public_key) != _KEY_SIZE:
            msg = "an Ed25519 public key is 32 bytes"
            raise NoteError(msg)

    @functools.cached_property
    def key_id(self) -> int:
        """The key ID, as an unsigned 32-bit integer (worked out once per key)."""
        return key_id(self.name, self.public_key)

    @classmethod
    def from_vkey(cls, vkey: str) -> Verifier:
        """Parse a verifier key ``<name>+<key id hex>+<base64(0x01 || public key)>``.

        :raises NoteError: if the key is malformed, of another algorithm, or its ID is wrong.
        """
        name, _, rest = vkey.partition("+")
        id_hex, _, key64 = rest.partition("+")
        if not _KEY_ID_HEX.fullmatch(id_hex) or not is_valid_name(name) or not key64:
            msg = f"malformed verifier key {vkey!r}"
            raise NoteError(msg)
        try:
            typed = _b64decode(key64)
        except NoteError:
            msg = (
                f"malformed verifier key {vkey!r}: its key is not canonical standard base64 "
                "(exactly the text encoding gives, no stray '=')"
            )
            raise NoteError(msg) from None
        if not typed:
            msg = f"malformed verifier key {vkey!r}"
            raise NoteError(msg)
        if int(id_hex, 16) != _key_hash(name, typed):
            msg = f"the key ID in verifier key {vkey!r} does not match the key"
            raise NoteError(msg)
        if typed[0] != ALG_ED25519:
            msg = f"verifier key {vkey!r} is not an Ed25519 (0x01) key"
            raise NoteError(msg)
        if len(typed) != _TYPED_KEY_SIZE:
            msg = f"verifier key {vkey!r} does not hold a 32-byte Ed25519 key"
            raise NoteError(msg)
        verifier = cls(name, typed[1:])
        if verifier.vkey() != vkey:  # e.g. the key ID in upper case
            msg = f"verifier key {vkey!r} is not in canonical form (lowercase key ID)"
            raise NoteError(msg)
        return verifier

    def vkey(self) -> str:
        """Return the verifier key text ``<name>+<key id hex>+<base64(0x01 || public key)>``."""
        typed = bytes([ALG_ED25519]) + self.public_key
        return f"{self.name}+{self.key_id:08x}+{base64.b64encode(typed).decode()}"

    def verify(self, message: bytes, signature: bytes) -> bool:
        """Return whether ``signature`` is this key's Ed25519 signature of ``message``."""
        try:
            Ed25519PublicKey.from_public_bytes(self.public_key).verify(signature, message)
        except InvalidSignature:
            return False
        return True


class Signer:
    """A named Ed25519 private key that signs notes; its ``repr`` never shows the key.

    >>> s = Signer("example.test", bytes(range(32)))
    >>> Signer.from_skey(s.skey()).verifier() == s.verifier()
    True
    """

    __slots__ = ("_key", "_verifier", "name")

    def __init__(self, name: str, private_key: Ed25519PrivateKey | bytes) -> None:
        """Name a private key (an ``Ed25519PrivateKey`` or its 32-byte seed)."""
        _check_name(name)
        self.name = name
        self._key = _private_key(private_key)
        self._verifier = Verifier(name, _raw_public(self._key.public_key()))

    def __repr__(self) -> str:
        """The name and key ID, never the key."""
        return f"Signer({self.name!r}, key_id={self.key_id:08x})"

    @property
    def key_id(self) -> int:
        """The key ID, as an unsigned 32-bit integer."""
        return self.verifier().key_id

    @classmethod
    def from_skey(cls, skey: str) -> Signer:
        """Parse a signer key ``PRIVATE+KEY+<name>+<key id hex>+<base64(0x01 || seed)>``.

        :raises NoteError: if the key is malformed, of another algorithm, or its ID is wrong.
        """
        parts = skey.split("+", 4)
        # PRIVATE, KEY, the name, the key ID and the typed key
        if len(parts) != 5 or parts[0] != "PRIVATE" or parts[1] != "KEY":  # noqa: PLR2004
            msg = "malformed signer key: it must start with PRIVATE+KEY+"
            raise NoteError(msg)
        name, id_hex, key64 = parts[2], parts[3], parts[4]
        if not _KEY_ID_HEX.fullmatch(id_hex) or not is_valid_name(name) or not key64:
            msg = f"malformed signer key for {name!r}"
            raise NoteError(msg)
        typed = _b64decode(key64)
        if not typed or typed[0] != ALG_ED25519:
            msg = f"signer key for {name!r} is not an Ed25519 (0x01) key"
            raise NoteError(msg)
        if len(typed) != _TYPED_KEY_SIZE:
            msg = f"signer key for {name!r} does not hold a 32-byte Ed25519 seed"
            raise NoteError(msg)
        signer = cls(name, typed[1:])
        if signer.key_id != int(id_hex, 16):
            msg = f"the key ID in the signer key for {name!r} does not match the key"
            raise NoteError(msg)
        if id_hex != f"{signer.key_id:08x}":
            msg = f"the signer key for {name!r} is not in canonical form (lowercase key ID)"
            raise NoteError(msg)
        return signer

    def skey(self) -> str:
        """Return the signer key text ``PRIVATE+KEY+<name>+<key id hex>+<base64(0x01 || seed)>``."""
        seed = self._key.private_bytes_raw()
        typed = base64.b64encode(bytes([ALG_ED25519]) + seed).decode()
        return f"PRIVATE+KEY+{self.name}+{self.key_id:08x}+{typed}"

    def verifier(self) -> Verifier:
        """Return the matching :class:`Verifier` (derived once, when the key was named)."""
        return self._verifier

    def sign(self, message: bytes) -> bytes:
        """Return the 64-byte Ed25519 signature of ``message``."""
        return self._key.sign(message)


def vkey(name: str, public_key: bytes) -> str:
    """Return the verifier key text for an Ed25519 public key.

    :raises NoteError: if the name is invalid or the key is not 32 bytes.
    """
    return Verifier(name, public_key).vkey()


def skey(name: str, private_key: Ed25519PrivateKey | bytes) -> str:
    """Return the signer key text for an Ed25519 private key or 32-byte seed.

    :raises NoteError: if the name or the key is invalid.
    """
    return Signer(name, private_key).skey()


# ---------------------------------------------------------------------------
# Signing and opening notes
# ---------------------------------------------------------------------------


class Signature(NamedTuple):
    """One signature line of a note."""

    name: str
    key_id: int
    signature: bytes  # without the 4-byte key ID

    def line(self) -> str:
        """Return the signature line, newline included."""
        raw = self.key_id.to_bytes(4, "big") + self.signature
        return f"{EM_DASH} {self.name} {base64.b64encode(raw).decode()}\n"


class OpenedNote(NamedTuple):
    """The verified text of a note and the signatures that verified it."""

    text: str
    signatures: tuple[Signature, ...]


def _check_text(text: str) -> bytes:
    if not isinstance(text, str) or not text.endswith("\n"):
        msg = "a note text must be non-empty and end with a newline"
        raise NoteError(msg)
    if _has_control(text):
        msg = "a note text must not contain control characters other than newline"
        raise NoteError(msg)
    try:
        return text.encode()
    except UnicodeEncodeError:
        msg = "a note text must be valid Unicode (no lone surrogates)"
        raise NoteError(msg) from None


def sign(text: str, signer_name: str, private_key: Ed25519PrivateKey | bytes) -> str:
    r"""Return the signed note: ``text``, a blank line and one Ed25519 signature line.

    :raises NoteError: if the text does not end in a newline or holds control characters, or
        the name or key is invalid.

    >>> note = sign("hello\n", "example.test", bytes(range(32)))
    >>> note.startswith("hello\n\n— example.test ")
    True
    """
    return sign_with(text, Signer(signer_name, private_key))


def sign_with(text: str, *signers: Signer) -> str:
    """Return ``text`` signed by each of ``signers``, one signature line each, in order.

    :raises NoteError: if the text does not end in a newline or holds control characters, or
        no signer is given.
    """
    message = _check_text(text)
    if not signers:
        msg = "a note needs at least one signer"
        raise NoteError(msg)
    lines = [Signature(s.name, s.key_id, s.sign(message)).line() for s in signers]
    return text + "\n" + "".join(lines)


def _index_verifiers(verifiers: Iterable[Verifier | str]) -> dict[tuple[str, int], list[Verifier]]:
    known: dict[tuple[str, int], list[Verifier]] = {}
    for v in verifiers:
        verifier = Verifier.from_vkey(v) if isinstance(v, str) else v
        known.setdefault((verifier.name, verifier.key_id), []).append(verifier)
    return known


def open(note: str | bytes, verifiers: Iterable[Verifier | str]) -> OpenedNote:  # noqa: A001 - as Go's note.Open
    r"""Parse a signed note and check its signatures against ``verifiers``.

    ``verifiers`` are :class:`Verifier` objects or verifier key texts. Signatures from other
    keys are ignored.

    :raises NoteError: if the note is malformed, a known key's signature does not verify, or no
        known key signed it.

    >>> v = Signer("example.test", bytes(range(32))).verifier()
    >>> open(sign("hello\n", "example.test", bytes(range(32))), [v]).text
    'hello\n'
    >>> open("hello\n", [v])
    Traceback (most recent call last):
    ...
    domain.signed_note.NoteError: malformed note: no blank line before the signatures
    """
    known = _index_verifiers(verifiers)
    if isinstance(note, str):
        try:
            msg_bytes = note.encode()
        except UnicodeEncodeError:
            msg = "malformed note: it is not valid UTF-8"
            raise NoteError(msg) from None
    else:
        msg_bytes = bytes(note)
    try:
        decoded = msg_bytes.decode()
    except UnicodeDecodeError:
        msg = "malformed note: it is not valid UTF-8"
        raise NoteError(msg) from None
    if _has_control(decoded):
        msg = "malformed note: it contains a control character other than newline"
        raise NoteError(msg)

    # The text ends at the last blank line; the signature block follows it.
    split = msg_bytes.rfind(b"\n\n")
    if split < 0:
        msg = "malformed note: no blank line before the signatures"
        raise NoteError(msg)
    text, block = msg_bytes[: split + 1], msg_bytes[split + 2 :]
    if not block or not block.endswith(b"\n"):
        msg = "malformed note: the signature lines must follow the blank line and end in a newline"
        raise NoteError(msg)

    verified: list[Signature] = []
    seen: set[tuple[str, int]] = set()
    lines = block[:-1].split(b"\n")
    if len(lines) > MAX_SIGNATURES:
        msg = f"malformed note: more than {MAX_SIGNATURES} signature lines"
        raise NoteError(msg)
    for raw_line in lines:
        sig = _parse_signature_line(raw_line)
        candidates = known.get((sig.name, sig.key_id))
        if candidates is None:
            continue  # unknown key: ignored, as C2SP requires
        if len(candidates) > 1:
            msg = f"ambiguous key {sig.name}+{sig.key_id:08x}: several verifiers share it"
            raise NoteError(msg)
        if (sig.name, sig.key_id) in seen:
            continue
        seen.add((sig.name, sig.key_id))
        if not candidates[0].verify(text, sig.signature):
            msg = f"invalid signature for key {sig.name}+{sig.key_id:08x}"
            raise NoteError(msg)
        verified.append(sig)
    if not verified:
        msg = "note has no verifiable signatures: no known key signed it"
        raise NoteError(msg)
    return OpenedNote(text.decode(), tuple(verified))


open_note = open


def _parse_signature_line(line: bytes) -> Signature:
    if not line.startswith(_SIG_PREFIX):
        msg = "malformed note: a signature line must start with an em dash and a space"
        raise NoteError(msg)
    name, _, b64 = line[len(_SIG_PREFIX) :].decode().partition(" ")
    if not is_valid_name(name) or not b64:
        msg = "malformed note: a signature line must be '\u2014 <key name> <base64 signature>'"
        raise NoteError(msg)
    try:
        raw = _b64decode(b64)
    except NoteError:
        msg = f"malformed note: the signature of {name} is not canonical standard base64"
        raise NoteError(msg) from None
    if len(raw) < 5:  # noqa: PLR2004 - a 4-byte key ID, then the signature
        msg = f"malformed note: the signature of {name} is too short"
        raise NoteError(msg)
    return Signature(name, int.from_bytes(raw[:4], "big"), raw[4:])


# ---------------------------------------------------------------------------
# Checkpoints (C2SP tlog-checkpoint)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Checkpoint:
    r"""The body of a C2SP checkpoint: origin, tree size, root hash and extension lines.

    >>> cp = Checkpoint("example.com/log", 2, bytes(32))
    >>> cp.format()
    'example.com/log\n2\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n'
    >>> Checkpoint.parse(cp.format()) == cp
    True
    """

    origin: str
    size: int
    root_hash: bytes
    extensions: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """Check each field; the extension lines become a tuple."""
        if not isinstance(self.origin, str) or not self.origin or _has_control(self.origin):
            msg = "a checkpoint origin must be a non-empty line of text"
            raise NoteError(msg)
        if "\n" in self.origin:
            msg = "a checkpoint origin must be a single line"
            raise NoteError(msg)
        if isinstance(self.size, bool) or not isinstance(self.size, int):
            msg = "a checkpoint tree size must be an integer"
            raise NoteError(msg)
        if not 0 <= self.size <= _MAX_TREE_SIZE:
            msg = f"a checkpoint tree size must be between 0 and {_MAX_TREE_SIZE}"
            raise NoteError(msg)
        if not isinstance(self.root_hash, bytes) or len(self.root_hash) != _HASH_SIZE:
            msg = f"a checkpoint root hash must be {_HASH_SIZE} bytes"
            raise NoteError(msg)
        if not isinstance(self.extensions, tuple):
            object.__setattr__(self, "extensions", tuple(self.extensions))
        for line in self.extensions:
            if not isinstance(line, str) or not line or "\n" in line or _has_control(line):
                msg = "checkpoint extension lines must be non-empty single lines of text"
                raise NoteError(msg)

    def format(self) -> str:
        """Return the note text: origin, size, base64 root and extension lines, each + newline."""
        lines = [self.origin, str(self.size), base64.b64encode(self.root_hash).decode()]
        return "".join(line + "\n" for line in [*lines, *self.extensions])

    @classmethod
    def parse(cls, text: str) -> Checkpoint:
        """Parse a checkpoint body, strictly.

        :raises NoteError: if there are fewer than three lines, a line is empty, the text does
            not end in a newline, the size is not canonical decimal, or the root hash is not the
            canonical base64 of 32 bytes.
        """
        if not isinstance(text, str) or not text.endswith("\n"):
            msg = "a checkpoint must end with a newline"
            raise NoteError(msg)
        lines = text[:-1].split("\n")
        if len(lines) < 3:  # noqa: PLR2004 - origin, tree size and root hash
            msg = "a checkpoint has at least three lines: origin, tree size and root hash"
            raise NoteError(msg)
        if any(not line for line in lines):
            msg = "a checkpoint has no empty lines"
            raise NoteError(msg)
        origin, size_text, root_text, *extensions = lines
        if not _DECIMAL.fullmatch(size_text):
            msg = f"checkpoint tree size {size_text!r} is not decimal without leading zeros"
            raise NoteError(msg)
        try:
            root_hash = _b64decode(root_text)
        except NoteError:
            root_hash = b""
        if len(root_hash) != _HASH_SIZE:
            msg = f"checkpoint root hash {root_text!r} is not the base64 of {_HASH_SIZE} bytes"
            raise NoteError(msg)
        return cls(origin, int(size_text), root_hash, tuple(extensions))


def sign_checkpoint(checkpoint: Checkpoint, *signers: Signer) -> str:
    """Return the checkpoint as a note signed by ``signers``.

    :raises NoteError: if no signer is given.
    """
    return sign_with(checkpoint.format(), *signers)


def open_checkpoint(
    note: str | bytes, verifiers: Iterable[Verifier | str], origin: str | None = None
) -> Checkpoint:
    """Open a signed checkpoint note and parse its body, checking the origin if one is given.

    :raises NoteError: if the note does not verify, the body is malformed, or the origin
        differs from ``origin``.
    """
    text, _ = open(note, verifiers)
    checkpoint = Checkpoint.parse(text)
    if origin is not None and checkpoint.origin != origin:
        msg = f"checkpoint origin {checkpoint.origin!r} is not the expected {origin!r}"
        raise NoteError(msg)
    return checkpoint
