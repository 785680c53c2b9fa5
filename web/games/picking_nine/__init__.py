"""Picking Nine Possibilities: the pool and holdings drawn, each round told, scores charted.

The dealer room (:mod:`.room`, ``static/controls.js``) ranks the pool by tapping.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from web import chart
from web.games.base import Presentation
from web.games.picking_nine import account, picture, room

if TYPE_CHECKING:
    from collections.abc import Sequence

    from web.games.record import Record


def series(records: Sequence[Record]) -> chart.Series | None:
    """Everybody's best Quattro score after every round (one step is one round)."""
    found = chart.view_series(records, "scores", "best Quattro score")
    if found is not None:
        found.axis = "round"
    return found


PRESENTATION = Presentation(
    game="picking-nine",
    picture=picture.draw,
    width=720,
    series=series,
    account=account.account,
    opening=account.opening,
    default=account.default,
    terms=room.TERMS,
    seat_picture=room.seat_picture,
    for_you=room.for_you,
    default_for_you=room.default_for_you,
    result_words=room.result_words,
    seat_words=room.seat_words,
    summary=(
        (
            "Five rounds. Each round deals a pool of 8 coloured cards, plus the gray zero while "
            "nobody has taken it. Every player seals a list of 7 cards of the pool they want, "
            "most wanted first, a card to ban, and a priority number."
        ),
        (
            "Unique priority numbers pick first, lowest first, then shared ones in tie-break "
            "list order; only the highest unique number's ban counts. Each player receives the "
            "first card on their list still there."
        ),
        (
            "At the end each player's best Quattro (four cards of four colours and four numbers) "
            "is scored. The picks stay sealed until the match ends."
        ),
    ),
)
