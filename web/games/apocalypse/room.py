"""The Apocalypse dealer room's words: your colour, what a turn did to you, the result, terms.

Everything here is said to one player in the second person ("You moved your pawn b1→b2.",
"ben's knight captured your pawn on c3.") or, for the result, in plain third-person
sentences naming each side's colour. The rules' outcome and view keys never show.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from web.games.apocalypse.picture import read_board
from web.games.words import listed, plural

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from domain.public_log import PublicStep

FORFEIT = 2
_PIECES = {"N": "knight", "P": "pawn"}
_TWO_KNIGHTS = 2

TERMS: tuple[tuple[str, str], ...] = (
    (
        "White and Black",
        (
            "White is the first player and moves up the board towards rank 5; Black is the second "
            "and moves towards rank 1. Squares are named a1 to e5: files a to e, ranks 1 to 5."
        ),
    ),
    (
        "penalty point",
        (
            "An illegal move, or no move sent by the deadline, earns one penalty point and is not "
            "made (the other side's legal move still is). Two penalty points lose the match; both "
            "sides reaching two on the same turn is a draw."
        ),
    ),
    (
        "illegal move",
        (
            "A move that breaks the rules on the board as it stood at the start of the turn: no "
            "piece of yours on its square, a knight not making an L-shaped jump, a pawn not "
            "stepping one square forward (straight only onto an empty square, diagonally only "
            "onto an enemy piece), a move onto your own piece, or a needed drop square missing. "
            "The room warns you before you send one."
        ),
    ),
    (
        "capture",
        (
            "A piece landing on an enemy piece that stayed where it was captures it; an enemy "
            "piece that moved away this turn is never captured. Two pieces ordered to capture each "
            "other swap squares."
        ),
    ),
    (
        "collision",
        (
            "Both pieces move to the same square: two knights or two pawns are both removed; a "
            "knight beats a pawn."
        ),
    ),
    (
        "promotion",
        "A pawn that reaches its last rank (rank 5 for White, rank 1 for Black) becomes a knight.",
    ),
    (
        "drop square",
        (
            "When you already have two knights, a pawn reaching its last rank does not become a "
            "third: your move also names a drop square, an empty square off that rank, where the "
            "pawn goes instead. Without one the move is illegal; if the square is taken during the "
            "moves, the pawn is removed."
        ),
    ),
)
"""The glossary under the rules reminder."""


def _sides(view: Mapping[str, Any]) -> dict[Any, str]:
    """Each player's side, ``{player: "White"}``."""
    return {p: s.title() for s, p in (view.get("colors") or {}).items()}


def _opponent(view: Mapping[str, Any], player: str) -> Any:
    """The other player of the match (``None`` when unknown)."""
    others = [p for p in (view.get("colors") or {}).values() if p != player]
    return others[0] if others else None


def _kind(letter: Any) -> str:
    return _PIECES.get(str(letter).upper(), "piece")


def _whose(owner: Any, letter: Any, player: str) -> str:
    """``your pawn`` or ``ben's knight``."""
    return f"your {_kind(letter)}" if owner == player else f"{owner}'s {_kind(letter)}"


def _pieces_count(board: Mapping[str, str], *, white: bool) -> tuple[int, int]:
    """A side's pawns and knights on the board."""
    pieces = [p for p in board.values() if p.isupper() == white]
    pawns = sum(1 for p in pieces if p.upper() == "P")
    return pawns, len(pieces) - pawns


def _first(text: str) -> str:
    """``text`` to begin a sentence: "your" becomes "Your"; a player's name stays as written."""
    return f"Y{text[1:]}" if text.startswith("your") else text


def _material(pawns: int, knights: int) -> str:
    return f"{plural(pawns, 'pawn')} and {plural(knights, 'knight')}"


# ------------------------------------------------------------------ what a turn did to you


def _your_move(move: Mapping[str, Any], penalty: Mapping[str, Any]) -> str:
    """Your own move of the turn: made, illegal or missing."""
    points = f"({penalty.get('penalties', '?')} of {FORFEIT})"
    if move.get("from") is None:
        return f"You sent no move in time, so you made none and earn a penalty point {points}."
    if move.get("legal") is False:
        return (
            f"Your move {move.get('from')}→{move.get('to')} was illegal ({move.get('reason')}): "
            f"it was not made and you earn a penalty point {points}."
        )
    return ""


def _their_penalty(opponent: Any, move: Mapping[str, Any], penalty: Mapping[str, Any]) -> str:
    """The opponent's penalty point, told to you."""
    points = f"({penalty.get('penalties', '?')} of {FORFEIT})"
    if move.get("from") is None:
        return f"{opponent} sent no move, so earns a penalty point {points}."
    return (
        f"{opponent}'s move {move.get('from')}→{move.get('to')} was illegal "
        f"({move.get('reason')}): {opponent} earns a penalty point {points}."
    )


