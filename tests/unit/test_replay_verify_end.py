"""The verifier and an early end: ``MatchEnded``, the disclosure after it, and the settings.

An honest early end verifies in every game, with the interrupted step's held picks revealed;
a forged one fails: an end not by the host or without a reason, a command after the end,
disclosure missing. ``MatchCreated``'s name and settings are checked too, and a step opened
or sealed by the system must follow them.
"""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any
from uuid import UUID

import pytest

from domain.commitment import commit
from domain.match import Match, actor, public_record
from replay.bundle import export_bundle, play_scenario
from replay.verify import verify_bundle
from tests.unit.test_replay_fixtures import TEST_KEY, scenario
from tests.unit.test_replay_verify import forge, only_failures, seq_of

if TYPE_CHECKING:
    from collections.abc import Callable

START = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
TRUSTED = TEST_KEY.verifier().vkey()
SALT = bytes(range(32))
SELF_SALT = bytes(range(32, 64))


class Acting:
    """Commands on the aggregate as a role, each a second after the last."""

    def __init__(self, match: Match, at: datetime) -> None:
        self.match = match
        self.at = at

    def __call__(self, who: str, command: Callable[[Match, datetime], Any]) -> Any:
        self.at += timedelta(seconds=1)
        token = actor.set(who)
        try:
            return command(self.match, self.at)
        finally:
            actor.reset(token)


def ended(
    name: str,
    *,
    steps: int,
    submit: dict[str, Any] | None = None,
    deal: dict[str, Any] | None = None,
    seal: bool = False,
    custody: dict[str, str] | None = None,
    reason: str = "the host had to leave",
    then: Callable[[Acting], None] | None = None,
) -> dict[str, Any]:
    """The bundle of scenario ``name`` played for ``steps`` steps, then ended by the host.

    With ``submit`` the next step opens (with ``deal``, if given) and those players submit
    (sealed, or a commitment in self-custody), ``seal`` seals it; ``then`` acts before the end.
    """
    sc = scenario(name)
    sc["steps"] = sc["steps"][:steps]
    played = play_scenario(
        sc, match_id=UUID(int=0xE0), start_time=START, custody=dict(custody or {})
    )
    match: Match | None = None
    for event in played.events:
        match = event.mutate(match)
    assert isinstance(match, Match)
    act = Acting(match, START + timedelta(hours=1))
    if submit is not None:
        number = act("host", lambda m, at: m.open_step(at, deal=deal))
        for player, payload in submit.items():
            if match.custody[player] == "self":
                value = commit(match.match_id, number, player, payload, SELF_SALT)
                act(player, lambda m, at, p=player, v=value: m.submit_commitment(p, v, at))
            else:
                act(player, lambda m, at, p=player, x=payload: m.submit_sealed(p, x, SALT, at))
        if seal:
            act("host", lambda m, at: m.seal(at))
    if then is not None:
        then(act)
    act("host", lambda m, at: m.end(reason, at))
    records = [*played.records, *(public_record(e) for e in match.collect_events())]
    records = json.loads(json.dumps(records))
    return export_bundle(records, TEST_KEY, sizes=[*played.boundaries, len(records)])


def types_after_end(bundle: dict[str, Any]) -> list[str]:
    types = [r["type"] for r in bundle["records"]]
    return types[types.index("MatchEnded") :]


@pytest.fixture(scope="module")
def vote_ended() -> dict[str, Any]:
    """The vote ended while its only step is open: ana and ben sealed, cai committed alone."""
    return ended(
        "vote-basic",
        steps=0,
        custody={"cai": "self"},
        submit={"ana": {"vote": "ben"}, "ben": {"vote": "cai"}, "cai": {"vote": "ben"}},
    )


# --- Honest early ends ---------------------------------------------------------------------


def test_an_early_end_with_an_open_step_verifies(vote_ended: dict[str, Any]) -> None:
    verdict = verify_bundle(vote_ended, trusted_key=TRUSTED)

    # Check the verdict: every check passes, nothing is pending.
    assert verdict.ok and verdict.complete, str(verdict)
    assert "ended early by the host" in verdict.check("structure").detail
    # Check the disclosure: the held picks of the open step, no private deal, the seed.
    assert types_after_end(vote_ended) == [
        "MatchEnded",
        "SubmissionRevealed",
        "SubmissionRevealed",
        "SeedRevealed",
    ]
    revealed = [
        r["data"]["player"] for r in vote_ended["records"] if r["type"] == "SubmissionRevealed"
    ]
    assert revealed == ["ana", "ben"]  # cai's self-custody pick was never opened: it stays hers


def test_an_early_end_of_a_game_revealing_on_resolution_mid_match_verifies() -> None:
    bundle = ended("six-nimmt-even-odd", steps=3)

    verdict = verify_bundle(bundle, trusted_key=TRUSTED)

    assert verdict.ok and verdict.complete, str(verdict)
    after = types_after_end(bundle)
    assert after[0] == "MatchEnded" and after[-1] == "SeedRevealed"
    assert "DealRevealed" in after  # the hands dealt so far
    assert not any(r["type"] == "MatchFinished" for r in bundle["records"])


