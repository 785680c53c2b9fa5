"""Demo matches: every recorded scenario in ``fixtures/scenarios`` played into an empty store."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from service.simulate import load_scenario, run_scenario

if TYPE_CHECKING:
    from service.application import DealerRoom

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "scenarios"


DEMOS = (
    "vote-basic",
    "six-nimmt-classic",
    "six-nimmt-even-odd",
    "apocalypse-bot-match",
    "picking-nine-six-bots",
    "grid-adaptation-ec-vote",
)


def demo_scenarios() -> list[Path]:
    """The scenario files used as demo matches (a complete match of every game)."""
    return [FIXTURES / f"{name}.json" for name in DEMOS]


def load_demo(app: DealerRoom) -> list[str]:
    """Play the demo scenarios if the store has no match yet; return the new match ids."""
    if app.matches():
        return []
    loaded = []
    for path in demo_scenarios():
        lines = run_scenario(app, load_scenario(path))
        loaded.append(next(lines)["match_id"])
        for _ in lines:
            pass
    return loaded