def _event_words(event: Mapping[str, Any], player: str) -> str:
    """One resolution event, told to ``player``."""
    kind, owner = event.get("type"), event.get("player")
    mine = owner == player
    if kind == "move":
        who = "You" if mine else str(owner)
        moved = f"{who} moved {'your' if mine else 'their'} {_kind(event.get('piece'))}"
        away = ""
        if event.get("target_moved"):
            away = (
                "; the enemy piece there had moved away, so nothing was captured"
                if mine
                else "; your piece there had moved away, so it was not captured"
            )
        return f"{moved} {event.get('from')}→{event.get('to')}{away}."
    if kind == "capture":
        whose = _whose(owner, event.get("piece"), player)
        lost = _whose(event.get("captured_player"), event.get("captured"), player)
        return f"{_first(whose)} captured {lost} on {event.get('square')}."
    if kind == "collision":
        pieces = event.get("pieces") or {}
        met = " and ".join(_whose(p, pieces[p], player) for p in pieces)
        survivor = event.get("survivor")
        if survivor in pieces:
            beaten = next((p for p in pieces if p != survivor), None)
            end = (
                f"{_whose(survivor, pieces[survivor], player)} survives and "
                f"{_whose(beaten, pieces.get(beaten), player)} is removed"
            )
        else:
            end = "both are removed"
        return f"{_first(met)} both moved to {event.get('square')}: {end}."
    if kind == "swap":
        return (
            f"The pieces on {listed(event.get('squares') or [])} were ordered to capture each "
            "other, so they swapped squares."
        )
    if kind == "promotion":
        whose = "Your pawn" if mine else f"{owner}'s pawn"
        return f"{whose} on {event.get('square')} became a knight."
    if kind == "drop":
        whose = "Your pawn" if mine else f"{owner}'s pawn"
        return (
            f"{whose} reached its last rank with two knights already on the board, so it went "
            f"from {event.get('from')} to its drop square {event.get('to')}."
        )
    if kind == "removed":
        whose = _whose(owner, event.get("piece"), player)
        return f"{_first(whose)} on {event.get('square')} was removed ({event.get('reason')})."
    return ""


def for_you(step: PublicStep, player: str) -> list[str]:
    """What the turn resolved last did to ``player``: their move, the others', the result."""
    outcome = step.outcome or {}
    view = step.view or step.view_at_open
    opponent = _opponent(view, player)
    moves = outcome.get("moves") or {}
    events = list(outcome.get("events") or [])
    penalties = {e.get("player"): e for e in events if e.get("type") == "penalty"}
    words: list[str] = []
    if player in penalties:
        words.append(_your_move(moves.get(player) or {}, penalties[player]))
    if opponent in penalties:
        words.append(_their_penalty(opponent, moves.get(opponent) or {}, penalties[opponent]))
    words.extend(_event_words(e, player) for e in events if e.get("type") != "penalty")
    result = outcome.get("result")
    if isinstance(result, dict):
        words.append(_result_for(result, player, opponent))
    return [w for w in words if w]


def _result_for(result: Mapping[str, Any], player: str, opponent: Any) -> str:
    """The end of the match, said to ``player``."""
    reason, winner = result.get("reason"), result.get("winner")
    if not winner:
        return f"The match is over: a draw ({_draw_reason(reason)})."
    loser_is_you = winner != player
    loser = "you have" if loser_is_you else f"{opponent} has"
    why = "two penalty points" if reason == "forfeit" else "no pawns left"
    return f"The match is over: you {'lose' if loser_is_you else 'win'}, {loser} {why}."


def _draw_reason(reason: Any) -> str:
    return {
        "forfeit": "both sides reached two penalty points on the same turn",
        "no-pawns": "both sides lost their last pawn on the same turn",
        "forfeit-and-no-pawns": "one side reached two penalty points as the other lost its last "
        "pawn",
        "no-legal-moves": "neither side has a legal move",
    }.get(str(reason), str(reason))


# ------------------------------------------------------------------ the room's other words


def default_for_you(payload: Mapping[str, Any]) -> str:  # noqa: ARG001 - the interface
    """A missing move is no move and a penalty point."""
    return "you make no move and earn a penalty point (two penalty points lose the match)"


def result_words(result: Mapping[str, Any], players: Sequence[str]) -> list[str]:
    """The result with each side's colour: "ana (White) wins: ben (Black) has no pawns left."."""
    white, black = (str(p) for p in (*players, "White", "Black")[:2])
    side = {white: f"{white} (White)", black: f"{black} (Black)"}
    winner, reason = result.get("winner"), result.get("reason")
    if result.get("outcome") is None:
        return ["The match ended without a result."]
    if not winner:
        return [f"A draw between {side[white]} and {side[black]}: {_draw_reason(reason)}."]
    loser = black if winner == white else white
    why = "has two penalty points" if reason == "forfeit" else "has no pawns left"
    return [f"{side.get(winner, winner)} wins: {side[loser]} {why}."]


def seat_words(public: Mapping[str, Any], private: Mapping[str, Any], player: str) -> list[str]:
    """Your colour and direction, your opponent, the penalty points and the pieces left."""
    del private  # Apocalypse has no private view: your pending move is the only secret
    colours = public.get("colors") or {}
    if player not in colours.values():
        return []
    white = colours.get("white") == player
    opponent = _opponent(public, player)
    board = read_board(public.get("board") or "")
    penalties = public.get("penalties") or {}
    yours, theirs = _pieces_count(board, white=white), _pieces_count(board, white=not white)
    last, colour, other = (5, "White", "Black") if white else (1, "Black", "White")
    words = [
        (
            f"You play {colour}: your pieces are nearest you on the board and your pawns move up "
            f"it, towards rank {last}, where they become knights."
        ),
        f"Your opponent is {opponent}, playing {other}.",
        (
            f"Penalty points: you have {penalties.get(player, 0)} of {FORFEIT}, {opponent} has "
            f"{penalties.get(opponent, 0)} of {FORFEIT}; a side with {FORFEIT} loses."
        ),
        (
            f"On the board: you have {_material(*yours)}; {opponent} has {_material(*theirs)}. "
            "A side with no pawns left loses."
        ),
    ]
    if yours[1] >= _TWO_KNIGHTS and yours[0]:
        words.append(
            f"You already have two knights: a pawn of yours reaching rank {last} must be "
            "dropped on an empty square you choose (the room asks for it) instead of becoming "
            "a knight."
        )
    return words
