"""The ``Match`` aggregate's name, settings and early end (no store, no clock).

The ruling for an early end (docs/PROTOCOL.md, "An early end"): the match stops where it
stands, without a result; every pick the service holds that is not public yet (the
interrupted step's too), every private deal and the seed are disclosed, in that order, as
at a normal end; nothing else is recorded after it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any
from uuid import UUID

import pytest

from domain.commitment import commit
from domain.match import Match, MatchError, MatchOver, actor, public_record, token_hash
from domain.match_settings import SETTINGS_OFF
from domain.public_log import MatchStatus, PublicLog, due_after, status_after
from domain.vocabulary import Automatic

if TYPE_CHECKING:
    from collections.abc import Iterator

START = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
PLAYERS = ["ana", "ben", "cai"]
SALT = bytes(range(32))
AUTO = {"auto_open": True, "auto_seal": True, "step_seconds": 60}


def moments() -> Iterator[datetime]:
    at = START
    while True:
        yield at
        at += timedelta(seconds=1)


def new_match(game: str = "vote", **extra: Any) -> Match:
    return Match.create(
        match_id=UUID(int=7),
        game=game,
        options={},
        players=PLAYERS,
        origin="dealerroom.example/match/00000000-0000-0000-0000-000000000007",
        custody={"cai": "self"},
        player_keys={},
        credentials={"host": "h"},
        invites={p: token_hash(f"invite-{p}") for p in PLAYERS},
        seed=bytes(32),
        at=START,
        **extra,
    )


def types(match: Match) -> list[str]:
    return [type(e).__name__ for e in match.collect_events()]


def replayed(match: Match) -> Match:
    """The same match rebuilt from its events (as the store does)."""
    rebuilt: Match | None = None
    for event in match.collect_events():
        rebuilt = event.mutate(rebuilt)
    assert rebuilt is not None
    return rebuilt


# --- Name and settings ----------------------------------------------------------------------


def test_a_match_without_name_or_settings_records_neither() -> None:
    match = new_match()
    created = public_record(match.pending_events[0])
    assert "name" not in created["data"] and "settings" not in created["data"]
    assert match.name == "" and match.settings == SETTINGS_OFF


def test_a_name_and_settings_are_public_and_read_back() -> None:
    match = new_match(name="  Friday night ", settings=AUTO)
    created = public_record(match.pending_events[0])
    assert created["data"]["name"] == "Friday night"
    assert created["data"]["settings"] == AUTO
    again = replayed(match)
    assert again.name == "Friday night" and again.settings == AUTO


def test_a_name_alone_records_the_settings_all_off() -> None:
    match = new_match(name="Just a name")
    assert public_record(match.pending_events[0])["data"]["settings"] == dict(SETTINGS_OFF)


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"name": "x" * 81}, "at most 80"),
        ({"name": "tab\there"}, "control character"),
        ({"name": 3}, "is text"),
        ({"settings": {**AUTO, "step_seconds": 29}}, "step_seconds"),
        ({"settings": {**AUTO, "step_seconds": True}}, "step_seconds"),
        ({"settings": {**AUTO, "auto_seal": 1}}, "auto_seal"),
    ],
)
def test_a_bad_name_or_setting_is_refused(extra: dict[str, Any], words: str) -> None:
    with pytest.raises(MatchError, match=words):
        new_match(**extra)


def test_what_the_settings_do_by_themselves() -> None:
    match = new_match(settings=AUTO)
    at = moments()
    assert match.automatic() is None  # nobody has claimed a seat
    for player in PLAYERS:
        match.claim(player, f"invite-{player}", f"token-{player}", None, next(at))
    assert match.automatic() is Automatic.OPEN
    match.open_step(next(at))
    assert match.automatic() is None
    match.submit_sealed("ana", {"vote": "ben"}, SALT, next(at))
    match.submit_sealed("ben", {"vote": "ben"}, SALT, next(at))
    assert match.automatic() is None  # cai has not
    match.submit_commitment(
        "cai", commit(match.match_id, 1, "cai", {"vote": "ana"}, SALT), next(at)
    )
    assert match.automatic() is Automatic.SEAL
    match.seal(next(at))
    assert match.automatic() is None


# --- An early end ---------------------------------------------------------------------------


def ended_in_an_open_step() -> Match:
    match = new_match(name="Cut short", settings=AUTO)
    at = moments()
    match.open_step(next(at))
    match.submit_sealed("ana", {"vote": "ben"}, SALT, next(at))
    match.submit_sealed("ana", {"vote": "cai"}, SALT, next(at))  # an amendment: this one stands
    match.submit_commitment(
        "cai", commit(match.match_id, 1, "cai", {"vote": "ana"}, SALT), next(at)
    )
    token = actor.set("host")
    try:
        match.end("  the host fell asleep  ", START + timedelta(hours=1))
    finally:
        actor.reset(token)
    return match


def test_an_early_end_discloses_what_is_held_and_records_no_result() -> None:
    match = ended_in_an_open_step()
    records = [public_record(e) for e in match.pending_events]
    kinds = [r["type"] for r in records]
    after = kinds[kinds.index("MatchEnded") :]
    # Check: the reason, then ana's standing pick (cai keeps hers: never opened), the seed.
    assert after == ["MatchEnded", "SubmissionRevealed", "SeedRevealed"]
    ended = records[kinds.index("MatchEnded")]
    assert ended["data"] == {"actor": "host", "reason": "the host fell asleep"}
    revealed = records[kinds.index("SubmissionRevealed")]["data"]
    assert (revealed["player"], revealed["payload"]) == ("ana", {"vote": "cai"})
    assert "MatchFinished" not in kinds
    assert match.result is None and match.over and not match.finished
    assert match.ended == {"reason": "the host fell asleep", "at": "2026-11-21T21:00:00.000000Z"}
    assert replayed(match).ended == match.ended


def test_nothing_but_disclosure_is_recorded_after_an_early_end() -> None:
    match = ended_in_an_open_step()
    later = START + timedelta(hours=2)
    commands = [
        lambda: match.submit_sealed("ben", {"vote": "ana"}, SALT, later),
        lambda: match.seal(later),
        lambda: match.advance(later),
        lambda: match.open_step(later),
        lambda: match.claim("ben", "invite-ben", "t", None, later),
        lambda: match.reinvite("ben", "new", later),
        lambda: match.join("ben", None, later),
        lambda: match.open_commitment("cai", 1, {"vote": "ana"}, SALT.hex(), later),
        lambda: match.decide("ana", {"row": 0}, later),
        lambda: match.end("twice", later),
    ]
    before = match.version
    for command in commands:
        with pytest.raises(MatchOver, match="the match has ended"):
            command()
    assert match.version == before
    assert match.automatic() is None and match.overdue(later) is None


def test_a_finished_match_cannot_end_early() -> None:
    match = new_match()
    at = moments()
    match.open_step(next(at))
    match.submit_sealed("ana", {"vote": "ben"}, SALT, next(at))
    match.seal(next(at))
    match.advance(next(at), openings_due=True)
    assert match.finished
    with pytest.raises(MatchOver, match="the match has finished"):
        match.end("too late", next(at))


@pytest.mark.parametrize("reason", ["", "  ", "x" * 301, None, "bell\x07"])
def test_an_early_end_needs_a_reason(reason: Any) -> None:
    match = new_match()
    with pytest.raises(MatchError, match="reason"):
        match.end(reason, START)
    assert match.ended is None


def test_an_early_end_before_any_step_reveals_the_seed_alone() -> None:
    match = new_match()
    match.end("nobody came", START)
    assert types(match)[-2:] == ["MatchEnded", "SeedRevealed"]


# --- The public-record fold -----------------------------------------------------------------


def test_the_fold_reads_an_early_end_as_over_without_a_result() -> None:
    match = ended_in_an_open_step()
    log = PublicLog.of(public_record(e) for e in match.pending_events)
    assert log.finished and log.result is None
    assert log.ended == {"reason": "the host fell asleep", "at": "2026-11-21T21:00:00.000000Z"}
    assert log.status is MatchStatus.ENDED and log.due is None
    assert log.name == "Cut short" and log.settings == AUTO
    assert status_after("MatchEnded") is MatchStatus.ENDED
    assert due_after("MatchEnded", {"reason": "x"}) == (None, None)


def test_the_fold_reads_an_old_match_created_as_no_name_and_settings_off() -> None:
    log = PublicLog.of([{"seq": 0, "type": "MatchCreated", "at": "T", "data": {"game": "vote"}}])
    assert log.name == "" and log.settings == SETTINGS_OFF and log.ended is None
