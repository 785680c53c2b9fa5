"""Sealed values at rest (service/sealing.py, docs/PROTOCOL.md §4 "Sealed fields at rest").

Issue 14, findings 6 and 7: a stored sealed value leaked its plaintext's length (a vote for
``bartholomew`` was 124 bytes at rest, one for ``al`` 115; a 6 nimmt! card's digit count
showed) and was not bound to its event. Now the plaintext is padded to a size class and the
binding (match, position, player, field) is authenticated with the ciphertext.

The picks compared per game are the smallest and the largest the game's rules accept, each
checked by the game's own ``check_pick`` on a state built by the rules.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import JSONTranscoder, StoredEvent
from eventsourcing.utils import get_topic

from domain.canonical import canonical_json
from domain.commitment import Opening
from domain.rules import get_rules
from domain.rules.base import MAX_NAME_LENGTH, State
from domain.rules.grid_adaptation import MAX_GARNETS, MAX_PURCHASE
from domain.sealed import Sealed, binding
from service.sealing import (
    SIZE_CLASSES,
    SealedTranscoding,
    SealingError,
    SealingMapper,
    UnreadableEvent,
    key_id,
    size_class,
)

KEY = bytes(range(32))
OLD_KEY = bytes(range(32, 64))
MATCH = "0b9c3c1e-4b8a-4f3e-9a57-2d1c9f0e7a11"
SALT = "ab" * 32
# The longest name the rules accept (players, vote candidates), in characters of 4 UTF-8
# bytes each: the longest in bytes too.
LONGEST_NAME = "\U00020000" * MAX_NAME_LENGTH


def seal(value: Any, position: int = 5, player: str = "ana", field: str = "opening") -> Sealed:
    return Sealed(value, binding(MATCH, position, player, field))


def stored(value: Any, transcoding: SealedTranscoding | None = None, **where: Any) -> dict:
    """What the store holds for a sealed value (through JSON, as the event store keeps it)."""
    transcoding = transcoding or SealedTranscoding((KEY,))
    return json.loads(json.dumps(transcoding.encode(seal(value, **where))))


def opening(payload: Any) -> dict[str, Any]:
    return Opening(payload, secrets.token_hex(32)).to_json()


def ciphertext_length(value: Any) -> int:
    return len(base64.b64decode(stored(value)["c"]))


# ---------------------------------------------------------------------------- round trip


def test_a_sealed_value_round_trips_with_its_binding() -> None:
    transcoding = SealedTranscoding((KEY,))
    value = opening({"vote": "josé"})
    data = stored(value, transcoding)
    assert data["v"] == 2 and data["k"] == key_id(KEY)
    assert data["b"] == binding(MATCH, 5, "ana", "opening")
    back = transcoding.decode(data)
    assert back.value == value
    assert back.bound == binding(MATCH, 5, "ana", "opening")
    back.check_bound(MATCH, 5, "ana", "opening")


def test_every_json_value_round_trips_including_null_and_trailing_spaces_in_text() -> None:
    transcoding = SealedTranscoding((KEY,))
    for value in (None, 0, "", "ends in spaces   ", [1, "x"], {"a": {"b": [True, False]}}):
        assert transcoding.decode(stored(value, transcoding)).value == value


def test_a_value_sealed_with_an_earlier_key_opens_after_rotation() -> None:
    old = stored({"card": 7}, SealedTranscoding((OLD_KEY,)))
    rotated = SealedTranscoding((KEY, OLD_KEY))
    assert rotated.decode(old).value == {"card": 7}
    assert stored({"card": 7}, rotated)["k"] == key_id(KEY)  # new values use the first key


def test_a_value_sealed_with_a_key_no_longer_configured_is_refused() -> None:
    old = stored({"card": 7}, SealedTranscoding((OLD_KEY,)))
    with pytest.raises(SealingError, match="not configured"):
        SealedTranscoding((KEY,)).decode(old)


def test_an_unbound_sealed_value_is_refused_when_stored() -> None:
    with pytest.raises(SealingError, match="bound to its place"):
        SealedTranscoding((KEY,)).encode(Sealed({"vote": "ben"}))


# ---------------------------------------------------------------------------- finding 7


@pytest.mark.parametrize(
    "other",
    [
        binding(MATCH, 6, "ana", "opening"),  # another event
        binding(MATCH, 5, "ben", "opening"),  # another player
        binding(MATCH, 5, "ana", "seed"),  # another field
        binding("7d3e0f52-1c2b-4a69-8e0d-5f4b3a2c1d00", 5, "ana", "opening"),  # another match
    ],
)
def test_a_changed_binding_fails_authentication(other: str) -> None:
    data = stored({"vote": "ben"})
    data["b"] = other
    with pytest.raises(SealingError, match="failed authentication"):
        SealedTranscoding((KEY,)).decode(data)


def test_an_altered_ciphertext_or_nonce_fails_authentication() -> None:
    transcoding = SealedTranscoding((KEY,))
    data = stored({"vote": "ben"}, transcoding)
    raw = bytearray(base64.b64decode(data["c"]))
    raw[0] ^= 1
    with pytest.raises(SealingError, match="failed authentication"):
        transcoding.decode({**data, "c": base64.b64encode(bytes(raw)).decode()})
    with pytest.raises(SealingError, match="failed authentication"):
        transcoding.decode({**data, "n": base64.b64encode(bytes(12)).decode()})
    with pytest.raises(SealingError, match="failed authentication"):
        transcoding.decode({**data, "c": "not base64!"})


def test_ciphertexts_swapped_between_two_players_fail_authentication() -> None:
    transcoding = SealedTranscoding((KEY,))
    ana = stored({"vote": "ben"}, transcoding, player="ana")
    ben = stored({"vote": "ana"}, transcoding, position=6, player="ben")
    for mine, theirs in ((ana, ben), (ben, ana)):
        with pytest.raises(SealingError):
            transcoding.decode({**mine, "n": theirs["n"], "c": theirs["c"]})


def test_a_whole_value_moved_to_another_event_keeps_its_old_binding() -> None:
    # The swap needs no key: copying the whole stored value decrypts fine, but the binding
    # names its old place, and the aggregate's check refuses it there.
    transcoding = SealedTranscoding((KEY,))
    moved = transcoding.decode(stored({"vote": "ben"}, transcoding, position=6, player="ben"))
    with pytest.raises(RuntimeError, match="not bound to that event"):
        moved.check_bound(MATCH, 5, "ana", "opening")


def test_sealing_errors_are_server_faults_not_user_errors() -> None:
    assert not issubclass(SealingError, ValueError)


@pytest.mark.parametrize(
    "change",
    [
        {"v": 3},
        {"v": "2"},
        {"b": None},
        {"k": ["x"]},
        {"extra": 1},
    ],
)
def test_a_malformed_stored_value_is_refused(change: dict[str, Any]) -> None:
    data = {**stored({"vote": "ben"}), **change}
    with pytest.raises(SealingError):
        SealedTranscoding((KEY,)).decode(data)


def test_a_stored_value_in_the_pre_release_format_1_is_refused_with_the_way_out() -> None:
    v1 = {"k": key_id(KEY), "n": base64.b64encode(bytes(12)).decode(), "c": "AAAA"}
    with pytest.raises(SealingError, match=r"format 1.*rebuild the store"):
        SealedTranscoding((KEY,)).decode(v1)


# ---------------------------------------------------------------------------- finding 6


def test_size_classes_grow_and_fit() -> None:
    assert SIZE_CLASSES == (1024, 4096, 16384, 65536)
    for length in (0, 1, 1023, 1024, 1025, 4097, 65535, 65536, 65537, 10**6):
        size = size_class(length)
        assert size >= length
        assert size in SIZE_CLASSES or size % 65536 == 0
        assert size_class(size) == size


def test_a_value_longer_than_a_class_takes_the_next_and_still_round_trips() -> None:
    transcoding = SealedTranscoding((KEY,))
    big = "x" * 5000
    data = stored(big, transcoding)
    assert len(base64.b64decode(data["c"])) == 16384 + 16
    assert transcoding.decode(data).value == big


def test_the_votes_of_the_issue_encrypt_to_the_same_length() -> None:
    assert ciphertext_length(opening({"vote": "al"})) == ciphertext_length(
        opening({"vote": "bartholomew"})
    )


def test_stored_ciphertext_never_contains_the_plaintext() -> None:
    value = opening({"vote": "bartholomew"})
    plain = canonical_json(value)
    data = stored(value)
    text = json.dumps(data)
    for secret in ("bartholomew", value["salt"], plain.decode()):
        assert secret not in text
    assert plain not in base64.b64decode(data["c"])
    assert base64.b64encode(plain)[:40].decode() not in text
    # the binding is the only clear text, and it names no pick
    assert set(data) == {"v", "k", "n", "c", "b"}


# The smallest and largest legal picks of every game, each checked by its rules.


def _vote() -> list[Any]:
    rules = get_rules("vote")
    state = rules.setup({}, ["a", "al", "bartholomew", LONGEST_NAME])
    picks = [{"vote": "a"}, {"vote": "al"}, {"vote": "bartholomew"}, {"vote": LONGEST_NAME}]
    return [rules.check_pick(state, "a", pick) for pick in picks] + [{"vote": None}]


def _six_nimmt() -> list[Any]:
    rules = get_rules("six-nimmt")
    players = ["ana", "ben", LONGEST_NAME]
    state = rules.setup({}, players)
    deal = {
        "rows": [50, 51, 52, 53],
        "hands": {
            "ana": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
            "ben": [11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
            LONGEST_NAME: [95, 96, 97, 98, 99, 100, 101, 102, 103, 104],
            "virtual": [21, 22, 23, 24, 25, 26, 27, 28, 29, 30],
        },
    }
    state = rules.apply_deal(state, rules.check_deal(state, deal))
    picks = [("ana", 1), ("ana", 10), ("ben", 11), (LONGEST_NAME, 100), (LONGEST_NAME, 104)]
    return [rules.check_pick(state, p, {"card": card}) for p, card in picks]


def _apocalypse() -> list[Any]:
    rules = get_rules("apocalypse")
    state = rules.setup({}, ["ana", "ben"])
    picks = [{"from": "a1", "to": "b3"}, {"from": "e4", "to": "e5", "drop": "c3"}]
    return [rules.check_pick(state, "ana", pick) for pick in picks] + [{"from": None, "to": None}]


def _picking_nine() -> list[Any]:
    rules = get_rules("picking-nine")
    players = ["ana", "ben", "cai", "dee", "eli", "fay"]  # six: the highest priority
    state: State = rules.setup({}, players)
    short = rules.apply_deal(
        state, rules.check_deal(state, {"pool": ["R1", "G1", "B1", "Y1", "R2", "G2", "B2", "Y2"]})
    )
    long = rules.apply_deal(
        state,
        rules.check_deal(state, {"pool": ["R10", "G10", "B10", "Y10", "R9", "G9", "B9", "Y9"]}),
    )
    smallest = {"wants": ["0", "R1", "G1", "B1", "Y1", "R2", "G2"], "ban": "0", "priority": 1}
    largest = {
        "wants": ["R10", "G10", "B10", "Y10", "R9", "G9", "B9"],
        "ban": "R10",
        "priority": 6,
    }
    return [
        rules.check_pick(short, "ana", smallest),
        rules.check_pick(long, "ana", largest),
        rules.default_pick(short, "ana"),
    ]


def _grid_adaptation() -> list[Any]:
    rules = get_rules("grid-adaptation")
    players = ["ana", "ben"]
    state = rules.setup({"garnets": {"ana": MAX_GARNETS}}, players)
    dealt = rules.check_deal(state, {"sequences": {"ana": "000", "ben": "111"}})
    state = rules.apply_deal(state, dealt)
    most = MAX_PURCHASE  # the most reserve tiles the most garnets buy
    round_1 = dict(state, round=0)
    round_2 = dict(state, round=1)
    round_4 = dict(state, round=3)
    picks = [
        (round_2, {"tiles": ["A1"]}),
        (round_1, {"tiles": ["A1", "B1", "C1"]}),
        (round_1, {"tiles": ["M15", "N15", "O15"], "reserve": "O14", "buy_reserves": most}),
        (round_4, {"tiles": ["O15"], "reserve": "N14", "flip": 2, "buy_reserves": most}),
        (round_4, {"tiles": ["A1"], "flip": 0}),
    ]
    checked = [rules.check_pick(s, "ana", pick) for s, pick in picks]
    vote = dict(state, phase="ec-vote", ec_voters=["ana"], ec_candidates=["ben", LONGEST_NAME])
    checked += [rules.check_pick(vote, "ana", {"vote": name}) for name in ("ben", LONGEST_NAME)]
    return [*checked, rules.default_pick(state, "ana"), {"vote": None}]


GAMES = {
    "vote": _vote,
    "six-nimmt": _six_nimmt,
    "apocalypse": _apocalypse,
    "picking-nine": _picking_nine,
    "grid-adaptation": _grid_adaptation,
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_pick_of_a_game_encrypts_to_the_same_length(game: str) -> None:
    picks = GAMES[game]()
    assert len(picks) >= 2
    plain = sorted(len(canonical_json(opening(pick))) for pick in picks)
    assert plain[0] < plain[-1]  # the picks do differ in length before padding
    lengths = {ciphertext_length(opening(pick)) for pick in picks}
    # a self-custody commitment seals no opening: it looks the same at rest
    lengths.add(ciphertext_length(None))
    assert lengths == {SIZE_CLASSES[0] + 16}, (game, plain)


def test_the_whole_stored_value_has_the_same_length_for_every_pick_of_a_game() -> None:
    # What a reader of the database sees: the stored JSON text, binding and all, for two
    # players of the same length of name at the same position.
    small = json.dumps(stored(opening({"card": 1}), player="ana"))
    large = json.dumps(stored(opening({"card": 104}), player="ben"))
    assert len(small) == len(large)


# ---------------------------------------------------------------------------- the mapper
# The library's mapper reports an unreadable stored event as a ValueError (which the web
# layer answers as the caller's fault, with the event's topic in it); ours as server faults.


@dataclass(frozen=True)
class Noted(DomainEvent):
    """An event with a sealed field, for the mapper."""

    opening: Sealed


def mapper() -> SealingMapper:
    transcoder = JSONTranscoder()
    transcoder.register(SealedTranscoding((KEY,)))
    return SealingMapper(transcoder=transcoder)


def stored_event(state: bytes) -> StoredEvent:
    return StoredEvent(
        originator_id=uuid.UUID(MATCH), originator_version=5, topic=get_topic(Noted), state=state
    )


def test_the_mapper_reports_a_sealed_field_that_fails_as_a_sealing_error() -> None:
    data = stored({"vote": "ben"})
    data["b"] = binding(MATCH, 6, "ana", "opening")
    state = json.dumps({"opening": {"_type_": "sealed", "_data_": data}}).encode()
    with pytest.raises(SealingError, match=f"event 5 of match {MATCH}") as raised:
        mapper().to_domain_event(stored_event(state))
    assert not isinstance(raised.value, ValueError)


def test_the_mapper_reports_an_unreadable_event_as_a_server_fault() -> None:
    with pytest.raises(UnreadableEvent, match="cannot be read") as raised:
        mapper().to_domain_event(stored_event(b'{"opening": '))
    assert not isinstance(raised.value, ValueError)


def test_the_mapper_reads_a_good_event() -> None:
    data = stored({"vote": "ben"})
    state = json.dumps({"opening": {"_type_": "sealed", "_data_": data}}).encode()
    event = mapper().to_domain_event(stored_event(state))
    assert isinstance(event, Noted) and event.opening.value == {"vote": "ben"}


def test_the_stored_form_is_the_one_protocol_md_describes() -> None:
    # An independent reading of docs/PROTOCOL.md §4 "Sealed fields at rest".
    value = {"payload": {"vote": "josé"}, "salt": SALT}
    data = stored(value)
    bound = json.dumps([MATCH, 5, "ana", "opening"], separators=(",", ":"))
    assert data["v"] == 2 and data["b"] == bound
    assert data["k"] == hashlib.sha256(KEY).hexdigest()[:8]
    nonce = base64.b64decode(data["n"], validate=True)
    assert len(nonce) == 12
    aad = b"dealerroom/sealed/v2" + b"\x00" + bound.encode("utf-8")
    plain = AESGCM(KEY).decrypt(nonce, base64.b64decode(data["c"], validate=True), aad)
    text = '{"payload":{"vote":"josé"},"salt":"' + SALT + '"}'
    assert plain == text.encode("utf-8") + b" " * (1024 - len(text.encode("utf-8")))
