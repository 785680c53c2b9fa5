"""The Picking Nine account: the pool, the ban, who received which card, the tie-break list."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from web.games.words import listed

if TYPE_CHECKING:
    from collections.abc import Mapping

    from web.games.record import Step


def default(payload: Mapping[str, Any]) -> str:
    """A missing pick is the default want-list."""
    return (
        "so the default applies: the first 7 cards of the pool, no ban, "
        f"priority {payload.get('priority')}"
    )


def opening(step: Step) -> list[str]:
    """What the round opened with: its pool."""
    opened = step.opened or {}
    words = []
    if (opened.get("view") or {}).get("pool"):
        words.append(f"The pool: {listed(opened['view']['pool'])}.")
    return words


def account(step: Step, game_words: list[str]) -> None:
    """Tell the round: the ban, who received what, the tie-break list, the reveals."""
    outcome = (step.resolved or {}).get("outcome") or {}
    if step.resolved is None:
        return
    banned = outcome.get("banned")
    game_words.append(f"{banned} was banned." if banned else "Nothing was banned.")
    for player, card in step.seated(outcome.get("received")):
        game_words.append(f"{player} received {card}.")
    game_words.append(f"The tie-break list is now {listed(outcome.get('tiebreak') or [])}.")
    for player, pick in step.seated(step.revealed):
        if isinstance(pick, dict):
            game_words.append(
                f"Revealed after the match: {player} wanted {listed(pick.get('wants') or [])}, "
                f"banned {pick.get('ban') or 'nothing'}, priority {pick.get('priority')}."
            )
