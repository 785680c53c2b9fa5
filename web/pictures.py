"""Pictures, score charts and resolution accounts of a match, from its public records.

Three pure functions the timeline page calls with the records it already has (the
public records of ``docs/PROTOCOL.md`` section 3, oldest first, ``seq`` equal to the
position):

* :func:`picture` draws the public game state just after one record as an inline SVG:
  6 nimmt! rows with bullheads and the action card, the Apocalypse board turned so White
  moves left with the turn's moves as arrows, the Picking Nine pool and holdings, the Grid
  Adaptation grid coloured by sequence, the tally of a vote, and a key/value table for a
  game this module does not know.
* :func:`chart` draws each player's points or score after every step as a line chart.
* :func:`account` tells what happened in one step, in plain sentences.

Everything shown comes from the public records: the state is the public view replayed by
:class:`replay.state.MatchReplay` (while a step's picks are sealed, the view the log
recorded), and the extras (the last turn's moves, revealed cards, decisions) are read from
the records of that step. The SVG is built with :mod:`markupsafe`, so every name and value
is escaped, and it carries no ``style`` attribute (the pages' Content-Security-Policy
forbids inline styles): colours are presentation attributes, sizing is in
``web/static/pictures.css``.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from markupsafe import Markup, escape

from domain.rules.picking_nine import is_quattro, number
from domain.rules.six_nimmt import bullheads, is_sixth_card, row_bullheads
from replay.state import MatchReplay, ReplayError

Record = Mapping[str, Any]

__all__ = ["account", "chart", "picture"]

# ---------------------------------------------------------------------------
# SVG building: every attribute value and text child is escaped
# ---------------------------------------------------------------------------

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


def _number(value: float) -> str:
    """Coordinates with at most one decimal, without a trailing ``.0``."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


@functools.cache
def _attribute(name: str) -> str:
    return name.rstrip("_").replace("_", "-")


def _el(tag: str, *children: Any, **attrs: Any) -> Markup:
    """Return the element ``tag``; ``class_`` becomes ``class``, ``font_size`` ``font-size``.

    >>> str(_el("text", "<b>", x=1.25, class_="name"))
    '<text x="1.2" class="name">&lt;b&gt;</text>'
    """
    parts = [f"<{tag}"]
    for name, value in attrs.items():
        if value is not None:
            if isinstance(value, float):
                shown = _number(value)
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
    return Markup("".join(parts))


