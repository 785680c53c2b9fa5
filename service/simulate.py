"""Drive a scenario (ARCHITECTURE.md, "Scenario format") through the real service.

Each scenario step opens a step (with its explicit ``deal`` if given), submits every
listed player's pick as a sealed submission, seals the step, answers each decision
resolution asks for from ``decide`` (or lets the default apply; the host's declaration of
a custom game's winners comes from the step's ``declare``), and yields the public state
after the step. Every error names the step and the player it concerns.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from domain.errors import UserError

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from service.application import DealerRoom

SCENARIO_KEYS = {"game", "options", "players", "seed", "steps", "custody"}
STEP_KEYS = {"deal", "submit", "decide", "declare"}
HOST = "host"  # who declares a custom game's winners (a step's "declare")


class ScenarioError(UserError):
    """A scenario that is malformed or that the rules reject, with where it went wrong."""


def load_scenario(path: str | Path) -> dict[str, Any]:
    """Read and shape-check a scenario file.

    :raises ScenarioError: for an unreadable file, bad JSON or a wrong shape.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        msg = f"{path} is not UTF-8 text: byte {exc.start} is not UTF-8"
        raise ScenarioError(msg) from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        msg = f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}"
        raise ScenarioError(msg) from None
    try:
        scenario = json.loads(text)
    except json.JSONDecodeError as exc:
        msg = f"{path} is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        raise ScenarioError(msg) from None
    except (RecursionError, ValueError) as exc:  # nested too deeply; a number too long
        msg = f"{path} is not a scenario: {exc}"
        raise ScenarioError(msg) from None
    check_scenario(scenario)
    return scenario  # type: ignore[no-any-return]


def check_scenario(scenario: Any) -> None:
    """:raises ScenarioError: unless ``scenario`` has the scenario format's shape."""
    if not isinstance(scenario, dict):
        msg = "a scenario is a JSON object"
        raise ScenarioError(msg)
    unknown = set(scenario) - SCENARIO_KEYS
    if unknown:
        msg = f"unknown scenario key(s): {', '.join(sorted(unknown))}"
        raise ScenarioError(msg)
    for key, kind in (("game", str), ("players", list), ("steps", list)):
        if not isinstance(scenario.get(key), kind):
            msg = f'a scenario needs "{key}" ({kind.__name__})'
            raise ScenarioError(msg)
    if not isinstance(scenario.get("options", {}), dict):
        msg = '"options" is an object'
        raise ScenarioError(msg)
    seed = scenario.get("seed")
    if seed is not None and not isinstance(seed, str):
        msg = '"seed" is 64 hex digits'
        raise ScenarioError(msg)
    for number, step in enumerate(scenario["steps"], start=1):
        if not isinstance(step, dict):
            msg = f"step {number}: a step is an object"
            raise ScenarioError(msg)
        unknown = set(step) - STEP_KEYS
        if unknown:
            msg = f"step {number}: unknown key(s) {', '.join(sorted(unknown))}"
            raise ScenarioError(msg)
        for key in STEP_KEYS:
            if key in step and step[key] is not None and not isinstance(step[key], dict):
                msg = f'step {number}: "{key}" is an object'
                raise ScenarioError(msg)


def run_scenario(app: DealerRoom, scenario: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """Play ``scenario`` through ``app``; yield ``{"match_id"}`` first, then each step's line.

    :raises ScenarioError: naming the step and player at fault.
    """
    check_scenario(scenario)
    try:
        created = app.create_match(
            scenario["game"],
            scenario["players"],
            scenario.get("options") or {},
            seed=scenario.get("seed"),
            custody=scenario.get("custody") or {},
        )
    except ValueError as exc:
        msg = f"match set-up: {exc}"
        raise ScenarioError(msg) from None
    match_id = created["match_id"]
    yield {"match_id": match_id, "tokens": created}
    steps = scenario["steps"]
    for number, step in enumerate(steps, start=1):
        if app.get_match(match_id).finished:
            msg = f"step {number}: the match finished after step {number - 1}"
            raise ScenarioError(msg)
        try:
            app.open_step(match_id, deal=step.get("deal") or None)
        except ValueError as exc:
            msg = f"step {number}: deal: {exc}"
            raise ScenarioError(msg) from None
        for player, payload in (step.get("submit") or {}).items():
            try:
                app.submit(match_id, player, payload)
            except ValueError as exc:
                msg = f"step {number}, player {player}: {exc}"
                raise ScenarioError(msg) from None
        status = app.seal(match_id)
        decide = dict(step.get("decide") or {})
        if step.get("declare") is not None:
            decide[HOST] = step["declare"]
        while status == "decision":
            pending = app.get_match(match_id).pending_request()
            assert pending is not None  # noqa: S101 - "decision" means one is pending
            player = pending[1].player
            try:
                if player in decide:
                    status = app.decide(match_id, player, decide[player])
                else:
                    status = app.apply_decision_default(match_id)
            except ValueError as exc:
                msg = f"step {number}, player {player}: decision: {exc}"
                raise ScenarioError(msg) from None
        if status == "openings":  # self-custody picks are never in a scenario
            status = app.force_openings(match_id)
        yield {"step": number, "state": app.public_state(match_id)}


__all__ = ["ScenarioError", "check_scenario", "load_scenario", "run_scenario"]
