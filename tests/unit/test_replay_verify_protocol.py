"""The verifier holds a log to the protocol exactly: fields, times, deadlines, seats, sizes.

Each test forges an honest bundle the way a host holding the key could (changing records and
re-signing every checkpoint) and checks that the verifier refuses it in the right check, at
the first bad record; the honest bundle passes.
"""

from __future__ import annotations

import base64
import copy
import typing
from typing import Any

import pytest

from domain.match import Match
from domain.sealed import Sealed
from domain.signed_note import Checkpoint, sign_with
from replay.bundle import build_bundle, player_public_key, sign_checkpoints, sign_submission
from replay.verify import _FIELDS, verify_bundle
from tests.unit.test_replay_fixtures import TEST_KEY, player_key
from tests.unit.test_replay_verify import bundle_of, forge, only_failures, seq_of


@pytest.fixture(scope="module")
def vote() -> dict[str, Any]:
    keys = {p: player_key(p) for p in ("ana", "ben")}
    return bundle_of("vote-basic", player_keys=keys, custody={"cai": "self"})


@pytest.fixture(scope="module")
def nimmt() -> dict[str, Any]:
    return bundle_of("six-nimmt-even-odd", steps=2)


def record(kind: str, at: str, **data: Any) -> dict[str, Any]:
    return {"seq": 0, "type": kind, "at": at, "data": data}


def insert(records: list[dict[str, Any]], before: int, kind: str, **data: Any) -> None:
    """Insert a record before ``before``, at the time of the record before it."""
    records.insert(before, record(kind, records[before - 1]["at"], **data))


def test_the_honest_bundles_pass(vote: dict[str, Any], nimmt: dict[str, Any]) -> None:
    assert only_failures(verify_bundle(vote)) == {}
    assert only_failures(verify_bundle(nimmt)) == {}


# --- fields the protocol does not define -------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "field"),
    [("MatchCreated", "note"), ("SubmissionCommitted", "payload"), ("StepResolved", "debug"),
     ("SubmissionCommitted", "salt"), ("SeedCommitted", "seed")],
)  # fmt: skip
def test_a_field_the_protocol_does_not_define_fails_structure(
    vote: dict[str, Any], kind: str, field: str
) -> None:
    at = seq_of(vote, kind)

    def add(records: list[dict[str, Any]]) -> None:
        records[at]["data"][field] = "anything"

    verdict = verify_bundle(forge(vote, add))
    assert only_failures(verdict) == {"structure": at}
    assert f"has the field(s) '{field}', which the protocol does not define" in (
        verdict.check("structure").detail
    )


def test_an_unknown_record_type_fails_structure(vote: dict[str, Any]) -> None:
    at = seq_of(vote, "StepOpened")
    forged = forge(vote, lambda r: insert(r, at, "StepPaused", actor="host", step=1))
    assert only_failures(verify_bundle(forged)) == {"structure": at}


# --- times ------------------------------------------------------------------------------------


def test_a_time_that_goes_backwards_fails_structure(vote: dict[str, Any]) -> None:
    at = seq_of(vote, "StepSealed")

    def earlier(records: list[dict[str, Any]]) -> None:
        records[at]["at"] = records[at - 2]["at"].replace("T20:", "T19:")

    verdict = verify_bundle(forge(vote, earlier))
    assert only_failures(verdict) == {"structure": at}
    assert "times never go backwards" in verdict.check("structure").detail


def test_equal_times_are_not_backwards(vote: dict[str, Any]) -> None:
    at = seq_of(vote, "StepSealed")

    def same(records: list[dict[str, Any]]) -> None:
        records[at]["at"] = records[at - 1]["at"]

    assert only_failures(verify_bundle(forge(vote, same))) == {}


# --- deadlines ----------------------------------------------------------------------------------


def test_a_submission_after_its_steps_deadline_fails_structure(vote: dict[str, Any]) -> None:
    opened = seq_of(vote, "StepOpened")
    late = seq_of(vote, "SubmissionCommitted", player="ben")

    def deadline(records: list[dict[str, Any]]) -> None:
        # the deadline falls between ana's submission and ben's, in another zone
        records[opened]["data"]["deadline"] = "2026-11-21T21:00:02.500000+01:00"

    assert vote["records"][late]["at"] == "2026-11-21T20:00:03.000000Z"
    verdict = verify_bundle(forge(vote, deadline))
    assert only_failures(verdict) == {"structure": late}
    assert "after step 1's deadline 2026-11-21T20:00:02.500000Z" in (
        verdict.check("structure").detail
    )


