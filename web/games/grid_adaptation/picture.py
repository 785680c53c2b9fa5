"""The Grid Adaptation picture: the grid coloured by sequence, the round's marks, the scores.

Two layouts of the same drawing: :func:`draw` (the public pages) puts the legend beside a
small grid; :func:`seat_draw` (the dealer room) draws the grid as large as the picture is
wide, the legend below, so a cell is big enough to tap. In both, every cell's square is a
region a player taps (``data-hit="cell H8"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from domain.rules.grid_adaptation import ROUNDS
from web import svg

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from markupsafe import Markup

    from web.games.record import Moment

CELL = 28
SEAT_CELL = 48
WIDTH = 780  # the drawing's width (the presentation's)
# Each bit is a primary: the first red, the second green, the third blue.
SEQUENCE_COLOURS = {
    "000": "#3b3b3b",
    "001": "#2f68c9",
    "010": "#2f9a48",
    "011": "#19a3a3",
    "100": "#d64035",
    "101": "#a24fc2",
    "110": "#e6a619",
    "111": "#f2eedf",
}
EMPTY_COLOUR = "#fbfaf6"
_COLUMNS = "ABCDEFGHIJKLMNO"
_MONO = "'DejaVu Sans Mono', monospace"
TILES, SCORE, HELD = 124, 174, 184  # a legend row's columns, from its left


@dataclass(frozen=True)
class _Marks:
    """The last round's marks: cells that got a tile, were born, vanished or clashed."""

    placed: frozenset[str]
    born: frozenset[str]
    vanished: frozenset[str]
    clashes: frozenset[str]

    @classmethod
    def of(cls, m: Moment) -> _Marks:
        outcome = m.outcome if m.open_step is None else {}
        return cls(
            *(
                frozenset(outcome.get(key) or [])
                for key in ("placed", "born", "vanished", "collisions")
            )
        )


def _grid_of(m: Moment) -> list[str]:
    return list(m.view.get("grid") or ["." * 15] * 15)


def _cell(cell: str, char: str, x: float, y: float, size: float, marks: _Marks) -> Markup:
    """One cell: its square (the tap region), its bits and the round's marks on it."""
    bits = format(int(char), "03b") if char.isdigit() else None
    k = size / CELL  # marks are drawn for a 28-unit cell and scaled
    placed = cell in marks.placed
    parts: list[Markup | None] = [
        svg.el("title", f"{cell}: {bits or 'empty'}"),
        svg.rect(
            x + 1,
            y + 1,
            size - 2,
            size - 2,
            rx=3 * k,
            fill=SEQUENCE_COLOURS.get(bits or "", EMPTY_COLOUR),
            stroke="#1c1c1c" if placed else "none",
            stroke_width=2.5 * k if placed else None,
            data_hit=f"cell {cell}",
        ),
    ]
    if bits:
        parts.append(
            svg.text(
                x + size / 2,
                y + size / 2 + 4 * k,
                bits,
                size=11 * k,
                anchor="middle",
                fill=svg.INK if bits in ("110", "111") else "#ffffff",
            )
        )
    if cell in marks.born:
        parts.append(
            svg.el(
                "circle",
                cx=float(x + size - 5 * k),
                cy=float(y + 5 * k),
                r=3.2 * k,
                fill="#7be07b",
                stroke="#1c5c1c",
            )
        )
    if cell in marks.vanished and not bits:
        parts.append(
            svg.el(
                "path",
                d=f"M{svg.number(x + 9 * k)} {svg.number(y + 9 * k)} "
                f"l{svg.number(10 * k)} {svg.number(10 * k)} m0 {svg.number(-10 * k)} "
                f"l{svg.number(-10 * k)} {svg.number(10 * k)}",
                stroke="#b0a99a",
                stroke_width=1.6 * k,
            )
        )
    if cell in marks.clashes:
        parts.append(
            svg.el(
                "path",
                d=f"M{svg.number(x + 6 * k)} {svg.number(y + 6 * k)} "
                f"l{svg.number(16 * k)} {svg.number(16 * k)} m0 {svg.number(-16 * k)} "
                f"l{svg.number(-16 * k)} {svg.number(16 * k)}",
                stroke="#c0392b",
                stroke_width=3 * k,
            )
        )
    return svg.group(*parts, class_="cell", data_cell=cell, data_bits=bits)


