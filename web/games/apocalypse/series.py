"""The Apocalypse chart: each side's pieces on the board after every turn.

Each player's line is drawn in their colour (``svg.colours``), the colour the picture gives
their side: White sits first, so White is the first seat's colour.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from web import chart
from web.games.apocalypse.picture import read_board

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from web.games.record import Record


def series(records: Sequence[Record]) -> chart.Series | None:
    """Each side's pieces on the board, at the start and after every turn."""

    def material(view: Mapping[str, Any]) -> dict[str, float]:
        board = read_board(view.get("board") or "")
        colours = view.get("colors") or {}
        return {
            colours[side]: sum(1 for p in board.values() if p.isupper() == (side == "white"))
            for side in ("white", "black")
            if side in colours
        }

    start = chart.first_view(records)
    if "board" not in start:
        return None
    colours = start.get("colors") or {}
    names = [colours[s] for s in ("white", "black") if s in colours]
    points = [(0, material(start))]
    points += [
        (int(d.get("step", 0)), material(d.get("view") or {})) for d in chart.resolved(records)
    ]
    return chart.Series("pieces on the board", names, points, axis="turn")
