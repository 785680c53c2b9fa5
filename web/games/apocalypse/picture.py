"""The Apocalypse picture: the board turned a quarter turn, so White moves left.

Each side is drawn in its player's colour (``svg.colours``, the colour of their line on the
score chart): the arrows of its moves, the marker of the way it moves and its card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from web import svg
from web.games import record
from web.games.apocalypse.account import RESULT_REASONS

if TYPE_CHECKING:
    from collections.abc import Mapping

    from markupsafe import Markup

    from web.games.record import Moment

SQUARE = 64
_FILES, _RANKS = "abcde", "12345"
# The rules seat White first and Black second, so each side's colour is its seat's colour;
# a picture takes it from the player's colour (``Moment.colours``) and falls back on this.
SIDE_COLOUR = {"white": svg.PLAYER_COLOURS[0], "black": svg.PLAYER_COLOURS[1]}
CARD_W = 270  # a side's card beside the board
TEXT_W = CARD_W - 24  # its lines' room: the colour stripe and the margins off
_RED = "#c0392b"


def read_board(text: str) -> dict[str, str]:
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
    return svg.rect(cx - SQUARE / 2, cy - SQUARE / 2, SQUARE, SQUARE, data_square=square, **attrs)


PAWN_PATH = "M-9 14 L9 14 L9 10 L5 7 L4 -2 A7 7 0 1 0 -4 -2 L-5 7 L-9 10 Z"
KNIGHT_PATH = (
    "M-11 15 L11 15 L11 11 L8 9 C9 1 8 -8 1 -14 L-1 -18 L-3 -12 C-9 -10 -13 -4 -14 1 "
    "L-9 4 L-4 0 C-3 3 -6 6 -8 9 L-11 11 Z"
)


def piece_glyph(
    square: str,
    piece: str,
    centre: tuple[float, float],
    *,
    scale: float,
    stroke_width: float,
    eye: tuple[float, float, float],
    flip: bool = False,
    extra_class: str = "",
) -> Markup:
    """A piece (``N``/``P`` White, ``n``/``p`` Black) drawn at ``centre``.

    ``eye`` is the knight's eye, (dx, dy, r) from the centre with White's dx (Black's is
    mirrored when the knight is ``flip``-ped to face the other way).
    """
    cx, cy = centre
    white = piece.isupper()
    knight = piece.upper() == "N"
    turned = flip and not white and knight
    side, kind = ("white" if white else "black"), ("knight" if knight else "pawn")
    dx, dy, r = eye
    return svg.group(
        svg.el("title", f"{side} {kind} on {square}"),
        svg.el(
            "path",
            d=KNIGHT_PATH if knight else PAWN_PATH,
            fill="#fbfbf6" if white else "#2b2b2b",
            stroke="#2b2b2b" if white else "#d9d9d9",
            stroke_width=stroke_width,
            transform=(
                f"translate({svg.number(cx)} {svg.number(cy)}) scale({scale:g})"
                + (" scale(-1 1)" if turned else "")
            ),
        ),
        svg.el(
            "circle",
            cx=cx - dx if turned else cx + dx,
            cy=cy + dy,
            r=r,
            fill="#2b2b2b" if white else "#d9d9d9",
        )
        if knight
        else None,
        class_=f"piece {side} {kind}{extra_class}",
        data_square=square,
    )


def _piece(square: str, piece: str, x0: float, y0: float) -> Markup:
    # The knight faces the way its side moves: White's left, Black's right.
    return piece_glyph(
        square,
        piece,
        _square_xy(square, x0, y0),
        scale=1.25,
        stroke_width=1.4,
        eye=(-4, -9, 1.7),
        flip=True,
    )


def arrow(a: tuple[float, float], b: tuple[float, float], colour: str, **attrs: Any) -> Markup:
    """A straight arrow from ``a`` to ``b`` with a drawn head (no marker ids needed)."""
    (x1, y1), (x2, y2) = a, b
    length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    x2, y2 = x2 - ux * 8, y2 - uy * 8  # stop short of the centre, so the piece shows
    bx, by = x2 - ux * 15, y2 - uy * 15  # the base of the head
    head = [(x2, y2), (bx - uy * 8, by + ux * 8), (bx + uy * 8, by - ux * 8)]
    return svg.group(
        svg.el(
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
        svg.el(
            "polygon",
            points=" ".join(f"{svg.number(x)},{svg.number(y)}" for x, y in head),
            fill=colour,
        ),
        opacity=0.75,
    )


SQUARES = {f + r for f in _FILES for r in _RANKS}


def turn_moves(m: Moment) -> tuple[dict[Any, Any], bool, list[str]]:
    """The moves to draw, whether they are revealed but not resolved, and the struck squares.

    While a turn's moves are revealed and not yet resolved, those moves (``legal`` unknown);
    between turns, the moves of the turn resolved last and the squares where it captured,
    collided or removed a piece.
    """
    step = m.open_step
    reveals = record.revealed(step) if step is not None else {}
    if step is not None and reveals:
        return {p: dict(v, legal=None) for p, v in reveals.items() if isinstance(v, dict)}, True, []
    if step is None and m.resolved is not None:
        outcome = m.outcome
        struck = [
            square
            for event in outcome.get("events") or []
            if event.get("type") in ("capture", "collision", "removed")
            and (square := event.get("square")) in SQUARES
        ]
        return dict(outcome.get("moves") or {}), False, struck
    return {}, False, []


def drawn_moves(moves: Mapping[Any, Any], colours: Mapping[str, Any]) -> dict[str, Any]:
    """Each side's move that names two squares, by side (``white``, ``black``)."""
    return {
        side: move
        for side in ("white", "black")
        if (move := moves.get(colours.get(side)) or {}).get("from") in SQUARES
        and move.get("to") in SQUARES
    }