def _text(
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
    return _el(
        "text",
        str(content),
        x=float(x),
        y=float(y),
        font_size=float(size),
        text_anchor=anchor,
        font_weight="bold" if bold else None,
        **attrs,
    )


def _group(*children: Any, **attrs: Any) -> Markup:
    return _el("g", *children, **attrs)


def _rect(x: float, y: float, w: float, h: float, **attrs: Any) -> Markup:
    return _el("rect", x=float(x), y=float(y), width=float(w), height=float(h), **attrs)


def _svg(css: str, width: int, height: int, label: str, *body: Any) -> Markup:
    """The root element: accessible (``role="img"``, a label and a ``<title>``)."""
    return _el(
        "svg",
        _el("title", label),
        _rect(0, 0, width, height, rx=10, fill=PAPER),
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


def _short(name: Any, limit: int = 14) -> str:
    text = str(name)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _name_tag(x: float, y: float, name: str, colour: str, **attrs: Any) -> Markup:
    """A player's colour dot and (shortened) name; the full name is the tooltip."""
    return _group(
        _el("title", name),
        _el("circle", cx=float(x + 5), cy=float(y - 4), r=5, fill=colour),
        _text(x + 14, y, _short(name), **attrs),
    )


def _colours(players: Sequence[str]) -> dict[str, str]:
    colours = {p: PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i, p in enumerate(players)}
    colours.setdefault("virtual", VIRTUAL_COLOUR)
    return colours


def _json(value: Any, limit: int = 90) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------------------
# What the records say at one position
# ---------------------------------------------------------------------------


@dataclass
class _Moment:
    """The public facts at one position of the log."""

    game: str
    players: list[str]
    seq: int
    record_type: str
    view: dict[str, Any]
    resolved: dict[str, Any] | None = None  # data of the last StepResolved so far
    open_step: dict[str, Any] | None = None  # data of a StepOpened not resolved yet
    committed: list[str] = field(default_factory=list)  # of the open step
    revealed: dict[str, Any] = field(default_factory=dict)  # of the open step
    defaulted: dict[str, Any] = field(default_factory=dict)  # of the open step
    requested: list[dict[str, Any]] = field(default_factory=list)  # of the open step
    finished: dict[str, Any] | None = None  # data of MatchFinished

    @property
    def colours(self) -> dict[str, str]:
        return _colours(self.players)


def _game(records: Sequence[Record]) -> tuple[str, list[str]]:
    if not records:
        msg = "a match has at least its MatchCreated record"
        raise ValueError(msg)
    data = records[0].get("data") or {}
    players = data.get("players")
    return str(data.get("game")), [str(p) for p in players] if isinstance(players, list) else []


def _recorded_view(records: Sequence[Record]) -> dict[str, Any]:
    """The last view the log recorded (for a game the replay cannot run)."""
    for record in reversed(records):
        view = (record.get("data") or {}).get("view")
        if isinstance(view, dict):
            return dict(view)
    return {}


def _moment(records: Sequence[Record], seq: int, board: MatchReplay | None = None) -> _Moment:
    game, players = _game(records)
    if not isinstance(seq, int) or not 0 <= seq < len(records):
        msg = f"record {seq!r} does not exist; this match has records 0 to {len(records) - 1}"
        raise IndexError(msg)
    seen = records[: seq + 1]
    try:
        view = (board or MatchReplay(records)).view_at(seq)
    except ReplayError:
        view = _recorded_view(seen)
    moment = _Moment(game, players, seq, str(records[seq].get("type")), view)
    for record in seen:
        kind, data = record.get("type"), record.get("data") or {}
        if kind == "StepOpened":
            moment.open_step = data
            moment.committed, moment.revealed, moment.defaulted = [], {}, {}
            moment.requested = []
        elif kind == "StepResolved":
            moment.resolved, moment.open_step = data, None
        elif kind == "MatchFinished":
            moment.finished = data
        elif moment.open_step is not None and data.get("step") == moment.open_step.get("step"):
            player = data.get("player")
            if kind == "SubmissionCommitted" and player not in moment.committed:
                moment.committed.append(player)
            elif kind == "SubmissionRevealed":
                moment.revealed[player] = data.get("payload")
            elif kind == "DefaultApplied":
                moment.defaulted[player] = data.get("payload")
            elif kind == "DecisionRequested":
                moment.requested.append(data)
            elif kind == "DecisionMade" and moment.requested:
                moment.requested.pop()
    return moment


def _status(m: _Moment) -> str:
    """One line under the title: where in the log we are."""
    where = f"after record {m.seq} ({m.record_type})"
    if m.open_step is not None:
        step = m.open_step.get("step")
        sealed = len(m.committed)
        asked = len(m.open_step.get("submitters") or [])
        return f"{where} · step {step} open: {sealed} of {asked} picks committed"
    return where


# ---------------------------------------------------------------------------
# 6 nimmt!
# ---------------------------------------------------------------------------

_BULLHEAD_FILL = {1: "#fbf8ef", 2: "#d5e8fb", 3: "#fcefae", 5: "#f9c9c4", 7: "#dccaf3"}
_BULLHEAD_PATH = "M0 0 L2.2 2.4 L5.8 2.4 L8 0 L7.4 4.2 L5.6 8 L2.4 8 L0.6 4.2 Z"
CARD_W, CARD_H = 50, 70


def _bullhead(x: float, y: float, scale: float = 1.0, fill: str = "#7a2a3a") -> Markup:
    return _el(
        "path",
        d=_BULLHEAD_PATH,
        transform=f"translate({_number(x)} {_number(y)}) scale({_number(scale)})",
        fill=fill,
    )


def _nimmt_card(
    x: float, y: float, card: int, *, small: bool = False, ring: str | None = None
) -> Markup:
    """A 6 nimmt! card: its number and one bullhead per point, coloured by value."""
    scale = 0.66 if small else 1.0
    w, h = CARD_W * scale, CARD_H * scale
    heads = bullheads(card)
    icons = []
    per_row = 4 if heads > 5 else heads  # seven bullheads go on two lines
    for i in range(heads):
        line, col = divmod(i, per_row)
        across = min(per_row, heads - line * per_row)
        left = x + w / 2 - across * 5 * scale + col * 10 * scale
        icons.append(_bullhead(left + 1 * scale, y + (5 + line * 10) * scale, scale))
    return _group(
        _el("title", f"{card}: {heads} bullhead{'s' if heads > 1 else ''}"),
        _rect(
            x,
            y,
            w,
            h,
            rx=6 * scale,
            fill=_BULLHEAD_FILL[heads],
            stroke=ring or "#5b5b5b",
            stroke_width=3 if ring else 1,
        ),
        *icons,
        _text(
            x + w / 2,
            y + h * 0.74,
            card,
            size=22 * scale,
            bold=True,
            anchor="middle",
            class_="card-number",
        ),
        class_="card",
        data_card=card,
    )


def _face_down(x: float, y: float, label: str) -> Markup:
    """A sealed pick: the back of a card."""
    w, h = CARD_W * 0.66, CARD_H * 0.66
    return _group(
        _el("title", label),
        _rect(x, y, w, h, rx=4, fill="#5a3d7a", stroke="#2e1f40"),
        _rect(x + 4, y + 4, w - 8, h - 8, rx=3, fill="none", stroke="#b9a4d6"),
        class_="card sealed",
    )


def _action_card(x: float, y: float, parity: str) -> Markup:
    colour = "#1f7a8c" if parity == "even" else "#c4611f"
    return _group(
        _el("title", f"action card: this row takes only {parity} cards"),
        _rect(x, y, 36, CARD_H, rx=5, fill=colour, stroke="#1c1c1c"),
        _text(
            x + 18,
            y + CARD_H / 2,
            parity.upper(),
            fill="#ffffff",
            size=13,
            bold=True,
            anchor="middle",
            dominant_baseline="middle",
            transform=f"rotate(-90 {_number(x + 18)} {_number(y + CARD_H / 2)})",
        ),
        class_="action-card",
        data_parity=parity,
    )


def _six_nimmt(m: _Moment) -> tuple[str, int, list[Markup]]:
    view, colours = m.view, m.colours
    rows: list[list[int]] = view.get("rows") or [[], [], [], []]
    action = view.get("action_card")
    plays = (m.resolved or {}).get("outcome", {}).get("plays", []) if m.open_step is None else []
    placed_by = {p["card"]: p["player"] for p in plays}
    body: list[Markup] = []
    top, pitch, left = 66, CARD_H + 12, 132
    body.append(_rect(12, top - 10, 500, pitch * len(rows) + 8, rx=10, fill=FELT))
    for index, row in enumerate(rows):
        y = top + index * pitch
        cards = [
            _nimmt_card(left + i * (CARD_W + 6), y, card, ring=colours.get(placed_by.get(card, "")))
            for i, card in enumerate(row)
        ]
        cards += [
            _rect(
                left + i * (CARD_W + 6),
                y,
                CARD_W,
                CARD_H,
                rx=6,
                fill="none",
                stroke="#5f9479",
                stroke_width=1.5,
                stroke_dasharray="4 4",
            )
            for i in range(len(row), 5)
        ]
        if is_sixth_card(row):  # the next card here takes the row
            cards.append(
                _group(
                    _el("title", "a sixth card takes this row"),
                    _rect(
                        left + 5 * (CARD_W + 6),
                        y,
                        CARD_W,
                        CARD_H,
                        rx=6,
                        fill="none",
                        stroke="#f3b0a8",
                        stroke_width=2,
                        stroke_dasharray="5 4",
                    ),
                    _text(
                        left + 5 * (CARD_W + 6) + CARD_W / 2,
                        y + CARD_H / 2 + 4,
                        "6th",
                        fill="#f3b0a8",
                        size=13,
                        anchor="middle",
                    ),
                )
            )
        marked = isinstance(action, dict) and action.get("row") == index
        body.append(
            _group(
                _text(24, y + 26, f"row {index}", fill="#ffffff", size=15, bold=True),
                _group(
                    _bullhead(24, y + 40, 1.4, fill="#f4dfae"),
                    _text(40, y + 51, f"{row_bullheads(row)}", fill="#ffffff", size=14),
                    _el("title", f"row {index} is worth {row_bullheads(row)} bullheads"),
                ),
                _action_card(84, y, str(action.get("parity"))) if marked else None,
                *cards,
                class_="row",
                data_row=index,
            )
        )

    # Points, hands and the winners.
    x = 530
    body.append(_text(x, top + 6, "Points", bold=True, size=15))
    winners = set(view.get("winners") or [])
    hands = view.get("hand_sizes") or {}
    for i, (player, points) in enumerate((view.get("points") or {}).items()):
        y = top + 32 + i * 24
        mark = "★ " if player in winners else ""
        body.append(
            _group(
                _name_tag(x, y, player, colours.get(player, VIRTUAL_COLOUR), size=14),
                _text(x + 150, y, f"{mark}{points}", size=14, bold=True, anchor="end"),
                _text(
                    x + 160,
                    y,
                    f"{hands[player]} cards" if player in hands else "open hand",
                    size=12,
                    fill=MUTED,
                ),
                class_="points",
                data_player=player,
            )
        )

    # The turn: revealed or sealed picks of the open step, or the cards of the last turn.
    y = top + pitch * len(rows) + 14
    strip: list[Markup] = []
    if m.open_step is not None:
        title = f"Turn in progress (step {m.open_step.get('step')})"
        for i, player in enumerate(m.open_step.get("submitters") or []):
            cx = 24 + i * 64
            pick = m.revealed.get(player) or m.defaulted.get(player)
            if isinstance(pick, dict) and isinstance(pick.get("card"), int):
                strip.append(_nimmt_card(cx, y + 22, pick["card"], small=True))
            elif player in m.committed:
                strip.append(_face_down(cx, y + 22, f"{player}: sealed"))
            else:
                strip.append(_text(cx + 16, y + 50, "…", size=16, anchor="middle"))
            strip.append(_name_tag(cx - 4, y + 86, player, colours.get(player, MUTED), size=11))
        for request in m.requested:
            strip.append(
                _text(
                    24,
                    y + 106,
                    f"{request.get('player')} must choose a row to take "
                    f"(default row {(request.get('default') or {}).get('row')})",
                    size=13,
                    fill="#a33a2a",
                )
            )
    else:
        title = "Last turn" if view.get("played") else "No turn played yet"
        for i, (player, card) in enumerate((view.get("played") or {}).items()):
            cx = 24 + i * 64
            strip.append(_nimmt_card(cx, y + 22, card, small=True, ring=colours.get(player)))
            took = sum(p["bullheads"] for p in plays if p["player"] == player)
            strip.append(_name_tag(cx - 4, y + 86, player, colours.get(player, MUTED), size=11))
            if took:
                strip.append(
                    _text(
                        cx + 16,
                        y + 102,
                        f"−{took}",
                        size=12,
                        fill="#a33a2a",
                        anchor="middle",
                        bold=True,
                    )
                )
    body.append(_group(_text(16, y + 12, title, bold=True, size=14), *strip, class_="turn"))
    hand = view.get("virtual_hand")
    if hand:
        hx = 330
        body.append(_text(hx, y + 12, "virtual's hand (public)", bold=True, size=14))
        for i, card in enumerate(hand):
            body.append(_nimmt_card(hx + (i % 6) * 36, y + 22 + (i // 6) * 50, card, small=True))
    height = y + 22 + (110 if hand and len(hand) > 6 else 92)
    rnd, turn = view.get("round", 0), view.get("turn", 0)
    head = f"6 nimmt! · round {rnd}, turn {turn}" if rnd else "6 nimmt! · before the first turn"
    if view.get("finished"):
        head += " · finished, winners: " + ", ".join(view.get("winners") or [])
    return head, max(height, top + 32 + 24 * len(view.get("points") or {})), body


# ---------------------------------------------------------------------------
# Apocalypse: the board turned a quarter turn, so White moves left
# ---------------------------------------------------------------------------

SQUARE = 64
_FILES, _RANKS = "abcde", "12345"
_SIDE_COLOUR = {"white": "#e07b00", "black": "#1f5fbf"}


def _board(text: str) -> dict[str, str]:
    """Board text (ranks 5 to 1, files a to e) to ``{square: piece}``."""
    lines = str(text).split()
    return {
        f"{_FILES[f]}{5 - r}": piece
        for r, line in enumerate(lines)
        for f, piece in enumerate(line)
        if piece != "."
    }


def _square_xy(square: str, x0: float, y0: float) -> tuple[float, float]:
    """Centre of a square: rank 5 leftmost, rank 1 rightmost, file e on top, a at the bottom."""
    file, rank = _FILES.index(square[0]), int(square[1])
    return x0 + (5 - rank) * SQUARE + SQUARE / 2, y0 + (4 - file) * SQUARE + SQUARE / 2


def _on_square(square: str, x0: float, y0: float, **attrs: Any) -> Markup:
    """A rectangle covering ``square``."""
    cx, cy = _square_xy(square, x0, y0)
    return _rect(cx - SQUARE / 2, cy - SQUARE / 2, SQUARE, SQUARE, data_square=square, **attrs)


_PAWN = "M-9 14 L9 14 L9 10 L5 7 L4 -2 A7 7 0 1 0 -4 -2 L-5 7 L-9 10 Z"
_KNIGHT = (
    "M-11 15 L11 15 L11 11 L8 9 C9 1 8 -8 1 -14 L-1 -18 L-3 -12 C-9 -10 -13 -4 -14 1 "
    "L-9 4 L-4 0 C-3 3 -6 6 -8 9 L-11 11 Z"
)


def _piece(square: str, piece: str, x0: float, y0: float) -> Markup:
    cx, cy = _square_xy(square, x0, y0)
    white = piece.isupper()
    knight = piece.upper() == "N"
    # The knight faces the way its side moves: White's left, Black's right.
    flip = "" if white or not knight else " scale(-1 1)"
    side, kind = ("white" if white else "black"), ("knight" if knight else "pawn")
    return _group(
        _el("title", f"{side} {kind} on {square}"),
        _el(
            "path",
            d=_KNIGHT if knight else _PAWN,
            fill="#fbfbf6" if white else "#2b2b2b",
            stroke="#2b2b2b" if white else "#d9d9d9",
            stroke_width=1.4,
            transform=f"translate({_number(cx)} {_number(cy)}) scale(1.25){flip}",
        ),
        _el(
            "circle",
            cx=cx - 4 if white else cx + 4,
            cy=cy - 9,
            r=1.7,
            fill="#2b2b2b" if white else "#d9d9d9",
        )
        if knight
        else None,
        class_=f"piece {side} {kind}",
        data_square=square,
    )


def _arrow(a: tuple[float, float], b: tuple[float, float], colour: str, **attrs: Any) -> Markup:
    """A straight arrow from ``a`` to ``b`` with a drawn head (no marker ids needed)."""
    (x1, y1), (x2, y2) = a, b
    length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    x2, y2 = x2 - ux * 8, y2 - uy * 8  # stop short of the centre, so the piece shows
    bx, by = x2 - ux * 15, y2 - uy * 15  # the base of the head
    head = [(x2, y2), (bx - uy * 8, by + ux * 8), (bx + uy * 8, by - ux * 8)]
    return _group(
        _el(
            "line",
            x1=float(x1),
            y1=float(y1),
            x2=float(bx),
            y2=float(by),
            stroke=colour,
            stroke_width=6,
            stroke_linecap="round",
            **attrs,
        ),
        _el("polygon", points=" ".join(f"{_number(x)},{_number(y)}" for x, y in head), fill=colour),
        opacity=0.75,
    )


_SQUARES = {f + r for f in _FILES for r in _RANKS}
_RESULT_REASONS = {
    "no-pawns": "no pawns left",
    "forfeit": "two penalty points",
    "no-legal-moves": "neither side has a legal move",
    "forfeit-and-no-pawns": "one side forfeited as the other ran out of pawns",
}


def _apocalypse(m: _Moment) -> tuple[str, int, list[Markup]]:
    view = m.view
    x0, y0 = 44, 78
    board = _board(view.get("board") or "")
    colours = {"white": None, "black": None, **(view.get("colors") or {})}
    body: list[Markup] = [
        _rect(x0 - 6, y0 - 6, 5 * SQUARE + 12, 5 * SQUARE + 12, rx=6, fill="#6b4a2f")
    ]
    for f in range(5):
        for r in range(1, 6):
            square, light = f"{_FILES[f]}{r}", (f + r) % 2 == 1
            body.append(
                _on_square(square, x0, y0, fill="#f0d9b5" if light else "#b58863", class_="square")
            )
    for i in range(5):  # ranks along the bottom, files down the left
        body.append(
            _text(
                x0 + i * SQUARE + SQUARE / 2,
                y0 + 5 * SQUARE + 22,
                5 - i,
                anchor="middle",
                size=13,
                fill=MUTED,
            )
        )
        body.append(
            _text(
                x0 - 16,
                y0 + i * SQUARE + SQUARE / 2 + 5,
                _FILES[4 - i],
                anchor="middle",
                size=13,
                fill=MUTED,
            )
        )
    body.append(_text(x0, y0 - 14, "◀ White moves", size=13, fill=_SIDE_COLOUR["white"], bold=True))
    body.append(
        _text(
            x0 + 5 * SQUARE,
            y0 - 14,
            "Black moves ▶",
            size=13,
            fill=_SIDE_COLOUR["black"],
            bold=True,
            anchor="end",
        )
    )

    # The turn's moves: revealed and pending, or those of the last turn resolved.
    moves: dict[str, Any] = {}
    pending = m.open_step is not None and bool(m.revealed)
    if pending:
        moves = {p: dict(v, legal=None) for p, v in m.revealed.items() if isinstance(v, dict)}
    elif m.open_step is None and m.resolved:
        outcome = m.resolved.get("outcome") or {}
        moves = outcome.get("moves") or {}
        for event in outcome.get("events") or []:
            square = event.get("square")
            if event.get("type") in ("capture", "collision", "removed") and square in _SQUARES:
                cx, cy = _square_xy(square, x0, y0)
                body.append(
                    _el(
                        "circle",
                        cx=cx,
                        cy=cy,
                        r=28,
                        fill="none",
                        stroke="#c0392b",
                        stroke_width=4,
                        class_="capture",
                    )
                )
    drawn = {
        side: move
        for side in ("white", "black")
        if (move := moves.get(colours.get(side)) or {}).get("from") in _SQUARES
        and move.get("to") in _SQUARES
    }
    for move in drawn.values():  # tint the squares a move left and reached
        for end in (move["from"], move["to"]):
            body.append(_on_square(end, x0, y0, fill="#f7d44c", opacity=0.45, class_="last-move"))
    body.extend(_piece(square, piece, x0, y0) for square, piece in sorted(board.items()))
    for side, move in drawn.items():
        illegal = move.get("legal") is False
        body.append(
            _group(
                _el(
                    "title",
                    f"{side}: {move['from']}→{move['to']}"
                    + (f" (illegal: {move.get('reason')})" if illegal else ""),
                ),
                _arrow(
                    _square_xy(move["from"], x0, y0),
                    _square_xy(move["to"], x0, y0),
                    "#c0392b" if illegal else _SIDE_COLOUR[side],
                    stroke_dasharray="10 7" if pending or illegal else None,
                ),
                class_=f"move {side}",
                data_from=move["from"],
                data_to=move["to"],
            )
        )

    # The players: colours, penalties, material, last move and the result.
    px = x0 + 5 * SQUARE + 36
    penalties = view.get("penalties") or {}
    for i, side in enumerate(("white", "black")):
        player = colours.get(side)
        y = y0 + 10 + i * 128
        pieces = [p for p in board.values() if p.isupper() == (side == "white")]
        pawns = sum(1 for p in pieces if p.upper() == "P")
        knights = len(pieces) - pawns
        count = int(penalties.get(player, 0)) if player is not None else 0
        dots = [
            _el(
                "circle",
                cx=float(px + 94 + k * 16),
                cy=float(y + 45),
                r=6,
                fill="#c0392b" if k < count else "none",
                stroke="#c0392b",
                stroke_width=1.5,
            )
            for k in range(2)
        ]
        move = moves.get(player) or {}
        if not move:
            last = ""
        elif move.get("from") is None:
            last = "no move submitted"
        else:
            last = f"{'revealed' if pending else 'moved'} {move.get('from')}→{move.get('to')}"
            if move.get("legal") is False:
                last = f"illegal {move.get('from')}→{move.get('to')}: {move.get('reason')}"
        direction = "moves left" if side == "white" else "moves right"
        body.append(
            _group(
                _rect(px - 10, y - 22, 270, 112, rx=8, fill="#ffffff", stroke="#d8d2c4"),
                _text(
                    px,
                    y,
                    f"{side.title()} ({direction})",
                    size=13,
                    fill=_SIDE_COLOUR[side],
                    bold=True,
                ),
                _text(px, y + 22, _short(player or "?", 26), size=16, bold=True),
                _text(px, y + 50, "penalties", size=13, fill=MUTED),
                *dots,
                _text(
                    px,
                    y + 70,
                    f"{pawns} pawn{'s' * (pawns != 1)}, {knights} knight{'s' * (knights != 1)}",
                    size=13,
                ),
                _text(
                    px,
                    y + 84,
                    _short(last, 40),
                    size=12,
                    fill="#c0392b" if move.get("legal") is False else MUTED,
                ),
                _el("title", str(player)),
                class_=f"side {side}",
                data_player=player,
            )
        )
    result = view.get("result")
    if isinstance(result, dict):
        winner = result.get("winner")
        reason = _RESULT_REASONS.get(result.get("reason"), str(result.get("reason")))
        body.append(
            _text(
                px,
                y0 + 268,
                f"{_short(winner, 20)} wins" if winner else "Draw",
                size=18,
                bold=True,
                fill="#7a2a3a",
            )
        )
        body.append(_text(px, y0 + 288, reason, size=13, fill="#7a2a3a"))
    elif pending:
        body.append(_text(px, y0 + 268, "moves revealed, not yet resolved", size=13, fill=MUTED))
    head = f"Apocalypse · turn {view.get('turn', 0)}"
    if view.get("finished"):
        head += " · finished"
    return head, y0 + 5 * SQUARE + 40, body


# ---------------------------------------------------------------------------
# Picking Nine Possibilities
# ---------------------------------------------------------------------------

_CARD_COLOURS = {"R": "#d64035", "G": "#2f9a48", "B": "#2f68c9", "Y": "#f0c419", "0": "#9a9a9a"}


def _nine_card(x: float, y: float, card: str, css: str = "card") -> Markup:
    colour = card[0] if card[:1] in _CARD_COLOURS else "0"
    ink = INK if colour == "Y" else "#ffffff"
    label = card if card == "0" else card[1:]
    return _group(
        _el("title", "the gray zero" if card == "0" else card),
        _rect(x, y, 34, 48, rx=5, fill=_CARD_COLOURS[colour], stroke="#333333", stroke_width=1),
        _text(x + 17, y + 31, label, fill=ink, size=18, bold=True, anchor="middle"),
        _text(x + 5, y + 12, card[:1] if card != "0" else "", fill=ink, size=9),
        class_=css,
        data_card=card,
    )


def _best_four(cards: Sequence[str]) -> set[str]:
    """The cards of the best Quattro (empty when there is none)."""
    best: tuple[int, tuple[str, ...]] = (-1, ())
    for four in combinations(cards, 4):
        if is_quattro(four):
            best = max(best, (sum(number(c) for c in four), four))
    return set(best[1])


def _picking_nine(m: _Moment) -> tuple[str, int, list[Markup]]:
    view, colours = m.view, m.colours
    pool: list[str] = list(view.get("pool") or [])
    holdings: dict[str, list[str]] = view.get("holdings") or {}
    body: list[Markup] = []
    top = 60
    body.append(_rect(12, top - 8, 696, 112, rx=10, fill=FELT))
    outcome = (m.resolved or {}).get("outcome") or {}
    settled = m.open_step is None and bool(m.resolved)
    receivers = {card: p for p, card in (outcome.get("received") or {}).items()} if settled else {}
    banned = outcome.get("banned") if settled else None
    title = f"Pool of round {view.get('round', 0) + (0 if settled else 1)}"
    body.append(_text(24, top + 14, title, fill="#ffffff", bold=True, size=14))
    for i, card in enumerate(pool):
        x = 24 + i * 74
        marks: list[Markup] = [
            _group(_nine_card(x + 18, top + 24, card), opacity=0.5 if card == banned else None)
        ]
        if card == banned:
            marks.append(
                _el(
                    "path",
                    d=f"M{x + 12} {top + 76} L{x + 58} {top + 20}",
                    stroke="#ff5a4a",
                    stroke_width=4,
                    stroke_linecap="round",
                )
            )
            marks.append(
                _text(
                    x + 35, top + 92, "banned", fill="#ffb3a8", size=12, anchor="middle", bold=True
                )
            )
        elif card in receivers:
            marks.append(
                _text(
                    x + 35,
                    top + 92,
                    _short(receivers[card], 11),
                    fill="#ffffff",
                    size=12,
                    anchor="middle",
                )
            )
        elif settled:
            marks.append(
                _text(
                    x + 35,
                    top + 92,
                    "discarded" if card != "0" else "stays",
                    fill="#b7cdbf",
                    size=11,
                    anchor="middle",
                )
            )
        body.append(_group(*marks, class_="pool-card"))

    y = top + 130
    body.append(_text(16, y, "Holdings", bold=True, size=15))
    body.append(_text(560, y, "best Quattro", size=12, fill=MUTED))
    tol, ec = view.get("tol"), set(view.get("ec") or [])
    garnets = view.get("garnets") or {}
    scores = view.get("scores") or {}
    for i, (player, cards) in enumerate(holdings.items()):
        row_y = y + 16 + i * 58
        best = _best_four(cards)
        tags = []
        if view.get("finished"):
            tags.append("ToL ★" if player == tol else ("EC" if player in ec else ""))
            tags.append(f"{garnets.get(player, 0)} garnets")
        body.append(
            _group(
                _rect(12, row_y, 696, 54, rx=6, fill="#ffffff" if i % 2 else "#efece3"),
                _name_tag(20, row_y + 32, player, colours.get(player, MUTED), size=14),
                *(
                    _nine_card(
                        150 + k * 40, row_y + 3, card, "card quattro" if card in best else "card"
                    )
                    for k, card in enumerate(cards)
                ),
                *(
                    _rect(
                        148 + k * 40,
                        row_y + 1,
                        38,
                        52,
                        rx=6,
                        fill="none",
                        stroke="#e0a526",
                        stroke_width=3,
                    )
                    for k, card in enumerate(cards)
                    if card in best
                ),
                _text(590, row_y + 34, scores.get(player, 0), size=20, bold=True, anchor="end"),
                _text(604, row_y + 24, tags[0] if tags else "", size=13, bold=True, fill="#7a2a3a"),
                _text(604, row_y + 42, tags[1] if tags else "", size=12, fill=MUTED),
                class_="holding",
                data_player=player,
            )
        )
    y += 16 + len(holdings) * 58 + 22
    tiebreak = " › ".join(_short(p, 12) for p in view.get("tiebreak") or [])
    body.append(_text(16, y, f"Tie-break list: {tiebreak}", size=13, fill=MUTED))
    head = f"Picking Nine · round {view.get('round', 0)} of 5"
    if view.get("finished"):
        head += " · finished"
    return head, y + 16, body


# ---------------------------------------------------------------------------
# Grid Adaptation
# ---------------------------------------------------------------------------

CELL = 28
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
_COLUMNS = "ABCDEFGHIJKLMNO"


def _grid_adaptation(m: _Moment) -> tuple[str, int, list[Markup]]:
    view = m.view
    grid: list[str] = list(view.get("grid") or ["." * 15] * 15)
    size = len(grid)
    x0, y0 = 40, 74
    outcome = (m.resolved or {}).get("outcome") or {} if m.open_step is None else {}
    born, placed = set(outcome.get("born") or []), set(outcome.get("placed") or [])
    vanished, clashes = set(outcome.get("vanished") or []), set(outcome.get("collisions") or [])
    body: list[Markup] = [
        _rect(x0 - 4, y0 - 4, size * CELL + 8, size * CELL + 8, rx=4, fill="#d8d2c4")
    ]
    for c in range(size):
        body.append(
            _text(
                x0 + c * CELL + CELL / 2,
                y0 - 10,
                _COLUMNS[c % 15],
                size=11,
                fill=MUTED,
                anchor="middle",
            )
        )
    for r, line in enumerate(grid):
        body.append(
            _text(x0 - 8, y0 + r * CELL + CELL / 2 + 4, r + 1, size=11, fill=MUTED, anchor="end")
        )
        for c, char in enumerate(line):
            cell = f"{_COLUMNS[c % 15]}{r + 1}"
            x, y = x0 + c * CELL, y0 + r * CELL
            bits = format(int(char), "03b") if char.isdigit() else None
            parts: list[Markup | None] = [
                _el("title", f"{cell}: {bits or 'empty'}"),
                _rect(
                    x + 1,
                    y + 1,
                    CELL - 2,
                    CELL - 2,
                    rx=3,
                    fill=SEQUENCE_COLOURS.get(bits or "", "#fbfaf6"),
                    stroke="#1c1c1c" if cell in placed else "none",
                    stroke_width=2.5 if cell in placed else None,
                ),
            ]
            if bits:
                parts.append(
                    _text(
                        x + CELL / 2,
                        y + CELL / 2 + 3.5,
                        bits,
                        size=9,
                        anchor="middle",
                        fill=INK if bits in ("110", "111") else "#ffffff",
                    )
                )
            if cell in born:
                parts.append(
                    _el(
                        "circle",
                        cx=float(x + CELL - 5),
                        cy=float(y + 5),
                        r=3.2,
                        fill="#7be07b",
                        stroke="#1c5c1c",
                    )
                )
            if cell in vanished and not bits:
                parts.append(
                    _el(
                        "path",
                        d=f"M{x + 9} {y + 9} l10 10 m0 -10 l-10 10",
                        stroke="#b0a99a",
                        stroke_width=1.6,
                    )
                )
            if cell in clashes:
                parts.append(
                    _el(
                        "path",
                        d=f"M{x + 6} {y + 6} l16 16 m0 -16 l-16 16",
                        stroke="#c0392b",
                        stroke_width=3,
                    )
                )
            body.append(_group(*parts, class_="cell", data_cell=cell, data_bits=bits))

    # The legend: each sequence, its colour, tiles now, cumulative score, holders at the end.
    lx = x0 + size * CELL + 30
    holders: dict[str, list[str]] = {}
    held = ((m.finished or {}).get("result") or {}).get("sequences_held")
    if isinstance(held, dict):
        for player, seqs in held.items():
            if isinstance(seqs, list) and seqs:
                holders.setdefault(str(seqs[-1]), []).append(player)
    scores = view.get("sequence_scores") or {}
    counts = {bits: sum(line.count(str(int(bits, 2))) for line in grid) for bits in scores}
    body.append(_text(lx, y0 + 4, "Sequence", bold=True, size=13))
    body.append(_text(lx + 150, y0 + 4, "tiles", size=12, fill=MUTED, anchor="end"))
    body.append(_text(lx + 210, y0 + 4, "score", size=12, fill=MUTED, anchor="end"))
    if holders:
        body.append(_text(lx + 222, y0 + 4, "held at the end", size=12, fill=MUTED))
    for i, (bits, score) in enumerate(scores.items()):
        y = y0 + 28 + i * 28
        body.append(
            _group(
                _rect(
                    lx,
                    y - 15,
                    20,
                    20,
                    rx=3,
                    fill=SEQUENCE_COLOURS.get(bits, "#cccccc"),
                    stroke="#1c1c1c",
                    stroke_width=0.6,
                ),
                _text(lx + 28, y, bits, size=14, font_family="'DejaVu Sans Mono', monospace"),
                _text(lx + 150, y, counts.get(bits, 0), size=13, anchor="end"),
                _text(lx + 210, y, score, size=14, bold=True, anchor="end"),
                _text(
                    lx + 222,
                    y,
                    ", ".join(_short(p, 8) for p in holders.get(bits, [])),
                    size=12,
                    fill=MUTED,
                ),
                class_="sequence",
                data_bits=bits,
            )
        )
    y = y0 + 28 + len(scores) * 28 + 6
    keys = [
        (
            _rect(lx, y - 11, 14, 14, rx=2, fill="#fbfaf6", stroke="#1c1c1c", stroke_width=2.5),
            "placed this round",
        ),
        (
            _el(
                "circle", cx=float(lx + 7), cy=float(y - 4), r=3.2, fill="#7be07b", stroke="#1c5c1c"
            ),
            "born this round",
        ),
        (
            _el(
                "path",
                d=f"M{lx + 2} {y - 9} l10 10 m0 -10 l-10 10",
                stroke="#b0a99a",
                stroke_width=1.6,
            ),
            "vanished this round",
        ),
        (
            _el(
                "path",
                d=f"M{lx + 1} {y - 10} l12 12 m0 -12 l-12 12",
                stroke="#c0392b",
                stroke_width=3,
            ),
            "collision: no tile",
        ),
    ]
    for i, (mark, words) in enumerate(keys):
        body.append(
            _group(
                _group(mark, transform=f"translate(0 {i * 22})"),
                _text(lx + 22, y + i * 22, words, size=12, fill=MUTED),
            )
        )
    y += len(keys) * 22 + 14
    if view.get("finished"):
        tol, ec = view.get("tol") or [], view.get("ec")
        body.append(_text(lx, y, "Players", bold=True, size=13))
        for i, (player, score) in enumerate((view.get("player_scores") or {}).items()):
            mark = "ToL ★" if player in tol else ("EC" if player == ec else "")
            body.append(
                _group(
                    _name_tag(lx, y + 22 + i * 22, player, m.colours.get(player, MUTED), size=13),
                    _text(lx + 170, y + 22 + i * 22, score, size=13, bold=True, anchor="end"),
                    _text(lx + 180, y + 22 + i * 22, mark, size=12, fill="#7a2a3a", bold=True),
                    class_="player-score",
                    data_player=player,
                )
            )
    head = f"Grid Adaptation · round {view.get('round', 0)} of 8"
    if m.open_step is not None and m.open_step.get("kind") == "ec-vote":
        head += " · EC vote under way"
    if view.get("finished"):
        head += " · finished"
    height = max(y0 + size * CELL + 20, y + 30 + 22 * len(view.get("player_scores") or {}))
    return head, height, body


# ---------------------------------------------------------------------------
# Vote, and any other game
# ---------------------------------------------------------------------------


def _vote(m: _Moment) -> tuple[str, int, list[Markup]]:
    view = m.view
    tally: dict[str, int] = view.get("tally") or {}
    winners = set(view.get("winners") or [])
    top = max([*tally.values(), 1])
    body: list[Markup] = []
    y = 64
    for i, (candidate, votes) in enumerate(tally.items()):
        row_y = y + i * 40
        width = 360 * votes / top
        colour = m.colours.get(candidate, PLAYER_COLOURS[i % len(PLAYER_COLOURS)])
        body.append(
            _group(
                _name_tag(16, row_y + 20, candidate, colour, size=14, bold=candidate in winners),
                _rect(160, row_y + 4, 360, 24, rx=4, fill="#e7e3d8"),
                _rect(160, row_y + 4, max(width, 0), 24, rx=4, fill=colour),
                _text(
                    530,
                    row_y + 22,
                    f"{votes}{' ★' if candidate in winners else ''}",
                    size=15,
                    bold=True,
                ),
                class_="bar",
                data_candidate=candidate,
                data_votes=votes,
            )
        )
    y += len(tally) * 40 + 10
    abstained = ((m.resolved or {}).get("outcome") or {}).get("abstained") or []
    if abstained:
        body.append(_text(16, y, "abstained: " + ", ".join(abstained), size=13, fill=MUTED))
        y += 20
    head = "Vote"
    if view.get("finished"):
        head += (
            " · "
            + ("winner " if len(winners) == 1 else "tie: ")
            + ", ".join(c for c in tally if c in winners)
        )
    return head, y + 10, body


def _generic(m: _Moment) -> tuple[str, int, list[Markup]]:
    """Any game: the public view as a key/value table."""
    body: list[Markup] = []
    y = 64
    for i, (key, value) in enumerate(m.view.items()):
        row_y = y + i * 24
        body.append(
            _group(
                _rect(12, row_y - 16, 776, 22, fill="#ffffff" if i % 2 else "#efece3"),
                _text(20, row_y, _short(key, 22), bold=True, size=13),
                _text(
                    200, row_y, _json(value), size=13, font_family="'DejaVu Sans Mono', monospace"
                ),
                _el("title", f"{key}: {_json(value, 2000)}"),
                class_="entry",
                data_key=key,
            )
        )
    if not m.view:
        body.append(_text(20, y, "No public state yet.", fill=MUTED, size=13))
    return f"{m.game} · public state", y + max(len(m.view), 1) * 24, body


_Drawing = Callable[[_Moment], tuple[str, int, list[Markup]]]
_PICTURES: dict[str, tuple[_Drawing, int]] = {
    "six-nimmt": (_six_nimmt, 760),
    "apocalypse": (_apocalypse, 680),
    "picking-nine": (_picking_nine, 720),
    "grid-adaptation": (_grid_adaptation, 780),
    "vote": (_vote, 600),
}


def _kind(game: str) -> str:
    return game if re.fullmatch(r"[a-z0-9-]{1,40}", game) else "game"


def picture(records: Sequence[Record], seq: int, *, board: MatchReplay | None = None) -> Markup:
    """Draw the public state just after record ``seq`` as an inline ``<svg>``.

    ``records`` are a match's public records, oldest first; ``board`` may pass a
    :class:`~replay.state.MatchReplay` of the same records to reuse across calls. The game is
    dispatched on ``MatchCreated.game``; a game without a drawing here (or a view it cannot
    draw) is shown as a table of the public view, so a new game never breaks the page.

    :raises ValueError: when ``records`` is empty.
    :raises IndexError: when there is no record ``seq``.
    """
    m = _moment(records, seq, board)
    drawing, width = _PICTURES.get(m.game, (_generic, 800))
    try:
        head, height, body = drawing(m)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        drawing, width = _generic, 800
        head, height, body = drawing(m)
    label = f"{head} ({_status(m)})"
    return _svg(
        f"dr-picture dr-{_kind(m.game)}",
        width,
        int(height) + 8,
        label,
        _text(16, 26, head, size=17, bold=True, class_="heading"),
        _text(16, 44, _status(m), size=12, fill=MUTED),
        *body,
    )


# ---------------------------------------------------------------------------
# Chart: each player's points or score over the steps
# ---------------------------------------------------------------------------


@dataclass
class _Series:
    """What a chart shows: a label for the values and one line per name."""

    label: str
    names: list[str]
    points: list[tuple[int, dict[str, float]]]  # (step, {name: value})
    marks: list[int] = field(default_factory=list)  # steps after which a round ended
    axis: str = "step"
    note: str = ""


def _resolved(records: Sequence[Record]) -> list[dict[str, Any]]:
    return [dict(r.get("data") or {}) for r in records if r.get("type") == "StepResolved"]


def _first_view(records: Sequence[Record]) -> dict[str, Any]:
    for record in records:
        if record.get("type") == "StepOpened":
            return dict((record.get("data") or {}).get("view") or {})
    return {}


def _view_series(records: Sequence[Record], key: str, label: str) -> _Series | None:
    """A series straight from a ``{player: number}`` entry of the views (step 0 at the start)."""
    start = _first_view(records).get(key)
    points = [(0, dict(start))] if isinstance(start, dict) else []
    marks = []
    for data in _resolved(records):
        values = (data.get("view") or {}).get(key)
        if isinstance(values, dict):
            points.append((int(data.get("step", len(points))), dict(values)))
        if (data.get("outcome") or {}).get("round_end"):
            marks.append(int(data.get("step", 0)))
    if not points:
        return None
    return _Series(label, list(points[-1][1]), points, marks)


def _apocalypse_series(records: Sequence[Record]) -> _Series | None:
    def material(view: Mapping[str, Any]) -> dict[str, float]:
        board = _board(view.get("board") or "")
        colours = view.get("colors") or {}
        return {
            colours[side]: sum(1 for p in board.values() if p.isupper() == (side == "white"))
            for side in ("white", "black")
            if side in colours
        }

    start = _first_view(records)
    if "board" not in start:
        return None
    colours = start.get("colors") or {}
    names = [colours[s] for s in ("white", "black") if s in colours]
    points = [(0, material(start))]
    points += [(int(d.get("step", 0)), material(d.get("view") or {})) for d in _resolved(records)]
    return _Series("pieces on the board", names, points)


def _grid_series(records: Sequence[Record]) -> _Series | None:
    rounds = [d for d in _resolved(records) if "round_scores" in (d.get("outcome") or {})]
    finished = next((r.get("data") for r in records if r.get("type") == "MatchFinished"), None)
    held = ((finished or {}).get("result") or {}).get("sequences_held")
    if isinstance(held, dict) and held:
        # After the match everyone's sequence per round is public: score each player.
        totals = dict.fromkeys(held, 0.0)
        points = [(0, dict(totals))]
        for i, data in enumerate(rounds):
            scores = data["outcome"]["round_scores"]
            for player, seqs in held.items():
                if i < len(seqs):
                    totals[player] += scores.get(seqs[i], 0)
            points.append((int(data.get("step", i + 1)), dict(totals)))
        return _Series(
            "score",
            list(held),
            points,
            axis="round",
            note="who held which sequence was revealed after the match",
        )
    start = _first_view(records).get("sequence_scores")
    if not isinstance(start, dict):
        return None
    points = [(0, dict(start))]
    points += [(int(d.get("step", 0)), dict(d["view"]["sequence_scores"])) for d in rounds]
    return _Series(
        "score of each sequence",
        list(start),
        points,
        axis="round",
        note="who holds which sequence stays sealed until the match ends",
    )


def _generic_series(records: Sequence[Record]) -> _Series | None:
    """For another game: the first view entry that maps every player to a number."""
    _, players = _game(records)
    views = [d.get("view") or {} for d in _resolved(records)]
    if not views or not players:
        return None
    keys = sorted(views[-1], key=lambda k: not re.search("score|point", str(k)))
    for key in keys:  # an entry named like a score first
        value = views[-1][key]
        if (
            isinstance(value, dict)
            and set(players) <= set(value)
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value.values())
        ):
            return _view_series(records, key, key.replace("_", " "))
    return None


_CHARTS: dict[str, Callable[[Sequence[Record]], _Series | None]] = {
    "six-nimmt": lambda records: _view_series(records, "points", "points"),
    "picking-nine": lambda records: _view_series(records, "scores", "best Quattro score"),
    "apocalypse": _apocalypse_series,
    "grid-adaptation": _grid_series,
    "vote": lambda records: None,  # one step: the picture's bars say it all
}


def _ticks(low: float, high: float) -> list[float]:
    """About five round tick values covering ``low`` to ``high``.

    >>> _ticks(0, 66)
    [0, 20, 40, 60, 80]
    """
    span = max(high - low, 1)
    step = next(s * 10**e for e in range(0, 7) for s in (1, 2, 5) if span / (s * 10**e) <= 5)
    first = int(low // step) * step
    ticks = [first]
    while len(ticks) < 2 or ticks[-1] < high:
        ticks.append(ticks[-1] + step)
    return ticks


def chart(records: Sequence[Record]) -> Markup:
    """Draw each player's points or score after every step as an SVG line chart.

    6 nimmt!: points; Picking Nine: best Quattro score; Apocalypse: pieces on the board;
    Grid Adaptation: each player's score once the match has revealed who held which
    sequence, before that the eight sequences' scores. A vote has one step, so its chart is
    an empty ``Markup`` (the picture's bars show the tally); so is the chart of any match
    with nothing to plot yet.

    :raises ValueError: when ``records`` is empty.
    """
    game, players = _game(records)
    try:
        series = _CHARTS.get(game, _generic_series)(records)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        series = None  # a damaged log: no chart rather than a broken page
    if series is not None:
        series.points = [
            (step, {n: v for n, v in vals.items() if isinstance(v, int | float)})
            for step, vals in series.points
        ]
    if series is None or len(series.points) < 2 or not any(v for _, v in series.points):
        return Markup("")  # a line needs two points
    colours = _colours(players)
    seats = {p: i for i, p in enumerate(players)}
    names = sorted(series.names, key=lambda n: seats.get(n, len(seats)))
    if game == "grid-adaptation" and not set(names) <= set(players):
        colours.update({n: SEQUENCE_COLOURS.get(n, MUTED) for n in names})
    values = [v for _, vals in series.points for v in vals.values()]
    ticks = _ticks(min(min(values), 0), max(values))
    last_step = max(step for step, _ in series.points) or 1
    left, right, top, bottom = 52, 500, 58, 262
    width, height = 680, 300

    def at(step: float, value: float) -> tuple[float, float]:
        x = left + (right - left) * step / last_step
        y = bottom - (bottom - top) * (value - ticks[0]) / (ticks[-1] - ticks[0])
        return x, y

    body: list[Markup] = [_rect(left, top, right - left, bottom - top, fill="#ffffff")]
    for tick in ticks:
        _, y = at(0, tick)
        body.append(
            _el(
                "line",
                x1=float(left),
                x2=float(right),
                y1=y,
                y2=y,
                stroke="#b9b3a5" if tick == 0 else "#e4dfd3",
            )
        )
        body.append(_text(left - 8, y + 4, tick, size=11, fill=MUTED, anchor="end"))
    every = max(1, round(last_step / 12))
    for step in range(0, last_step + 1, every):
        x, _ = at(step, ticks[0])
        body.append(_text(x, bottom + 18, step, size=11, fill=MUTED, anchor="middle"))
    body.append(
        _text((left + right) / 2, bottom + 34, series.axis, size=11, fill=MUTED, anchor="middle")
    )
    for step in series.marks:
        x, _ = at(step, ticks[0])
        body.append(
            _el(
                "line",
                x1=x,
                x2=x,
                y1=float(top),
                y2=float(bottom),
                stroke="#b9b3a5",
                stroke_dasharray="4 4",
            )
        )
    for i, name in enumerate(names):
        colour = colours.get(name, PLAYER_COLOURS[i % len(PLAYER_COLOURS)])
        line = [(step, vals[name]) for step, vals in series.points if name in vals]
        xy = [at(step, value) for step, value in line]
        dots = [
            _el(
                "circle",
                _el("title", f"{name} after {series.axis} {step}: {_number(value)}"),
                cx=x,
                cy=y,
                r=3,
                fill=colour,
            )
            for (step, value), (x, y) in zip(line, xy, strict=True)
        ]
        ly = top + 6 + i * 22
        final = _number(line[-1][1]) if line else ""
        body.append(
            _group(
                _el(
                    "polyline",
                    points=" ".join(f"{_number(x)},{_number(y)}" for x, y in xy),
                    fill="none",
                    stroke=colour,
                    stroke_width=2.5,
                    stroke_linejoin="round",
                    stroke_dasharray="6 4" if name == "virtual" else None,
                ),
                *dots,
                _el(
                    "line",
                    x1=float(right + 20),
                    x2=float(right + 40),
                    y1=float(ly - 4),
                    y2=float(ly - 4),
                    stroke=colour,
                    stroke_width=3,
                ),
                _text(right + 46, ly, _short(name, 16), size=13),
                _text(width - 12, ly, final, size=13, bold=True, anchor="end"),
                _el("title", name),
                class_="series",
                data_name=name,
            )
        )
    title = f"{series.label.capitalize()} after each {series.axis}"
    head = _text(16, 26, title, size=16, bold=True, class_="heading")
    if series.note:
        body.append(_text(16, 42, series.note, size=12, fill=MUTED))
        title += f" ({series.note})"
    return _svg("dr-chart", width, max(height, top + 22 * len(names) + 10), title, head, *body)


# ---------------------------------------------------------------------------
# Accounts: what happened in one step, in words
# ---------------------------------------------------------------------------


@dataclass
class _Step:
    """The public records of one step."""

    number: int
    opened: dict[str, Any] | None = None
    committed: list[str] = field(default_factory=list)
    defaults: list[dict[str, Any]] = field(default_factory=list)
    revealed: dict[str, Any] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    resolved: dict[str, Any] | None = None
    players: list[str] = field(default_factory=list)  # seat order

    def seated(self, values: Any) -> list[tuple[Any, Any]]:
        """The items of a ``{player: ...}`` mapping in seat order (JSON keys are sorted)."""
        if not isinstance(values, dict):
            return []
        seats = {p: i for i, p in enumerate(self.players)}
        return sorted(values.items(), key=lambda item: seats.get(item[0], len(seats)))


def _step(records: Sequence[Record], number: int) -> _Step:
    step = _Step(number, players=_game(records)[1])
    for record in records:
        kind, data = record.get("type"), dict(record.get("data") or {})
        if data.get("step") != number:
            continue
        if kind == "StepOpened":
            step.opened = data
        elif kind == "SubmissionCommitted" and data.get("player") not in step.committed:
            step.committed.append(data.get("player"))
        elif kind == "DefaultApplied":
            step.defaults.append(data)
        elif kind == "SubmissionRevealed":
            step.revealed[data.get("player")] = data.get("payload")
        elif kind == "DecisionRequested":
            step.requests.append(data)
        elif kind == "DecisionMade":
            step.decisions.append(data)
        elif kind == "StepResolved":
            step.resolved = data
    return step


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _listed(items: Iterable[Any]) -> str:
    shown = [str(i) for i in items]
    return ", ".join(shown) if shown else "none"


def _default_words(game: str, data: Mapping[str, Any]) -> str:
    player, payload = data.get("player"), data.get("payload") or {}
    why = (
        "did not open their commitment in time"
        if data.get("reason") == "not-revealed"
        else "submitted nothing"
    )
    what = {
        "vote": "so they abstain",
        "six-nimmt": f"so their lowest card, {payload.get('card')}, is played",
        "apocalypse": "so they have no move and earn a penalty point",
        "picking-nine": "so the default applies: the first 7 cards of the pool, no ban, "
        f"priority {payload.get('priority')}",
        "grid-adaptation": "so they place no tile this round",
    }.get(game, f"so the default pick {_json(payload)} applies")
    return f"{player} {why}, {what}."


def _opening(game: str, step: _Step) -> list[str]:
    """What the step opened with: the round and its deal (6 nimmt!), the pool (Picking Nine)."""
    opened = step.opened or {}
    deal, view = opened.get("deal") or {}, (step.resolved or {}).get("view") or {}
    words = []
    if game == "six-nimmt":
        if view.get("round"):
            words.append(f"Round {view['round']}, turn {view.get('turn')}.")
        if deal.get("rows"):
            words.append(f"The rows start with {_listed(deal['rows'])}.")
        if deal.get("virtual_hand"):
            words.append(
                f"The virtual player's new hand (public): {_listed(deal['virtual_hand'])}."
            )
    elif game == "picking-nine" and (opened.get("view") or {}).get("pool"):
        words.append(f"The pool: {_listed(opened['view']['pool'])}.")
    return words


def _six_nimmt_account(step: _Step, game_words: list[str]) -> None:
    outcome = (step.resolved or {}).get("outcome") or {}
    view = (step.resolved or {}).get("view") or {}
    rows = [list(r) for r in ((step.opened or {}).get("view") or {}).get("rows") or []]
    revealed = [
        f"{p} {v.get('card')}" for p, v in step.seated(step.revealed) if isinstance(v, dict)
    ]
    if revealed:
        game_words.append(f"Revealed: {_listed(revealed)}.")
    decisions = iter(step.decisions)
    with_action_card = bool(((step.opened or {}).get("view") or {}).get("action_card"))
    marked = "it may enter" if with_action_card else ""
    moves = {m.get("card"): m for m in outcome.get("action_card_moves") or []}
    for play in outcome.get("plays") or []:
        who, card, row = play.get("player"), play.get("card"), play.get("row")
        took, heads = play.get("took") or [], play.get("bullheads", 0)
        owner = "the virtual player" if who == "virtual" else who
        first = "The virtual player" if who == "virtual" else who
        taken = f"took {_listed(took)} ({_plural(heads, 'bullhead')}) and {card} starts the row"
        if play.get("reason") == "placed":
            after = rows[row][-1] if 0 <= row < len(rows) and rows[row] else None
            where = f" (after {after})" if after is not None else ""
            game_words.append(f"{first}'s {card} went to row {row}{where}.")
        elif play.get("reason") == "sixth-card":
            game_words.append(f"{first}'s {card} was the sixth card of row {row}: {owner} {taken}.")
        else:
            low = f"{first}'s {card} was lower than every row end {marked}".rstrip()
            if who == "virtual":
                how = f"by its rule it took row {row}, the one with the fewest bullheads"
            else:
                decision = next(decisions, None) or {}
                how = (
                    f"{who} chose no row in time, so the default row {row} (fewest bullheads) "
                    "applied"
                    if decision.get("defaulted")
                    else f"{who} chose row {row}"
                )
            game_words.append(f"{low}; {how}: {owner} {taken}.")
        if 0 <= row < len(rows):
            rows[row] = [*rows[row], card] if play.get("reason") == "placed" else [card]
        move = moves.get(card)
        if move and play.get("reason") != "placed":
            game_words.append(
                f"The action card moved from row {move.get('from')} to row {move.get('to')} "
                f"and shows {str(move.get('parity')).title()}."
            )
    if view.get("points"):
        points = [f"{p} {v}" for p, v in step.seated(view["points"])]
        game_words.append(f"Points now: {_listed(points)}.")
    if outcome.get("finished"):
        game_words.append(
            f"End of round {view.get('round')}: someone is at 0 points or below, so the match "
            f"is over. Winner{'s' if len(view.get('winners') or []) > 1 else ''}: "
            f"{_listed(view.get('winners') or [])}."
        )
    elif outcome.get("round_end"):
        game_words.append(
            f"End of round {view.get('round')}: each row keeps only its rightmost card."
        )


_PIECES = {"N": "knight", "P": "pawn"}


def _apocalypse_account(step: _Step, game_words: list[str]) -> None:
    outcome = (step.resolved or {}).get("outcome") or {}
    view = (step.resolved or {}).get("view") or ((step.opened or {}).get("view") or {})
    sides = {p: s.title() for s, p in (view.get("colors") or {}).items()}

    def who(player: Any) -> str:  # "White (ana)"
        return f"{sides[player]} ({player})" if player in sides else str(player)

    def whose(player: Any, letter: Any) -> str:  # "White's pawn"
        return f"{sides.get(player, player)}'s {_PIECES.get(str(letter).upper(), 'piece')}"

    moves = outcome.get("moves") or {}
    for event in outcome.get("events") or []:
        kind, player = event.get("type"), event.get("player")
        if kind == "penalty":
            move = moves.get(player) or {}
            tried = (
                f"played {move.get('from')}→{move.get('to')}, which is illegal "
                f"({event.get('reason')})"
                if move.get("from")
                else "submitted no move"
            )
            game_words.append(
                f"{who(player)} {tried}: a penalty point ({event.get('penalties')} of 2)."
            )
        elif kind == "move":
            away = "; the enemy piece there had moved away, so nothing was captured"
            game_words.append(
                f"{who(player)} moved the {_PIECES.get(str(event.get('piece')).upper(), 'piece')} "
                f"{event.get('from')}→{event.get('to')}{away if event.get('target_moved') else ''}."
            )
        elif kind == "capture":
            game_words.append(
                f"{whose(player, event.get('piece'))} captured "
                f"{whose(event.get('captured_player'), event.get('captured'))} on "
                f"{event.get('square')}."
            )
        elif kind == "collision":
            pieces, sources = event.get("pieces") or {}, event.get("from") or {}
            met = " and ".join(f"{whose(p, pieces[p])} (from {sources.get(p)})" for p in pieces)
            survivor = event.get("survivor")
            end = (
                f"{whose(survivor, pieces.get(survivor))} survives and the other is removed"
                if survivor in pieces
                else "both are removed"
            )
            game_words.append(f"{met} both moved to {event.get('square')}: {end}.")
        elif kind == "swap":
            game_words.append(
                f"The pieces on {_listed(event.get('squares') or [])} were ordered to capture "
                "each other, so they swapped squares."
            )
        elif kind == "promotion":
            game_words.append(
                f"{sides.get(player, player)}'s pawn on {event.get('square')} was promoted to a "
                "knight."
            )
        elif kind == "drop":
            game_words.append(
                f"{sides.get(player, player)}'s pawn reached its last rank with two knights "
                f"already on the board, so it went from {event.get('from')} to its drop square "
                f"{event.get('to')}."
            )
        elif kind == "removed":
            game_words.append(
                f"{whose(player, event.get('piece'))} on {event.get('square')} was removed "
                f"({event.get('reason')})."
            )
    result = outcome.get("result")
    if isinstance(result, dict):
        reason = _RESULT_REASONS.get(result.get("reason"), result.get("reason"))
        if result.get("winner"):
            game_words.append(f"The match is over: {who(result['winner'])} wins ({reason}).")
        else:
            game_words.append(f"The match is over: a draw ({reason}).")


def _picking_nine_account(step: _Step, game_words: list[str]) -> None:
    outcome = (step.resolved or {}).get("outcome") or {}
    if step.resolved is None:
        return
    banned = outcome.get("banned")
    game_words.append(f"{banned} was banned." if banned else "Nothing was banned.")
    for player, card in step.seated(outcome.get("received")):
        game_words.append(f"{player} received {card}.")
    game_words.append(f"The tie-break list is now {_listed(outcome.get('tiebreak') or [])}.")
    for player, pick in step.seated(step.revealed):
        if isinstance(pick, dict):
            game_words.append(
                f"Revealed after the match: {player} wanted {_listed(pick.get('wants') or [])}, "
                f"banned {pick.get('ban') or 'nothing'}, priority {pick.get('priority')}."
            )


def _grid_account(step: _Step, game_words: list[str]) -> None:
    outcome = (step.resolved or {}).get("outcome") or {}
    if "tally" in outcome:
        votes = [f"{c} {n}" for c, n in (outcome.get("tally") or {}).items()]
        game_words.append(
            f"The EC vote: {_listed(votes)}; {outcome.get('ec')} is the Elimination Candidate "
            f"(decided by {outcome.get('decided_by')})."
        )
    elif step.resolved is not None:
        placed, clashes = outcome.get("placed") or [], outcome.get("collisions") or []
        game_words.append(f"{_plural(len(placed), 'tile')} placed: {_listed(placed)}.")
        if clashes:
            game_words.append(f"Chosen by two or more players, so no tile: {_listed(clashes)}.")
        game_words.append(f"Born in the Life step: {_listed(outcome.get('born') or [])}.")
        game_words.append(f"Vanished: {_listed(outcome.get('vanished') or [])}.")
        game_words.append(
            f"{_plural(int(outcome.get('survived') or 0), 'tile')} on the grid after "
            "placement survived."
        )
        scores = [f"{s} {n}" for s, n in (outcome.get("round_scores") or {}).items()]
        game_words.append(f"Round scores by sequence: {_listed(scores)}.")
    for player, pick in step.seated(step.revealed):
        if not isinstance(pick, dict):
            continue
        if "vote" in pick:
            game_words.append(f"Revealed after the match: {player} voted for {pick['vote']}.")
            continue
        extras = []
        if pick.get("reserve"):
            extras.append(f"a reserve tile on {pick['reserve']}")
        if pick.get("flip") is not None:
            extras.append(f"flipped bit {pick['flip']}")
        if pick.get("buy_reserves"):
            extras.append(f"bought {_plural(pick['buy_reserves'], 'reserve tile')}")
        more = f" ({', '.join(extras)})" if extras else ""
        game_words.append(
            f"Revealed after the match: {player} chose {_listed(pick.get('tiles') or [])}{more}."
        )


def _vote_account(step: _Step, game_words: list[str]) -> None:
    for player, pick in step.seated(step.revealed):
        if isinstance(pick, dict) and pick.get("vote") is not None:
            game_words.append(f"{player} voted for {pick['vote']}.")
    outcome = (step.resolved or {}).get("outcome") or {}
    if step.resolved is not None:
        tally = [f"{c} {n}" for c, n in (outcome.get("tally") or {}).items()]
        winners = outcome.get("winners") or []
        game_words.append(f"Tally: {_listed(tally)}.")
        game_words.append(
            f"Winner: {winners[0]}." if len(winners) == 1 else f"Tied: {_listed(winners)}."
        )


def _generic_account(step: _Step, game_words: list[str]) -> None:
    for player, pick in step.seated(step.revealed):
        game_words.append(f"{player}'s pick: {_json(pick, 300)}.")
    if step.resolved is not None:
        for key, value in ((step.resolved.get("outcome")) or {}).items():
            game_words.append(f"{key}: {_json(value, 300)}.")


_ACCOUNTS: dict[str, Callable[[_Step, list[str]], None]] = {
    "six-nimmt": _six_nimmt_account,
    "apocalypse": _apocalypse_account,
    "picking-nine": _picking_nine_account,
    "grid-adaptation": _grid_account,
    "vote": _vote_account,
}


def account(records: Sequence[Record], step: int) -> list[str]:
    """Tell what happened in step ``step`` in plain sentences, from the public records alone.

    The picks revealed, the defaults applied, the decisions made and the outcome the
    rules recorded, in resolution order; for a step still open, what is public so far. The
    sentences are plain text (escape them when rendering, as Jinja does). A step that never
    opened gives ``[]``.

    :raises ValueError: when ``records`` is empty.
    """
    game, _ = _game(records)
    found = _step(records, step)
    if found.opened is None:
        return []
    words = [f"Step {step} ({found.opened.get('kind') or 'step'})."]
    told: list[str] = []
    try:
        opening = _opening(game, found)
        _ACCOUNTS.get(game, _generic_account)(found, told)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        # A record this game's account cannot read (a damaged log): tell it as it is.
        opening, told = [], []
        _generic_account(found, told)
    words += opening
    if found.resolved is None:
        asked = found.opened.get("submitters") or []
        sealed = (
            f"{len(found.revealed)} revealed"
            if found.revealed
            else "they stay sealed until the rules reveal them"
        )
        words.append(
            f"The step is not resolved yet: {len(found.committed)} of {len(asked)} picks "
            f"committed, {sealed}."
        )
    words += [_default_words(game, d) for d in found.defaults]
    words += told
    if game != "six-nimmt":
        for decision in found.decisions:
            words.append(f"{decision.get('player')} decided {_json(decision.get('payload'))}.")
    pending = found.requests[len(found.decisions) :]
    for request in pending:
        words.append(
            f"Waiting for {request.get('player')} to decide ({request.get('kind')}); the default "
            f"is {_json(request.get('default'))}."
        )
    return words