def test_an_early_end_while_a_decision_waits_verifies() -> None:
    # Step 2 of the classic match asks cai which row to take; the host ends it there.
    sc = scenario("six-nimmt-classic")
    step = sc["steps"][1]

    def to_the_decision(act: Acting) -> None:
        act("host", lambda m, at: m.open_step(at, deal=step.get("deal")))
        for player, payload in step["submit"].items():
            act(player, lambda m, at, p=player, x=payload: m.submit_sealed(p, x, SALT, at))
        act("host", lambda m, at: m.seal(at))
        assert act("host", lambda m, at: m.advance(at)) == "decision"

    bundle = ended("six-nimmt-classic", steps=1, then=to_the_decision)

    verdict = verify_bundle(bundle, trusted_key=TRUSTED)
    assert verdict.ok and verdict.complete, str(verdict)
    assert types_after_end(bundle) == ["MatchEnded", "DealRevealed", "SeedRevealed"]


def test_an_early_end_of_a_game_revealing_at_the_end_reveals_every_pick() -> None:
    sc = scenario("picking-nine-six-bots")
    third = sc["steps"][2]
    bundle = ended(
        "picking-nine-six-bots", steps=2, submit=third["submit"], deal=third["deal"], seal=True
    )

    verdict = verify_bundle(bundle, trusted_key=TRUSTED)

    assert verdict.ok and verdict.complete, str(verdict)
    committed = {
        (r["data"]["step"], r["data"]["player"])
        for r in bundle["records"]
        if r["type"] == "SubmissionCommitted"
    }
    revealed = {
        (r["data"]["step"], r["data"]["player"])
        for r in bundle["records"]
        if r["type"] == "SubmissionRevealed"
    }
    assert committed == revealed  # the sealed third step's picks included


def test_an_early_end_before_any_step_verifies() -> None:
    bundle = ended("vote-basic", steps=0)

    verdict = verify_bundle(bundle, trusted_key=TRUSTED)

    assert verdict.ok and verdict.complete, str(verdict)
    assert types_after_end(bundle) == ["MatchEnded", "SeedRevealed"]


# --- Forged early ends ---------------------------------------------------------------------


def test_an_end_not_by_the_host_fails(vote_ended: dict[str, Any]) -> None:
    at = seq_of(vote_ended, "MatchEnded")

    def by_a_player(records: list[dict[str, Any]]) -> None:
        records[at]["data"]["actor"] = "ben"

    verdict = verify_bundle(forge(vote_ended, by_a_player), trusted_key=TRUSTED)

    assert only_failures(verdict) == {"structure": at}
    assert "only the host ends a match early" in verdict.check("structure").detail


@pytest.mark.parametrize("reason", ["", "   ", "x" * 301, None, 7, "line\u202eflip"])
def test_an_end_without_a_proper_reason_fails(vote_ended: dict[str, Any], reason: Any) -> None:
    at = seq_of(vote_ended, "MatchEnded")

    def reason_changed(records: list[dict[str, Any]]) -> None:
        records[at]["data"]["reason"] = reason

    verdict = verify_bundle(forge(vote_ended, reason_changed), trusted_key=TRUSTED)

    assert only_failures(verdict) == {"structure": at}
    assert "MatchEnded" in verdict.check("structure").detail


def test_a_command_after_the_end_fails(vote_ended: dict[str, Any]) -> None:
    at = seq_of(vote_ended, "MatchEnded")

    def sealed_after(records: list[dict[str, Any]]) -> None:
        sealed = copy.deepcopy(records[at])
        sealed["type"] = "StepSealed"
        sealed["data"] = {
            "actor": "host",
            "step": 1,
            "submitted": ["ana", "ben", "cai"],
            "missing": [],
        }
        records.insert(at + 1, sealed)

    verdict = verify_bundle(forge(vote_ended, sealed_after), trusted_key=TRUSTED)

    assert only_failures(verdict).get("structure") == at + 1
    assert "StepSealed comes after MatchEnded" in verdict.check("structure").detail


def test_a_seat_claimed_after_the_end_fails(vote_ended: dict[str, Any]) -> None:
    at = seq_of(vote_ended, "MatchEnded")

    def claimed_after(records: list[dict[str, Any]]) -> None:
        claim = copy.deepcopy(records[at])
        claim["type"] = "SeatClaimed"
        claim["data"] = {"actor": "dee", "player": "dee", "public_key": None}
        records.insert(at + 1, claim)

    verdict = verify_bundle(forge(vote_ended, claimed_after), trusted_key=TRUSTED)

    assert only_failures(verdict) == {"structure": at + 1}


