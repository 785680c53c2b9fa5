"""The protocol's known-answer vectors, recomputed from docs/PROTOCOL.md alone.

These tests do not import the product: they use hashlib and hmac, so they check that
the documented format and the service agree (test_commitment.py checks the product).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path

import pytest

VECTORS = json.loads(
    (Path(__file__).resolve().parents[2] / "docs" / "protocol-vectors.json").read_text()
)


def lp(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def jcs(value: object) -> bytes:
    # Enough of RFC 8785 for the vectors' payloads: integers, strings, null, arrays and
    # objects with sorted keys, no whitespace, UTF-8 text.
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


@pytest.mark.parametrize("vector", VECTORS["commitments"], ids=lambda v: v["player"])
def test_documented_commitment_is_recomputed_with_hashlib_alone(vector: dict) -> None:
    message = (
        b"dealerroom/commit/v1\x00"
        + lp(vector["match_id"].encode())
        + lp(str(vector["step"]).encode())
        + lp(vector["player"].encode())
        + lp(jcs(vector["payload"]))
        + lp(bytes.fromhex(vector["salt"]))
    )
    assert hashlib.sha256(message).hexdigest() == vector["commitment"]


def test_product_commitments_equal_the_documented_vectors() -> None:
    from domain.commitment import commit

    for v in VECTORS["commitments"]:
        got = commit(v["match_id"], v["step"], v["player"], v["payload"], bytes.fromhex(v["salt"]))
        assert got == v["commitment"]


class Stream:
    """An independent reading of PROTOCOL.md section 2."""

    def __init__(self, seed: bytes, match_id: str, purpose: str, entropy: dict) -> None:
        self.seed = seed
        self.prefix = (
            lp(b"dealerroom/rand/v1")
            + lp(match_id.encode())
            + lp(purpose.encode())
            + lp(jcs(entropy))
        )
        self.data = b""
        self.counter = 0

    def take(self, n: int) -> bytes:
        while len(self.data) < n:
            msg = self.prefix + self.counter.to_bytes(8, "big")
            self.data += hmac.new(self.seed, msg, hashlib.sha256).digest()
            self.counter += 1
        out, self.data = self.data[:n], self.data[n:]
        return out

    def below(self, n: int) -> int:
        if n == 1:
            return 0
        k = (n - 1).bit_length()
        while True:
            v = int.from_bytes(self.take((k + 7) // 8), "big") & ((1 << k) - 1)
            if v < n:
                return v


@pytest.mark.parametrize("vector", VECTORS["randomness"], ids=lambda v: v["seed"][:8])
def test_documented_randomness_is_recomputed_with_hmac_alone(vector: dict) -> None:
    seed = bytes.fromhex(vector["seed"])
    args = (seed, vector["match_id"], vector["purpose"], vector["entropy"])
    assert hashlib.sha256(b"dealerroom/seed/v1\x00" + seed).hexdigest() == vector["seed_hash"]
    assert Stream(*args).take(64).hex() == vector["stream_first_64_bytes"]
    s = Stream(*args)
    assert [s.below(n) for n in vector["below"]["n"]] == vector["below"]["values"]
    s = Stream(*args)
    items = list(range(1, 11))
    for i in range(len(items) - 1, 0, -1):
        j = s.below(i + 1)
        items[i], items[j] = items[j], items[i]
    assert items == vector["shuffle_1_to_10"]


def test_product_randomness_equals_the_documented_vectors() -> None:
    from domain.fairrand import Rng, seed_hash

    for v in VECTORS["randomness"]:
        seed = bytes.fromhex(v["seed"])
        assert seed_hash(seed) == v["seed_hash"]
        rng = Rng(seed, v["match_id"], v["purpose"], v["entropy"])
        assert [rng.below(n) for n in v["below"]["n"]] == v["below"]["values"]
        rng = Rng(seed, v["match_id"], v["purpose"], v["entropy"])
        assert rng.shuffled(list(range(1, 11))) == v["shuffle_1_to_10"]
