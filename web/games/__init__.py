"""The registry of the games' presentations: each folder here is one game's.

A folder ``web/games/<package>/`` (a Python package; ``six_nimmt`` for the wire name
``six-nimmt``) exposes ``PRESENTATION``, a :class:`~web.games.base.Presentation` naming
its game by wire name. The registry finds the folders by itself, so a new game needs only
its folder; a game with no folder is presented by the generic defaults. A folder's
``static/`` files are served at ``/games/<wire name>/static/<file>``; its ``controls.js``,
when there is one, is the dealer room's controls module (``static/room.css`` its styles),
with two optional exports, each called when a step or a decision opens for the player:

* ``pickControls(root, ctx)``: builds the pick's controls into ``root``;
* ``decisionControls(root, ctx)``: the same for the decision asked of the player.

``ctx`` gives the room's data (``ctx.room``, the answer of ``GET .../players/<p>/room``), the
table (``ctx.table``: the real buttons laid over the picture's ``data-hit`` regions), and
``ctx.choose(payload, words, {confirm})`` / ``ctx.unchoose(words)`` to say what the player has
chosen so far; ``web/static/js/room-controls.js`` documents it and plays a game without a
module of its own from its listed legal picks.

Nothing outside this package names a game; pages, charts and accounts reach a game's
presentation only through :func:`presentation` and :func:`controls_url`.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Blueprint, abort, current_app, send_from_directory, url_for

from domain.record_text import game_name
from web.games.base import Presentation

if TYPE_CHECKING:
    from flask.typing import ResponseReturnValue

__all__ = [
    "Presentation",
    "asset_url",
    "bp",
    "controls_url",
    "display_name",
    "for_match",
    "presentation",
    "presentations",
    "room_css_url",
]

CONTROLS = "controls.js"
ROOM_CSS = "room.css"

bp = Blueprint("games", __name__)


@dataclass(frozen=True)
class _Folder:
    """A presentation folder found here: its presentation and where it lies."""

    presentation: Presentation
    path: Path


@functools.cache
def _folders() -> dict[str, _Folder]:
    """Every presentation folder, by its game's wire name (in folder name order).

    :raises TypeError: for a folder without a ``PRESENTATION``.
    :raises ValueError: for two folders presenting the same game.
    """
    found: dict[str, _Folder] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        shown = getattr(module, "PRESENTATION", None)
        if not isinstance(shown, Presentation):
            msg = f"web/games/{info.name}/ has no PRESENTATION (a web.games.base.Presentation)"
            raise TypeError(msg)
        if shown.game in found:
            msg = (
                f"two folders present {shown.game!r}: {found[shown.game].path.name} and {info.name}"
            )
            raise ValueError(msg)
        found[shown.game] = _Folder(shown, Path(module.__file__ or "").parent)
    return found


def display_name(game: str, options: Any = None) -> str:
    """The game's name for people ("6 nimmt!", a custom design's title), or its wire name.

    ``options`` are the match's, when there is one (a custom game is named by its design).
    """
    return game_name(game, options)


def presentations() -> dict[str, Presentation]:
    """Every game with a presentation folder, by wire name."""
    return {game: folder.presentation for game, folder in _folders().items()}


@functools.lru_cache(maxsize=64)
def presentation(game: str) -> Presentation:
    """The presentation of ``game`` (a wire name); the generic one when it has no folder."""
    folder = _folders().get(game)
    return folder.presentation if folder is not None else Presentation(game=game)


def for_match(game: str, options: Any) -> Presentation:
    """The presentation of one match of ``game`` with ``options`` (``MatchCreated.options``).

    A game whose words follow the host's own design (``Presentation.designed``) gets them
    built from the options; any other game, or options that are not an object, the game's own.
    """
    shown = presentation(game)
    if shown.designed is None or not isinstance(options, Mapping):
        return shown
    return shown.designed(options)


def static_folder(game: str) -> Path | None:
    """The ``static/`` folder of ``game``'s presentation, when it has one."""
    folder = _folders().get(game)
    if folder is None or not (folder.path / "static").is_dir():
        return None
    return folder.path / "static"


def asset_url(game: str, filename: str) -> str | None:
    """The URL of a file of ``game``'s ``static/`` folder, or ``None`` when it has none.

    Call it in a request (or app) context: the URL follows where the blueprint is mounted.
    """
    folder = static_folder(game)
    if folder is None or not (folder / filename).is_file():
        return None
    name = next(name for name, mounted in current_app.blueprints.items() if mounted is bp)
    return url_for(f"{name}.static_file", game=game, filename=filename)


def controls_url(game: str) -> str | None:
    """The URL of ``game``'s dealer-room controls module, or ``None`` when it has none."""
    return asset_url(game, CONTROLS)


def room_css_url(game: str) -> str | None:
    """The URL of ``game``'s dealer-room stylesheet (``static/room.css``), if it has one."""
    return asset_url(game, ROOM_CSS)


@bp.get("/games/<game>/static/<path:filename>")
def static_file(game: str, filename: str) -> ResponseReturnValue:
    """A static file of a game's presentation folder (its dealer-room controls)."""
    folder = static_folder(game)
    if folder is None:
        abort(404)
    return send_from_directory(folder, filename)