def test_a_submission_at_the_deadline_itself_is_on_time(vote: dict[str, Any]) -> None:
    opened = seq_of(vote, "StepOpened")
    last = max(r["seq"] for r in vote["records"] if r["type"] == "SubmissionCommitted")

    def deadline(records: list[dict[str, Any]]) -> None:
        records[opened]["data"]["deadline"] = records[last]["at"]

    assert only_failures(verify_bundle(forge(vote, deadline))) == {}


@pytest.mark.parametrize("deadline", ["tomorrow", "2026-11-21", 5, "0001-01-01T00:00:00+14:00"])
def test_a_deadline_that_is_not_a_time_fails_structure(vote: dict[str, Any], deadline: Any) -> None:
    opened = seq_of(vote, "StepOpened")

    def bad(records: list[dict[str, Any]]) -> None:
        records[opened]["data"]["deadline"] = deadline

    assert only_failures(verify_bundle(forge(vote, bad))) == {"structure": opened}


def test_a_decision_made_after_its_deadline_fails_but_a_default_may_come_late(
    nimmt: dict[str, Any],
) -> None:
    asked = seq_of(nimmt, "DecisionRequested")
    made = seq_of(nimmt, "DecisionMade")
    assert made == asked + 1

    def deadline(defaulted: bool) -> Any:  # noqa: FBT001
        def change(records: list[dict[str, Any]]) -> None:
            records[asked]["data"]["deadline"] = records[asked]["at"]
            records[made]["at"] = records[made]["at"].replace(".000000Z", ".000001Z")
            records[made]["data"]["defaulted"] = defaulted

        return change

    verdict = verify_bundle(forge(nimmt, deadline(defaulted=False)), checks=["structure"])
    assert only_failures(verdict) == {"structure": made}
    assert "after its deadline" in verdict.check("structure").detail
    verdict = verify_bundle(forge(nimmt, deadline(defaulted=True)), checks=["structure"])
    assert only_failures(verdict) == {}


# --- seats and the signing key at each submission --------------------------------------------

OTHER = bytes(range(7, 39))


def resign_submission(records: list[dict[str, Any]], seq: int, key: bytes | None) -> None:
    data = records[seq]["data"]
    match_id = records[0]["data"]["origin"].rpartition("/match/")[2]
    data["signature"] = (
        None
        if key is None
        else sign_submission(key, match_id, data["step"], data["player"], data["commitment"])
    )


def test_a_seat_claimed_with_a_new_key_signs_from_then_on(vote: dict[str, Any]) -> None:
    opened = seq_of(vote, "StepOpened")
    ana = seq_of(vote, "SubmissionCommitted", player="ana") + 1  # after the insertion

    def claim(records: list[dict[str, Any]]) -> None:
        insert(records, opened, "SeatClaimed", actor="ana", player="ana",
               public_key=player_public_key(OTHER))  # fmt: skip
        resign_submission(records, ana, OTHER)

    assert only_failures(verify_bundle(forge(vote, claim))) == {}

    def claim_but_sign_with_the_old_key(records: list[dict[str, Any]]) -> None:
        insert(records, opened, "SeatClaimed", actor="ana", player="ana",
               public_key=player_public_key(OTHER))  # fmt: skip

    verdict = verify_bundle(forge(vote, claim_but_sign_with_the_old_key))
    assert only_failures(verdict) == {"signatures": ana}


def test_a_signature_from_a_seat_claimed_without_a_key_fails(vote: dict[str, Any]) -> None:
    opened = seq_of(vote, "StepOpened")
    ana = seq_of(vote, "SubmissionCommitted", player="ana") + 1

    def claim_without_key(records: list[dict[str, Any]]) -> None:
        insert(records, opened, "SeatClaimed", actor="ana", player="ana", public_key=None)

    verdict = verify_bundle(forge(vote, claim_without_key))
    assert only_failures(verdict) == {"signatures": ana}
    assert "registered no key" in verdict.check("signatures").detail

    def and_unsigned(records: list[dict[str, Any]]) -> None:
        claim_without_key(records)
        resign_submission(records, ana, None)

    assert only_failures(verify_bundle(forge(vote, and_unsigned))) == {}


def test_a_reinvite_revokes_the_key_until_the_next_claim(vote: dict[str, Any]) -> None:
    opened = seq_of(vote, "StepOpened")
    ana = seq_of(vote, "SubmissionCommitted", player="ana") + 1

    def reinvite(records: list[dict[str, Any]]) -> None:
        insert(records, opened, "SeatReinvited", actor="host", player="ana")

    assert only_failures(verify_bundle(forge(vote, reinvite))) == {"signatures": ana}

    def reinvite_then_claim(records: list[dict[str, Any]]) -> None:
        insert(records, opened, "SeatClaimed", actor="ana", player="ana",
               public_key=player_public_key(player_key("ana")))  # fmt: skip
        insert(records, opened, "SeatReinvited", actor="host", player="ana")

    assert only_failures(verify_bundle(forge(vote, reinvite_then_claim))) == {}


