"""The moves of Apocalypse: a move, its legality and a side's legal moves.

See :mod:`domain.rules.apocalypse` for the rules and the wire format.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.rules.apocalypse.board import (
    KNIGHT,
    KNIGHT_LIMIT,
    PAWN,
    SQUARES,
    Color,
    Square,
    color_of,
    count,
    file_of,
    forward,
    is_square,
    kind_of,
    last_rank,
    offset,
    piece_of,
    rank_of,
)
from domain.rules.base import JSON, IllegalPick, Payload, check_object, describe

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

NO_MOVE: Payload = {"from": None, "to": None}
"""The default pick: a missing move."""

_KNIGHT_JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_MOVE_KEYS = {"from", "to", "drop"}
_MOVE_SHAPE = 'a move is {"from": square, "to": square} with an optional "drop": square'


# --------------------------------------------------------------------------------------
# Moves


@dataclass(frozen=True)
class Move:
    """One side's declared move, as the payload names it.

    >>> Move.from_payload({"from": "b1", "to": "b2"})
    Move(from_square='b1', to_square='b2', drop=None)
    >>> Move("d4", "e5", drop="c3").payload()
    {'from': 'd4', 'to': 'e5', 'drop': 'c3'}
    """

    from_square: Square
    to_square: Square
    drop: Square | None = None

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Move | None:
        """Return the move of a checked payload, or ``None`` for the missing-move marker."""
        if payload.get("from") is None or payload.get("to") is None:
            return None
        return cls(payload["from"], payload["to"], payload.get("drop"))

    def payload(self) -> Payload:
        """Return the wire payload of the move (``drop`` only when named)."""
        out: Payload = {"from": self.from_square, "to": self.to_square}
        if self.drop is not None:
            out["drop"] = self.drop
        return out


def parse_move(payload: JSON) -> Payload:
    """Return a copy of a payload that is a move, with no check of its legality.

    :raises IllegalPick: when the payload is not a move at all.

    >>> parse_move({"from": "b3", "to": "b4"})
    {'from': 'b3', 'to': 'b4'}
    """
    check_object(payload, required=(), optional=_MOVE_KEYS, shape=_MOVE_SHAPE, error=IllegalPick)
    for key in ("from", "to"):
        if key not in payload:
            msg = f'the move has no "{key}" square; {_MOVE_SHAPE}'
            raise IllegalPick(msg)
    for key in ("from", "to", "drop"):
        if key in payload and not is_square(payload[key]):
            msg = (
                f'"{key}" must be a square name a1 to e5 (files a-e, ranks 1-5), '
                f"not {describe(payload[key])}"
            )
            raise IllegalPick(msg)
    return {key: payload[key] for key in ("from", "to", "drop") if key in payload}


def knight_destinations(square: Square) -> list[Square]:
    """Return the squares a knight on ``square`` jumps to (one way one, the other two).

    >>> knight_destinations("a1")
    ['c2', 'b3']
    """
    found = (offset(square, df, dr) for df, dr in _KNIGHT_JUMPS)
    return sorted((s for s in found if s is not None), key=SQUARES.index)


def pawn_destinations(square: Square, color: Color) -> list[Square]:
    """Return the squares a pawn may aim at: one forward, then the forward diagonals.

    >>> from domain.rules.apocalypse.board import BLACK, WHITE
    >>> pawn_destinations("a2", WHITE), pawn_destinations("c5", BLACK)
    (['a3', 'b3'], ['c4', 'b4', 'd4'])
    """
    step = forward(color)
    found = (offset(square, 0, step), offset(square, -1, step), offset(square, 1, step))
    return [s for s in found if s is not None]


def needs_drop(board: Mapping[Square, str], color: Color, move: Move) -> bool:
    """Return whether a pawn move reaches its last rank while its owner has two knights.

    Judged on the position at the start of the turn (RULINGS), like all legality.
    """
    piece = board.get(move.from_square)
    return (
        piece == piece_of(color, PAWN)
        and rank_of(move.to_square) == last_rank(color)
        and count(board, color, KNIGHT) >= KNIGHT_LIMIT
    )


def illegal_reason(board: Mapping[Square, str], color: Color, move: Move | None) -> str | None:
    """Return why a move is illegal on the start-of-turn board, or ``None`` if it is legal.

    >>> from domain.rules.apocalypse.board import START_BOARD, WHITE, parse_board
    >>> board = parse_board(START_BOARD)
    >>> illegal_reason(board, WHITE, Move("b1", "b2")) is None
    True
    >>> illegal_reason(board, WHITE, Move("b3", "b4"))
    'no piece of yours on b3'
    """
    if move is None:
        return "no move was submitted"
    start, to = move.from_square, move.to_square
    piece = board.get(start)
    if piece is None or color_of(piece) != color:
        return f"no piece of yours on {start}"
    if to == start:
        return f"a move must leave its square; {start} to {to} is no move"
    target = board.get(to)
    if target is not None and color_of(target) == color:
        return f"{to} holds your own piece"
    if kind_of(piece) == KNIGHT:
        if to not in knight_destinations(start):
            return (
                "a knight moves two squares one way and one square the other; "
                f"{start} to {to} is not such a jump"
            )
        return None
    if to not in pawn_destinations(start, color):
        return (
            f"a pawn moves one square forward, towards rank {last_rank(color)}; "
            f"{start} to {to} is not such a step"
        )
    if file_of(to) == file_of(start) and target is not None:
        return f"a pawn moves straight only onto an empty square; {to} is occupied"
    if file_of(to) != file_of(start) and target is None:
        return f"a pawn moves diagonally only to capture; {to} holds no enemy piece"
    if needs_drop(board, color, move):
        return drop_reason(board, color, move.drop)
    return None


def drop_reason(board: Mapping[Square, str], color: Color, drop: Square | None) -> str | None:
    """Return why a needed drop square is not allowed, or ``None`` if it is (rule 6)."""
    last = last_rank(color)
    if drop is None:
        return (
            "promotion needs a drop square: you already have two knights, so name an "
            f"empty square off rank {last} as drop"
        )
    if rank_of(drop) == last:
        return f"the drop square {drop} is on the pawn's last rank {last}"
    if drop in board:
        return f"the drop square {drop} is not empty"
    return None


def moves_of(board: Mapping[Square, str], color: Color) -> Iterator[Move]:
    """Yield a side's legal moves on a start-of-turn board, lazily, in square order.

    A pawn move that needs a drop is yielded once per allowed drop square.
    """
    for square in SQUARES:
        piece = board.get(square)
        if piece is None or color_of(piece) != color:
            continue
        if kind_of(piece) == KNIGHT:
            targets = knight_destinations(square)
        else:
            targets = pawn_destinations(square, color)
        for to in targets:
            move = Move(square, to)
            if illegal_reason(board, color, move) is None:
                yield move
            elif needs_drop(board, color, move):
                for drop in SQUARES:
                    with_drop = Move(square, to, drop)
                    if illegal_reason(board, color, with_drop) is None:
                        yield with_drop


def has_legal_move(board: Mapping[Square, str], color: Color) -> bool:
    """Return whether a side has at least one legal move."""
    return next(moves_of(board, color), None) is not None
