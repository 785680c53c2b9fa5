"""6 nimmt! in a player's dealer room: what happened to you, your decision, your hand.

Every sentence is in plain words and second person where it speaks to the player. Rows are
numbered 0 to 3, as in the rules, the payload ``{"row": i}``, the picture and the account.
The values read here come from public records and views, which the room never trusts to be
well formed: anything unexpected is skipped rather than shown raw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeGuard

from domain.rules.six_nimmt import (
    ROW_COUNT,
    TURNS_PER_ROUND,
    VIRTUAL,
    landing_row,
    may_enter,
    row_bullheads,
)
from web.games.words import listed, plural

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from domain.public_log import PublicStep

TERMS = (
    (
        "bullheads",
        (
            "The heads printed on a card: what it costs whoever takes it. Most cards have 1; "
            "multiples of 5 have 2, of 10 have 3, of 11 have 5, and 55 has 7."
        ),
    ),
    (
        "row end",
        (
            "The last (rightmost) card of a row. A card goes on the row whose end is the largest "
            "one below it."
        ),
    ),
    (
        "taking a row",
        (
            "The row's bullheads come off your points and your card starts the row again. It "
            "happens to the sixth card of a row, and to a card lower than every row end (then "
            "you choose which of the rows 0 to 3 to take)."
        ),
    ),
    (
        "Even/Odd action card",
        (
            "Lies beside one row showing Even or Odd: that row takes only cards of that parity. "
            "Whenever a row is taken, it moves to the other row with the lowest end and shows "
            "that card's parity."
        ),
    ),
    (
        "virtual player",
        (
            "A player the rules play: its hand is public and it plays the card closest above a "
            "row end it may enter."
        ),
    ),
    (
        "points",
        (
            "Everybody starts with the same points. When a round ends with anyone at 0 or below, "
            "the match ends and the most points win."
        ),
    ),
)


def _is_card(value: Any) -> TypeGuard[int]:
    """Whether ``value`` is a whole number (a card, a row index, points)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _rows(value: Any) -> list[list[int]] | None:
    """Four rows of cards, or ``None`` when ``value`` is something else."""
    if (
        isinstance(value, list)
        and len(value) == ROW_COUNT
        and all(isinstance(row, list) and row and all(_is_card(c) for c in row) for row in value)
    ):
        return value
    return None


def _action(value: Any) -> dict[str, Any] | None:
    """The action card ``{"row": i, "parity": ...}``, or ``None``."""
    if (
        isinstance(value, dict)
        and value.get("row") in range(ROW_COUNT)
        and value.get("parity") in {"even", "odd"}
    ):
        return value
    return None


def _points(value: int) -> str:
    """Points with a true minus sign: 58, −3."""
    return f"−{-value}" if value < 0 else str(value)


def too_low(card: int, rows: list[list[int]], action: dict[str, Any] | None) -> str:
    """Why ``card`` has no row it may enter, as the words after "Your 7 is ".

    >>> too_low(4, [[10], [20], [30], [40]], None)
    'lower than every row end'
    >>> too_low(90, [[91], [92], [93], [85]], {"row": 3, "parity": "odd"})
    'lower than every row end it may enter (row 3 takes only odd cards)'
    """
    if (
        action is not None
        and rows[action["row"]][-1] < card
        and not may_enter(card, action["row"], action)
    ):
        return (
            f"lower than every row end it may enter (row {action['row']} takes only "
            f"{action['parity']} cards)"
        )
    return "lower than every row end"


# --- What the latest step did to you ----------------------------------------------------


def _took(play: Mapping[str, Any], points: Any) -> str:
    """What taking a row cost: "−5 points (now 58)"."""
    heads = play.get("bullheads", 0)
    now = f" (now {_points(points)})" if _is_card(points) else ""
    return f"−{plural(heads, 'point')}{now}"


def _decision_of(step: PublicStep, player: str) -> Any:
    """The decision that answered ``player``'s too-low card in ``step``, if any."""
    return next((d for d in step.decisions if d.player == player), None)


def for_you(step: PublicStep, player: str) -> list[str]:
    """What the resolved ``step`` did to ``player``, in the second person."""
    if step.outcome is None:
        return []
    outcome, view = step.outcome, step.view or {}
    points = (view.get("points") or {}).get(player)
    words: list[str] = []
    default = step.defaults.get(player)
    if default is not None and isinstance(default.payload, dict):
        why = (
            "did not open your pick in time"
            if default.reason == "not-revealed"
            else "sent nothing in time"
        )
        words.append(f"You {why}, so your lowest card, {default.payload.get('card')}, was played.")
    for play in outcome.get("plays") or []:
        if not isinstance(play, dict) or play.get("player") != player:
            continue
        card, row, took = play.get("card"), play.get("row"), play.get("took") or []
        reason = play.get("reason")
        if reason == "placed":
            words.append(f"You played {card} on row {row}.")
        elif reason == "sixth-card":
            words.append(
                f"Your {card} was the sixth card of row {row}: you took {listed(took)}: "
                f"{_took(play, points)}."
            )
        else:
            asked = next((r for r in step.requests if r.player == player), None)
            prompt = asked.prompt if asked is not None and isinstance(asked.prompt, dict) else {}
            rows = _rows(prompt.get("rows"))
            low = (
                too_low(card, rows, _action(prompt.get("action_card")))
                if rows is not None and _is_card(card)
                else "lower than every row end"
            )
            decision = _decision_of(step, player)
            how = (
                f"you chose no row in time, so you took row {row} (the fewest bullheads)"
                if decision is not None and decision.defaulted
                else f"you took row {row}"
            )
            words.append(f"Your {card} was {low}: {how}, {_took(play, points)}.")
        words.extend(
            f"Your take moved the action card to row {move.get('to')}: it now shows "
            f"{str(move.get('parity')).title()}."
            for move in outcome.get("action_card_moves") or []
            if isinstance(move, dict) and move.get("card") == card
        )
    if outcome.get("finished") and _is_card(points):
        winners = [w for w in view.get("winners") or [] if isinstance(w, str)]
        if player in winners:
            others = [w for w in winners if w != player]
            won = f"you share the win with {listed(others)}" if others else "you win"
            words.append(f"The match is over: {won}, with {_points(points)} points.")
        elif winners:
            words.append(
                f"The match is over: {listed(winners)} won; you finished with "
                f"{_points(points)} points."
            )
    elif outcome.get("round_end") and _is_card(points):
        words.append(
            f"Round {view.get('round')} is over: you have {_points(points)} points, and each "
            "row keeps only its last card."
        )
    return words