def draw(m: Moment) -> tuple[str, int, list[Markup]]:
    """Draw the board, the turn's moves as arrows, and each side's penalties and material."""
    view = m.view
    x0, y0 = 44, 78
    board = read_board(view.get("board") or "")
    colours = {"white": None, "black": None, **(view.get("colors") or {})}
    body: list[Markup] = [
        svg.rect(x0 - 6, y0 - 6, 5 * SQUARE + 12, 5 * SQUARE + 12, rx=6, fill="#6b4a2f")
    ]
    for f in range(5):
        for r in range(1, 6):
            square, light = f"{_FILES[f]}{r}", (f + r) % 2 == 1
            body.append(
                _on_square(square, x0, y0, fill="#f0d9b5" if light else "#b58863", class_="square")
            )
    for i in range(5):  # ranks along the bottom, files down the left
        body.append(
            svg.text(
                x0 + i * SQUARE + SQUARE / 2,
                y0 + 5 * SQUARE + 22,
                5 - i,
                anchor="middle",
                size=13,
                fill=svg.MUTED,
            )
        )
        body.append(
            svg.text(
                x0 - 16,
                y0 + i * SQUARE + SQUARE / 2 + 5,
                _FILES[4 - i],
                anchor="middle",
                size=13,
                fill=svg.MUTED,
            )
        )
    tint = {side: _tint(m, colours.get(side), side) for side in ("white", "black")}
    body.append(_marker(x0, y0 - 14, "white", colours.get("white"), tint["white"]))
    body.append(_marker(x0 + 5 * SQUARE, y0 - 14, "black", colours.get("black"), tint["black"]))

    # The turn's moves: revealed and pending, or those of the last turn resolved.
    moves, pending, struck = turn_moves(m)
    for square in struck:
        cx, cy = _square_xy(square, x0, y0)
        body.append(
            svg.el(
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
    drawn = drawn_moves(moves, colours)
    body.extend(  # tint the squares a move left and reached
        _on_square(end, x0, y0, fill="#f7d44c", opacity=0.45, class_="last-move")
        for move in drawn.values()
        for end in (move["from"], move["to"])
    )
    body.extend(_piece(square, piece, x0, y0) for square, piece in sorted(board.items()))
    for side, move in drawn.items():
        illegal = move.get("legal") is False
        body.append(
            svg.group(
                svg.el(
                    "title",
                    f"{side}: {move['from']}→{move['to']}"
                    + (f" (illegal: {move.get('reason')})" if illegal else ""),
                ),
                arrow(
                    _square_xy(move["from"], x0, y0),
                    _square_xy(move["to"], x0, y0),
                    _RED if illegal else tint[side],
                    stroke_dasharray="10 7" if pending or illegal else None,
                    class_=None if illegal else "swatch",
                    data_player=None if illegal else colours.get(side),
                ),
                class_=f"move {side}",
                data_from=move["from"],
                data_to=move["to"],
            )
        )

    # The players: colours, penalties, material, last move and the result.
    px = x0 + 5 * SQUARE + 36
    penalties = view.get("penalties") or {}
    y = y0 - 12  # the top of the first card
    for side in ("white", "black"):
        player = colours.get(side)
        count = int(penalties.get(player, 0)) if player is not None else 0
        card = _Card(side, player, tint[side], count, moves.get(player) or {}, pending=pending)
        body.append(card.draw(px, y, board))
        y += card.height + 10
    y += 26  # under the cards
    result = view.get("result")
    if isinstance(result, dict):
        winner = result.get("winner")
        reason = RESULT_REASONS.get(result.get("reason"), str(result.get("reason")))
        room = CARD_W - 10 - svg.text_width(" wins", 18, bold=True)
        shown = f"{svg.fit(winner, room, 18, bold=True)} wins" if winner else "Draw"
        body.append(svg.text(px, y, shown, size=18, bold=True, fill="#7a2a3a", class_="result"))
        body.extend(
            svg.text(px, y + 20 + k * 17, line, size=13, fill="#7a2a3a")
            for k, line in enumerate(svg.wrap(reason, CARD_W - 10, 13))
        )
    elif pending:
        body.append(svg.text(px, y, "moves revealed, not yet resolved", size=13, fill=svg.MUTED))
    return heading(m), y0 + 5 * SQUARE + 40, body


def heading(m: Moment) -> str:
    """Which turn the picture shows: the one under way, or the last one played."""
    view = m.view
    played = int(view.get("turn") or 0)
    if view.get("finished"):
        return f"Apocalypse · finished after {played} turn{'s' * (played != 1)}"
    if m.open_step is not None:
        return f"Apocalypse · turn {played + 1} under way"
    if not played:
        return "Apocalypse · before the first turn"
    return f"Apocalypse · after turn {played}"


def _tint(m: Moment, player: Any, side: str) -> str:
    """The colour a side is drawn in: its player's colour."""
    return m.colours.get(player, SIDE_COLOUR[side]) if player is not None else SIDE_COLOUR[side]


def _marker(x: float, y: float, side: str, player: Any, tint: str) -> Markup:
    """The way a side moves, above the board: "◀ White moves", "Black moves ▶"."""
    white = side == "white"
    glyph = svg.text(
        x if white else x - 14,
        y,
        "◀" if white else "▶",
        size=14,
        fill=tint,
        class_="swatch",
        data_player=player,
    )
    words = svg.text(
        x + 18 if white else x - 18,
        y,
        "White moves" if white else "Black moves",
        size=13,
        bold=True,
        anchor=None if white else "end",
    )
    return svg.group(glyph, words, class_=f"marker {side}")


class _Card:
    """One side's card beside the board: its colour, player, penalties, pieces and last move.

    Every line is laid out inside the card (cut or wrapped to its width), and the card is as
    tall as its lines: :attr:`height`.
    """

    def __init__(
        self,
        side: str,
        player: Any,
        tint: str,
        penalties: int,
        move: Mapping[str, Any],
        *,
        pending: bool,
    ) -> None:
        self.side, self.player, self.tint, self.penalties = side, player, tint, penalties
        self.move, self.pending = move, pending
        self.last, why = self._last()
        self.why = svg.wrap(why, TEXT_W, 13) if why else []
        self.height = 100 + 18 * len(self.why)

    def _last(self) -> tuple[str, str]:
        """The side's move of the turn shown, and why it was illegal (``""`` when it was not)."""
        move = self.move
        if not move:
            return "", ""
        if move.get("from") is None:
            return "no move submitted: penalty point", ""
        shown = f"{move.get('from')}→{move.get('to')}"
        if move.get("legal") is False:
            return f"illegal {shown}: penalty point", str(move.get("reason") or "")
        return f"{'revealed' if self.pending else 'moved'} {shown}", ""

    def draw(self, px: float, top: float, board: Mapping[str, str]) -> Markup:
        """The card, its top at ``top``, its text from ``px``."""
        side, y = self.side, top + 22  # the first line's baseline
        pieces = [p for p in board.values() if p.isupper() == (side == "white")]
        pawns = sum(1 for p in pieces if p.upper() == "P")
        knights = len(pieces) - pawns
        warn = _RED if "penalty" in self.last else svg.MUTED
        dots = [
            svg.el(
                "circle",
                cx=float(px + 222 + k * 16),
                cy=float(y + 40),
                r=6,
                fill=_RED if k < self.penalties else "none",
                stroke=_RED,
                stroke_width=1.5,
            )
            for k in range(2)
        ]
        direction = "moves left" if side == "white" else "moves right"
        return svg.group(
            svg.rect(px - 10, top, CARD_W, self.height, rx=8, fill=svg.WHITE, stroke="#d8d2c4"),
            svg.rect(
                px - 10,
                top,
                8,
                self.height,
                rx=4,
                fill=self.tint,
                class_="swatch",
                data_player=self.player,
            ),
            svg.text(px + 4, y, f"{side.title()} · {direction}", size=13, bold=True),
            svg.text(
                px + 4,
                y + 22,
                svg.fit(self.player or "?", TEXT_W, 16, bold=True),
                size=16,
                bold=True,
            ),
            svg.text(
                px + 4,
                y + 45,
                f"{pawns} pawn{'s' * (pawns != 1)}, {knights} knight{'s' * (knights != 1)}",
                size=13,
            ),
            svg.text(px + 206, y + 45, "penalties", size=13, fill=svg.MUTED, anchor="end"),
            *dots,
            svg.text(px + 4, y + 67, svg.fit(self.last, TEXT_W, 13), size=13, fill=warn),
            *(
                svg.text(px + 4, y + 85 + k * 18, line, size=13, fill=warn)
                for k, line in enumerate(self.why)
            ),
            svg.el("title", str(self.player)),
            class_=f"side {side}",
            data_player=self.player,
        )
