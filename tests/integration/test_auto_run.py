"""A match that runs itself, and an early end, on both stores.

With ``auto_open`` the first step opens once every seat is claimed and each next one as soon
as the last resolves; with ``auto_seal`` a step seals as soon as everyone asked has
submitted. Both happen in the command that made them due, as the ``system``, and the
bundle still verifies. An early end discloses everything held and refuses what comes after.
"""

from __future__ import annotations

import hashlib
import itertools
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest

from domain.commitment import commit
from domain.match import MatchOver, format_time
from replay.verify import verify_bundle
from service.application import DealerRoom
from tests.conftest import archive_of, seat_all

if TYPE_CHECKING:
    from collections.abc import Iterator

    from service.config import Settings

START = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
AUTO = {"auto_open": True, "auto_seal": True, "step_seconds": 60}
VOTERS = ["ana", "ben", "cai"]


class Clock:
    """The service's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def room(settings: Settings, clock: Clock) -> Iterator[DealerRoom]:
    app = DealerRoom(settings, clock=clock)
    try:
        yield app
    finally:
        app.close()


def records_of(room: DealerRoom, mid: str, kind: str) -> list[dict[str, Any]]:
    return [r for r in room.records(mid) if r["type"] == kind]


def verified(room: DealerRoom, mid: str, *, over: bool = True) -> None:
    """The match's bundle verifies (and nothing waits for disclosure once it is ``over``)."""
    verdict = verify_bundle(archive_of(room).export_bundle(mid))
    assert verdict.ok and verdict.complete is over, str(verdict)


def play_a_step(room: DealerRoom, mid: str) -> None:
    """Every player asked submits a legal pick; decisions get the default the status names."""
    step = room.status(mid)["step"]
    for player in step["missing"]:
        mine = room.private_state(mid, player)
        room.submit(mid, player, mine["legal"][0] if mine["legal"] else mine["default_pick"])
    while (decision := (room.status(mid)["step"] or {}).get("decision")) is not None:
        room.decide(mid, decision["player"], decision["default"])


# --- Opening and sealing by themselves ------------------------------------------------------


def test_the_first_step_opens_once_every_seat_is_claimed(room: DealerRoom) -> None:
    made = room.create_match("vote", VOTERS, name="Friday vote", **AUTO)
    mid = made["match_id"]
    # 1. Two seats of three claimed: nothing opens.
    for player in ("ana", "ben"):
        room.claim(mid, player, made["invites"][player])
    assert room.status(mid)["step"] is None
    # 2. The last claim opens step 1, as the system, with the match's step deadline.
    room.claim(mid, "cai", made["invites"]["cai"])
    status = room.status(mid)
    assert status["step"]["number"] == 1 and status["step"]["status"] == "open"
    assert status["step"]["deadline"] == format_time(START + timedelta(seconds=60))
    opened = records_of(room, mid, "StepOpened")[0]
    assert opened["data"]["actor"] == "system"
    # Check the public settings and name.
    created = room.records(mid)[0]["data"]
    assert created["name"] == "Friday vote" and created["settings"] == AUTO
    assert status["name"] == "Friday vote" and status["settings"] == AUTO
    assert status["ended"] is None


def test_a_step_seals_as_soon_as_everyone_has_submitted(room: DealerRoom) -> None:
    made = room.create_match("vote", VOTERS, **AUTO)
    mid = made["match_id"]
    seat_all(room, made)
    room.submit(mid, "ana", {"vote": "ben"})
    room.submit(mid, "ben", {"vote": "ben"})
    room.submit(mid, "ben", {"vote": "cai"})  # amending goes on until everyone has submitted
    assert room.status(mid)["step"]["status"] == "open"
    room.submit(mid, "cai", {"vote": "cai"})
    # Check: sealed by the system at once, resolved, finished.
    assert room.status(mid)["finished"]
    assert records_of(room, mid, "StepSealed")[0]["data"]["actor"] == "system"
    assert room.public_state(mid)["winners"] == ["cai"]
    verified(room, mid)