def default_for_you(payload: Mapping[str, Any]) -> str:
    """A missing pick plays the lowest card in hand."""
    return f"you play your lowest card, {payload.get('card')}"


# --- The decision -----------------------------------------------------------------------


def decision_words(decision: Mapping[str, Any], viewer: str) -> str:
    """A take-row decision: for its decider, why and what to tap; for others, who is awaited."""
    who = str(decision.get("player"))
    prompt = decision.get("prompt")
    prompt = prompt if isinstance(prompt, dict) else {}
    card = prompt.get("card")
    rows = _rows(prompt.get("rows"))
    if decision.get("kind") != "take-row" or not _is_card(card) or rows is None:
        if who == viewer:
            return "You must choose a row to take. Tap a row."
        return f"Waiting for {who} to choose a row to take."
    why = too_low(card, rows, _action(prompt.get("action_card")))
    if who != viewer:
        return f"Waiting for {who} to choose a row to take: {who}'s {card} is {why}."
    heads = [row_bullheads(row) for row in rows]
    fewest = min(range(ROW_COUNT), key=lambda i: (heads[i], i))
    each = ", ".join(f"row {i} has {plural(h, 'bullhead')}" for i, h in enumerate(heads))
    return (
        f"Your {card} is {why}, so you must take a row: its bullheads come off your points "
        f"and your {card} starts it. Tap a row: {each}. If you choose none in time, you take "
        f"row {fewest}, the one with the fewest bullheads."
    )


# --- The result and your seat -----------------------------------------------------------


def result_words(result: Mapping[str, Any], players: Sequence[str]) -> list[str]:
    """The winners with their points, then everybody else's; the virtual player apart."""
    points = result.get("points")
    points = points if isinstance(points, dict) else {}
    winners = [w for w in result.get("winners") or [] if isinstance(w, str)]
    humans = [p for p in players if _is_card(points.get(p))]
    if not winners or not humans:
        return ["The match is over."]
    top = _points(points[winners[0]] if _is_card(points.get(winners[0])) else points[humans[0]])
    rest = sorted((p for p in humans if p not in winners), key=lambda p: -points[p])
    others = "; " + ", ".join(f"{p} {_points(points[p])}" for p in rest) if rest else ""
    if len(winners) == 1:
        head = f"{winners[0]} wins with {top} points"
    else:
        head = f"{', '.join(winners[:-1])} and {winners[-1]} share the win with {top} points"
    virtual = points.get(VIRTUAL)
    apart = f" (the virtual player, never ranked: {_points(virtual)})" if _is_card(virtual) else ""
    words = [f"{head}{others}{apart}."]
    out = [p for p in humans if points[p] <= 0]
    if _is_card(virtual) and virtual <= 0:
        out.append("the virtual player")
    if out:
        names = f"{', '.join(out[:-1])} and {out[-1]}" if len(out) > 1 else out[0]
        words.append(f"It ended when {names} fell to 0 points or below.")
    return words


def seat_words(public: Mapping[str, Any], private: Mapping[str, Any], player: str) -> list[str]:
    """Your hand and points, the round, cards that would take a row, the action card."""
    words: list[str] = []
    hand = sorted(c for c in private.get("hand") or [] if _is_card(c))
    points = (public.get("points") or {}).get(player)
    if _is_card(points):
        words.append(f"You have {_points(points)} points.")
    if hand:
        words.append(f"Your hand ({plural(len(hand), 'card')}): {listed(hand)}.")
    rnd, turn = public.get("round"), public.get("turn")
    if _is_card(rnd) and rnd > 0 and _is_card(turn) and not public.get("finished"):
        words.append(f"Round {rnd}: {turn} of {TURNS_PER_ROUND} turns played.")
    rows = _rows(public.get("rows"))
    action = _action(public.get("action_card"))
    if action is not None:
        words.append(
            f"The Even/Odd action card is on row {action['row']}, showing "
            f"{action['parity'].title()}: only {action['parity']} cards may go on row "
            f"{action['row']}."
        )
    if rows is not None and hand:
        low = [c for c in hand if landing_row(c, rows, action) is None]
        if low:
            which = ("it" if len(low) == 1 else "they") + " may enter" if action else ""
            words.append(
                f"{'Your card' if len(low) == 1 else 'Your cards'} {listed(low)} "
                f"{'is' if len(low) == 1 else 'are'} lower than every row end {which}".rstrip()
                + ": playing one means taking a row (unless a lower card played this turn "
                "starts a row below it)."
            )
    return words
