"""Apocalypse: the board drawn so White moves left, each turn told, pieces charted.

In the dealer room the board is drawn from the player's seat (:mod:`.seat`) and the room's
words are said to the player (:mod:`.room`).
"""

from __future__ import annotations

from web.games.apocalypse import account, picture, room, seat, series
from web.games.base import Presentation

PRESENTATION = Presentation(
    game="apocalypse",
    picture=picture.draw,
    width=680,
    series=series.series,
    account=account.account,
    default=account.default,
    seat_picture=seat.draw_seat,
    for_you=room.for_you,
    default_for_you=room.default_for_you,
    result_words=room.result_words,
    seat_words=room.seat_words,
    terms=room.TERMS,
    summary=(
        (
            "A 5×5 duel of pawns and knights. Each turn both players seal one move; the moves "
            "are revealed and made at the same time, judged against the position at the start "
            "of the turn."
        ),
        (
            "Two pieces that move to the same square collide; a piece that moves onto a square "
            "the enemy just left captures nothing. A pawn that reaches its last rank becomes a "
            "knight, or, when its side already has two, is dropped on an empty square."
        ),
        (
            "An illegal move, or no move sent by the deadline, earns a penalty point and is not "
            "made; two penalty points lose the match. A side with no pawns left loses."
        ),
    ),
)
