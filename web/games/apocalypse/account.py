"""The Apocalypse account: penalties, moves, captures, collisions, promotions, the result."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from web.games.words import listed

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from domain.public_log import PublicStep

RESULT_REASONS: dict[Any, str] = {
    "no-pawns": "no pawns left",
    "forfeit": "two penalty points",
    "no-legal-moves": "neither side has a legal move",
    "forfeit-and-no-pawns": "one side forfeited as the other ran out of pawns",
}


def default(payload: Mapping[str, Any]) -> str:  # noqa: ARG001 - the Defaulting interface
    """A missing move is no move, and a penalty point."""
    return "so they have no move and earn a penalty point"


_PIECES = {"N": "knight", "P": "pawn"}


def account(step: PublicStep, players: Sequence[str], game_words: list[str]) -> None:
    """Tell the turn: penalties, moves, captures, collisions, promotions and the result."""
    del players  # the moves name their colours, not the seats
    outcome = step.outcome or {}
    view = step.view or step.view_at_open
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
                f"The pieces on {listed(event.get('squares') or [])} were ordered to capture "
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
        reason = RESULT_REASONS.get(result.get("reason"), result.get("reason"))
        if result.get("winner"):
            game_words.append(f"The match is over: {who(result['winner'])} wins ({reason}).")
        else:
            game_words.append(f"The match is over: a draw ({reason}).")
