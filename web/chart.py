"""The score chart: each player's points or score after every step, as an SVG line chart.

A game's presentation says what to plot as a :class:`Series` (its points, a score, the
pieces on the board); :func:`draw` draws any series the same way. :func:`view_series` makes
the usual one, a ``{player: number}`` entry of the views the log recorded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from web import svg

Record = Mapping[str, Any]

__all__ = ["Series", "draw", "first_view", "resolved", "view_series"]


@dataclass
class Series:
    """What a chart shows: a label for the values and one line per name."""

    label: str
    names: list[str]
    points: list[tuple[int, dict[str, float]]]  # (step, {name: value})
    marks: list[int] = field(default_factory=list)  # steps after which a round ended
    axis: str = "step"
    note: str = ""
    colours: Mapping[str, str] | None = None  # of names that are not players


AXIS = "#8a8272"  # the zero line and the rounds' ends: 3.8:1 on the plot's white
GRID = "#e4dfd3"  # the other value lines: faint on purpose, the values are in the tooltips
MOST_TICKS = 5  # the value axis is cut into at most this many steps
LINE_POINTS = 2  # a line needs two points


def resolved(records: Sequence[Record]) -> list[dict[str, Any]]:
    """The data of every ``StepResolved`` record, oldest first."""
    return [dict(r.get("data") or {}) for r in records if r.get("type") == "StepResolved"]


def first_view(records: Sequence[Record]) -> dict[str, Any]:
    """The public view the first step opened with (``{}`` before any step)."""
    for record in records:
        if record.get("type") == "StepOpened":
            return dict((record.get("data") or {}).get("view") or {})
    return {}


def view_series(records: Sequence[Record], key: str, label: str) -> Series | None:
    """A series straight from a ``{player: number}`` entry of the views (step 0 at the start)."""
    start = first_view(records).get(key)
    points = [(0, dict(start))] if isinstance(start, dict) else []
    marks = []
    for data in resolved(records):
        values = (data.get("view") or {}).get(key)
        if isinstance(values, dict):
            points.append((int(data.get("step", len(points))), dict(values)))
        if (data.get("outcome") or {}).get("round_end"):
            marks.append(int(data.get("step", 0)))
    if not points:
        return None
    return Series(label, list(points[-1][1]), points, marks)


def _ticks(low: float, high: float) -> list[float]:
    """About five round tick values covering ``low`` to ``high``.

    >>> _ticks(0, 66)
    [0, 20, 40, 60, 80]
    """
    span = max(high - low, 1)
    step = next(s * 10**e for e in range(7) for s in (1, 2, 5) if span / (s * 10**e) <= MOST_TICKS)
    first = int(low // step) * step
    ticks = [first]
    while len(ticks) < LINE_POINTS or ticks[-1] < high:
        ticks.append(ticks[-1] + step)
    return ticks


def _points(xy: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{svg.number(x)},{svg.number(y)}" for x, y in xy)


def _line(
    name: str,
    colour: str,
    xy: Sequence[tuple[float, float]],
    *,
    dashed: bool = False,
    key: bool = False,
) -> list[Markup]:
    """A series' line (or its key's stroke) in its colour, over a darker outline when light.

    The line keeps the player's colour (the one the pictures give them); a colour too light to
    show on the plot's white (``svg.outline``) is drawn over a wider line of a darker shade,
    so every line stands out by at least the contrast a graphic needs (WCAG 2, 3:1).
    """
    casing = svg.outline(colour, svg.PAPER if key else svg.WHITE)  # the key is on the paper
    width = 3 if key else 2.5
    shared = {"fill": "none", "stroke_linejoin": "round", "stroke_linecap": "round"}
    drawn = [
        svg.el(
            "polyline",
            points=_points(xy),
            stroke=colour,
            stroke_width=width,
            stroke_dasharray="6 4" if dashed else None,
            class_="key" if key else "line",
            **shared,
        )
    ]
    if casing is not None:
        # A path, not a polyline: the chart's hover rule widens the line, not its outline.
        drawn.insert(
            0,
            svg.el(
                "path",
                d="M" + " L".join(f"{svg.number(x)} {svg.number(y)}" for x, y in xy),
                stroke=casing,
                stroke_width=width + 2,
                stroke_dasharray="6 4" if dashed else None,
                class_="outline",
                data_of=name,
                **shared,
            ),
        )
    return drawn


def _dot(x: float, y: float, colour: str, title: str) -> Markup:
    """One value of a series: a dot in its colour (outlined when light), its value the tooltip."""
    casing = svg.outline(colour)
    return svg.el(
        "circle",
        svg.el("title", title),
        cx=x,
        cy=y,
        r=3.5 if casing else 3,
        fill=colour,
        stroke=casing,
        stroke_width=1.2 if casing else None,
    )


def draw(series: Series, players: Sequence[str]) -> Markup:
    """Draw ``series`` as an SVG line chart, one line per name, coloured by seat.

    The chart of a series with fewer than two points, or nothing but zeros, is an empty
    ``Markup`` (a line needs two points).
    """
    series.points = [
        (step, {n: v for n, v in vals.items() if isinstance(v, int | float)})
        for step, vals in series.points
    ]
    if len(series.points) < LINE_POINTS or not any(v for _, v in series.points):
        return Markup("")  # a line needs two points
    colours = svg.colours(players)
    seats = {p: i for i, p in enumerate(players)}
    names = sorted(series.names, key=lambda n: seats.get(n, len(seats)))
    if series.colours is not None and not set(names) <= set(players):
        colours.update({n: series.colours.get(n, svg.MUTED) for n in names})
    values = [v for _, vals in series.points for v in vals.values()]
    ticks = _ticks(min(*values, 0), max(values))
    last_step = max(step for step, _ in series.points) or 1
    left, right, top, bottom = 52, 500, 58, 262
    width, height = 680, 300

    def room(final: str) -> float:
        """The room for a name in the key, left of its final value."""
        return width - 12 - svg.text_width(final, 13, bold=True) - 10 - (right + 46)

    def at(step: float, value: float) -> tuple[float, float]:
        x = left + (right - left) * step / last_step
        y = bottom - (bottom - top) * (value - ticks[0]) / (ticks[-1] - ticks[0])
        return x, y

    body: list[Markup] = [
        svg.rect(left, top, right - left, bottom - top, fill=svg.WHITE, class_="plot")
    ]
    for tick in ticks:
        _, y = at(0, tick)
        body.append(
            svg.el(
                "line",
                x1=float(left),
                x2=float(right),
                y1=y,
                y2=y,
                stroke=AXIS if tick == 0 else GRID,
            )
        )
        body.append(svg.text(left - 8, y + 4, tick, size=11, fill=svg.MUTED, anchor="end"))
    every = max(1, round(last_step / 12))
    for step in range(0, last_step + 1, every):
        x, _ = at(step, ticks[0])
        body.append(svg.text(x, bottom + 18, step, size=11, fill=svg.MUTED, anchor="middle"))
    body.append(
        svg.text(
            (left + right) / 2, bottom + 34, series.axis, size=11, fill=svg.MUTED, anchor="middle"
        )
    )
    for step in series.marks:
        x, _ = at(step, ticks[0])
        body.append(
            svg.el(
                "line",
                x1=x,
                x2=x,
                y1=float(top),
                y2=float(bottom),
                stroke=AXIS,
                stroke_dasharray="4 4",
                class_="round-end",
            )
        )
    for i, name in enumerate(names):
        colour = colours.get(name, svg.PLAYER_COLOURS[i % len(svg.PLAYER_COLOURS)])
        line = [(step, vals[name]) for step, vals in series.points if name in vals]
        xy = [at(step, value) for step, value in line]
        ly = top + 6 + i * 22
        final = svg.number(line[-1][1]) if line else ""
        body.append(
            svg.group(
                *_line(name, colour, xy, dashed=name == "virtual"),
                *(
                    _dot(x, y, colour, f"{name} after {series.axis} {step}: {svg.number(value)}")
                    for (step, value), (x, y) in zip(line, xy, strict=True)
                ),
                *_line(name, colour, [(right + 20, ly - 4), (right + 40, ly - 4)], key=True),
                svg.text(right + 46, ly, svg.fit(name, room(final), 13), size=13),
                svg.text(width - 12, ly, final, size=13, bold=True, anchor="end"),
                svg.el("title", name),
                class_="series",
                data_name=name,
            )
        )
    title = f"{series.label[:1].upper()}{series.label[1:]} after each {series.axis}"
    head = svg.text(16, 26, title, size=16, bold=True, class_="heading")
    if series.note:
        body.append(svg.text(16, 42, series.note, size=12, fill=svg.MUTED))
        title += f" ({series.note})"
    return svg.root("dr-chart", width, max(height, top + 22 * len(names) + 10), title, head, *body)
