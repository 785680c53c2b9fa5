"""The Match aggregate: the life of a match, amendments, custody, and replay == live."""

from __future__ import annotations

import contextlib
import os
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from domain.commitment import CommitmentError, commit
from domain.match import (
    CommitmentReused,
    Match,
    MatchError,
    MatchOver,
    NotAPlayer,
    StepNotOpen,
    public_record,
    token_hash,
)
from domain.rules.base import IllegalPick

AT = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
PLAYERS = ["ana", "ben", "cai"]


def new_match(game: str = "vote", custody: dict | None = None, **options: Any) -> Match:
    return Match.create(
        match_id=uuid.UUID("00000000-0000-4000-8000-00000000000a"),
        game=game,
        options=options,
        players=PLAYERS,
        origin="test/match/x",
        custody=custody or {},
        player_keys={},
        credentials={"host": token_hash("host-token")},
        invites={p: token_hash(f"invite-{p}") for p in PLAYERS},
        seed=bytes(32),
        at=AT,
    )


def replay(events: list) -> Match:
    match = None
    for event in events:
        match = event.mutate(match)
    assert match is not None
    return match


def facts(match: Match) -> dict[str, Any]:
    """Everything the aggregate knows, in comparable form."""
    return {
        "version": match.version,
        "state": match.state,
        "step": match.step,
        "steps": {n: vars(r) for n, r in match.steps.items()},
        "used": match.used_commitments,
        "result": match.result,
        "entropy": match.entropy,
        "joined": match.joined,
        "disclosed": match.disclosed,
    }


def test_a_vote_match_runs_through_the_whole_life_of_a_match() -> None:
    match = new_match()
    match.open_step(AT)
    match.submit_sealed("ana", {"vote": "ben"}, os.urandom(32), AT)
    match.submit_sealed("ben", {"vote": "ben"}, os.urandom(32), AT)
    match.seal(AT)
    assert match.advance(AT) == "finished"
    types = [type(e).__name__ for e in match.collect_events()]
    assert types == [
        "MatchCreated", "SeedCommitted", "StepOpened", "SubmissionCommitted",
        "SubmissionCommitted", "StepSealed", "DefaultApplied", "SubmissionRevealed",
        "SubmissionRevealed", "StepResolved", "MatchFinished", "SeedRevealed",
    ]  # fmt: skip
    assert match.result == {"tally": {"ana": 0, "ben": 2, "cai": 0}, "winners": ["ben"]}


def test_an_amendment_supersedes_the_earlier_commitment_until_the_step_is_sealed() -> None:
    match = new_match()
    match.open_step(AT)
    first = match.submit_sealed("ana", {"vote": "ben"}, bytes(32), AT)
    second = match.submit_sealed("ana", {"vote": "cai"}, bytes([1]) * 32, AT)
    last = match.collect_events()[-1]
    assert last.supersedes == first and last.commitment == second
    match.seal(AT)
    with pytest.raises(StepNotOpen):
        match.submit_sealed("ana", {"vote": "ana"}, bytes([2]) * 32, AT)
    match.advance(AT)
    assert match.state["votes"]["ana"] == "cai"


def test_submitting_the_same_pick_again_returns_the_original_and_records_nothing() -> None:
    match = new_match()
    match.open_step(AT)
    first = match.submit_sealed("ana", {"vote": "ben"}, bytes(32), AT)
    version = match.version
    assert match.submit_sealed("ana", {"vote": "ben"}, bytes([9]) * 32, AT) == first
    assert match.version == version


def test_a_commitment_already_used_in_the_match_is_rejected() -> None:
    match = new_match(custody={"ana": "self", "ben": "self"})
    match.open_step(AT)
    value = commit(match.match_id, 1, "ana", {"vote": "ben"}, bytes(32))
    match.submit_commitment("ana", value, AT)
    with pytest.raises(CommitmentReused):
        match.submit_commitment("ben", value, AT)


def test_an_illegal_pick_is_rejected_and_records_nothing() -> None:
    match = new_match()
    match.open_step(AT)
    version = match.version
    with pytest.raises(IllegalPick):
        match.submit_sealed("ana", {"vote": "zed"}, bytes(32), AT)
    assert match.version == version


def test_only_the_step_s_submitters_may_submit() -> None:
    match = new_match(voters=["ana", "ben"])
    match.open_step(AT)
    with pytest.raises(NotAPlayer, match="not asked"):
        match.submit_sealed("cai", {"vote": "ben"}, bytes(32), AT)
    with pytest.raises(NotAPlayer, match="not a player"):
        match.submit_sealed("zed", {"vote": "ben"}, bytes(32), AT)


def test_self_custody_picks_are_opened_after_the_seal_and_checked_against_the_commitment() -> None:
    match = new_match(custody={"ana": "self"})
    match.open_step(AT)
    salt = bytes(range(32))
    match.submit_commitment("ana", commit(match.match_id, 1, "ana", {"vote": "cai"}, salt), AT)
    match.submit_sealed("ben", {"vote": "cai"}, bytes(32), AT)
    match.seal(AT)
    assert match.advance(AT) == "openings"
    with pytest.raises(CommitmentError, match="do not open"):
        match.open_commitment("ana", 1, {"vote": "ben"}, salt.hex(), AT)
    match.open_commitment("ana", 1, {"vote": "cai"}, salt.hex(), AT)
    assert match.advance(AT) == "finished"
    assert match.result["tally"]["cai"] == 2


