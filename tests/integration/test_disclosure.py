"""Disclosure policy: picks sealed until the game allows, in every response, column and record.

Picking Nine and Grid Adaptation keep every want-list, ban, priority, placement, flip and
purchase (and who holds which sequence) sealed until the match ends. Before the last step
resolves, nothing of them may be readable in the public records, the public state, the
match list or the database; afterwards the reveals make them public.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from domain.canonical import canonical_json
from service.simulate import load_scenario, run_scenario
from tests.conftest import SCENARIOS
from tests.integration.test_service import _database_bytes

if TYPE_CHECKING:
    from service.application import DealerRoom

AT_END = ["picking-nine-six-bots.json", "grid-adaptation-ec-vote.json"]


def _sealed_texts(scenario: dict, steps: int) -> list[bytes]:
    """Canonical bytes of every submitted payload (and private deal) of the first steps."""
    texts = []
    for step in scenario["steps"][:steps]:
        texts += [canonical_json(p) for p in (step.get("submit") or {}).values()]
        for player, seq in ((step.get("deal") or {}).get("sequences") or {}).items():
            texts.append(canonical_json({player: seq})[1:-1])  # "ana":"010"
    return texts


@pytest.mark.parametrize("name", AT_END)
def test_no_sealed_input_is_readable_anywhere_before_the_match_ends(
    name: str, service: DealerRoom
) -> None:
    scenario = load_scenario(SCENARIOS / name)
    played = {**scenario, "steps": scenario["steps"][:-1]}  # stop before the last step
    lines = list(run_scenario(service, played))
    match_id = lines[0]["match_id"]
    assert not service.get_match(match_id).finished
    visible = [
        json.dumps(service.records(match_id), separators=(",", ":"), sort_keys=True).encode(),
        json.dumps(service.public_state(match_id), separators=(",", ":"), sort_keys=True).encode(),
        json.dumps(lines[1:], separators=(",", ":"), sort_keys=True).encode(),
        repr(service.matches()).encode(),
    ]
    service.close()
    visible.append(_database_bytes(service.settings))
    secrets = _sealed_texts(scenario, len(played["steps"]))
    assert secrets
    for secret in secrets:
        for place in visible:
            assert secret not in place, secret


@pytest.mark.parametrize("name", AT_END)
def test_every_pick_is_revealed_once_the_match_ends(name: str, sqlite_service: DealerRoom) -> None:
    scenario = load_scenario(SCENARIOS / name)
    lines = list(run_scenario(sqlite_service, scenario))
    match_id = lines[0]["match_id"]
    records = sqlite_service.records(match_id)
    finished_at = next(r["seq"] for r in records if r["type"] == "MatchFinished")
    reveals = [r for r in records if r["type"] == "SubmissionRevealed"]
    assert reveals and all(r["seq"] > finished_at for r in reveals)
    revealed = {(r["data"]["step"], r["data"]["player"]) for r in reveals}
    submitted = {
        (n, p) for n, s in enumerate(scenario["steps"], 1) for p in (s.get("submit") or {})
    }
    assert submitted <= revealed
