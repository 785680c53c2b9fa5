"""Apocalypse: the board drawn so White moves left, each turn told, pieces charted."""

from __future__ import annotations

from web.games.apocalypse import account, picture, series
from web.games.base import Presentation

PRESENTATION = Presentation(
    game="apocalypse",
    picture=picture.draw,
    width=680,
    series=series.series,
    account=account.account,
    default=account.default,
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
            "An illegal or missing move earns a penalty point; two penalty points lose the "
            "match. A side with no pawns left loses."
        ),
    ),
)
