"""Cards and rows of 6 nimmt!: bullheads, placement, the virtual player, the action card.

See :mod:`domain.rules.six_nimmt` for the rules and the wire format.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.rules.base import RulesError

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

Card = int
Row = list[Card]
ActionCard = dict[str, Any]  # {"row": i, "parity": "even" | "odd"}

DECK = range(1, 105)
ROW_COUNT = 4
ROW_LIMIT = 5  # a row holds five cards; the sixth takes them


# --- Card values ------------------------------------------------------------------------


def bullheads(card: Card) -> int:
    """Return the bullheads (points) a card is worth.

    >>> [bullheads(c) for c in (55, 11, 22, 99, 10, 100, 5, 15, 1, 104)]
    [7, 5, 5, 5, 3, 3, 2, 2, 1, 1]
    """
    if card == 55:  # noqa: PLR2004 - the one card worth seven
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


def row_bullheads(row: Iterable[Card]) -> int:
    """Return the bullheads of a row of cards.

    >>> row_bullheads([3, 10, 55])
    11
    """
    return sum(bullheads(card) for card in row)


def parity(card: Card) -> str:
    """Return the side of the action card a card matches.

    >>> parity(31), parity(90)
    ('odd', 'even')
    """
    return "even" if card % 2 == 0 else "odd"


# --- Placement --------------------------------------------------------------------------


def may_enter(card: Card, row: int, action_card: ActionCard | None) -> bool:
    """Whether ``card`` may go on row ``row``: the marked row takes only the shown parity.

    >>> may_enter(90, 3, {"row": 3, "parity": "odd"}), may_enter(90, 1, {"row": 3, "parity": "odd"})
    (False, True)
    """
    return action_card is None or action_card["row"] != row or parity(card) == action_card["parity"]


def landing_row(card: Card, rows: Sequence[Row], action_card: ActionCard | None) -> int | None:
    """Return the row whose rightmost card is the largest one below ``card``.

    Only rows the card may enter count; ``None`` means the card is too low.

    >>> landing_row(11, [[3], [19], [50], [80]], None)
    0
    >>> landing_row(90, [[31], [52], [92], [85]], {"row": 3, "parity": "odd"})
    1
    >>> landing_row(2, [[3], [19], [50], [80]], None) is None
    True
    """
    best: int | None = None
    for index, row in enumerate(rows):
        end = row[-1]
        allowed = end < card and may_enter(card, index, action_card)
        if allowed and (best is None or end > rows[best][-1]):
            best = index
    return best


def is_sixth_card(row: Sequence[Card]) -> bool:
    """Whether a card placed on ``row`` would be its sixth (the action card never counts)."""
    return len(row) >= ROW_LIMIT


def fewest_bullheads_row(rows: Sequence[Row]) -> int:
    """Return the row worth the fewest bullheads, ties → the lowest index.

    This is the too-low default and the virtual player's choice.

    >>> fewest_bullheads_row([[10], [3, 4], [55], [2, 7]])
    1
    """
    return min(range(len(rows)), key=lambda index: (row_bullheads(rows[index]), index))


# --- Virtual player ---------------------------------------------------------------------


def virtual_card(hand: Sequence[Card], rows: Sequence[Row], action_card: ActionCard | None) -> Card:
    """Return the card the virtual player plays on ``rows``.

    Among its cards higher than at least one row end they may enter, the one with the
    smallest gap to the row it would land on; ties → the lower card. With no such card,
    its lowest card.

    :raises RulesError: when the hand is empty.

    >>> virtual_card([14, 22, 60], [[10], [20], [50], [80]], None)
    22
    >>> virtual_card([1, 2], [[10], [20], [50], [80]], None)
    1
    """
    if not hand:
        msg = "the virtual player has no card left"
        raise RulesError(msg)
    best: tuple[int, Card] | None = None
    for card in hand:
        index = landing_row(card, rows, action_card)
        if index is not None:
            key = (card - rows[index][-1], card)
            if best is None or key < best:
                best = key
    return min(hand) if best is None else best[1]


# --- Even/Odd action card ---------------------------------------------------------------


def action_card_setup(rows: Sequence[Row]) -> ActionCard:
    """Put the action card on the row with the lowest starting card, showing its parity.

    >>> action_card_setup([[31], [7], [92], [85]])
    {'row': 1, 'parity': 'odd'}
    """
    row = min(range(len(rows)), key=lambda index: rows[index][-1])
    return {"row": row, "parity": parity(rows[row][-1])}


def move_action_card(rows: Sequence[Row], action_card: ActionCard) -> ActionCard:
    """Move the action card to the lowest-ended of the three other rows, showing its parity.

    >>> move_action_card([[31], [90], [92], [85]], {"row": 3, "parity": "odd"})
    {'row': 0, 'parity': 'odd'}
    """
    others = [index for index in range(len(rows)) if index != action_card["row"]]
    row = min(others, key=lambda index: rows[index][-1])
    return {"row": row, "parity": parity(rows[row][-1])}


# --- End of a round ---------------------------------------------------------------------


def winners(points: Mapping[str, int], humans: Sequence[str]) -> list[str]:
    """Return the human(s) with the most points, in seat order (the virtual player never ranks).

    >>> winners({"ana": 5, "ben": 9, "cai": 9, "virtual": 40}, ["ana", "ben", "cai"])
    ['ben', 'cai']
    """
    top = max(points[player] for player in humans)
    return [player for player in humans if points[player] == top]


def match_ends(points: Mapping[str, int]) -> bool:
    """Whether any player, the virtual player included, is at 0 points or below."""
    return any(value <= 0 for value in points.values())


def trim_rows(rows: Sequence[Row]) -> tuple[list[Row], list[Card]]:
    """Keep only each row's rightmost card; return the rows and the trimmed cards.

    >>> trim_rows([[3, 4], [19], [50, 51, 52], [80]])
    ([[4], [19], [52], [80]], [3, 50, 51])
    """
    kept = [row[-1:] for row in rows]
    trimmed = [card for row in rows for card in row[:-1]]
    return kept, trimmed
