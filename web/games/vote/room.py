"""The vote in a voter's dealer room: their own vote told back, abstaining, the winners."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from web.games.record import revealed
from web.games.words import listed

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from domain.public_log import PublicStep


def for_you(step: PublicStep, player: str) -> list[str]:
    """Whom the player's revealed vote went to, or that they abstained."""
    pick = revealed(step).get(player)
    if player in step.defaults or not isinstance(pick, dict) or pick.get("vote") is None:
        return ["You did not vote, so you abstained."] if player in step.submitters else []
    return [f"You voted for {pick['vote']}."]


def default_for_you(payload: Mapping[str, Any]) -> str:  # noqa: ARG001 - the YouDefaulting interface
    """A missing vote abstains."""
    return "you abstain"


def result_words(result: Mapping[str, Any], players: Sequence[str]) -> list[str]:
    """The winner or the tie, and the tally."""
    del players
    tally: dict[str, int] = result.get("tally") or {}
    winners = [str(w) for w in result.get("winners") or []]

    def votes(n: int) -> str:
        return f"{n} vote{'' if n == 1 else 's'}"

    if len(winners) == 1:
        words = [f"{winners[0]} wins with {votes(tally.get(winners[0], 0))}."]
    elif winners:
        words = [f"A tie: {listed(winners)}, with {votes(tally.get(winners[0], 0))} each."]
    else:
        words = ["Nobody won."]
    others = [f"{c} got {votes(n)}" for c, n in tally.items() if c not in winners]
    if others:
        words.append(f"{listed(others)}.")
    return words


def seat_words(public: Mapping[str, Any], private: Mapping[str, Any], player: str) -> list[str]:
    """Whom the player may vote for."""
    del private, player
    candidates = list(public.get("tally") or {})
    return [f"The candidates: {listed(candidates)}."] if candidates else []