def _grid(m: Moment, x0: float, y0: float, size: float) -> list[Markup]:
    """The board, the column letters and row numbers, and every cell."""
    grid = _grid_of(m)
    n = len(grid)
    marks = _Marks.of(m)
    label = 11 * max(1.0, size / CELL * 0.8)
    body: list[Markup] = [
        svg.rect(x0 - 4, y0 - 4, n * size + 8, n * size + 8, rx=4, fill="#d8d2c4")
    ]
    body.extend(
        svg.text(
            x0 + c * size + size / 2,
            y0 - 10,
            _COLUMNS[c % 15],
            size=label,
            fill=svg.MUTED,
            anchor="middle",
        )
        for c in range(n)
    )
    for r, line in enumerate(grid):
        body.append(
            svg.text(
                x0 - 8,
                y0 + r * size + size / 2 + label / 3,
                r + 1,
                size=label,
                fill=svg.MUTED,
                anchor="end",
            )
        )
        body.extend(
            _cell(f"{_COLUMNS[c % 15]}{r + 1}", char, x0 + c * size, y0 + r * size, size, marks)
            for c, char in enumerate(line)
        )
    return body


def _holders(m: Moment) -> dict[str, list[str]]:
    """Who held each sequence at the end (public once the match is over)."""
    holders: dict[str, list[str]] = {}
    held = (m.log.result or {}).get("sequences_held")
    if isinstance(held, dict):
        for player, seqs in held.items():
            if isinstance(seqs, list) and seqs:
                holders.setdefault(str(seqs[-1]), []).append(player)
    return holders


def _sequence_row(
    x: float,
    y: float,
    bits: str,
    tiles: int,
    score: object,
    holders: Sequence[str],
    room: float,
) -> Markup:
    """One sequence: its colour, bits, tiles, score, and who held it (cut to ``room`` wide)."""
    held = ", ".join(holders)
    return svg.group(
        svg.rect(
            x,
            y - 15,
            20,
            20,
            rx=3,
            fill=SEQUENCE_COLOURS.get(bits, "#cccccc"),
            stroke="#1c1c1c",
            stroke_width=0.6,
        ),
        svg.text(x + 28, y, bits, size=14, font_family=_MONO),
        svg.text(x + TILES, y, tiles, size=13, anchor="end"),
        svg.text(x + SCORE, y, score, size=14, bold=True, anchor="end"),
        svg.group(
            svg.el("title", f"held at the end by {held}"),
            svg.text(x + HELD, y, svg.fit(held, room, 12), size=12, fill=svg.MUTED),
            class_="holders",
        )
        if held
        else None,
        class_="sequence",
        data_bits=bits,
    )


def _keys(x: float, y: float, across: bool) -> list[Markup]:  # noqa: FBT001 - a layout switch
    """The key to the marks; ``across`` lays them on one line, else one under another."""
    keys = [
        (
            svg.rect(
                x, y - 11, 14, 14, rx=2, fill=EMPTY_COLOUR, stroke="#1c1c1c", stroke_width=2.5
            ),
            "placed this round",
        ),
        (
            svg.el(
                "circle", cx=float(x + 7), cy=float(y - 4), r=3.2, fill="#7be07b", stroke="#1c5c1c"
            ),
            "born this round",
        ),
        (
            svg.el(
                "path",
                d=f"M{x + 2} {y - 9} l10 10 m0 -10 l-10 10",
                stroke="#b0a99a",
                stroke_width=1.6,
            ),
            "vanished this round",
        ),
        (
            svg.el(
                "path",
                d=f"M{x + 1} {y - 10} l12 12 m0 -12 l-12 12",
                stroke="#c0392b",
                stroke_width=3,
            ),
            "collision: no tile",
        ),
    ]
    return [
        svg.group(
            svg.group(
                mark, transform=f"translate({i * 185 if across else 0} {0 if across else i * 22})"
            ),
            svg.text(
                x + 22 + (i * 185 if across else 0),
                y + (0 if across else i * 22),
                words,
                size=12,
                fill=svg.MUTED,
            ),
        )
        for i, (mark, words) in enumerate(keys)
    ]


def _players(m: Moment, x: float, y: float, you: str | None = None) -> list[Markup]:
    """Each player's final score, their ToL or EC (once the match is over)."""
    view = m.view
    tol, ec = view.get("tol") or [], view.get("ec")
    body = [svg.text(x, y, "Players", bold=True, size=13)]
    for i, (player, score) in enumerate((view.get("player_scores") or {}).items()):
        tag = "ToL ★" if player in tol else ("EC" if player == ec else "")
        name = f"{player} (you)" if player == you else player
        body.append(
            svg.group(
                svg.name_tag(
                    x,
                    y + 22 + i * 22,
                    name,
                    m.colours.get(player, svg.MUTED),
                    player=player,
                    size=13,
                ),
                svg.text(x + 170, y + 22 + i * 22, score, size=13, bold=True, anchor="end"),
                svg.text(x + 180, y + 22 + i * 22, tag, size=12, fill="#7a2a3a", bold=True),
                class_="player-score",
                data_player=player,
            )
        )
    return body


