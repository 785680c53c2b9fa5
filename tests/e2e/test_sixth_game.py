"""A sixth game, only a rules module and a ``web/games/`` folder, works like the five.

It is served, played, drawn, exported and verified like them (issue 15's check of the
plug-in design).

The game (tests/plugins/two_thirds/: two thirds of the average) is dropped into a copy of
the tree, exactly where a developer would put it, and nothing else is changed: no registry
line, no page, no verifier table. A fresh interpreter on that copy then plays a match
through the API, draws its pages, exports its bundle and runs ``dealerroom verify`` on it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from typing import TYPE_CHECKING

from tests.conftest import REPO

if TYPE_CHECKING:
    from pathlib import Path

PLUGIN = REPO / "tests" / "plugins" / "two_thirds"
PACKAGES = ("domain", "service", "replay", "web")

PLAY = r"""
import json, sys
from web import create_app

app = create_app({
    "DEALERROOM_INSTANCE": sys.argv[1], "TESTING": True,
    "DEALERROOM_SUBMIT_RATE": "1000/second", "DEALERROOM_CREATE_RATE": "1000/second",
})
c = app.test_client()
seen = {}
games = {g["game"]: g for g in c.get("/api/games").get_json()}
seen["listed"] = "two-thirds" in games
made = c.post("/api/matches", json={"game": "two-thirds", "players": ["ana", "ben", "cai"],
                                     "options": {"rounds": 2}, "auto_open": False,
                                     "auto_seal": False})
assert made.status_code == 201, made.get_json()
made = made.get_json()
mid, host = made["match_id"], {"Authorization": "Bearer " + made["host_token"]}
tokens = {}
for player, invite in made["invites"].items():
    claimed = c.post(f"/api/matches/{mid}/players/{player}/claim", json={"invite": invite})
    tokens[player] = {"Authorization": "Bearer " + claimed.get_json()["token"]}
picks = [{"ana": 10, "ben": 40, "cai": 100}, {"ana": 0, "ben": 33}]
for numbers in picks:
    opened = c.post(f"/api/matches/{mid}/steps", json={"seconds": 600}, headers=host)
    assert opened.status_code == 201
    for player, n in numbers.items():
        sent = c.post(f"/api/matches/{mid}/players/{player}/submissions",
                      json={"payload": {"number": n}}, headers=tokens[player])
        assert sent.status_code == 201, sent.get_json()
    refused = c.post(f"/api/matches/{mid}/players/cai/submissions",
                     json={"payload": {"number": 101}}, headers=tokens["cai"])
    seen.setdefault("refused", []).append(refused.status_code)
    assert c.post(f"/api/matches/{mid}/seal", headers=host).status_code == 200
status = c.get(f"/api/matches/{mid}").get_json()
seen["finished"] = status["finished"]
seen["result"] = status["result"]
timeline = c.get(f"/matches/{mid}").get_data(as_text=True)
seen["timeline_drawn"] = "Two thirds of the average" in timeline and "<svg" in timeline
picture = c.get(f"/matches/{mid}/picture?at=5")
seen["picture"] = picture.status_code
room = c.get(f"/matches/{mid}/players/ana")
seen["room"] = room.status_code
seen["controls"] = c.get("/games/two-thirds/static/controls.js").status_code
seen["new_page_lists_it"] = "two-thirds" in c.get("/new").get_data(as_text=True)
bundle = c.get(f"/api/matches/{mid}/bundle")
open(sys.argv[2], "wb").write(bundle.data)
print(json.dumps(seen))
"""


def _tree_with_the_sixth_game(root: Path) -> Path:
    """A copy of the packages with the game's rules module and presentation folder added."""
    for package in PACKAGES:
        shutil.copytree(
            REPO / package, root / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(PLUGIN / "rules" / "two_thirds.py", root / "domain" / "rules" / "two_thirds.py")
    shutil.copytree(PLUGIN / "presentation", root / "web" / "games" / "two_thirds")
    return root


def _run(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(
        [sys.executable, *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_a_sixth_game_is_served_played_drawn_exported_and_verified(tmp_path: Path) -> None:
    tree = _tree_with_the_sixth_game(tmp_path / "tree")
    bundle = tmp_path / "two-thirds.bundle.json"
    # Check the game is served and played through the API, and drawn on its pages
    played = _run(tree, "-c", PLAY, str(tmp_path / "instance"), str(bundle))
    assert played.returncode == 0, played.stderr[-3000:]
    seen = json.loads(played.stdout.strip().splitlines()[-1])
    assert seen["listed"] and seen["new_page_lists_it"]
    assert seen["refused"] == [400, 400]
    assert seen["finished"] is True
    # round 1: 10, 40, 100 -> target 100/3, ben nearest; round 2: 0, 33 -> 11, ana nearest
    assert seen["result"]["points"] == {"ana": 1, "ben": 1, "cai": 0}
    assert seen["timeline_drawn"]
    assert (seen["picture"], seen["room"], seen["controls"]) == (200, 200, 200)
    # Check the exported bundle passes every offline check, outcomes recomputed by its rules
    verified = _run(tree, "-c", "from web.cli import main; main()", "verify", str(bundle))
    assert verified.returncode == 0, verified.stdout[-2000:] + verified.stderr[-2000:]
    assert "verdict: ok" in verified.stdout
    # Check a changed reveal is caught
    data = json.loads(bundle.read_text())
    reveal = next(r for r in data["records"] if r["type"] == "SubmissionRevealed")
    reveal["data"]["payload"]["number"] += 1
    tampered = tmp_path / "tampered.bundle.json"
    tampered.write_text(json.dumps(data))
    refused = _run(tree, "-c", "from web.cli import main; main()", "verify", str(tampered))
    assert refused.returncode == 1, refused.stdout[-2000:] + refused.stderr[-2000:]
