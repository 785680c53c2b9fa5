"""The vote's account: each vote revealed, the tally, the winner or the tie."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from web.games.record import revealed, seated
from web.games.words import listed

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from domain.public_log import PublicStep


def default(payload: Mapping[str, Any]) -> str:  # noqa: ARG001 - the Defaulting interface
    """A missing vote abstains."""
    return "so they abstain"


def account(step: PublicStep, players: Sequence[str], game_words: list[str]) -> None:
    """Tell each revealed vote, the tally and the winner or the tie."""
    for player, pick in seated(players, revealed(step)):
        if isinstance(pick, dict) and pick.get("vote") is not None:
            game_words.append(f"{player} voted for {pick['vote']}.")
    outcome = step.outcome or {}
    if step.resolved_seq is not None:
        tally = [f"{c} {n}" for c, n in (outcome.get("tally") or {}).items()]
        winners = outcome.get("winners") or []
        game_words.append(f"Tally: {listed(tally)}.")
        game_words.append(
            f"Winner: {winners[0]}." if len(winners) == 1 else f"Tied: {listed(winners)}."
        )
