"""The resolution of an Apocalypse turn: rules 1-5, promotion (rule 6), penalties, the end.

See :mod:`domain.rules.apocalypse` for the rules and the wire format.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.rules.apocalypse.board import (
    BLACK,
    COLORS,
    FORFEIT_PENALTIES,
    KNIGHT,
    KNIGHT_LIMIT,
    PAWN,
    SQUARES,
    WHITE,
    Board,
    Color,
    Square,
    count,
    kind_of,
    last_rank,
    other,
    piece_of,
    rank_of,
)
from domain.rules.apocalypse.moves import Move, has_legal_move

if TYPE_CHECKING:
    from collections.abc import Mapping


# --------------------------------------------------------------------------------------
# Resolution: rules 1-5 on destination squares, then rule 6, then rules 7-8


def execute(
    board: Board, before: Mapping[Square, str], move: Move, player: str
) -> list[dict[str, Any]]:
    """Rule 1: land a moving piece that meets no conflict on a free square."""
    piece = before[move.from_square]
    board[move.to_square] = piece
    return [_move_event(player, piece, move, target_moved=False)]


def same_destination(
    board: Board,
    before: Mapping[Square, str],
    moves: Mapping[Color, Move],
    players: Mapping[Color, str],
) -> list[dict[str, Any]]:
    """Rule 2: two pieces landing on one square; same kind → both removed, knight beats pawn.

    Both moving pieces have already left their squares on ``board``.
    """
    square = moves[WHITE].to_square
    pieces = {color: before[moves[color].from_square] for color in COLORS}
    kinds = {color: kind_of(pieces[color]) for color in COLORS}
    if kinds[WHITE] == kinds[BLACK]:
        survivor: Color | None = None
    else:
        survivor = WHITE if kinds[WHITE] == KNIGHT else BLACK
        board[square] = pieces[survivor]
    return [
        {
            "type": "collision",
            "square": square,
            "pieces": {players[c]: pieces[c] for c in COLORS},
            "from": {players[c]: moves[c].from_square for c in COLORS},
            "removed": [players[c] for c in COLORS if c != survivor],
            "survivor": None if survivor is None else players[survivor],
        }
    ]


def land(
    board: Board,
    before: Mapping[Square, str],
    color: Color,
    move: Move,
    moves: Mapping[Color, Move],
    players: Mapping[Color, str],
) -> list[dict[str, Any]]:
    """Rules 3 and 4: land on a destination, capturing an enemy piece only if it stayed.

    An enemy piece that received a movement order has left, so the move is executed
    without capture; for a pawn's declared diagonal capture this is rule 4 (the capture
    becomes a diagonal step).
    """
    target = before.get(move.to_square)
    if target is None:
        return execute(board, before, move, players[color])
    enemy_move = moves.get(other(color))
    piece = before[move.from_square]
    board[move.to_square] = piece
    if enemy_move is not None and enemy_move.from_square == move.to_square:
        return [_move_event(players[color], piece, move, target_moved=True)]
    return [
        _move_event(players[color], piece, move, target_moved=False),
        {
            "type": "capture",
            "player": players[color],
            "piece": piece,
            "square": move.to_square,
            "captured": target,
            "captured_player": players[other(color)],
        },
    ]


def exchange(
    board: Board,
    before: Mapping[Square, str],
    moves: Mapping[Color, Move],
    players: Mapping[Color, str],
) -> list[dict[str, Any]]:
    """Rule 5: two pieces ordered to capture one another exchange their squares."""
    pieces = {color: before[moves[color].from_square] for color in COLORS}
    for color in COLORS:
        board[moves[color].to_square] = pieces[color]
    return [
        {
            "type": "swap",
            "squares": [moves[WHITE].from_square, moves[BLACK].from_square],
            "pieces": {players[c]: pieces[c] for c in COLORS},
        }
    ]


def resolve_moves(
    before: Mapping[Square, str], moves: Mapping[Color, Move], players: Mapping[Color, str]
) -> tuple[Board, list[dict[str, Any]]]:
    """Resolve the legal moves of a turn (zero, one or two) by rules 1-5.

    Returns the board after the moves (before any promotion) and the events.
    """
    board: Board = dict(before)
    for move in moves.values():
        del board[move.from_square]
    events: list[dict[str, Any]] = []
    if len(moves) == len(COLORS) and moves[WHITE].to_square == moves[BLACK].to_square:
        events += same_destination(board, before, moves, players)
    elif len(moves) == len(COLORS) and _mutual(moves[WHITE], moves[BLACK]):
        events += exchange(board, before, moves, players)
    else:
        for color in COLORS:
            if color in moves:
                events += land(board, before, color, moves[color], moves, players)
    return _sorted(board), events


def promote(
    board: Mapping[Square, str], moves: Mapping[Color, Move], players: Mapping[Color, str]
) -> tuple[Board, list[dict[str, Any]]]:
    """Rule 6: promote each surviving pawn that reached its last rank.

    Fewer than two knights on the board after the moves → the pawn becomes a knight on
    its square; otherwise it goes to its drop square, unless that square is not empty
    after the moves or the other side's pawn drops there too, when the pawn is removed.
    """
    after: Board = dict(board)
    events: list[dict[str, Any]] = []
    drops: dict[Color, Square] = {}
    promoting = [
        color
        for color in COLORS
        if color in moves
        and board.get(moves[color].to_square) == piece_of(color, PAWN)
        and rank_of(moves[color].to_square) == last_rank(color)
    ]
    for color in promoting:
        square = moves[color].to_square
        if count(board, color, KNIGHT) < KNIGHT_LIMIT:
            after[square] = piece_of(color, KNIGHT)
            events.append(
                {
                    "type": "promotion",
                    "player": players[color],
                    "square": square,
                    "piece": piece_of(color, KNIGHT),
                }
            )
        else:
            drop = moves[color].drop
            # A legal move needing a drop names one; knights never grow during the moves.
            assert drop is not None  # noqa: S101 - legality checked it
            drops[color] = drop
    for color, drop in drops.items():
        square = moves[color].to_square
        pawn = piece_of(color, PAWN)
        del after[square]
        contested = drops.get(other(color)) == drop
        if drop in board or contested:
            events.append(
                {
                    "type": "removed",
                    "player": players[color],
                    "square": square,
                    "piece": pawn,
                    "reason": (
                        f"both pawns were dropped on {drop}"
                        if contested
                        else f"the drop square {drop} was taken during the moves"
                    ),
                }
            )
        else:
            after[drop] = pawn
            events.append({"type": "drop", "player": players[color], "from": square, "to": drop})
    return _sorted(after), events


def penalise(penalties: dict[str, int], player: str, reason: str) -> dict[str, Any]:
    """Rules 7 and 8: an illegal or missing move earns one penalty point."""
    penalties[player] += 1
    return {
        "type": "penalty",
        "player": player,
        "reason": reason,
        "penalties": penalties[player],
    }


# --------------------------------------------------------------------------------------
# End of the game


def end_of_turn(
    board: Mapping[Square, str], penalties: Mapping[str, int], colors: Mapping[Color, str]
) -> dict[str, Any] | None:
    """Return the result if the match ends after this turn, else ``None``.

    Order: forfeit (two penalty points) or no pawns make a side lose, both at once → draw;
    only then, neither side with a legal move → draw.

    >>> from domain.rules.apocalypse.board import parse_board
    >>> end_of_turn(parse_board("....n ..... ..... ..P.. ....."), {"a": 0, "b": 1},
    ...             {"white": "a", "black": "b"})
    {'outcome': 'white', 'winner': 'a', 'reason': 'no-pawns'}
    """
    losers: dict[Color, str] = {}
    for color in COLORS:
        if penalties[colors[color]] >= FORFEIT_PENALTIES:
            losers[color] = "forfeit"
        elif count(board, color, PAWN) == 0:
            losers[color] = "no-pawns"
    if len(losers) == len(COLORS):
        reasons = set(losers.values())
        reason = reasons.pop() if len(reasons) == 1 else "forfeit-and-no-pawns"
        return {"outcome": "draw", "winner": None, "reason": reason}
    if losers:
        ((loser, reason),) = losers.items()
        winner = other(loser)
        return {"outcome": winner, "winner": colors[winner], "reason": reason}
    if not any(has_legal_move(board, color) for color in COLORS):
        return {"outcome": "draw", "winner": None, "reason": "no-legal-moves"}
    return None


def _mutual(white: Move, black: Move) -> bool:
    return white.to_square == black.from_square and black.to_square == white.from_square


def _sorted(board: Board) -> Board:
    return dict(sorted(board.items(), key=lambda item: SQUARES.index(item[0])))


def _move_event(player: str, piece: str, move: Move, *, target_moved: bool) -> dict[str, Any]:
    return {
        "type": "move",
        "player": player,
        "piece": piece,
        "from": move.from_square,
        "to": move.to_square,
        "target_moved": target_moved,
    }
