"""The Grid Adaptation account: tiles placed, clashes, the Life step, scores, the EC vote."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from web.games.record import revealed, seated
from web.games.words import listed, plural

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from domain.public_log import PublicStep


def default(payload: Mapping[str, Any]) -> str:  # noqa: ARG001 - the Defaulting interface
    """A missing placement places nothing."""
    return "so they place no tile this round"


def account(step: PublicStep, players: Sequence[str], game_words: list[str]) -> None:
    """Tell the round (tiles, clashes, the Life step, scores) or the EC vote."""
    outcome = step.outcome or {}
    if "tally" in outcome:
        votes = [f"{c} {n}" for c, n in (outcome.get("tally") or {}).items()]
        game_words.append(
            f"The EC vote: {listed(votes)}; {outcome.get('ec')} is the Elimination Candidate "
            f"(decided by {outcome.get('decided_by')})."
        )
    elif step.resolved_seq is not None:
        placed, clashes = outcome.get("placed") or [], outcome.get("collisions") or []
        game_words.append(f"{plural(len(placed), 'tile')} placed: {listed(placed)}.")
        if clashes:
            game_words.append(f"Chosen by two or more players, so no tile: {listed(clashes)}.")
        game_words.append(f"Born in the Life step: {listed(outcome.get('born') or [])}.")
        game_words.append(f"Vanished: {listed(outcome.get('vanished') or [])}.")
        game_words.append(
            f"{plural(int(outcome.get('survived') or 0), 'tile')} on the grid after "
            "placement survived."
        )
        scores = [f"{s} {n}" for s, n in (outcome.get("round_scores") or {}).items()]
        game_words.append(f"Round scores by sequence: {listed(scores)}.")
    for player, pick in seated(players, revealed(step)):
        if not isinstance(pick, dict):
            continue
        if "vote" in pick:
            game_words.append(f"Revealed after the match: {player} voted for {pick['vote']}.")
            continue
        extras = []
        if pick.get("reserve"):
            extras.append(f"a reserve tile on {pick['reserve']}")
        if pick.get("flip") is not None:
            extras.append(f"flipped bit {pick['flip']}")
        if pick.get("buy_reserves"):
            extras.append(f"bought {plural(pick['buy_reserves'], 'reserve tile')}")
        more = f" ({', '.join(extras)})" if extras else ""
        game_words.append(
            f"Revealed after the match: {player} chose {listed(pick.get('tiles') or [])}{more}."
        )
