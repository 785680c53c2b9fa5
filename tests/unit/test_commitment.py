"""The commitment scheme: hiding, binding, bound to match, step and player."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.commitment import CommitmentError, Opening, commit

MATCH = "00000000-0000-4000-8000-000000000000"
OTHER = "00000000-0000-4000-8000-000000000001"
SALT = bytes(range(32))


def test_a_commitment_is_64_lowercase_hex_digits() -> None:
    value = commit(MATCH, 1, "ana", {"card": 11}, SALT)
    assert len(value) == 64
    assert value == value.lower()


def test_the_same_pick_with_another_salt_gives_another_commitment() -> None:
    assert commit(MATCH, 1, "ana", {"card": 11}, SALT) != commit(
        MATCH, 1, "ana", {"card": 11}, bytes(32)
    )


@pytest.mark.parametrize(
    "changed",
    [
        (OTHER, 1, "ana", {"card": 11}),
        (MATCH, 2, "ana", {"card": 11}),
        (MATCH, 1, "ben", {"card": 11}),
        (MATCH, 1, "ana", {"card": 12}),
    ],
    ids=["match", "step", "player", "payload"],
)
def test_a_commitment_is_bound_to_match_step_player_and_payload(changed: tuple) -> None:
    assert commit(*changed, SALT) != commit(MATCH, 1, "ana", {"card": 11}, SALT)


def test_key_order_of_the_payload_does_not_matter_because_it_is_canonicalised() -> None:
    a = commit(MATCH, 1, "ana", {"from": "b1", "to": "b2"}, SALT)
    b = commit(MATCH, 1, "ana", {"to": "b2", "from": "b1"}, SALT)
    assert a == b


def test_the_match_id_is_canonicalised_to_lowercase() -> None:
    assert commit(MATCH.upper(), 1, "ana", {}, SALT) == commit(MATCH, 1, "ana", {}, SALT)


@pytest.mark.parametrize("salt", [b"", bytes(31), bytes(33), "00" * 32])
def test_a_salt_must_be_32_bytes(salt: object) -> None:
    with pytest.raises(CommitmentError, match="32 bytes"):
        commit(MATCH, 1, "ana", {}, salt)  # type: ignore[arg-type]


def test_a_match_id_that_is_not_a_uuid_is_rejected() -> None:
    with pytest.raises(CommitmentError, match="not a match id"):
        commit("match-1", 1, "ana", {}, SALT)


def test_an_opening_opens_only_its_own_commitment() -> None:
    opening = Opening({"card": 11}, SALT.hex())
    value = opening.commitment(MATCH, 1, "ana")
    assert opening.opens(value, MATCH, 1, "ana")
    assert not opening.opens(value, MATCH, 1, "ben")
    assert not Opening({"card": 12}, SALT.hex()).opens(value, MATCH, 1, "ana")
    assert not Opening({"card": 11}, "zz").opens(value, MATCH, 1, "ana")


@settings(max_examples=50, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=8),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
        ),
        max_leaves=8,
    ),
    st.binary(min_size=32, max_size=32),
)
def test_every_json_payload_round_trips_through_its_opening(payload: object, salt: bytes) -> None:
    opening = Opening(payload, salt.hex())
    assert opening.opens(opening.commitment(MATCH, 7, "ana"), MATCH, 7, "ana")