@pytest.fixture
def seeded_room(settings: Settings, clock: Clock) -> Iterator[DealerRoom]:
    """A service whose randomness is fixed, so a match's deals are the same every run."""
    counter = itertools.count()

    def random_bytes(size: int) -> bytes:
        return hashlib.sha256(str(next(counter)).encode()).digest()[:size]

    app = DealerRoom(settings, clock=clock, random_bytes=random_bytes)
    try:
        yield app
    finally:
        app.close()


def test_a_whole_six_nimmt_match_runs_itself(seeded_room: DealerRoom) -> None:
    # A fixed seed and match id: deals in which a too-low card makes a player take a row.
    room = seeded_room
    made = room.create_match(
        "six-nimmt",
        VOTERS,
        {"start_points": 5},
        match_id="6a1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
        **AUTO,
    )
    mid = made["match_id"]
    seat_all(room, made)
    steps = 0
    while not room.status(mid)["finished"]:
        status = room.status(mid)
        assert status["step"]["status"] == "open", "the next step opened by itself"
        play_a_step(room, mid)
        steps += 1
        assert steps < 200
    opened = records_of(room, mid, "StepOpened")
    assert len(opened) == steps
    assert {r["data"]["actor"] for r in opened} == {"system"}
    assert all(r["data"]["actor"] == "system" for r in records_of(room, mid, "StepSealed"))
    assert records_of(room, mid, "DecisionMade"), "the match asked decisions on the way"
    verified(room, mid)


def test_self_custody_openings_and_their_forcing_still_work(room: DealerRoom) -> None:
    made = room.create_match("vote", VOTERS, custody={"cai": "self", "ben": "self"}, **AUTO)
    mid = made["match_id"]
    seat_all(room, made)
    salts = {p: bytes(range(i, i + 32)) for i, p in enumerate(("ben", "cai"))}
    picks = {"ben": {"vote": "ana"}, "cai": {"vote": "ana"}}
    room.submit(mid, "ana", {"vote": "ben"})
    for player in ("ben", "cai"):
        room.submit_commitment(mid, player, commit(mid, 1, player, picks[player], salts[player]))
    # Check: sealed by itself, waiting for both openings.
    assert room.status(mid)["step"]["awaiting_openings"] == ["ben", "cai"]
    assert room.open_commitment(mid, "ben", 1, picks["ben"], salts["ben"].hex()) == "openings"
    assert room.force_openings(mid) == "finished"  # cai never opens: the default
    assert room.public_state(mid)["tally"]["ana"] == 1
    verified(room, mid)


def test_a_passed_deadline_seals_and_the_next_step_opens_with_its_own(
    room: DealerRoom, clock: Clock
) -> None:
    made = room.create_match("apocalypse", ["white", "black"], **AUTO)
    mid = made["match_id"]
    seat_all(room, made)
    room.submit(mid, "white", room.private_state(mid, "white")["legal"][0])
    clock.wait(61)
    assert room.tick() == [(mid, "resolved")]
    status = room.status(mid)
    assert status["step"]["number"] == 2 and status["step"]["status"] == "open"
    assert status["step"]["deadline"] == format_time(clock.now + timedelta(seconds=60))
    # A command that finds the deadline passed applies it first, then the next step opens.
    room.submit(mid, "black", room.private_state(mid, "black")["legal"][0])
    clock.wait(61)
    room.join(mid, "white")
    assert room.status(mid)["step"]["number"] == 3
    verified(room, mid, over=False)


def test_without_a_step_deadline_an_opened_step_has_none(room: DealerRoom) -> None:
    made = room.create_match("vote", VOTERS, auto_open=True, step_seconds=None)
    seat_all(room, made)
    step = room.status(made["match_id"])["step"]
    assert step["status"] == "open" and step["deadline"] is None


def test_with_the_settings_off_nothing_happens_by_itself(room: DealerRoom) -> None:
    made = room.create_match("vote", VOTERS)
    mid = made["match_id"]
    seat_all(room, made)
    assert room.status(mid)["step"] is None
    room.open_step(mid)
    for player in VOTERS:
        room.submit(mid, player, {"vote": "ana"})
    assert room.status(mid)["step"]["status"] == "open"
    assert "name" not in room.records(mid)[0]["data"]  # recorded as before settings existed
    assert room.status(mid)["settings"] == {
        "auto_open": False,
        "auto_seal": False,
        "step_seconds": None,
    }


