"""The board of Apocalypse: squares, sides, pieces and the board text.

See :mod:`domain.rules.apocalypse` for the rules and the wire format.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from collections.abc import Mapping

Square: TypeAlias = str  # "a1" .. "e5"
Color: TypeAlias = str  # WHITE or BLACK
Board: TypeAlias = dict[Square, str]  # occupied squares only: square -> piece letter

WHITE: Color = "white"
BLACK: Color = "black"
COLORS: tuple[Color, Color] = (WHITE, BLACK)
KNIGHT = "N"
PAWN = "P"
FILES = "abcde"
RANKS = "12345"
SQUARES: tuple[Square, ...] = tuple(f + r for r in RANKS for f in FILES)
"""Every square in a fixed order: a1, b1, ..., e1, a2, ..., e5."""
START_BOARD = "npppn p...p ..... P...P NPPPN"
FORFEIT_PENALTIES = 2
KNIGHT_LIMIT = 2


# --------------------------------------------------------------------------------------
# Squares, pieces and the board text


def is_square(value: object) -> bool:
    """Return whether ``value`` is a square name ``a1``..``e5``.

    >>> is_square("e5"), is_square("f1"), is_square("A1"), is_square(None)
    (True, False, False, False)
    """
    return isinstance(value, str) and value in SQUARES


def file_of(square: Square) -> int:
    """Return the file index of a square, 0 for ``a`` to 4 for ``e``."""
    return FILES.index(square[0])


def rank_of(square: Square) -> int:
    """Return the rank of a square, 1 to 5."""
    return int(square[1])


def offset(square: Square, files: int, ranks: int) -> Square | None:
    """Return the square ``files`` right and ``ranks`` up of ``square``, or ``None``.

    >>> offset("a1", 1, 2), offset("a1", -1, 2)
    ('b3', None)
    """
    f, r = file_of(square) + files, rank_of(square) + ranks
    if 0 <= f < len(FILES) and 1 <= r <= len(RANKS):
        return f"{FILES[f]}{r}"
    return None


def color_of(piece: str) -> Color:
    """Return the side a piece letter belongs to (upper case is White)."""
    return WHITE if piece.isupper() else BLACK


def kind_of(piece: str) -> str:
    """Return ``KNIGHT`` or ``PAWN`` for a piece letter of either side."""
    return piece.upper()


def piece_of(color: Color, kind: str) -> str:
    """Return the board letter of a side's knight or pawn.

    >>> piece_of(BLACK, KNIGHT), piece_of(WHITE, PAWN)
    ('n', 'P')
    """
    return kind if color == WHITE else kind.lower()


def forward(color: Color) -> int:
    """Return the rank step of a side's pawns: +1 for White, -1 for Black."""
    return 1 if color == WHITE else -1


def last_rank(color: Color) -> int:
    """Return a side's last rank, where its pawns promote: 5 for White, 1 for Black."""
    return len(RANKS) if color == WHITE else 1


def other(color: Color) -> Color:
    """Return the opposing side."""
    return BLACK if color == WHITE else WHITE


def parse_board(text: str) -> Board:
    """Return the board of a board text.

    >>> parse_board("n.... ..... ..... ..... ....P")
    {'e1': 'P', 'a5': 'n'}
    """
    board: Board = {}
    for i, row in enumerate(text.split(" ")):
        rank = len(RANKS) - i
        for j, char in enumerate(row):
            if char != ".":
                board[f"{FILES[j]}{rank}"] = char
    return dict(sorted(board.items(), key=lambda item: SQUARES.index(item[0])))


def board_text(board: Mapping[Square, str]) -> str:
    """Return the board text of a board (ranks 5 down to 1).

    >>> board_text(parse_board(START_BOARD)) == START_BOARD
    True
    """
    return " ".join("".join(board.get(f"{f}{r}", ".") for f in FILES) for r in reversed(RANKS))


def count(board: Mapping[Square, str], color: Color, kind: str) -> int:
    """Return how many knights or pawns a side has on the board."""
    return sum(1 for piece in board.values() if piece == piece_of(color, kind))
