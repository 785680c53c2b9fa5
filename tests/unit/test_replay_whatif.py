"""What-if replay: one pick changed, the rest kept while still legal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from replay.bundle import load_bundle
from replay.state import ReplayContext
from replay.whatif import WhatIfError, recorded_steps, what_if
from tests.unit.test_replay_fixtures import BUNDLES

if TYPE_CHECKING:
    from pathlib import Path


def bundle(name: str) -> dict[str, Any]:
    return load_bundle((BUNDLES / f"{name}.bundle.json").read_bytes())


@pytest.fixture(scope="module")
def nimmt() -> dict[str, Any]:
    return bundle("six-nimmt-even-odd")


def test_one_card_changed_in_six_nimmt_diverges_from_that_turn(nimmt: dict[str, Any]) -> None:
    # In turn 1 ana played 39; make her play 21 instead (the lowest card, below every row).
    result = what_if(nimmt, 1, "ana", {"card": 21})

    assert result.first_divergent_step == 1
    first = result.steps[0]
    assert first.diverged and first.original_view != first.new_view
    assert first.new_view is not None and first.new_view["played"]["ana"] == 21
    assert any(
        "ana's recorded pick is illegal now" in note for s in result.steps for note in s.notes
    )
    assert result.original_result != result.new_result


def test_replaying_the_recorded_pick_changes_nothing(nimmt: dict[str, Any]) -> None:
    result = what_if(nimmt, 5, "ben", {"card": 12})
    assert result.first_divergent_step is None
    assert not any(s.diverged for s in result.steps)
    assert result.new_result == result.original_result


def test_steps_before_the_change_stay_the_same(nimmt: dict[str, Any]) -> None:
    result = what_if(nimmt, 12, "cai", {"card": 40})
    assert [s.step for s in result.steps if s.diverged][:1] == [12]
    assert all(not s.diverged for s in result.steps[:11])


def test_a_vote_changed_changes_the_winner() -> None:
    result = what_if(bundle("vote-basic"), 1, "dee", {"vote": "cai"})
    assert result.original_result == {"tally": {"ana": 0, "ben": 2, "cai": 1}, "winners": ["ben"]}
    assert result.new_result == {"tally": {"ana": 0, "ben": 2, "cai": 2}, "winners": ["ben", "cai"]}
    assert result.to_json()["first_divergent_step"] == 1


def test_a_seed_dealt_match_is_dealt_afresh_when_the_course_changes() -> None:
    game = bundle("six-nimmt-seeded")
    result = what_if(game, 1, "ana", what_if_card(game))
    assert result.first_divergent_step == 1
    assert len(result.steps) >= 10


def what_if_card(game: dict[str, Any]) -> dict[str, int]:
    ctx = ReplayContext.from_records(game["records"])
    played = recorded_steps(game["records"])[1].pick("ana")["card"]
    hand = ctx.disclosed.private_deals[1]["ana"]
    return {"card": next(c for c in hand if c != played)}


@pytest.mark.parametrize(
    ("step", "player", "payload", "message"),
    [
        (1, "ana", {"card": 104}, "not a legal pick"),
        (99, "ana", {"card": 21}, "was not played"),
        (1, "virtual", {"card": 21}, "not asked to submit|not a legal pick"),
    ],
)
def test_a_what_if_that_cannot_be_played_says_why(
    nimmt: dict[str, Any], step: int, player: str, payload: Any, message: str
) -> None:
    with pytest.raises(WhatIfError, match=message):
        what_if(nimmt, step, player, payload)


def test_a_match_not_yet_disclosed_has_no_what_if(nimmt: dict[str, Any]) -> None:
    with pytest.raises(WhatIfError, match="seed is not revealed"):
        what_if(nimmt["records"][:100], 1, "ana", {"card": 21})


def test_what_if_takes_records_or_a_bundle(nimmt: dict[str, Any], tmp_path: Path) -> None:
    assert what_if(nimmt["records"], 1, "ana", {"card": 21}) == what_if(
        nimmt, 1, "ana", {"card": 21}
    )
