"""Bundles: canonical bytes, the file format, strict loading, checkpoints, playing scenarios."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import pytest
import rfc8785
from hypothesis import given
from hypothesis import strategies as st

from domain.merkle import root
from domain.signed_note import Signer, open_checkpoint
from replay.bundle import (
    BUNDLE_FORMAT,
    BundleError,
    build_bundle,
    dump_bundle,
    export_bundle,
    jcs,
    load_bundle,
    play_scenario,
    play_scenario_records,
    record_leaf_hash,
    sign_checkpoints,
    split_origin,
)
from tests.unit.test_replay_fixtures import TEST_KEY, scenario

START = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
MATCH = UUID("00000000-0000-4000-8000-0000000000b1")


@pytest.fixture(scope="module")
def vote() -> dict[str, Any]:
    played = play_scenario(scenario("vote-basic"), match_id=MATCH, start_time=START)
    return export_bundle(played.records, TEST_KEY, sizes=played.boundaries)


# --- Canonical bytes ----------------------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(json_values)
def test_the_fast_canonical_form_is_rfc_8785(value: Any) -> None:
    assert jcs(value) == rfc8785.dumps(value)


@pytest.mark.parametrize(
    "value",
    [
        {"\U0001f600": 1, "\ue000": 2},
        {"t": "00:00.5]"},
        {"x": [1e21, -0.0, 5e-324]},
        "a,1.5}",
        0.0,
        1e16,
        [2.5],
    ],
)
def test_values_the_fast_path_cannot_do_go_the_exact_way(value: Any) -> None:
    assert jcs(value) == rfc8785.dumps(value)


def test_a_leaf_is_the_jcs_of_the_record_with_the_rfc_6962_prefix() -> None:
    # The worked example of docs/protocol-tamper-evidence.md, leaf 0.
    record = {"seq": 0, "type": "MatchCreated", "at": "2025-01-01T12:00:00Z",
              "data": {"game": "vote", "players": ["ann", "ben"]}}  # fmt: skip
    assert record_leaf_hash(record).hex() == (
        "781e92ce581c5927a0d0895652be28c6b671bdcdf9e21feb54957ff5306a04c2"
    )


# --- The file -----------------------------------------------------------------------------


def test_export_import_export_is_byte_identical(vote: dict[str, Any]) -> None:
    data = dump_bundle(vote)
    assert data.endswith(b"}\n") and data.count(b"\n") == 1
    assert dump_bundle(load_bundle(data)) == data
    assert load_bundle(data) == vote


def test_a_bundle_names_its_match_rules_and_key(vote: dict[str, Any]) -> None:
    assert vote["format"] == BUNDLE_FORMAT
    assert vote["origin"] == f"dealerroom.example/match/{MATCH}"
    assert vote["match_id"] == str(MATCH)
    assert vote["rules"] == {"game": "vote", "version": "1"}
    assert (
        vote["public_key"]
        == "dealerroom.example+debe4652+AQOhB7/zzhC+HXDdGOdLwJln5NYwm6UNXx3chmQSVTG4"
    )


def test_a_pretty_printed_bundle_loads_and_dumps_canonically(vote: dict[str, Any]) -> None:
    pretty = json.dumps(vote, indent=2)
    assert dump_bundle(load_bundle(pretty)) == dump_bundle(vote)


def broken(vote: dict[str, Any], change: Any) -> str:
    bundle = copy.deepcopy(vote)
    change(bundle)
    return json.dumps(bundle)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda b: b.pop("receipts"), "lacks receipts"),
        (lambda b: b.update(extra=1), "unknown key"),
        (lambda b: b.update(format="dealerroom/bundle/v2"), "this reader knows"),
        (
            lambda b: b.update(match_id="00000000-0000-4000-8000-000000000000"),
            "is not the match of origin",
        ),
        (lambda b: b.update(origin="dealerroom.example/games/x"), "is not <prefix>/match/"),
        (lambda b: b.update(rules={"game": "vote"}), "rules is"),
        (lambda b: b.update(public_key="not a key"), "verifier key"),
        (lambda b: b["records"][3].pop("at"), r'records\[3\] is {"seq"'),
        (lambda b: b["records"][2].update(seq="2"), r"records\[2\].seq must be a whole number"),
        (lambda b: b["records"][1].update(data=[]), r"records\[1\].data is an object"),
        (lambda b: b.update(checkpoints=[]), "at least one checkpoint"),
        (lambda b: b["checkpoints"].reverse(), "must ascend strictly"),
        (lambda b: b["checkpoints"][0].update(note=5), "signed note's text"),
    ],
)
def test_loading_a_malformed_bundle_says_what_is_wrong(
    vote: dict[str, Any], change: Any, message: str
) -> None:
    with pytest.raises(BundleError, match=message):
        load_bundle(broken(vote, change))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"\xff", "not UTF-8"),
        (b"{", "the bundle is not JSON"),
        (b'{"format": 1, "format": 2}', 'repeats the member "format"'),
        (b'{"x": NaN}', "NaN, which is not a JSON number"),
        (b"[]", "a bundle is a JSON object"),
        (b'{"x": ' + b"9" * 5000 + b"}", "a number of 5,000 characters"),
        (b"[" * 5000 + b"]" * 5000, "more than 100 levels deep"),
        (b'{"x": ' + b"[" * 200 + b"]" * 200 + b"}", "more than 100 levels deep"),
    ],
)
def test_loading_bytes_that_are_not_a_bundle_says_why(text: bytes, message: str) -> None:
    with pytest.raises(BundleError, match=message):
        load_bundle(text)


def test_build_bundle_needs_match_created_first(vote: dict[str, Any]) -> None:
    with pytest.raises(BundleError, match="start with MatchCreated"):
        build_bundle(vote["records"][1:], vote["checkpoints"], vote["public_key"])


# --- Checkpoints --------------------------------------------------------------------------


def test_checkpoints_sign_the_root_at_their_size(vote: dict[str, Any]) -> None:
    records = vote["records"]
    notes = sign_checkpoints(records, TEST_KEY, vote["origin"], [3, len(records)])
    for note in notes:
        cp = open_checkpoint(note["note"], [TEST_KEY.verifier()], vote["origin"])
        assert cp.size == note["size"]
        assert cp.root_hash == root([record_leaf_hash(r) for r in records[: cp.size]])


def test_the_key_is_named_after_the_origin_prefix(vote: dict[str, Any]) -> None:
    stranger = Signer("example.org", bytes(range(32)))
    with pytest.raises(BundleError, match=r"need 'dealerroom\.example'"):
        sign_checkpoints(vote["records"], stranger, vote["origin"], [3])


def test_checkpoint_sizes_ascend_within_the_records(vote: dict[str, Any]) -> None:
    with pytest.raises(BundleError, match="exceeds"):
        sign_checkpoints(vote["records"], TEST_KEY, vote["origin"], [len(vote["records"]) + 1])


@pytest.mark.parametrize(
    "origin",
    [
        "dealerroom.example/match/6B3F2A2E-1C4D-4E5F-9A8B-7C6D5E4F3A2B",
        "/match/6b3f2a2e-1c4d-4e5f-9a8b-7c6d5e4f3a2b",
        3,
    ],
)
def test_an_origin_ends_in_the_canonical_match_id(origin: Any) -> None:
    with pytest.raises(BundleError):
        split_origin(origin)


# --- Playing scenarios --------------------------------------------------------------------


def test_playing_a_scenario_is_deterministic() -> None:
    one = play_scenario_records(
        scenario("six-nimmt-classic"), match_id=MATCH, seed=None, start_time=START
    )
    two = play_scenario_records(
        scenario("six-nimmt-classic"), match_id=MATCH, seed=None, start_time=START
    )
    assert one == two
    assert [r["seq"] for r in one] == list(range(len(one)))
    assert one[-1]["type"] == "SeedRevealed"


def test_times_advance_one_tick_per_command() -> None:
    records = play_scenario_records(
        scenario("vote-basic"), match_id=MATCH, seed=None, start_time=START
    )
    assert records[0]["at"] == "2026-11-21T20:00:00.000000Z"
    assert records[2]["at"] == "2026-11-21T20:00:01.000000Z"  # open_step, the second command


def test_self_custody_keys_and_entropy_appear_in_the_records() -> None:
    key = bytes(range(32))
    played = play_scenario(
        scenario("vote-basic"),
        match_id=MATCH,
        start_time=START,
        custody={"ben": "self"},
        player_keys={"ana": key},
        entropy={"cai": "dice: 6"},
    )
    types = [r["type"] for r in played.records]
    assert "OpeningReceived" in types
    assert types[2] == "PlayerJoined" and played.records[2]["data"]["entropy"] == "dice: 6"
    created = played.records[0]["data"]
    assert created["custody"]["ben"] == "self"
    assert created["player_keys"] == {"ana": "A6EHv/POEL4dcN0Y50vAmWfk1jCbpQ1fHdyGZBJVMbg="}
    signed = [
        r for r in played.records if r["type"] == "SubmissionCommitted" and r["data"]["signature"]
    ]
    assert [r["data"]["player"] for r in signed] == ["ana"]
    assert played.boundaries[-1] == len(played.records)
