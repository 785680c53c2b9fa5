"""The SVG kit the pictures and charts are drawn with: escaped elements, text, colours.

Every attribute value and text child is escaped by :mod:`markupsafe`, so a player's name
can never become markup; nothing carries a ``style`` attribute (the pages'
Content-Security-Policy forbids inline styles): colours are presentation attributes, and
sizing is in ``web/static/pictures.css``.
"""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any

from markupsafe import Markup, escape

if TYPE_CHECKING:
    from collections.abc import Sequence

INK = "#222222"
MUTED = "#6b6b6b"
PAPER = "#f7f5ef"
FELT = "#2f6b4f"
PLAYER_COLOURS = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#59a14f",
    "#b07aa1",
    "#76b7b2",
    "#edc948",
    "#ff9da7",
    "#9c755f",
    "#7f7f7f",
)
VIRTUAL_COLOUR = "#8c8c8c"
WHITE = "#ffffff"
LEGIBLE_LINE = 3.0  # WCAG 2 contrast a line or a mark needs against what it is drawn on


def number(value: float) -> str:
    """Coordinates with at most one decimal, without a trailing ``.0``.

    >>> number(2.0), number(1.25), number(3.14159)
    ('2', '1.2', '3.1')
    """
    shown = f"{value:.1f}"
    return shown.removesuffix(".0")


@functools.cache
def _attribute(name: str) -> str:
    return name.rstrip("_").replace("_", "-")


def el(tag: str, *children: Any, **attrs: Any) -> Markup:
    """Return the element ``tag``; ``class_`` becomes ``class``, ``font_size`` ``font-size``.

    >>> str(el("text", "<b>", x=1.25, class_="name"))
    '<text x="1.2" class="name">&lt;b&gt;</text>'
    """
    parts = [f"<{tag}"]
    for name, value in attrs.items():
        if value is not None:
            if isinstance(value, float):
                shown = number(value)
            elif isinstance(value, int):
                shown = str(value)
            else:
                shown = escape(str(value))
            parts.append(f' {_attribute(name)}="{shown}"')
    if children:
        body = "".join(escape(c) for c in children if c is not None)
        parts.append(f">{body}</{tag}>")
    else:
        parts.append("/>")
    return Markup("".join(parts))  # noqa: S704 - every value and child is escaped above


def text(
    x: float,
    y: float,
    content: Any,
    size: float = 13,
    *,
    anchor: str | None = None,
    bold: bool = False,
    **attrs: Any,
) -> Markup:
    """Text at ``(x, y)``; ``anchor`` "middle" or "end" aligns it there."""
    return el(
        "text",
        str(content),
        x=float(x),
        y=float(y),
        font_size=float(size),
        text_anchor=anchor,
        font_weight="bold" if bold else None,
        **attrs,
    )


def group(*children: Any, **attrs: Any) -> Markup:
    """A ``<g>`` of ``children``."""
    return el("g", *children, **attrs)


def rect(x: float, y: float, w: float, h: float, **attrs: Any) -> Markup:
    """A rectangle at ``(x, y)``, ``w`` wide and ``h`` high."""
    return el("rect", x=float(x), y=float(y), width=float(w), height=float(h), **attrs)


def root(css: str, width: int, height: int, label: str, *body: Any) -> Markup:
    """The root element: accessible (``role="img"``, a label and a ``<title>``)."""
    return el(
        "svg",
        el("title", label),
        rect(0, 0, width, height, rx=10, fill=PAPER),
        *body,
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {width} {height}",
        width=width,
        height=height,
        role="img",
        aria_label=label,
        class_=css,
        font_family="system-ui, 'DejaVu Sans', sans-serif",
        fill=INK,
    )


def short(name: Any, limit: int = 14) -> str:
    """``name`` cut to ``limit`` characters, the last one an ellipsis when cut."""
    shown = str(name)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def name_tag(
    x: float,
    y: float,
    name: str,
    colour: str,
    *,
    player: str | None = None,
    limit: int = 14,
    **attrs: Any,
) -> Markup:
    """A player's colour dot and (shortened) name; the full name is the tooltip.

    ``player``: whose colour the dot is (``class="swatch" data-player=...``), when ``name`` is
    a player's; the chart draws that player's line in the same colour.
    """
    return group(
        el("title", name),
        el(
            "circle",
            cx=float(x + 5),
            cy=float(y - 4),
            r=5,
            fill=colour,
            stroke=outline(colour, PAPER),
            stroke_width=1 if outline(colour, PAPER) else None,
            class_="swatch" if player is not None else None,
            data_player=player,
        ),
        text(x + 14, y, short(name, limit), **attrs),
    )


