"""Demo matches: every recorded scenario in ``fixtures/scenarios`` played into an empty store."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from service.application import NotFound
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
    # a custom game of each shipped template (web/games/custom/static/templates.json)
    "custom-demo-lowest-unique",
    "custom-demo-majority-guess",
    "custom-demo-sealed-bid-auction",
)


def demo_scenarios() -> list[Path]:
    """The scenario files used as demo matches (a complete match of every game and template)."""
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


LIVE_FILE = "live-demo.json"
LIVE_DEMOS: tuple[tuple[str, list[str], dict[str, Any]], ...] = (
    # (game, players, options): short enough to play to the end through the links
    ("vote", ["ana", "ben", "cai"], {"candidates": ["ana", "ben", "cai"]}),
    ("six-nimmt", ["ana", "ben", "cai"], {}),
)
LIVE_SECONDS = 3600


def live_demo(app: DealerRoom) -> list[dict[str, Any]]:
    """Live demo matches, step 1 open, with the host's token and the players' invites.

    They are shown only once, so the first call creates the matches and keeps the host
    token and the invites in ``<instance>/live-demo.json`` (owner-only, like the keys) for
    later starts of ``dealerroom serve``; matches that no longer exist are made again. Each
    entry's ``seats`` says which seats were claimed since (an invite works once).
    """
    path = app.settings.instance / LIVE_FILE
    try:
        kept = json.loads(path.read_text())
    except (OSError, ValueError):
        kept = []
    live = []
    for game, players, options in LIVE_DEMOS:
        entry = next((e for e in kept if isinstance(e, dict) and e.get("game") == game), None)
        if entry is not None and not isinstance(entry.get("invites"), dict):
            entry = None  # kept by an older version (player tokens, before seats were claimed)
        if entry is not None:
            try:
                app.get_match(entry["match_id"])
            except (NotFound, KeyError, TypeError):
                entry = None
        if entry is None:
            created = app.create_match(game, players, options)
            app.open_step(created["match_id"], seconds=LIVE_SECONDS)
            entry = {"game": game, **created}
        entry["seats"] = app.status(entry["match_id"])["seats"]
        live.append(entry)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        json.dump(live, handle, indent=1)
    return live
