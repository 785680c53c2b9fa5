"""6 nimmt!: its rows and points drawn, each turn told, the dealer room's hand and rows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from web import chart
from web.games.base import Presentation
from web.games.six_nimmt import account, host, picture, room

if TYPE_CHECKING:
    from collections.abc import Sequence

    from web.games.record import Record


def series(records: Sequence[Record]) -> chart.Series | None:
    """Everybody's points after every turn, the rounds' ends marked."""
    return chart.view_series(records, "points", "points")


PRESENTATION = Presentation(
    game="six-nimmt",
    picture=picture.draw,
    width=picture.WIDTH,
    seat_picture=picture.seat,
    series=series,
    account=account.account,
    opening=account.opening,
    default=account.default,
    tells_decisions=True,  # which row a too-low card took, in the account's own words
    terms=room.TERMS,
    for_you=room.for_you,
    default_for_you=room.default_for_you,
    decision_words=room.decision_words,
    result_words=room.result_words,
    seat_words=room.seat_words,
    default_decision=host.default_decision,
    progress=host.progress,
    summary=(
        (
            "Each turn every player seals one card from their hand. The cards are revealed "
            "together and placed from the smallest to the largest: each goes on the row whose "
            "last card is the largest one below it."
        ),
        (
            "The sixth card of a row takes the five before it: their bullheads come off that "
            "player's points and the card starts the row. A card lower than every row end takes "
            "a row of its player's choice (by default the one with the fewest bullheads)."
        ),
        (
            "The virtual player's hand is public and it plays by a fixed rule. With the Even/Odd "
            "action card, the marked row takes only cards of the parity it shows. A player who "
            "sends nothing plays their lowest card."
        ),
        (
            "After the tenth turn of a round, if anyone is at 0 points or below, the match ends: "
            "the most points win."
        ),
    ),
)
