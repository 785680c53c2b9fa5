"""Every recorded scenario in fixtures/ plays through the real service to its golden states."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from service.simulate import load_scenario, run_scenario
from tests.conftest import SCENARIOS, expected_lines

if TYPE_CHECKING:
    from pathlib import Path

    from service.application import DealerRoom

GOLDEN = sorted(p for p in SCENARIOS.glob("*.json") if p.with_suffix(".expected.jsonl").exists())


def test_there_is_a_golden_scenario_for_every_game() -> None:
    games = {json.loads(p.read_text())["game"] for p in GOLDEN}
    assert {"vote"} <= games


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_a_recorded_scenario_replays_to_its_golden_states(
    path: Path, sqlite_service: DealerRoom
) -> None:
    lines = list(run_scenario(sqlite_service, load_scenario(path)))
    assert lines[1:] == expected_lines(path.with_suffix(".expected.jsonl"))


def test_the_same_scenario_gives_the_same_states_on_postgresql(service: DealerRoom) -> None:
    path = GOLDEN[-1]
    lines = list(run_scenario(service, load_scenario(path)))
    assert lines[1:] == expected_lines(path.with_suffix(".expected.jsonl"))