def test_seat_records_may_come_at_any_time_even_after_the_log_ends(vote: dict[str, Any]) -> None:
    def late_seats(records: list[dict[str, Any]]) -> None:
        at = records[-1]["at"]
        records.append(record("SeatReinvited", at, actor="host", player="ben"))
        records.append(record("SeatClaimed", at, actor="ben", player="ben", public_key=None))

    assert only_failures(verify_bundle(forge(vote, late_seats))) == {}


@pytest.mark.parametrize(
    ("seats", "check"),
    [
        ([("SeatClaimed", {"player": "ana", "public_key": None}),
          ("SeatClaimed", {"player": "ana", "public_key": None})], "structure"),
        ([("SeatClaimed", {"player": "zed", "public_key": None})], "structure"),
        ([("SeatReinvited", {"player": "zed"})], "structure"),
        ([("SeatClaimed", {"player": "ben", "public_key": "AAAA"})], "signatures"),
        ([("SeatClaimed", {"player": "ben", "public_key": None, "credential": "x"})], "structure"),
        ([("SeatReinvited", {"player": "ben", "public_key": None})], "structure"),
        ([("SeatClaimed", {"player": "ben", "public_key": None, "actor": "host"})], "structure"),
        ([("SeatReinvited", {"player": "ben", "actor": "ben"})], "structure"),
    ],
)  # fmt: skip
def test_malformed_seat_records_fail(vote: dict[str, Any], seats: list[Any], check: str) -> None:
    opened = seq_of(vote, "StepOpened")

    def add(records: list[dict[str, Any]]) -> None:
        for kind, data in reversed(seats):
            who = data["player"] if kind == "SeatClaimed" else "host"
            insert(records, opened, kind, **{"actor": who, **data})

    failed = only_failures(verify_bundle(forge(vote, add)))
    assert failed.get(check) == opened + len(seats) - 1 or failed.get(check) == opened, failed


# --- checkpoint sizes -------------------------------------------------------------------------


def with_checkpoints(bundle: dict[str, Any], extra: list[dict[str, Any]]) -> dict[str, Any]:
    forged = copy.deepcopy(bundle)
    checkpoints = sorted([*extra, *forged["checkpoints"]], key=lambda c: c["size"])
    return build_bundle(
        forged["records"], checkpoints, TEST_KEY.verifier(), receipts=forged["receipts"]
    )


def test_a_checkpoint_of_size_0_fails_signature(vote: dict[str, Any]) -> None:
    empty = sign_checkpoints(vote["records"], TEST_KEY, vote["origin"], [0])
    verdict = verify_bundle(with_checkpoints(vote, empty))
    assert only_failures(verdict) == {"signature": 0}
    assert "listed at size 0" in verdict.check("signature").detail


def test_a_checkpoint_beyond_2_63_minus_1_fails(vote: dict[str, Any]) -> None:
    root = base64.b64encode(bytes(32)).decode()
    note = sign_with(f"{vote['origin']}\n{2**63}\n{root}\n", TEST_KEY)
    verdict = verify_bundle(with_checkpoints(vote, [{"size": 2**63, "note": note}]))
    n = len(vote["records"])
    assert only_failures(verdict) == {"signature": n, "merkle": n}
    assert "sizes 1 to 2^63-1" in verdict.check("signature").detail
    assert Checkpoint.parse  # the note itself is refused too: see test_signed_note


def test_the_verifier_knows_exactly_the_public_fields_of_every_event_recorded() -> None:
    # A field added to an event without the verifier knowing would make every exported
    # bundle fail; one the verifier expects but no event has would never verify.
    events = {
        name: cls
        for name, cls in vars(Match).items()
        if isinstance(cls, type)
        and issubclass(cls, Match.Event)
        and cls.__module__ == "domain.match"
        and name not in {"Event", "Created"}
    }
    assert set(events) == set(_FIELDS)
    for name, cls in events.items():
        hints = typing.get_type_hints(cls)
        own = {
            field
            for klass in cls.__mro__
            if klass.__module__ == "domain.match"
            for field in vars(klass).get("__annotations__", {})
        }
        public = {f for f in own if hints.get(f) is not Sealed}
        assert public == _FIELDS[name] | {"actor"}, name
