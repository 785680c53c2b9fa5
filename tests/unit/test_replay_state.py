"""State at any event: the replay equals the aggregate, stepping, snapshots, diffs."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

import pytest

from replay.bundle import play_scenario
from replay.state import MatchReplay, ReplayError, advance, diff_values, initial_frame
from tests.unit.test_replay_fixtures import SCENARIOS

if TYPE_CHECKING:
    from pathlib import Path

START = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
SCENARIO_FILES = sorted(p for p in SCENARIOS.glob("*.json"))


def played(path: Path) -> Any:
    import json

    return play_scenario(json.loads(path.read_text()), match_id=UUID(int=0xE0), start_time=START)


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
def test_the_state_at_every_event_is_the_aggregate_s(path: Path) -> None:
    # Check the replay of the public records against the aggregate rebuilt from its own
    # events (sealed parts included), one event at a time, reading each position through
    # the snapshots.
    game = played(path)
    board = MatchReplay(game.records, snapshot_every=7)
    match = None
    for seq, event in enumerate(game.events):
        match = event.mutate(match)
        frame = board.at(seq)
        assert frame.state == match.state, f"seq {seq}"
        assert frame.view == match.public_view(), f"seq {seq}"


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
def test_reading_through_snapshots_equals_a_replay_from_the_start(path: Path) -> None:
    game = played(path)
    board = MatchReplay(game.records, snapshot_every=5)
    frame = initial_frame()
    for seq, record in enumerate(game.records):
        frame = advance(board.context, frame, record)
        assert board.at(seq) == frame


def test_stepping_back_and_forth_restores_each_state() -> None:
    # Check a random walk of push, pop and seek against the states of one forward pass.
    game = played(SCENARIOS / "six-nimmt-even-odd.json")
    board = MatchReplay(game.records, snapshot_every=16)
    views = [board.view()]
    while board.position < len(board):
        board.push()
        views.append(board.view())
    rng = random.Random(7)  # noqa: S311 - a reproducible walk, not a secret
    for _ in range(300):
        move = rng.choice(["push", "pop", "seek"])
        if move == "push" and board.position < len(board):
            record = board.push()
            assert board.peek() is record
        elif move == "pop" and board.position > 0:
            record = board.pop()
            assert record["seq"] == board.position
        elif move == "seek":
            board.seek(rng.randrange(len(board) + 1))
        assert board.view() == views[board.position]


def test_pop_and_peek_at_the_start_and_push_at_the_end_raise() -> None:
    board = MatchReplay(played(SCENARIOS / "vote-basic.json").records)
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()
    board.seek(len(board))
    with pytest.raises(IndexError):
        board.push()
    assert board.applied[-1]["type"] == "SeedRevealed"


def test_a_copy_steps_on_its_own() -> None:
    board = MatchReplay(played(SCENARIOS / "vote-basic.json").records)
    board.seek(5)
    other = board.copy()
    other.push()
    assert (board.position, other.position) == (5, 6)
    assert board.copy(stack=False).pop()["seq"] == 4


def test_a_player_s_view_shows_once_disclosed() -> None:
    game = played(SCENARIOS / "six-nimmt-classic.json")
    finished = MatchReplay(game.records)
    opened = next(r["seq"] for r in game.records if r["type"] == "StepOpened")
    assert len(finished.player_view("ana", opened)["hand"]) == 10

    under_way = MatchReplay(game.records[: opened + 5])  # the hands are not disclosed yet
    assert under_way.player_view("ana", opened) is None
    assert under_way.at(opened).view["hand_sizes"] == {"ana": 10, "ben": 10, "cai": 10}
    assert "not disclosed" in (under_way.at(opened).unknown or "")


def test_diff_shows_what_changed_between_two_events() -> None:
    game = played(SCENARIOS / "six-nimmt-classic.json")
    board = MatchReplay(game.records)
    resolved = [r["seq"] for r in game.records if r["type"] == "StepResolved"]
    lines = board.diff(resolved[0], resolved[1])
    assert "turn: 1 → 2" in lines
    assert all(" → " in line for line in lines)
    assert board.diff(resolved[0], resolved[0]) == []


def test_diff_values_names_added_and_removed_keys() -> None:
    assert diff_values({"a": 1}, {"b": [1, 2]}) == ["a: 1 → (none)", "b: (none) → [1, 2]"]
    assert diff_values(1, 2) == ["(the whole value): 1 → 2"]


def test_a_log_that_does_not_start_with_match_created_cannot_be_replayed() -> None:
    records = played(SCENARIOS / "vote-basic.json").records
    with pytest.raises(ReplayError, match="starts with MatchCreated"):
        MatchReplay(records[1:])
