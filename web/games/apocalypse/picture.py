"""The Apocalypse picture: the board turned a quarter turn, so White moves left."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from web import svg
from web.games import record
from web.games.apocalypse.account import RESULT_REASONS

if TYPE_CHECKING:
    from markupsafe import Markup

    from web.games.record import Moment

SQUARE = 64
_FILES, _RANKS = "abcde", "12345"
_SIDE_COLOUR = {"white": "#e07b00", "black": "#1f5fbf"}


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
    return svg.group(
        svg.el("title", f"{side} {kind} on {square}"),
        svg.el(
            "path",
            d=_KNIGHT if knight else _PAWN,
            fill="#fbfbf6" if white else "#2b2b2b",
            stroke="#2b2b2b" if white else "#d9d9d9",
            stroke_width=1.4,
            transform=f"translate({svg.number(cx)} {svg.number(cy)}) scale(1.25){flip}",
        ),
        svg.el(
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


_SQUARES = {f + r for f in _FILES for r in _RANKS}


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
    body.append(
        svg.text(x0, y0 - 14, "◀ White moves", size=13, fill=_SIDE_COLOUR["white"], bold=True)
    )
    body.append(
        svg.text(
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
    moves: dict[Any, Any] = {}
    step = m.open_step
    reveals = record.revealed(step) if step is not None else {}
    pending = step is not None and bool(reveals)
    if pending:
        moves = {p: dict(v, legal=None) for p, v in reveals.items() if isinstance(v, dict)}
    elif step is None and m.resolved is not None:
        outcome = m.outcome
        moves = outcome.get("moves") or {}
        for event in outcome.get("events") or []:
            square = event.get("square")
            if event.get("type") in ("capture", "collision", "removed") and square in _SQUARES:
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
    drawn = {
        side: move
        for side in ("white", "black")
        if (move := moves.get(colours.get(side)) or {}).get("from") in _SQUARES
        and move.get("to") in _SQUARES
    }
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
            svg.el(
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
            svg.group(
                svg.rect(px - 10, y - 22, 270, 112, rx=8, fill="#ffffff", stroke="#d8d2c4"),
                svg.text(
                    px,
                    y,
                    f"{side.title()} ({direction})",
                    size=13,
                    fill=_SIDE_COLOUR[side],
                    bold=True,
                ),
                svg.text(px, y + 22, svg.short(player or "?", 26), size=16, bold=True),
                svg.text(px, y + 50, "penalties", size=13, fill=svg.MUTED),
                *dots,
                svg.text(
                    px,
                    y + 70,
                    f"{pawns} pawn{'s' * (pawns != 1)}, {knights} knight{'s' * (knights != 1)}",
                    size=13,
                ),
                svg.text(
                    px,
                    y + 84,
                    svg.short(last, 40),
                    size=12,
                    fill="#c0392b" if move.get("legal") is False else svg.MUTED,
                ),
                svg.el("title", str(player)),
                class_=f"side {side}",
                data_player=player,
            )
        )
    result = view.get("result")
    if isinstance(result, dict):
        winner = result.get("winner")
        reason = RESULT_REASONS.get(result.get("reason"), str(result.get("reason")))
        body.append(
            svg.text(
                px,
                y0 + 268,
                f"{svg.short(winner, 20)} wins" if winner else "Draw",
                size=18,
                bold=True,
                fill="#7a2a3a",
            )
        )
        body.append(svg.text(px, y0 + 288, reason, size=13, fill="#7a2a3a"))
    elif pending:
        body.append(
            svg.text(px, y0 + 268, "moves revealed, not yet resolved", size=13, fill=svg.MUTED)
        )
    head = f"Apocalypse · turn {view.get('turn', 0)}"
    if view.get("finished"):
        head += " · finished"
    return head, y0 + 5 * SQUARE + 40, body
