"""Apocalypse, the simultaneous 5×5 duel (RULINGS.md section 2, seeds/apocalypse.txt).

Two players move one piece each per turn, both at once; the moves are revealed and
resolved together. A side with no pawns loses.

Vocabulary: *White* is the first player, *Black* the second. Squares are chess names,
files ``a``–``e`` and ranks ``1``–``5`` (``a1`` is White's left corner); White moves
towards rank 5, Black towards rank 1; a side's *last rank* is the far one (5 for White,
1 for Black). The *board text* lists ranks 5 down to 1, five characters each, joined by
single spaces: ``N``/``P`` White knight/pawn, ``n``/``p`` Black, ``.`` empty. The start
is ``npppn p...p ..... P...P NPPPN``.

Wire format
-----------
* Players: exactly two, distinct non-empty strings; the first is White. No options: any
  option is rejected with :class:`BadOptions`.
* One step is one turn, ``StepSpec(kind="turn", submitters=(white, black))``; nothing is
  ever dealt (``needs_deal`` is always false) and an explicit deal is rejected.
* Payload ``{"from": "b1", "to": "b2"}`` plus ``"drop": "c3"`` when a pawn promotes while
  its owner already has two knights. :meth:`Apocalypse.check_pick` rejects only payloads
  that are not a move at all: not an object, a missing ``from``/``to``, an unknown key,
  or a value that is not a square name ``a1``..``e5``. Reading chosen: square names are
  lower case only, and ``"drop": null`` is rejected like any other non-square (leave
  ``drop`` out instead), so a payload is never rewritten. A well-formed but
  illegal move is accepted and penalised when the turn resolves, with its reason in the
  outcome ("no piece of yours on b3", "a pawn moves diagonally only to capture; ...").
* The default pick (a missing submission) is the marker ``{"from": null, "to": null}``,
  which ``check_pick`` never produces; it earns a penalty point (RULINGS: "missing").
* Public view (exact keys): ``turn`` (turns played), ``board`` (board text),
  ``penalties`` ({player: n}), ``finished``, ``result`` (``None`` until finished, then
  ``{"outcome": "white"|"black"|"draw", "winner": player|None, "reason": ...}``) and
  ``colors`` (``{"white": player, "black": player}``). Private view: ``{}``; the only
  secret is a player's own pending move, which the service keeps.
* Outcome of a turn: ``{"moves", "events", "board_before", "board_after", "result"}``.
  ``moves`` maps each player to ``{"from", "to", "drop" (only when submitted), "legal",
  "reason"}`` (``reason`` is ``None`` for a legal move). ``events`` is ordered: first a
  ``penalty`` per illegal or missing move (White first), then the moves (rules 1–5:
  ``move``, ``capture``, ``collision``, ``swap``), then promotions (rule 6:
  ``promotion``, ``drop``, ``removed``). ``result`` is the match result when this turn
  ended the match, else ``None`` (a key beyond the project's minimum, so a page can tell
  the end from the outcome alone). Event shapes:

  - ``{"type": "penalty", "player", "reason", "penalties"}`` (the new total);
  - ``{"type": "move", "player", "piece", "from", "to", "target_moved"}`` where
    ``target_moved`` is true when ``to`` held an enemy piece that moved away (rules 3, 4);
  - ``{"type": "capture", "player", "piece", "square", "captured", "captured_player"}``;
  - ``{"type": "collision", "square", "pieces": {player: piece},
    "from": {player: square}, "removed": [players], "survivor": player|None}`` (rule 2);
  - ``{"type": "swap", "squares": [white's from, black's from],
    "pieces": {player: piece}}`` (rule 5);
  - ``{"type": "promotion", "player", "square", "piece"}`` (the pawn became that knight);
  - ``{"type": "drop", "player", "from", "to"}`` (the pawn left its last rank for ``to``);
  - ``{"type": "removed", "player", "square", "piece", "reason"}`` (a dropping pawn lost
    its drop square).

  Pieces are written as on the board text (``N``, ``P``, ``n``, ``p``).

Rulings and readings
--------------------
* Legality is judged only against the position at the start of the turn (RULINGS): a
  knight makes one of its eight L-shaped jumps; a pawn steps one square forward onto an
  empty square, or one square diagonally forward onto a square holding an *enemy* piece
  at the start of the turn; no piece moves onto its own side's piece.
* Reading chosen: ``from`` equal to ``to`` is an illegal move ("a move must leave its
  square"): rule 8 forbids passing.
* A drop is needed when a pawn moves onto its last rank and its owner has two knights at
  the start of the turn. The drop square must be empty at the start of the turn and not on
  that pawn's last rank; any other rank is allowed, the owner's own first rank included.
  A pawn needing a drop but naming none is illegal. Reading chosen: the pawn's own
  starting square is not empty at the start of the turn, so it is no drop square.
* Reading chosen: a ``drop`` given when none is needed is ignored (neither checked nor
  used); it still shows in the revealed move.
* Resolution, rules 1–5 on destination squares (:func:`resolve_moves`): both moving
  pieces leave their squares; same destination → two knights or two pawns are both
  removed, a knight beats a pawn (:func:`same_destination`); otherwise each piece lands,
  capturing an enemy piece that stood on its destination and did not move, while a piece
  that moved away is never captured (:func:`land`, rules 3 and 4: a pawn's declared
  capture whose target left becomes a diagonal step); mutual captures exchange the two
  pieces (:func:`exchange`, rule 5; only knight/knight and pawn/pawn can meet so).
  With one legal move, that move alone is resolved the same way. Reading chosen: only a
  *legal* move counts as a "movement order" for rule 3; a piece whose move was illegal
  stays where it is and is captured by an enemy landing on it.
* Promotion after resolution (:func:`promote`, rule 6): a surviving pawn on its last rank
  becomes a knight when its owner has fewer than two knights on the board after the moves
  (so a side that had two knights but lost one this turn gets its knight, and the drop it
  had to name is unused); otherwise it goes to its drop square. Reading chosen: drop
  squares are checked against the board after the moves and before any promotion: a drop
  square that is not empty then (an enemy landed there, or the enemy's promoting pawn
  stands there, even if that pawn then drops elsewhere) removes the pawn; two pawns
  dropping onto the same square are both removed, as two pawns meeting (rule 2).
* Penalties (rules 7 and 8, :func:`penalise`): an illegal or missing move earns one
  penalty point and is not executed; the other side's legal move is still resolved.
* Reading chosen: promoting your last pawn into a knight leaves you with no pawns, so
  you lose (the seed counts pawns, not pieces).
* Reading chosen for the end of a turn (:func:`end_of_turn`), which RULINGS leaves
  unordered; the order of the checks: (1) each side *loses* if it
  has two penalty points (reason ``forfeit``) or else no pawns (``no-pawns``); a side
  meeting both is named ``forfeit``. (2) If both sides lose on the same turn, whatever the
  reasons, the match is a draw (reason ``forfeit`` or ``no-pawns`` when both share it,
  else ``forfeit-and-no-pawns``); if one side loses, the other wins. (3) Only when nobody
  lost: if neither side has a legal move the match is a draw (``no-legal-moves``).
  (4) Otherwise play goes on; a side with no legal move while the other has one keeps
  submitting and is penalised each turn, so it forfeits after two such turns.
* There is no turn cap (RULINGS has none): two sides that only shuffle knights play on.

Randomness
----------
None in the rules: nothing is dealt and resolution draws nothing. Only
:meth:`Apocalypse.bot_pick` uses its ``rng`` (one ``rng.choice`` over a candidate list,
sometimes preceded by one ``rng.below(4)``; see there); bot picks are frozen into
scenarios, so this order is not part of the verification protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from domain.rules.base import (
    JSON,
    BadOptions,
    Disclosure,
    IllegalPick,
    Payload,
    Resolution,
    Rules,
    State,
    StepSpec,
    check_object,
    check_options_object,
    describe,
    player_list,
)
from domain.rules.schema import FieldKind, PickField

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

    from domain.fairrand import Rng

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
NO_MOVE: Payload = {"from": None, "to": None}
"""The default pick: a missing move."""

_KNIGHT_JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_MOVE_KEYS = {"from", "to", "drop"}
_MOVE_SHAPE = 'a move is {"from": square, "to": square} with an optional "drop": square'


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
    return " ".join(
        "".join(board.get(f"{f}{r}", ".") for f in FILES) for r in reversed(RANKS)
    )


def count(board: Mapping[Square, str], color: Color, kind: str) -> int:
    """Return how many knights or pawns a side has on the board."""
    return sum(1 for piece in board.values() if piece == piece_of(color, kind))


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


def color_of_player(state: State, player: str) -> Color:
    """Return the side a player plays.

    :raises ValueError: for a player who is not in the match.
    """
    for color in COLORS:
        if state["colors"][color] == player:
            return color
    msg = f"{describe(player)} does not play this match"
    raise ValueError(msg)


def legal_moves(state: State, player: str) -> Iterator[Payload]:
    """Yield the legal move payloads of ``player`` in the current position, lazily.

    :raises ValueError: for a player who is not in the match.

    >>> state = RULES.setup({}, ["ana", "ben"])
    >>> next(legal_moves(state, "ana"))
    {'from': 'a1', 'to': 'c2'}
    >>> sum(1 for _ in legal_moves(state, "ben"))
    9
    """
    board = parse_board(state["board"])
    color = color_of_player(state, player)
    return (move.payload() for move in moves_of(board, color))


def is_legal(state: State, player: str, payload: Mapping[str, Any]) -> bool:
    """Return whether a checked payload is a legal move of ``player`` now."""
    board = parse_board(state["board"])
    move = Move.from_payload(payload)
    return illegal_reason(board, color_of_player(state, player), move) is None


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
    board: Board, before: Mapping[Square, str], moves: Mapping[Color, Move],
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
    board: Board, before: Mapping[Square, str], color: Color, move: Move,
    moves: Mapping[Color, Move], players: Mapping[Color, str],
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
    board: Board, before: Mapping[Square, str], moves: Mapping[Color, Move],
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
            assert drop is not None
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
            events.append(
                {"type": "drop", "player": players[color], "from": square, "to": drop}
            )
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
        (loser, reason), = losers.items()
        winner = other(loser)
        return {"outcome": winner, "winner": colors[winner], "reason": reason}
    if not any(has_legal_move(board, color) for color in COLORS):
        return {"outcome": "draw", "winner": None, "reason": "no-legal-moves"}
    return None


# --------------------------------------------------------------------------------------
# The rules object


class Apocalypse(Rules):
    """Apocalypse: simultaneous moves on a 5×5 board, five pawns and two knights a side."""

    name = "apocalypse"
    display_name = "Apocalypse"
    version = "1"
    disclosure = Disclosure.ON_RESOLVE
    min_players = len(COLORS)
    max_players = len(COLORS)
    default_is_legal = False  # the missing-move marker, penalised

    def pick_fields(self, kind: str) -> list[PickField]:
        """Return the fields: the square moved from, the one moved to, a drop when needed."""
        del kind
        return [
            PickField("from", FieldKind.TEXT, "the square of the piece you move, a1 to e5"),
            PickField("to", FieldKind.TEXT, "the square it moves to"),
            PickField(
                "drop",
                FieldKind.TEXT,
                "where a promoting pawn goes when you already have two knights: an empty "
                "square off its last rank",
                required=False,
            ),
        ]

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Apocalypse has no options.

        :raises BadOptions: for any option.
        """
        check_options_object(options, "apocalypse", ())
        return {}

    def setup(self, options: Mapping[str, Any], players: Sequence[str]) -> State:
        """Return the start position: the first player is White, the second Black.

        :raises BadOptions: for any option, or unless there are two distinct players.
        """
        self.normalise_options(options)
        players = player_list(players)
        if len(players) != len(COLORS):
            msg = f"apocalypse is a duel for exactly 2 players, got {len(players)}"
            raise BadOptions(msg)
        if not all(isinstance(p, str) and p for p in players):
            msg = "each player is a non-empty name"
            raise BadOptions(msg)
        if players[0] == players[1]:
            msg = f"the two players must differ, got {describe(players[0])} twice"
            raise BadOptions(msg)
        return {
            "colors": {WHITE: players[0], BLACK: players[1]},
            "board": START_BOARD,
            "turn": 0,
            "penalties": {players[0]: 0, players[1]: 0},
            "finished": False,
            "result": None,
        }

    def next_step(self, state: State) -> StepSpec | None:
        """One turn in which both players move, White first in seat order."""
        if state["finished"]:
            return None
        return StepSpec(
            kind="turn", submitters=(state["colors"][WHITE], state["colors"][BLACK])
        )

    def check_pick(self, state: State, player: str, payload: JSON) -> Payload:
        """Accept any well-formed move; legality is judged when the turn resolves.

        :raises IllegalPick: when the payload is not a move at all.
        """
        del state, player
        return parse_move(payload)

    def default_pick(self, state: State, player: str) -> Payload:
        """A missing move: the marker ``{"from": None, "to": None}``, penalised."""
        del state, player
        return dict(NO_MOVE)

    def resolve(
        self,
        state: State,
        picks: Mapping[str, Payload],
        decisions: Sequence[Payload],
        rng: Rng,
    ) -> Resolution:
        """Resolve one turn: legality, rules 1-5, promotion, penalties, end checks."""
        del decisions, rng
        colors: dict[Color, str] = dict(state["colors"])
        before = parse_board(state["board"])
        penalties = dict(state["penalties"])
        moves: dict[Color, Move] = {}
        report: dict[str, dict[str, Any]] = {}
        events: list[dict[str, Any]] = []
        for color in COLORS:
            player = colors[color]
            pick = picks[player]
            move = Move.from_payload(pick)
            reason = illegal_reason(before, color, move)
            entry: dict[str, Any] = {"from": pick.get("from"), "to": pick.get("to")}
            if "drop" in pick:
                entry["drop"] = pick["drop"]
            entry["legal"] = reason is None
            entry["reason"] = reason
            report[player] = entry
            if reason is None:
                assert move is not None
                moves[color] = move
            else:
                events.append(penalise(penalties, player, reason))
        moved, move_events = resolve_moves(before, moves, colors)
        after, promotion_events = promote(moved, moves, colors)
        result = end_of_turn(after, penalties, colors)
        text = board_text(after)
        new = {
            **state,
            "board": text,
            "turn": state["turn"] + 1,
            "penalties": penalties,
            "finished": result is not None,
            "result": result,
        }
        outcome = {
            "moves": report,
            "events": events + move_events + promotion_events,
            "board_before": state["board"],
            "board_after": text,
            "result": result,
        }
        return Resolution(state=new, outcome=outcome)

    def public_view(self, state: State) -> dict[str, Any]:
        """Turn, board text, penalties, finished, result and colours."""
        return {
            "turn": state["turn"],
            "board": state["board"],
            "penalties": dict(state["penalties"]),
            "finished": state["finished"],
            "result": None if state["result"] is None else dict(state["result"]),
            "colors": dict(state["colors"]),
        }

    def is_finished(self, state: State) -> bool:
        """Whether a side has lost or the match is drawn."""
        return bool(state["finished"])

    def result(self, state: State) -> dict[str, Any]:
        """The result ``{"outcome", "winner", "reason"}`` (all ``None`` before the end)."""
        if state["result"] is None:
            return {"outcome": None, "winner": None, "reason": None}
        return dict(state["result"])

    def legal_moves(self, state: State, player: str) -> Iterator[Payload]:
        """Yield ``player``'s legal move payloads now (see :func:`legal_moves`)."""
        return legal_moves(state, player)

    def generate_legal_picks(self, state: State, player: str) -> Iterator[Payload]:
        """Yield the legal moves (:func:`legal_moves`); none for someone not playing.

        A move the turn would penalise is well formed but not legal, so it is not yielded.
        """
        if player not in state["colors"].values():
            return iter(())
        return legal_moves(state, player)

    def is_legal(self, state: State, player: str, payload: JSON) -> bool:
        """Whether ``payload`` is a move ``check_pick`` accepts and the turn does not penalise.

        A drop named where none is needed is ignored by the rules, so such a move is legal
        too, though :meth:`generate_legal_picks` yields it only without the drop.
        """
        if player not in state["colors"].values() or not super().is_legal(state, player, payload):
            return False
        return is_legal(state, player, payload)

    def bot_pick(self, state: State, player: str, rng: Rng) -> Payload:
        """A simple legal move that tends to end matches.

        Candidates, first non-empty tier wins: captures of pawns; other captures; pawn
        steps; any legal move. Moves that would promote the side's last pawn into a
        knight (losing the match) are left out while another move exists. One time in
        four (``rng.below(4) == 0``, drawn only when the tier is not already "any legal
        move") the bot picks among all legal moves instead, so knights cannot shuffle in a
        loop forever. Then ``rng.choice`` over the candidates. With no legal move at all it
        submits its first piece onto its own square, a well-formed move that is penalised.
        """
        board = parse_board(state["board"])
        color = color_of_player(state, player)
        moves = list(moves_of(board, color))
        if not moves:
            first = next(s for s in SQUARES if s in board and color_of(board[s]) == color)
            return {"from": first, "to": first}
        safe = [m for m in moves if not _promotes_last_pawn(board, color, m)] or moves
        enemy = other(color)
        tiers = [
            [m for m in safe if board.get(m.to_square) == piece_of(enemy, PAWN)],
            [m for m in safe if m.to_square in board],
            [m for m in safe if board[m.from_square] == piece_of(color, PAWN)],
        ]
        candidates = next((tier for tier in tiers if tier), safe)
        if candidates is not safe and rng.below(4) == 0:
            candidates = safe
        return rng.choice(candidates).payload()


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


def _promotes_last_pawn(board: Mapping[Square, str], color: Color, move: Move) -> bool:
    return (
        board[move.from_square] == piece_of(color, PAWN)
        and rank_of(move.to_square) == last_rank(color)
        and count(board, color, PAWN) == 1
        and count(board, color, KNIGHT) < KNIGHT_LIMIT
    )


RULES = Apocalypse()
