"""Fair randomness: a committed host seed expanded by HMAC-SHA256 in counter mode.

The exact derivation (also in ``docs/PROTOCOL.md``, with test vectors):

* ``seed_hash = SHA-256(b"dealerroom/seed/v1" || 0x00 || seed)``; ``seed`` is 32 bytes.
* For a *purpose* (e.g. ``"step/3"``) the stream is the concatenation of blocks
  ``HMAC-SHA256(key=seed, msg=lp(b"dealerroom/rand/v1") || lp(match_id) || lp(purpose)
  || lp(JCS(entropy)) || uint64be(counter))`` for ``counter = 0, 1, 2, ...``, where ``lp``
  is the 4-byte big-endian length prefix and ``entropy`` maps each player who added public
  entropy to that text (``{}`` when nobody did).
* ``below(n)``: let ``k = (n - 1).bit_length()``; take ``ceil(k / 8)`` bytes from the
  stream as a big-endian integer, keep its low ``k`` bits, and retry while it is ``>= n``.
  ``below(1)`` is 0 and consumes nothing.
* ``shuffle(xs)``: Fisher-Yates from the end: for ``i = len - 1`` down to ``1``,
  ``j = below(i + 1)`` and swap ``xs[i]`` with ``xs[j]``.

Nothing here reads a clock or the operating system's randomness: the service draws the
seed and passes it in, so every replay derives the same values.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import TYPE_CHECKING, TypeVar

from domain.canonical import canonical_json, lp
from domain.errors import UserError

if TYPE_CHECKING:
    from collections.abc import Mapping, MutableSequence, Sequence

T = TypeVar("T")

SEED_SIZE = 32
_SEED_TAG = b"dealerroom/seed/v1"
_RAND_TAG = b"dealerroom/rand/v1"


class SeedError(UserError):
    """A host seed that is not 32 bytes, or that does not match its published hash."""


def seed_hash(seed: bytes) -> str:
    """Return the lowercase hex hash that is published when a match is created.

    >>> seed_hash(bytes(32))[:16]
    '61c50c93dd74a853'
    """
    check_seed(seed)
    return hashlib.sha256(_SEED_TAG + b"\x00" + seed).hexdigest()


def check_seed(seed: bytes) -> None:
    """Raise :class:`SeedError` unless ``seed`` is exactly 32 bytes."""
    if not isinstance(seed, bytes) or len(seed) != SEED_SIZE:
        msg = f"a host seed is {SEED_SIZE} bytes"
        raise SeedError(msg)


class Rng:
    """A deterministic stream of uniform choices for one purpose of one match."""

    def __init__(
        self,
        seed: bytes,
        match_id: str,
        purpose: str,
        entropy: Mapping[str, str] | None = None,
    ) -> None:
        """Start the stream for ``purpose`` in ``match_id``, from ``seed`` and the entropy."""
        check_seed(seed)
        self._key = seed
        self._prefix = (
            lp(_RAND_TAG)
            + lp(match_id.encode())
            + lp(purpose.encode())
            + lp(canonical_json(dict(entropy or {})))
        )
        self._counter = 0
        self._buffer = b""

    def read(self, n: int) -> bytes:
        """Return the next ``n`` bytes of the stream."""
        while len(self._buffer) < n:
            block = hmac.new(
                self._key,
                self._prefix + self._counter.to_bytes(8, "big"),
                hashlib.sha256,
            ).digest()
            self._counter += 1
            self._buffer += block
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, n: int) -> int:
        """Return an exactly uniform integer in ``[0, n)`` by rejection sampling.

        :raises ValueError: if ``n`` is not positive.
        """
        if n <= 0:
            msg = "below(n) needs n >= 1"
            raise ValueError(msg)
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        size = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self.read(size), "big") & mask
            if value < n:
                return value

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates, from the last position down)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """Return a shuffled copy of ``items``."""
        out = list(items)
        self.shuffle(out)
        return out

    def choice(self, items: Sequence[T]) -> T:
        """Return one of ``items``, uniformly."""
        return items[self.below(len(items))]
