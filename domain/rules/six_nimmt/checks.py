"""Checking the input of 6 nimmt!: the players, a deal and a take-row decision.

See :mod:`domain.rules.six_nimmt` for the rules and the wire format.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.rules.base import (
    BadDeal,
    BadDecision,
    BadOptions,
    State,
    check_object,
    check_whole,
    describe,
    is_whole,
)
from domain.rules.six_nimmt.cards import DECK, ROW_COUNT, Card

if TYPE_CHECKING:
    from collections.abc import Mapping

HAND_SIZE = 10
VIRTUAL = "virtual"
MIN_HUMANS = 2
MAX_HUMANS_WITH_VIRTUAL = 9
MAX_HUMANS_WITHOUT_VIRTUAL = 10


# --- Checking input ---------------------------------------------------------------------


def is_card_number(value: Any) -> bool:
    """Whether ``value`` is a whole number, as a card number is (the deck is checked apart)."""
    return is_whole(value)


def check_names(players: Any, *, virtual_player: bool) -> list[str]:
    """Return the humans: 2 to 9 with the virtual player (10 without), distinct names.

    :raises BadOptions: for another count, an empty or repeated name, or ``virtual``.
    """
    if not isinstance(players, list):
        msg = "players must be a list of non-empty names"
        raise BadOptions(msg)
    most = MAX_HUMANS_WITH_VIRTUAL if virtual_player else MAX_HUMANS_WITHOUT_VIRTUAL
    if not MIN_HUMANS <= len(players) <= most:
        which = "with" if virtual_player else "without"
        msg = (
            f"6 nimmt! {which} the virtual player takes {MIN_HUMANS} to {most} players, "
            f"not {len(players)}"
        )
        raise BadOptions(msg)
    if not all(isinstance(p, str) and p for p in players):
        msg = "players must be a list of non-empty names"
        raise BadOptions(msg)
    if len(set(players)) != len(players):
        msg = "players must not repeat a name"
        raise BadOptions(msg)
    if VIRTUAL in players:
        msg = f'the name "{VIRTUAL}" is reserved for the virtual player; choose another name'
        raise BadOptions(msg)
    return list(players)


def decided_row(payload: Any) -> int:
    """Return the row a take-row decision ``{"row": i}`` names, ``i`` from 0 to 3.

    :raises BadDecision: for anything else.
    """
    shape = f'a take-row decision is {{"row": i}} with i from 0 to {ROW_COUNT - 1}'
    payload = check_object(payload, required=("row",), shape=shape, error=BadDecision)
    row = payload["row"]
    if is_whole(row) and not 0 <= row < ROW_COUNT:
        msg = f"row {describe(row)} does not exist; the rows are numbered 0 to {ROW_COUNT - 1}"
        raise BadDecision(msg)
    return check_whole(row, "the row to take", 0, ROW_COUNT - 1, BadDecision)


def check_dealt(state: State, rows: list[Card] | None, hands: Mapping[str, Any]) -> None:
    """Check that a deal names 10 cards for every hand, distinct and still to be dealt."""
    expected = list(state["hands"])
    for player in hands:
        if player not in state["hands"]:
            msg = f"the deal gives a hand to {describe(player)}, who is not in this match"
            raise BadDeal(msg)
    for player in expected:
        if player not in hands:
            msg = f"the deal gives no hand to {describe(player)}"
            raise BadDeal(msg)
        hand = hands[player]
        if not isinstance(hand, list) or not all(is_card_number(card) for card in hand):
            msg = f"the hand of {describe(player)} must be a list of card numbers"
            raise BadDeal(msg)
        if len(hand) != HAND_SIZE:
            msg = f"the hand of {describe(player)} has {len(hand)} cards; a hand has {HAND_SIZE}"
            raise BadDeal(msg)
    available = set(state["draw"]) | set(state["discard"])
    seen: set[Card] = set()
    for card in [*(rows or []), *(card for player in expected for card in hands[player])]:
        if card not in DECK:
            msg = f"card {describe(card)} does not exist; the cards are 1 to 104"
            raise BadDeal(msg)
        if card in seen:
            msg = f"card {card} is dealt twice"
            raise BadDeal(msg)
        if card not in available:
            msg = f"card {card} cannot be dealt: it is on a row or in a hand"
            raise BadDeal(msg)
        seen.add(card)
