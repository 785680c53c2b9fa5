"""The Apocalypse board from a player's seat: your pieces nearest you, every square tappable.

The public picture turns the board so White moves left, as the seed draws it. In the dealer
room a player sees the board as across a table: White's from White's seat (rank 1 at the
bottom, file a on the left), Black's turned half a turn (rank 5 at the bottom, file e on the
left), so each player's own pieces start nearest them and move up the board. The opponent's
bar is above the board and the player's own below it. Every square is a rectangle
``data-hit="square a1"`` .. ``"square e5"``: the room lays a button named so over each.
The board is 600 units wide in a 680-unit picture, so a phone 390 px wide (where the room
shows the picture about 290 px wide) still shows each square at least 44 px wide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from web import svg
from web.games.apocalypse.account import RESULT_REASONS
from web.games.apocalypse.picture import (
    SIDE_COLOUR,
    arrow,
    drawn_moves,
    heading,
    piece_glyph,
    read_board,
    turn_moves,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

    from markupsafe import Markup

    from web.games.record import Moment

SQUARE = 120
X0, Y0 = 60, 148
BAR = 78
BOARD = 5 * SQUARE
_FILES = "abcde"
_LIGHT, _DARK = "#f0d9b5", "#b58863"
_RED = "#c0392b"


def side_of(view: Mapping[str, Any], player: str) -> str:
    """The side ``player`` plays (``white`` or ``black``); White for someone not playing."""
    colours = view.get("colors") or {}
    return "black" if colours.get("black") == player else "white"


def square_xy(square: str, side: str) -> tuple[float, float]:
    """The centre of ``square`` seen from ``side``'s seat."""
    file, rank = _FILES.index(square[0]), int(square[1])
    column, row = (file, 5 - rank) if side == "white" else (4 - file, rank - 1)
    return X0 + column * SQUARE + SQUARE / 2, Y0 + row * SQUARE + SQUARE / 2


def _piece(square: str, piece: str, side: str) -> Markup:
    """A piece on its square, drawn larger than on the public board."""
    colour = "white" if piece.isupper() else "black"
    return piece_glyph(
        square,
        piece,
        square_xy(square, side),
        scale=2.4,
        stroke_width=1.2,
        eye=(-10, -22, 3.5),
        extra_class=" yours" if colour == side else "",
    )


def _board(side: str) -> list[Markup]:
    """The squares (each a hit region) and their coordinates."""
    body: list[Markup] = [
        svg.rect(X0 - 8, Y0 - 8, BOARD + 16, BOARD + 16, rx=8, fill="#6b4a2f"),
    ]
    for file in _FILES:
        for rank in range(1, 6):
            square = f"{file}{rank}"
            cx, cy = square_xy(square, side)
            light = (_FILES.index(file) + rank) % 2 == 1
            body.append(
                svg.rect(
                    cx - SQUARE / 2,
                    cy - SQUARE / 2,
                    SQUARE,
                    SQUARE,
                    fill=_LIGHT if light else _DARK,
                    class_="square",
                    data_square=square,
                    data_hit=f"square {square}",
                )
            )
    for i in range(5):  # files below the board, ranks to its left
        file = _FILES[i] if side == "white" else _FILES[4 - i]
        rank = 5 - i if side == "white" else i + 1
        body.append(
            svg.text(
                X0 + i * SQUARE + SQUARE / 2,
                Y0 + BOARD + 32,
                file,
                anchor="middle",
                size=24,
                fill=svg.MUTED,
            )
        )
        body.append(
            svg.text(
                X0 - 32,
                Y0 + i * SQUARE + SQUARE / 2 + 8,
                rank,
                anchor="middle",
                size=24,
                fill=svg.MUTED,
            )
        )
    return body