def test_a_second_end_or_a_finish_after_the_end_fails(vote_ended: dict[str, Any]) -> None:
    at = seq_of(vote_ended, "MatchEnded")

    def again(records: list[dict[str, Any]]) -> None:
        records.insert(at + 1, copy.deepcopy(records[at]))

    verdict = verify_bundle(forge(vote_ended, again), trusted_key=TRUSTED)

    assert only_failures(verdict).get("structure") == at + 1


def test_a_held_pick_missing_after_the_end_fails(vote_ended: dict[str, Any]) -> None:
    reveal = seq_of(vote_ended, "SubmissionRevealed", player="ben")
    committed = seq_of(vote_ended, "SubmissionCommitted", player="ben")

    def withheld(records: list[dict[str, Any]]) -> None:
        del records[reveal]

    verdict = verify_bundle(forge(vote_ended, withheld), trusted_key=TRUSTED)

    assert only_failures(verdict) == {"commitments": committed}
    assert "ended early" in verdict.check("commitments").detail


def test_the_seed_missing_after_the_end_fails(vote_ended: dict[str, Any]) -> None:
    def no_seed(records: list[dict[str, Any]]) -> None:
        del records[-1]

    verdict = verify_bundle(forge(vote_ended, no_seed), trusted_key=TRUSTED)

    assert "seed" in only_failures(verdict)
    assert "the match ended but the seed was never revealed" in verdict.check("seed").detail


def test_a_private_deal_missing_after_the_end_fails() -> None:
    bundle = ended("six-nimmt-even-odd", steps=2)
    deal = next(r["seq"] for r in bundle["records"] if r["type"] == "DealRevealed")

    def no_deal(records: list[dict[str, Any]]) -> None:
        del records[deal]

    verdict = verify_bundle(forge(bundle, no_deal), trusted_key=TRUSTED)

    assert not verdict.ok
    assert {"deals", "outcomes"} & set(only_failures(verdict))


# --- Name and settings ---------------------------------------------------------------------


def created(**data: Any) -> dict[str, Any]:
    """The vote bundle whose MatchCreated is re-signed with ``data`` changed."""
    bundle = ended("vote-basic", steps=0)

    def change(records: list[dict[str, Any]]) -> None:
        records[0]["data"].update(data)

    return forge(bundle, change)


ON = {"auto_open": True, "auto_seal": True, "step_seconds": 300}


def test_a_name_and_settings_verify() -> None:
    verdict = verify_bundle(created(name="Friday night", settings=ON), trusted_key=TRUSTED)
    assert verdict.ok and verdict.complete, str(verdict)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"name": "Friday night"}, "together, or neither"),
        ({"settings": ON}, "together, or neither"),
        ({"name": "x" * 81, "settings": ON}, "at most 80"),
        ({"name": 5, "settings": ON}, "is text"),
        ({"name": "", "settings": {**ON, "step_seconds": 10}}, "step_seconds"),
        ({"name": "", "settings": {**ON, "auto_open": "yes"}}, "auto_open"),
        ({"name": "", "settings": {"auto_open": True}}, "exactly"),
    ],
)
def test_a_bad_name_or_settings_fail(data: dict[str, Any], words: str) -> None:
    verdict = verify_bundle(created(**data), trusted_key=TRUSTED)

    assert only_failures(verdict) == {"structure": 0}
    assert words in verdict.check("structure").detail


def finished_vote() -> dict[str, Any]:
    played = play_scenario(scenario("vote-basic"), match_id=UUID(int=0xE1), start_time=START)
    return export_bundle(played.records, TEST_KEY, sizes=played.boundaries)


def test_a_step_opened_by_the_system_needs_auto_open() -> None:
    bundle = finished_vote()
    opened = seq_of(bundle, "StepOpened")

    def by_itself(records: list[dict[str, Any]]) -> None:
        records[opened]["data"]["actor"] = "system"

    verdict = verify_bundle(forge(bundle, by_itself), trusted_key=TRUSTED)
    assert only_failures(verdict) == {"structure": opened}
    assert "do not open steps by themselves" in verdict.check("structure").detail


def test_a_step_sealed_by_the_system_before_its_deadline_needs_auto_seal() -> None:
    bundle = finished_vote()
    sealed = seq_of(bundle, "StepSealed")

    def by_itself(records: list[dict[str, Any]]) -> None:
        records[sealed]["data"]["actor"] = "system"

    verdict = verify_bundle(forge(bundle, by_itself), trusted_key=TRUSTED)
    assert only_failures(verdict) == {"structure": sealed}

    # With auto_seal, a seal by the system is right only once everyone asked has submitted:
    # dee never voted in this scenario.
    def sealing_by_itself(records: list[dict[str, Any]]) -> None:
        by_itself(records)
        records[0]["data"].update(name="", settings={**ON, "auto_open": False})

    verdict = verify_bundle(forge(bundle, sealing_by_itself), trusted_key=TRUSTED)
    assert only_failures(verdict) == {"structure": sealed}
