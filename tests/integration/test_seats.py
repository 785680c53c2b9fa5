"""Trust (issue 14), on both stores.

Seats claimed by their players, deadlines at the moment of the command, client salts,
conflicts, and browser grants.
"""

from __future__ import annotations

import base64
import json
import os
import threading
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from domain.commitment import commit
from domain.match import (
    BadInvite,
    BadSalt,
    DeadlinePassed,
    MatchConflict,
    SeatTaken,
    StepStillOpen,
)
from domain.submission_signing import SignatureError, sign_submission
from service.application import DealerRoom, MatchIdTaken
from service.seat_notes import NotThisSeat, Pending
from tests.conftest import seat_all

if TYPE_CHECKING:
    from service.config import Settings

PLAYERS = ["ana", "ben", "cai"]


class Clock:
    """A service clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def room(settings: Settings, clock: Clock) -> Any:
    app = DealerRoom(settings, clock=clock)
    try:
        yield app
    finally:
        app.close()


def key_pair() -> tuple[Ed25519PrivateKey, str]:
    private = Ed25519PrivateKey.generate()
    raw = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return private, base64.b64encode(raw).decode()


def types(room: DealerRoom, mid: str) -> list[str]:
    return [r["type"] for r in room.records(mid)]


# ---------------------------------------------------------------------- seats


def test_creating_a_match_gives_the_host_invites_and_no_player_credential(room: DealerRoom) -> None:
    created = room.create_match("vote", PLAYERS)
    assert set(created) == {"match_id", "host_token", "invites"}
    mid = created["match_id"]
    # Check an invite is not a credential: it only claims the seat
    for invite in created["invites"].values():
        assert room.role_of(mid, invite) is None
    assert room.status(mid)["seats"] == {p: {"claimed": False, "public_key": None} for p in PLAYERS}


def test_a_claim_is_a_public_event_and_gives_the_player_their_own_token(room: DealerRoom) -> None:
    created = room.create_match("vote", PLAYERS)
    mid = created["match_id"]
    _, public = key_pair()
    claimed = room.claim(mid, "ana", created["invites"]["ana"], public)
    assert room.role_of(mid, claimed["token"]) == "ana"
    record = room.records(mid)[-1]
    assert record["type"] == "SeatClaimed"
    assert record["data"] == {"actor": "ana", "player": "ana", "public_key": public}
    dump = json.dumps(room.records(mid))
    assert claimed["token"] not in dump
    assert created["invites"]["ana"] not in dump
    assert room.status(mid)["seats"]["ana"] == {"claimed": True, "public_key": public}


def test_a_used_invite_is_refused_and_a_wrong_one_too(room: DealerRoom) -> None:
    created = room.create_match("vote", PLAYERS)
    mid = created["match_id"]
    room.claim(mid, "ana", created["invites"]["ana"])
    before = len(room.records(mid))
    with pytest.raises(SeatTaken, match="already claimed"):
        room.claim(mid, "ana", created["invites"]["ana"])
    with pytest.raises(BadInvite):
        room.claim(mid, "ben", created["invites"]["cai"])
    with pytest.raises(BadInvite):
        room.claim(mid, "ben", "")
    assert len(room.records(mid)) == before
    assert issubclass(SeatTaken, MatchConflict)  # 409


def test_a_reinvite_revokes_the_credential_and_the_key_and_is_public(room: DealerRoom) -> None:
    created = room.create_match("vote", PLAYERS)
    mid = created["match_id"]
    _, public = key_pair()
    old = room.claim(mid, "ben", created["invites"]["ben"], public)["token"]
    issued = room.reinvite(mid, "ben")
    assert room.role_of(mid, old) is None
    assert room.records(mid)[-1]["type"] == "SeatReinvited"
    assert room.records(mid)[-1]["data"] == {"actor": "host", "player": "ben"}
    assert room.status(mid)["seats"]["ben"] == {"claimed": False, "public_key": None}
    with pytest.raises(BadInvite):
        room.claim(mid, "ben", created["invites"]["ben"])  # the old invite is dead too
    new = room.claim(mid, "ben", issued["invite"])["token"]
    assert room.role_of(mid, new) == "ben"


def test_a_second_process_sees_claims_and_reinvites_at_once(
    room: DealerRoom, settings: Settings, clock: Clock
) -> None:
    created = room.create_match("vote", PLAYERS)
    mid = created["match_id"]
    other = DealerRoom(settings, clock=clock)
    try:
        token = room.claim(mid, "cai", created["invites"]["cai"])["token"]
        assert other.role_of(mid, token) == "cai"  # warm its cache with the claimed seat
        other.reinvite(mid, "cai")
        assert room.role_of(mid, token) is None
    finally:
        other.close()


# ---------------------------------------------------------------------- signatures


def test_a_player_with_a_key_must_sign_and_a_player_without_one_must_not(room: DealerRoom) -> None:
    created = room.create_match("vote", PLAYERS)
    mid = created["match_id"]
    private, public = key_pair()
    room.claim(mid, "ana", created["invites"]["ana"], public)
    room.claim(mid, "ben", created["invites"]["ben"])
    room.open_step(mid)
    with pytest.raises(SignatureError):
        room.submit(mid, "ana", {"vote": "ben"})
    salt = os.urandom(32)
    commitment = commit(mid, 1, "ana", {"vote": "ben"}, salt)
    signature = sign_submission(private, mid, 1, "ana", commitment)
    done = room.submit(mid, "ana", {"vote": "ben"}, salt=salt.hex(), signature=signature)
    assert done["commitment"] == commitment
    # Check the finding: a 60 KB "signature" from a player with no key is refused, not logged
    before = len(room.records(mid))
    with pytest.raises(SignatureError, match="no signing key"):
        room.submit(mid, "ben", {"vote": "ana"}, signature="A" * 60_000)
    assert len(room.records(mid)) == before


# ---------------------------------------------------------------------- deadlines


def test_a_pick_after_the_deadline_is_refused_even_before_the_ticker_runs(
    room: DealerRoom, clock: Clock
) -> None:
    mid = room.create_match("vote", PLAYERS)["match_id"]
    room.open_step(mid, seconds=60)
    room.submit(mid, "ana", {"vote": "ben"})
    clock.advance(60.001)
    with pytest.raises(DeadlinePassed):
        room.submit(mid, "ben", {"vote": "ana"})
    # Check the overdue step was sealed by the system at that moment, ben and cai defaulted
    records = room.records(mid)
    sealed = next(r for r in records if r["type"] == "StepSealed")
    assert sealed["data"]["actor"] == "system"
    assert sealed["data"]["missing"] == ["ben", "cai"]
    assert not any(
        r["type"] == "SubmissionCommitted" and r["data"]["player"] == "ben" for r in records
    )


def test_overdue_deadlines_are_applied_before_a_restarted_service_serves_a_command(
    room: DealerRoom, settings: Settings, clock: Clock
) -> None:
    mid = room.create_match("vote", PLAYERS)["match_id"]
    room.open_step(mid, seconds=30)
    room.close()
    clock.advance(3600)  # the service was down over the deadline
    restarted = DealerRoom(settings, clock=clock)
    try:
        with pytest.raises(DeadlinePassed):
            restarted.submit(mid, "ana", {"vote": "ben"})
        assert "StepResolved" in types(restarted, mid)
    finally:
        restarted.close()


def test_a_decision_after_its_deadline_is_refused(settings: Settings, clock: Clock) -> None:
    room = DealerRoom(settings, clock=clock, decision_seconds=30)
    try:
        created = room.create_match(
            "six-nimmt", PLAYERS, {"virtual_player": False, "start_points": 66}
        )
        mid = created["match_id"]
        deal = {
            "rows": [50, 60, 70, 80],
            "hands": {
                "ana": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
                "ben": [11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
                "cai": [21, 22, 23, 24, 25, 26, 27, 28, 29, 30],
            },
        }
        room.open_step(mid, deal=deal)
        for player, card in (("ana", 1), ("ben", 11), ("cai", 21)):
            room.submit(mid, player, {"card": card})
        assert room.seal(mid) == "decision"  # ana's 1 is below every row: she takes one
        clock.advance(31)
        with pytest.raises(DeadlinePassed):
            room.decide(mid, "ana", {"row": 2})
        made = [r for r in room.records(mid) if r["type"] == "DecisionMade"]
        assert made[0]["data"]["defaulted"] is True
    finally:
        room.close()


# ---------------------------------------------------------------------- salts


def test_client_salts_must_be_fresh_and_random(room: DealerRoom) -> None:
    mid = room.create_match("vote", PLAYERS)["match_id"]
    room.open_step(mid)
    with pytest.raises(BadSalt, match="not random"):
        room.submit(mid, "ana", {"vote": "ben"}, salt="00" * 32)
    with pytest.raises(BadSalt, match="not random"):
        room.submit(mid, "ana", {"vote": "ben"}, salt=bytes(range(8)).hex() * 4)
    salt = os.urandom(32).hex()
    room.submit(mid, "ana", {"vote": "ben"}, salt=salt)
    with pytest.raises(BadSalt, match="already used"):
        room.submit(mid, "ben", {"vote": "ana"}, salt=salt)


def test_an_identical_resend_is_unchanged_and_a_new_salt_is_an_amendment(room: DealerRoom) -> None:
    mid = room.create_match("vote", PLAYERS)["match_id"]
    room.open_step(mid)
    salt = os.urandom(32).hex()
    first = room.submit(mid, "ana", {"vote": "ben"}, salt=salt)
    again = room.submit(mid, "ana", {"vote": "ben"}, salt=salt)
    assert again["unchanged"] is True
    assert again["commitment"] == first["commitment"]
    # Check the finding: the same pick with a new salt answers the NEW commitment
    salt2 = os.urandom(32)
    amended = room.submit(mid, "ana", {"vote": "ben"}, salt=salt2.hex())
    assert amended["unchanged"] is False
    assert amended["commitment"] == commit(mid, 1, "ana", {"vote": "ben"}, salt2)
    last = room.records(mid)[-1]["data"]
    assert last["supersedes"] == first["commitment"]


# ---------------------------------------------------------------------- conflicts


def test_opening_a_step_while_one_is_open_is_a_conflict(room: DealerRoom) -> None:
    mid = room.create_match("vote", PLAYERS)["match_id"]
    room.open_step(mid)
    with pytest.raises(StepStillOpen):
        room.open_step(mid)
    assert issubclass(StepStillOpen, MatchConflict)


def test_a_taken_match_id_is_a_conflict(room: DealerRoom) -> None:
    mid = room.create_match("vote", PLAYERS)["match_id"]
    with pytest.raises(MatchIdTaken):
        room.create_match("vote", PLAYERS, match_id=mid)
    assert issubclass(MatchIdTaken, MatchConflict)


# ---------------------------------------------------------------------- grants


def test_grants_die_on_sign_out_and_on_reinvite(room: DealerRoom) -> None:
    created = room.create_match("vote", PLAYERS)
    mid = created["match_id"]
    tokens = seat_all(room, created)
    opened = room.open_grant(mid, tokens["ana"])
    assert opened is not None
    role, grant = opened
    assert role == "ana"
    assert room.grant_holds(mid, "ana", grant)
    assert not room.grant_holds(mid, "ben", grant)
    room.revoke_grants(mid, [grant])
    assert not room.grant_holds(mid, "ana", grant)
    _, grant2 = room.open_grant(mid, tokens["ana"]) or ("", "")
    room.reinvite(mid, "ana")
    assert not room.grant_holds(mid, "ana", grant2)
    assert room.open_grant(mid, tokens["ana"]) is None


def test_times_in_the_log_never_go_backwards_when_the_clock_does(
    room: DealerRoom, clock: Clock
) -> None:
    mid = room.create_match("vote", PLAYERS)["match_id"]
    room.open_step(mid, seconds=600)
    clock.advance(-30)  # the service clock steps back
    room.submit(mid, "ana", {"vote": "ben"})
    times = [r["at"] for r in room.records(mid)]
    assert times == sorted(times)


# ---------------------------------------------------------------------- checks during a save


def test_a_check_during_its_own_processs_save_waits_for_the_commit_instead_of_loading(
    room: DealerRoom, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between a save's commit and its note, a check trusts that save once it has committed.

    The check reads the new version from the store before this process has noted the save;
    it waits for the save's outcome and answers from the note, without loading the match
    (under load that load, decrypting every new sealed pick, was 6% of a submission).
    """
    created = room.create_match("vote", PLAYERS, {"candidates": ["x", "y"]})
    mid = created["match_id"]
    tokens = seat_all(room, created)
    room.open_step(mid, seconds=600)
    assert room.role_of(mid, tokens["ana"]) == "ana"  # noted at the current version
    window, release = threading.Event(), threading.Event()
    committed = Pending.committed

    def held_open(pending: Pending, matches: list[Any]) -> None:
        window.set()  # the save has committed; its note is not written yet
        release.wait(10)
        committed(pending, matches)

    monkeypatch.setattr(Pending, "committed", held_open)
    loads: list[str] = []
    current = room.seats._current
    monkeypatch.setattr(room.seats, "_current", lambda key: loads.append(key) or current(key))
    saving = threading.Thread(target=room.submit, args=(mid, "ben", {"vote": "x"}))
    saving.start()
    assert window.wait(10)
    answers: list[str | None] = []
    checking = threading.Thread(target=lambda: answers.append(room.role_of(mid, tokens["ana"])))
    checking.start()
    checking.join(0.2)  # it has read the new version and waits on the save
    release.set()
    saving.join(10)
    checking.join(10)
    assert answers == ["ana"]
    assert loads == []