def test_the_host_may_still_open_a_step_by_hand(room: DealerRoom) -> None:
    made = room.create_match("vote", VOTERS, **AUTO)
    mid = made["match_id"]
    assert room.open_step(mid, seconds=600) == 1  # before the seats are claimed
    seat_all(room, made)
    assert records_of(room, mid, "StepOpened")[0]["data"]["actor"] == "host"
    assert len(records_of(room, mid, "StepOpened")) == 1


def test_a_reinvited_seat_does_not_stop_the_next_step(room: DealerRoom) -> None:
    made = room.create_match("six-nimmt", VOTERS, **AUTO)
    mid = made["match_id"]
    seat_all(room, made)
    room.reinvite(mid, "ben")  # ben's seat is unclaimed now; his picks still count
    play_a_step(room, mid)
    assert room.status(mid)["step"]["number"] == 2


@pytest.mark.parametrize("name", ["x" * 81, "bad\x07name"])
def test_a_bad_name_is_refused(room: DealerRoom, name: str) -> None:
    with pytest.raises(ValueError, match="match name"):
        room.create_match("vote", VOTERS, name=name)
    assert room.matches() == []


@pytest.mark.parametrize("seconds", [29, 86401, 0])
def test_a_step_deadline_out_of_bounds_is_refused(room: DealerRoom, seconds: int) -> None:
    with pytest.raises(ValueError, match="step_seconds"):
        room.create_match("vote", VOTERS, step_seconds=seconds)


# --- An early end ---------------------------------------------------------------------------


def test_an_early_end_discloses_everything_and_refuses_what_follows(room: DealerRoom) -> None:
    made = room.create_match("six-nimmt", VOTERS, **AUTO)
    mid = made["match_id"]
    tokens = seat_all(room, made)
    play_a_step(room, mid)
    room.submit(mid, "ana", room.private_state(mid, "ana")["legal"][0])
    # 1. The host ends the match in step 2, ana's pick sealed.
    room.end_match(mid, "  the pub is closing  ")
    status = room.status(mid)
    assert status["ended"] == {"reason": "the pub is closing", "at": format_time(START)}
    assert not status["finished"] and status["result"] is None
    # 2. Check the disclosure: ana's pick of step 2, the hands, the seed.
    types = [r["type"] for r in room.records(mid)]
    after = types[types.index("MatchEnded") :]
    assert after == ["MatchEnded", "SubmissionRevealed", "DealRevealed", "SeedRevealed"]
    assert records_of(room, mid, "MatchEnded")[0]["data"]["actor"] == "host"
    # 3. Nothing more: picks, claims, a new step, another end.
    with pytest.raises(MatchOver, match="the match has ended"):
        room.submit(mid, "ben", room.private_state(mid, "ben")["legal"][0])
    with pytest.raises(MatchOver, match="the match has ended"):
        room.open_step(mid)
    with pytest.raises(MatchOver, match="the match has ended"):
        room.reinvite(mid, "cai")
    with pytest.raises(MatchOver, match="the match has ended"):
        room.end_match(mid, "again")
    assert room.role_of(mid, tokens["ana"]) == "ana"
    assert room.tick() == []
    # 4. The list says so, and the bundle verifies.
    assert {m["match_id"]: m for m in room.matches()}[mid]["status"] == "ended"
    verified(room, mid)


def test_a_finished_match_cannot_be_ended(room: DealerRoom) -> None:
    made = room.create_match("vote", VOTERS, **AUTO)
    mid = made["match_id"]
    seat_all(room, made)
    for player in VOTERS:
        room.submit(mid, player, {"vote": "ana"})
    with pytest.raises(MatchOver, match="the match has finished"):
        room.end_match(mid, "too late")


@pytest.mark.parametrize("reason", ["", "   ", "x" * 301])
def test_an_end_needs_a_reason(room: DealerRoom, reason: str) -> None:
    mid = room.create_match("vote", VOTERS)["match_id"]
    with pytest.raises(ValueError, match="reason"):
        room.end_match(mid, reason)
    assert room.status(mid)["ended"] is None