def test_a_self_custody_player_who_does_not_open_in_time_gets_the_default() -> None:
    match = new_match(custody={"ana": "self"})
    match.open_step(AT)
    match.submit_commitment("ana", commit(match.match_id, 1, "ana", {"vote": "cai"}, bytes(32)), AT)
    match.seal(AT)
    assert match.advance(AT, openings_due=True) == "finished"
    defaults = [e for e in match.collect_events() if isinstance(e, Match.DefaultApplied)]
    assert {(e.player, e.reason) for e in defaults} == {
        ("ana", "not-revealed"), ("ben", "missing"), ("cai", "missing"),
    }  # fmt: skip


def test_entropy_is_only_accepted_before_the_first_deal() -> None:
    match = new_match()
    assert match.join("ana", "lucky", AT)
    assert not match.join("ana", "lucky", AT)
    match.open_step(AT)
    with pytest.raises(MatchError, match="before the first deal"):
        match.join("ben", "late", AT)


def test_nothing_more_happens_after_the_match_has_finished() -> None:
    match = new_match()
    match.open_step(AT)
    match.seal(AT)
    match.advance(AT)
    with pytest.raises(MatchOver):
        match.open_step(AT)


def test_public_records_leave_out_every_sealed_field() -> None:
    match = new_match()
    match.open_step(AT)
    match.submit_sealed("ana", {"vote": "cai"}, bytes(32), AT)
    records = [public_record(e) for e in match.collect_events()]
    text = repr(records)
    assert "credentials" not in text and bytes(32).hex() not in text and "'cai'}" not in text
    assert records[3]["data"]["commitment"]
    assert records[0] == {
        "seq": 0,
        "type": "MatchCreated",
        "at": "2026-11-21T20:00:00.000000Z",
        "data": {
            "actor": "system", "game": "vote", "rules_version": "1", "options": {},
            "players": PLAYERS, "origin": "test/match/x",
            "custody": dict.fromkeys(PLAYERS, "sealed"), "player_keys": {},
        },
    }  # fmt: skip


def test_credentials_are_checked_against_their_hash() -> None:
    match = new_match()
    assert match.check_credential("host", "host-token")
    assert not match.check_credential("host", "host-token ")
    assert not match.check_credential("ana", "host-token")


class VoteMatchMachine(RuleBasedStateMachine):
    """Random command sequences: the aggregate rebuilt from its events equals the live one."""

    def __init__(self) -> None:
        super().__init__()
        self.match = new_match(custody={"cai": "self"})
        self.events: list = list(self.match.collect_events())
        self.time = AT

    def _tick(self) -> datetime:
        self.time += timedelta(seconds=1)
        return self.time

    def _run(self, command: Any) -> None:
        with contextlib.suppress(ValueError):
            command()
        self.events.extend(self.match.collect_events())

    @rule(player=st.sampled_from(PLAYERS), entropy=st.none() | st.text(min_size=1, max_size=5))
    def join(self, player: str, entropy: str | None) -> None:
        self._run(lambda: self.match.join(player, entropy, self._tick()))

    @rule()
    def open_step(self) -> None:
        self._run(lambda: self.match.open_step(self._tick()))

    @rule(
        player=st.sampled_from(PLAYERS),
        vote=st.sampled_from([*PLAYERS, "zed"]),
        salt=st.binary(min_size=32, max_size=32),
    )
    def submit(self, player: str, vote: str, salt: bytes) -> None:
        if player == "cai":
            value = commit(
                self.match.match_id, max(self.match.step, 1), player, {"vote": vote}, salt
            )
            self.cai = ({"vote": vote}, salt.hex())
            self._run(lambda: self.match.submit_commitment(player, value, self._tick()))
        else:
            self._run(lambda: self.match.submit_sealed(player, {"vote": vote}, salt, self._tick()))

    @rule()
    def seal(self) -> None:
        self._run(lambda: self.match.seal(self._tick()))

    @precondition(lambda self: hasattr(self, "cai"))
    @rule()
    def cai_opens(self) -> None:
        payload, salt = self.cai
        self._run(
            lambda: self.match.open_commitment("cai", self.match.step, payload, salt, self._tick())
        )

    @rule(due=st.booleans())
    def advance(self, *, due: bool) -> None:
        self._run(lambda: self.match.advance(self._tick(), openings_due=due))

    @invariant()
    def replaying_the_events_gives_the_live_match(self) -> None:
        assert facts(replay(self.events)) == facts(self.match)


VoteMatchMachine.TestCase.settings = settings(
    max_examples=40, stateful_step_count=15, deadline=None
)
test_replaying_random_command_sequences_equals_the_live_match = VoteMatchMachine.TestCase