def test_a_check_never_trusts_a_save_of_its_own_that_failed_at_a_version_another_committed(
    room: DealerRoom, settings: Settings, clock: Clock
) -> None:
    """A save that fails while another process commits the same version is not the store.

    This process's copy still holds ben's old credential; the other process re-invited ben
    at that very version. The waiting check learns of the failure and reads the match as
    stored: the old token no longer acts as ben.
    """
    created = room.create_match("vote", PLAYERS)
    mid = created["match_id"]
    tokens = seat_all(room, created)
    assert room.role_of(mid, tokens["ben"]) == "ben"
    copy = room.get_match(mid)
    copy.open_step(clock())  # this process's next version, not yet saved
    pending = room.seats.pend([copy])
    other = DealerRoom(settings, clock=clock)
    try:
        other.reinvite(mid, "ben")  # commits that version first
    finally:
        other.close()
    assert room.index.version_of(mid) == copy.version
    answers: list[str | None] = []
    checking = threading.Thread(target=lambda: answers.append(room.role_of(mid, tokens["ben"])))
    checking.start()
    checking.join(0.2)
    pending.failed()  # as save_projected says when its save loses the race
    checking.join(10)
    assert answers == [None]


# ------------------------------------------------------------------ tokens checked with the pick


def test_a_pick_sent_with_a_token_is_recorded_only_under_that_seats_own_credential(
    room: DealerRoom,
) -> None:
    """The token is checked in the pick's batch, on the match it is recorded in."""
    created = room.create_match("vote", PLAYERS, {"candidates": ["x", "y"]})
    mid = created["match_id"]
    tokens = seat_all(room, created)
    room.open_step(mid, seconds=600)
    before = len(room.records(mid))
    for wrong in (tokens["ben"], created["host_token"], "", "not a token", 7):
        with pytest.raises(NotThisSeat, match="does not act as 'ana'"):
            room.submit(mid, "ana", {"vote": "x"}, token=wrong)  # type: ignore[arg-type]
        with pytest.raises(NotThisSeat):
            room.submit_commitment(mid, "ana", "ab" * 32, token=wrong)  # type: ignore[arg-type]
    with pytest.raises(NotThisSeat, match="does not act as 'host'"):
        room.submit(mid, "host", {"vote": "x"}, token=created["host_token"])
    assert len(room.records(mid)) == before  # nothing refused was recorded
    done = room.submit(mid, "ana", {"vote": "x"}, token=tokens["ana"])
    assert done["player"] == "ana" and not done["unchanged"]
    issued = room.reinvite(mid, "ana")
    with pytest.raises(NotThisSeat):
        room.submit(mid, "ana", {"vote": "y"}, token=tokens["ana"])  # revoked with the seat
    fresh = room.claim(mid, "ana", issued["invite"])["token"]
    assert not room.submit(mid, "ana", {"vote": "y"}, token=fresh)["unchanged"]


def test_a_token_checked_with_the_pick_sees_another_processs_reinvite(
    room: DealerRoom, settings: Settings, clock: Clock
) -> None:
    """A working copy that is behind is brought up to date in the batch before the check."""
    created = room.create_match("vote", PLAYERS, {"candidates": ["x", "y"]})
    mid = created["match_id"]
    tokens = seat_all(room, created)
    room.open_step(mid, seconds=600)
    room.submit(mid, "cai", {"vote": "x"}, token=tokens["cai"])  # the copy is hot here
    other = DealerRoom(settings, clock=clock)
    try:
        other.reinvite(mid, "cai")
    finally:
        other.close()
    with pytest.raises(NotThisSeat):
        room.submit(mid, "cai", {"vote": "y"}, token=tokens["cai"])
    assert [r["type"] for r in room.records(mid)][-1] == "SeatReinvited"