def colours(players: Sequence[str]) -> dict[str, str]:
    """Each player's colour by seat; a virtual player the rules add (id ``virtual``) is grey.

    A player has this colour everywhere: in every picture and on the score chart.
    """
    found = {p: PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i, p in enumerate(players)}
    found.setdefault("virtual", VIRTUAL_COLOUR)
    return found


def _channels(colour: str) -> tuple[int, int, int]:
    code = colour.removeprefix("#")
    if len(code) == 3:  # noqa: PLR2004 - the short form #rgb
        code = "".join(c * 2 for c in code)
    return int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16)


def luminance(colour: str) -> float:
    """The WCAG 2 relative luminance of ``#rrggbb`` (0 for black, 1 for white)."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4  # noqa: PLR2004

    r, g, b = (linear(c) for c in _channels(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    """The WCAG 2 contrast ratio of two colours, from 1 (the same) to 21 (black on white).

    >>> round(contrast("#000000", "#ffffff"), 1), round(contrast("#f2eedf", "#ffffff"), 2)
    (21.0, 1.16)
    """
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def darker(colour: str, against: str = WHITE, ratio: float = LEGIBLE_LINE + 0.5) -> str:
    """``colour`` darkened (same hue) until it has ``ratio`` contrast against ``against``.

    >>> darker("#4e79a7")  # dark enough already
    '#4e79a7'
    >>> contrast(darker("#f2eedf"), "#ffffff") >= 3.5
    True
    """
    r, g, b = _channels(colour)
    shade = colour
    for step in range(101):
        k = 1 - step / 100
        shade = f"#{round(r * k):02x}{round(g * k):02x}{round(b * k):02x}"
        if contrast(shade, against) >= ratio:
            break
    return shade


def outline(colour: str, against: str = WHITE) -> str | None:
    """The darker outline a light ``colour`` needs to show on ``against`` (``None``: none)."""
    if contrast(colour, against) >= LEGIBLE_LINE:
        return None
    return darker(colour, against)


# Advance widths of DejaVu Sans (the pictures' font) in ems, by character: an estimate of how
# wide a text is drawn, so that a drawing can lay its words out inside its boxes.
_NARROW = frozenset("il.,:;'|!()[]{} ijlft")
_WIDE = frozenset("mwMW@%")
_SYMBOL = frozenset("…→←★▶◀›−")


def text_width(content: Any, size: float, *, bold: bool = False) -> float:
    """About how wide ``content`` is drawn at font size ``size`` (a little wide rather than narrow).

    >>> round(text_width("moved d3→e1", 12))
    89
    """
    ems = 0.0
    for char in str(content):
        if char in _NARROW:
            ems += 0.36
        elif char in _WIDE:
            ems += 0.95
        elif char in _SYMBOL:
            ems += 1.0
        elif char.isupper() or not char.isascii():
            ems += 0.78
        else:
            ems += 0.64
    return ems * size * (1.1 if bold else 1.0)


def fit(content: Any, width: float, size: float, *, bold: bool = False) -> str:
    """``content`` cut (an ellipsis last) so that it is drawn at most ``width`` wide.

    >>> fit("ana, ben, cai, dee", 70, 12)
    'ana, ben…'
    """
    shown = str(content)
    if text_width(shown, size, bold=bold) <= width:
        return shown
    while shown and text_width(shown + "…", size, bold=bold) > width:
        shown = shown[:-1]
    return shown.rstrip(" ,") + "…"


def wrap(
    content: Any, width: float, size: float, *, bold: bool = False, lines: int = 2
) -> list[str]:
    """``content`` broken into at most ``lines`` lines that are each drawn ``width`` wide or less.

    >>> wrap("one side forfeited as the other ran out of pawns", 250, 13)
    ['one side forfeited as the other ran', 'out of pawns']
    """
    found: list[str] = []
    for word in str(content).split():
        joined = f"{found[-1]} {word}" if found else word
        if found and text_width(joined, size, bold=bold) <= width:
            found[-1] = joined
        else:
            found.append(word)
    if len(found) > lines:
        found[lines - 1 :] = [" ".join(found[lines - 1 :])]
    return [fit(line, width, size, bold=bold) for line in found]


def short_json(value: Any, limit: int = 90) -> str:
    """``value`` as one line of JSON, cut to ``limit`` characters."""
    shown = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"
