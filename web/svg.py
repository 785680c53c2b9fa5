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


def name_tag(x: float, y: float, name: str, colour: str, **attrs: Any) -> Markup:
    """A player's colour dot and (shortened) name; the full name is the tooltip."""
    return group(
        el("title", name),
        el("circle", cx=float(x + 5), cy=float(y - 4), r=5, fill=colour),
        text(x + 14, y, short(name), **attrs),
    )


def colours(players: Sequence[str]) -> dict[str, str]:
    """Each player's colour by seat; a virtual player the rules add (id ``virtual``) is grey."""
    found = {p: PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i, p in enumerate(players)}
    found.setdefault("virtual", VIRTUAL_COLOUR)
    return found


def short_json(value: Any, limit: int = 90) -> str:
    """``value`` as one line of JSON, cut to ``limit`` characters."""
    shown = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"
