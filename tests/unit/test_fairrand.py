"""Fair randomness: determinism, exact uniformity by rejection, Fisher-Yates."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.fairrand import Rng, SeedError, seed_hash

MATCH = "00000000-0000-4000-8000-000000000000"


def test_the_same_seed_match_purpose_and_entropy_give_the_same_stream() -> None:
    a = Rng(bytes(32), MATCH, "deal/1", {"ana": "x"})
    b = Rng(bytes(32), MATCH, "deal/1", {"ana": "x"})
    assert a.read(100) == b.read(100)


@pytest.mark.parametrize(
    "other",
    [
        (bytes([1]) + bytes(31), MATCH, "deal/1", {}),
        (bytes(32), "00000000-0000-4000-8000-000000000001", "deal/1", {}),
        (bytes(32), MATCH, "deal/2", {}),
        (bytes(32), MATCH, "deal/1", {"ana": "x"}),
    ],
    ids=["seed", "match", "purpose", "entropy"],
)
def test_every_part_of_the_context_changes_the_stream(other: tuple) -> None:
    assert Rng(*other).read(32) != Rng(bytes(32), MATCH, "deal/1", {}).read(32)


def test_player_entropy_changes_every_deal_so_the_host_cannot_choose_one() -> None:
    deck = list(range(1, 105))
    assert Rng(bytes(32), MATCH, "deal/1", {"ben": "🎲"}).shuffled(deck) != Rng(
        bytes(32), MATCH, "deal/1", {}
    ).shuffled(deck)


def test_a_seed_must_be_32_bytes() -> None:
    with pytest.raises(SeedError):
        Rng(bytes(31), MATCH, "deal/1")
    with pytest.raises(SeedError):
        seed_hash(b"short")


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(1, 10**9))
def test_below_is_always_in_range(seed: bytes, n: int) -> None:
    rng = Rng(seed, MATCH, "p")
    assert all(0 <= rng.below(n) < n for _ in range(5))


def test_below_rejects_instead_of_folding_so_values_stay_exactly_uniform() -> None:
    # n = 3 uses 2 bits; the value 3 must be rejected, not reduced modulo 3.
    rng = Rng(bytes(32), MATCH, "uniformity")
    counts = Counter(rng.below(3) for _ in range(30_000))
    assert set(counts) == {0, 1, 2}
    for value in counts.values():  # each within ~5 standard deviations of 10,000
        assert abs(value - 10_000) < 5 * (30_000 * (1 / 3) * (2 / 3)) ** 0.5


def test_below_one_consumes_nothing() -> None:
    a = Rng(bytes(32), MATCH, "p")
    b = Rng(bytes(32), MATCH, "p")
    assert a.below(1) == 0
    assert a.read(8) == b.read(8)


@settings(max_examples=30, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.lists(st.integers(), max_size=60))
def test_a_shuffle_is_a_permutation(seed: bytes, items: list[int]) -> None:
    assert sorted(Rng(seed, MATCH, "s").shuffled(items)) == sorted(items)


def test_shuffles_of_three_items_hit_all_six_orders_evenly() -> None:
    rng = Rng(bytes(32), MATCH, "fy")
    counts = Counter(tuple(rng.shuffled([1, 2, 3])) for _ in range(12_000))
    assert len(counts) == 6
    assert all(abs(c - 2000) < 250 for c in counts.values())
