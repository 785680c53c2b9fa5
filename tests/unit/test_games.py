"""The registry of the games' presentation folders (web/games/): by folder, else generic."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from flask import Blueprint, Flask, render_template_string

from domain.rules import game_names
from web import games
from web.games import generic
from web.games.base import Presentation
from web.pictures import account, chart, picture

if TYPE_CHECKING:
    from collections.abc import Iterator

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh_registry() -> Iterator[None]:
    """The registry forgets what it found before and after the test."""
    games._folders.cache_clear()
    games.presentation.cache_clear()
    yield
    games._folders.cache_clear()
    games.presentation.cache_clear()


@pytest.fixture
def sixth_game(tmp_path: Path, fresh_registry: None) -> Iterator[Path]:
    """A folder ``dice/`` for a game "dice", outside the tree but on the package's path."""
    folder = tmp_path / "dice"
    (folder / "static").mkdir(parents=True)
    (folder / "__init__.py").write_text(
        "from web.games.base import Presentation\n"
        "def draw(m):\n"
        "    return 'Dice', 80, []\n"
        "PRESENTATION = Presentation(game='dice', picture=draw, width=300, summary=('Roll.',))\n"
    )
    (folder / "static" / "controls.js").write_text("export function pickChoices() { return []; }\n")
    games.__path__.append(str(tmp_path))
    try:
        yield folder
    finally:
        games.__path__.remove(str(tmp_path))
        sys.modules.pop("web.games.dice", None)


def app_with_games() -> Flask:
    """A bare app mounting the registry's blueprint under another, as the pages do."""
    app = Flask(__name__)
    parent = Blueprint("parent", __name__)
    parent.register_blueprint(games.bp)
    app.register_blueprint(parent)
    return app


def test_every_game_of_the_rules_has_a_presentation_folder() -> None:
    assert sorted(games.presentations()) == sorted(game_names())
    for game, shown in games.presentations().items():
        assert shown.game == game
        assert shown.summary, f"{game} has no rules summary"
        assert all(isinstance(p, str) and p.strip() for p in shown.summary)


def test_a_game_without_a_folder_gets_the_generic_presentation() -> None:
    shown = games.presentation("no-such-game")
    assert shown == Presentation(game="no-such-game")
    assert (shown.picture, shown.width, shown.account) == (generic.table, 800, generic.account)
    assert games.static_folder("no-such-game") is None


def test_only_the_games_folders_name_a_game() -> None:
    names = "|".join(re.escape(g) for g in game_names())
    quoted = re.compile(rf"""["']({names})["']""")
    found = []
    for path in sorted((REPO / "web").rglob("*")):
        inside = path.relative_to(REPO / "web").parts[0] == "games"
        if path.suffix in {".py", ".js", ".html", ".css"} and not inside:
            found += [f"{path.relative_to(REPO)}: {m}" for m in quoted.findall(path.read_text())]
    assert found == []


def test_a_sixth_game_needs_only_its_folder(sixth_game: Path) -> None:
    # Check the registry finds it, with its summary and controls.
    assert games.presentation("dice").summary == ("Roll.",)
    assert games.static_folder("dice") == sixth_game / "static"
    # Check it is drawn with its picture, charted and told by the generic parts.
    records = [
        {"seq": 0, "type": "MatchCreated", "at": "", "data": {"game": "dice", "players": ["a"]}}
    ]
    drawn = str(picture(records, 0))
    assert 'class="dr-picture dr-dice"' in drawn
    assert 'width="300"' in drawn
    assert chart(records) == ""
    assert account(records, 1) == []
    # Check its controls are served where the dealer room finds them.
    app = app_with_games()
    with app.test_request_context():
        url = games.controls_url("dice")
    assert url == "/games/dice/static/controls.js"
    with app.test_client().get(url) as answer:
        assert answer.status_code == 200
        assert b"pickChoices" in answer.data
        assert "javascript" in (answer.mimetype or "")


def test_controls_are_served_for_the_games_that_have_them_and_nothing_else() -> None:
    app = app_with_games()
    client = app.test_client()
    with app.test_request_context():
        urls = {game: games.controls_url(game) for game in games.presentations()}
        assert games.controls_url("no-such-game") is None
    served = {game for game, url in urls.items() if url}
    assert served == set(games.presentations())  # every game of the tree is played by tapping
    for url in filter(None, urls.values()):
        with client.get(url) as answer:
            assert answer.status_code == 200
    assert client.get("/games/no-such-game/static/controls.js").status_code == 404
    assert client.get("/games/vote/static/missing.js").status_code == 404
    assert client.get("/games/vote/static/../__init__.py").status_code == 404
    assert client.get("/games/vote/static/%2e%2e/__init__.py").status_code == 404


def test_the_url_follows_where_the_blueprint_is_mounted() -> None:
    app = Flask(__name__)
    app.register_blueprint(games.bp, url_prefix="/x")
    with app.test_request_context():
        assert render_template_string("{{ url }}", url=games.controls_url("vote")) == (
            "/x/games/vote/static/controls.js"
        )