def _heading(m: Moment) -> str:
    view = m.view
    played = int(view.get("round") or 0)
    step = m.open_step
    if view.get("finished"):
        return f"Grid Adaptation · {played} of {ROUNDS} rounds played · finished"
    if step is not None and step.kind == "ec-vote":
        return f"Grid Adaptation · {played} of {ROUNDS} rounds played · EC vote under way"
    if step is not None:
        return f"Grid Adaptation · round {played + 1} of {ROUNDS} under way"
    return f"Grid Adaptation · {played} of {ROUNDS} rounds played"


def _counts(grid: Sequence[str], scores: Mapping[str, object]) -> dict[str, int]:
    return {bits: sum(line.count(str(int(bits, 2))) for line in grid) for bits in scores}


def draw(m: Moment) -> tuple[str, int, list[Markup]]:
    """Draw the grid coloured by sequence, the round's marks and the sequences' scores."""
    view = m.view
    grid = _grid_of(m)
    x0, y0 = 40, 74
    body = _grid(m, x0, y0, CELL)
    # The legend: each sequence, its colour, tiles now, cumulative score, holders at the end.
    lx = x0 + len(grid) * CELL + 30
    holders = _holders(m)
    scores = view.get("sequence_scores") or {}
    counts = _counts(grid, scores)
    room = WIDTH - 12 - (lx + HELD)  # the holders' room, up to the drawing's right margin
    body.append(svg.text(lx, y0 + 4, "Sequence", bold=True, size=13))
    body.append(svg.text(lx + TILES, y0 + 4, "tiles", size=12, fill=svg.MUTED, anchor="end"))
    body.append(svg.text(lx + SCORE, y0 + 4, "score", size=12, fill=svg.MUTED, anchor="end"))
    if holders:
        body.append(svg.text(lx + HELD, y0 + 4, "held at the end", size=12, fill=svg.MUTED))
    for i, (bits, score) in enumerate(scores.items()):
        body.append(
            _sequence_row(
                lx, y0 + 28 + i * 28, bits, counts.get(bits, 0), score, holders.get(bits, []), room
            )
        )
    y = y0 + 28 + len(scores) * 28 + 6
    body.extend(_keys(lx, y, across=False))
    y += 4 * 22 + 14
    if view.get("finished"):
        body.extend(_players(m, lx, y))
    height = max(y0 + len(grid) * CELL + 20, y + 30 + 22 * len(view.get("player_scores") or {}))
    return _heading(m), height, body


def seat_draw(m: Moment, player: str) -> tuple[str, int, list[Markup]]:
    """The dealer room's drawing: a large grid to tap, the legend and marks below it.

    Who holds which sequence is sealed until the end, so only then is ``player``'s own
    sequence marked ("you").
    """
    view = m.view
    grid = _grid_of(m)
    x0, y0 = 34, 74
    body = _grid(m, x0, y0, SEAT_CELL)
    y = y0 + len(grid) * SEAT_CELL + 36
    holders = {
        bits: [f"{p} (you)" if p == player else p for p in names]
        for bits, names in _holders(m).items()
    }
    scores = view.get("sequence_scores") or {}
    counts = _counts(grid, scores)
    body.append(svg.text(16, y, "Sequence · tiles on the grid · score so far", bold=True, size=13))
    for i, (bits, score) in enumerate(scores.items()):
        column, row = i % 2, i // 2
        body.append(
            _sequence_row(
                16 + column * 380,
                y + 30 + row * 28,
                bits,
                counts.get(bits, 0),
                score,
                holders.get(bits, []),
                WIDTH - 12 - (16 + 380 + HELD) if column else 380 - 12 - HELD,
            )
        )
    y += 30 + (len(scores) + 1) // 2 * 28 + 10
    body.extend(_keys(16, y, across=True))
    y += 30
    if view.get("finished"):
        body.extend(_players(m, 16, y, you=player))
        y += 22 * (len(view.get("player_scores") or {}) + 1)
    return _heading(m), y + 10, body
