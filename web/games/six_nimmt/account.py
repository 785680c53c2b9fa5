"""The 6 nimmt! account: where each card went, who took which row, points and rounds."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from web.games.record import revealed, seated
from web.games.words import listed, plural

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from domain.public_log import PublicStep


def default(payload: Mapping[str, Any]) -> str:
    """A missing card is the lowest card in hand."""
    return f"so their lowest card, {payload.get('card')}, is played"


def opening(step: PublicStep) -> list[str]:
    """What the turn opened with: the round and turn, a new round's rows and virtual hand."""
    deal, view = step.deal, step.view or {}
    words = []
    if view.get("round"):
        words.append(f"Round {view['round']}, turn {view.get('turn')}.")
    if deal.get("rows"):
        words.append(f"The rows start with {listed(deal['rows'])}.")
    if deal.get("virtual_hand"):
        words.append(f"The virtual player's new hand (public): {listed(deal['virtual_hand'])}.")
    return words


def account(step: PublicStep, players: Sequence[str], game_words: list[str]) -> None:
    """Tell the turn: the reveals, where each card went, the rows taken, points, ends."""
    outcome = step.outcome or {}
    view = step.view or {}
    rows = [list(r) for r in step.view_at_open.get("rows") or []]
    cards = [
        f"{p} {v.get('card')}" for p, v in seated(players, revealed(step)) if isinstance(v, dict)
    ]
    if cards:
        game_words.append(f"Revealed: {listed(cards)}.")
    decisions = iter(step.decisions)
    with_action_card = bool(step.view_at_open.get("action_card"))
    marked = "it may enter" if with_action_card else ""
    moves = {m.get("card"): m for m in outcome.get("action_card_moves") or []}
    for play in outcome.get("plays") or []:
        who, card, row = play.get("player"), play.get("card"), play.get("row")
        took, heads = play.get("took") or [], play.get("bullheads", 0)
        owner = "the virtual player" if who == "virtual" else who
        first = "The virtual player" if who == "virtual" else who
        taken = f"took {listed(took)} ({plural(heads, 'bullhead')}) and {card} starts the row"
        if play.get("reason") == "placed":
            after = rows[row][-1] if 0 <= row < len(rows) and rows[row] else None
            where = f" (after {after})" if after is not None else ""
            game_words.append(f"{first}'s {card} went to row {row}{where}.")
        elif play.get("reason") == "sixth-card":
            game_words.append(f"{first}'s {card} was the sixth card of row {row}: {owner} {taken}.")
        else:
            low = f"{first}'s {card} was lower than every row end {marked}".rstrip()
            if who == "virtual":
                how = f"by its rule it took row {row}, the one with the fewest bullheads"
            else:
                decision = next(decisions, None)
                how = (
                    f"{who} chose no row in time, so the default row {row} (fewest bullheads) "
                    "applied"
                    if decision is not None and decision.defaulted
                    else f"{who} chose row {row}"
                )
            game_words.append(f"{low}; {how}: {owner} {taken}.")
        if 0 <= row < len(rows):
            rows[row] = [*rows[row], card] if play.get("reason") == "placed" else [card]
        move = moves.get(card)
        if move and play.get("reason") != "placed":
            game_words.append(
                f"The action card moved from row {move.get('from')} to row {move.get('to')} "
                f"and shows {str(move.get('parity')).title()}."
            )
    if view.get("points"):
        points = [f"{p} {v}" for p, v in seated(players, view["points"])]
        game_words.append(f"Points now: {listed(points)}.")
    if outcome.get("finished"):
        game_words.append(
            f"End of round {view.get('round')}: someone is at 0 points or below, so the match "
            f"is over. Winner{'s' if len(view.get('winners') or []) > 1 else ''}: "
            f"{listed(view.get('winners') or [])}."
        )
    elif outcome.get("round_end"):
        game_words.append(
            f"End of round {view.get('round')}: each row keeps only its rightmost card."
        )
