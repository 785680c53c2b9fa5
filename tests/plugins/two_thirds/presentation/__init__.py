"""Two thirds of the average: its presentation folder (test data for the sixth-game test)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from web import svg
from web.games.base import Presentation

if TYPE_CHECKING:
    from markupsafe import Markup

    from web.games.record import Moment


def draw(moment: Moment) -> tuple[str, int, list[Markup]]:
    """The targets so far and each player's points, as lines of text."""
    view = moment.view
    lines = [f"round {view.get('round', 0)}"]
    lines += [f"{p}: {n} points" for p, n in view.get("points", {}).items()]
    lines += [f"target of round {i + 1}: {t}" for i, t in enumerate(view.get("targets", []))]
    body = [svg.text(20, 64 + 24 * i, line, size=15) for i, line in enumerate(lines)]
    return "Two thirds of the average", 80 + 24 * len(lines), body


PRESENTATION = Presentation(
    game="two-thirds",
    picture=draw,
    width=480,
    summary=(
        "Each round, send a number from 0 to 100; the nearest to two thirds of the average wins.",
    ),
)
