"""The Picking Nine account: the pool, the ban, who received which card, the tie-break list."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from web.games.record import revealed, seated
from web.games.words import listed

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from domain.public_log import PublicStep


def default(payload: Mapping[str, Any]) -> str:
    """A missing pick is the default want-list."""
    return (
        "so the default applies: the first 7 cards of the pool, no ban, "
        f"priority {payload.get('priority')}"
    )


def opening(step: PublicStep) -> list[str]:
    """What the round opened with: its pool."""
    words = []
    if step.view_at_open.get("pool"):
        words.append(f"The pool: {listed(step.view_at_open['pool'])}.")
    return words


def account(step: PublicStep, players: Sequence[str], game_words: list[str]) -> None:
    """Tell the round: the ban, who received what, the tie-break list, the reveals."""
    outcome = step.outcome or {}
    if step.resolved_seq is None:
        return
    banned = outcome.get("banned")
    game_words.append(f"{banned} was banned." if banned else "Nothing was banned.")
    for player, card in seated(players, outcome.get("received")):
        game_words.append(f"{player} received {card}.")
    game_words.append(f"The tie-break list is now {listed(outcome.get('tiebreak') or [])}.")
    for player, pick in seated(players, revealed(step)):
        if isinstance(pick, dict):
            game_words.append(
                f"Revealed after the match: {player} wanted {listed(pick.get('wants') or [])}, "
                f"banned {pick.get('ban') or 'nothing'}, priority {pick.get('priority')}."
            )