def _moves(
    m: Moment, side: str, colours: Mapping[str, Any]
) -> tuple[list[Markup], list[Markup], dict[Any, Any], bool]:
    """The turn's moves: tinted squares (under the pieces), arrows and rings (over them).

    Also the moves themselves and whether they are revealed but not yet resolved.
    """
    moves, pending, struck = turn_moves(m)
    drawn = drawn_moves(moves, colours)
    under: list[Markup] = []
    over: list[Markup] = []
    for move in drawn.values():
        for end in (move["from"], move["to"]):
            cx, cy = square_xy(end, side)
            under.append(
                svg.rect(
                    cx - SQUARE / 2,
                    cy - SQUARE / 2,
                    SQUARE,
                    SQUARE,
                    fill="#f7d44c",
                    opacity=0.45,
                    class_="last-move",
                    data_square=end,
                )
            )
    for square in struck:
        cx, cy = square_xy(square, side)
        over.append(
            svg.el(
                "circle",
                cx=cx,
                cy=cy,
                r=52,
                fill="none",
                stroke=_RED,
                stroke_width=5,
                class_="capture",
            )
        )
    for mover, move in drawn.items():
        illegal = move.get("legal") is False
        over.append(
            svg.group(
                svg.el(
                    "title",
                    f"{mover}: {move['from']}→{move['to']}"
                    + (f" (illegal: {move.get('reason')})" if illegal else ""),
                ),
                arrow(
                    square_xy(move["from"], side),
                    square_xy(move["to"], side),
                    _RED if illegal else SIDE_COLOUR[mover],
                    stroke_dasharray="10 7" if pending or illegal else None,
                ),
                class_=f"move {mover}",
                data_from=move["from"],
                data_to=move["to"],
            )
        )
    return under, over, moves, pending


def _last_words(move: Mapping[str, Any], *, pending: bool) -> str:
    """The side's move of the turn shown, in a few words."""
    if not move:
        return ""
    if move.get("from") is None:
        return "no move: a penalty point"
    if move.get("legal") is False:
        return f"illegal {move.get('from')}→{move.get('to')}: a penalty point"
    return f"{'revealed' if pending else 'last move'} {move.get('from')}→{move.get('to')}"


def _bar(
    y: float,
    colour: str,
    player: Any,
    *,
    you: bool,
    board: Mapping[str, str],
    penalties: int,
    last: str,
) -> Markup:
    """One side's bar: who, which colour, penalty points, pieces and its last move."""
    pieces = [p for p in board.values() if p.isupper() == (colour == "white")]
    pawns = sum(1 for p in pieces if p.upper() == "P")
    knights = len(pieces) - pawns
    who = f"You ({svg.short(player, 18)})" if you else svg.short(player or "?", 24)
    dots = [
        svg.el(
            "circle",
            cx=float(566 + k * 30),
            cy=y + 25,
            r=10,
            fill=_RED if k < penalties else "none",
            stroke=_RED,
            stroke_width=2,
        )
        for k in range(2)
    ]
    return svg.group(
        svg.rect(20, y, 640, BAR, rx=8, fill="#ffffff", stroke="#d8d2c4"),
        svg.rect(20, y, 10, BAR, rx=4, fill=SIDE_COLOUR[colour]),
        svg.text(44, y + 32, f"{who} · {colour.title()}", size=27, bold=True),
        svg.text(536, y + 32, "penalty points", size=20, fill=svg.MUTED, anchor="end"),
        *dots,
        svg.text(
            44,
            y + 64,
            f"{pawns} pawn{'s' * (pawns != 1)}, {knights} knight{'s' * (knights != 1)}"
            + (f" · {last}" if last else ""),
            size=21,
            fill=_RED if "penalty" in last else svg.MUTED,
        ),
        svg.el("title", f"{player}: {colour}, {penalties} of 2 penalty points"),
        class_=f"side {colour}{' yours' if you else ''}",
        data_player=player,
    )


def draw_seat(m: Moment, player: str) -> tuple[str, int, list[Markup]]:
    """The board seen from ``player``'s seat, with the opponent above and the player below."""
    view = m.view
    side = side_of(view, player)
    enemy = "black" if side == "white" else "white"
    colours = {"white": None, "black": None, **(view.get("colors") or {})}
    board = read_board(view.get("board") or "")
    penalties = view.get("penalties") or {}
    under, over, moves, pending = _moves(m, side, colours)
    body = _board(side)
    body.extend(under)
    body.extend(_piece(square, piece, side) for square, piece in sorted(board.items()))
    body.extend(over)
    for colour, y, you in ((enemy, 58, False), (side, Y0 + BOARD + 44, True)):
        who = colours.get(colour)
        move = (moves.get(who) or {}) if who is not None else {}
        body.append(
            _bar(
                y,
                colour,
                who,
                you=you,
                board=board,
                penalties=int(penalties.get(who, 0)) if who is not None else 0,
                last=_last_words(move, pending=pending),
            )
        )
    head = f"{heading(m)} · you play {side.title()}"
    result = view.get("result")
    if isinstance(result, dict):
        winner = result.get("winner")
        reason = RESULT_REASONS.get(result.get("reason"), str(result.get("reason")))
        verdict = "draw" if not winner else ("you win" if winner == player else "you lose")
        head = f"Apocalypse · finished: {verdict} ({reason})"
    return head, Y0 + BOARD + 44 + BAR + 8, body
