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

from domain.rules.apocalypse.board import (
    BLACK,
    COLORS,
    FILES,
    FORFEIT_PENALTIES,
    KNIGHT,
    KNIGHT_LIMIT,
    PAWN,
    RANKS,
    SQUARES,
    START_BOARD,
    WHITE,
    Board,
    Color,
    Square,
    board_text,
    color_of,
    count,
    file_of,
    forward,
    is_square,
    kind_of,
    last_rank,
    offset,
    other,
    parse_board,
    piece_of,
    rank_of,
)
from domain.rules.apocalypse.moves import (
    NO_MOVE,
    Move,
    drop_reason,
    has_legal_move,
    illegal_reason,
    knight_destinations,
    moves_of,
    needs_drop,
    parse_move,
    pawn_destinations,
)
from domain.rules.apocalypse.resolution import (
    end_of_turn,
    exchange,
    execute,
    land,
    penalise,
    promote,
    resolve_moves,
    same_destination,
)
from domain.rules.apocalypse.rules import (
    RULES,
    Apocalypse,
    color_of_player,
    is_legal,
    legal_moves,
)

__all__ = [
    "BLACK",
    "COLORS",
    "FILES",
    "FORFEIT_PENALTIES",
    "KNIGHT",
    "KNIGHT_LIMIT",
    "NO_MOVE",
    "PAWN",
    "RANKS",
    "RULES",
    "SQUARES",
    "START_BOARD",
    "WHITE",
    "Apocalypse",
    "Board",
    "Color",
    "Move",
    "Square",
    "board_text",
    "color_of",
    "color_of_player",
    "count",
    "drop_reason",
    "end_of_turn",
    "exchange",
    "execute",
    "file_of",
    "forward",
    "has_legal_move",
    "illegal_reason",
    "is_legal",
    "is_square",
    "kind_of",
    "knight_destinations",
    "land",
    "last_rank",
    "legal_moves",
    "moves_of",
    "needs_drop",
    "offset",
    "other",
    "parse_board",
    "parse_move",
    "pawn_destinations",
    "penalise",
    "piece_of",
    "promote",
    "rank_of",
    "resolve_moves",
    "same_destination",
]
