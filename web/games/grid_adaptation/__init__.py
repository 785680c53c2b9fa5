"""Grid Adaptation: the grid drawn by sequence, each round told, scores charted."""

from __future__ import annotations

from web.games.base import Presentation
from web.games.grid_adaptation import account, picture, room, series

PRESENTATION = Presentation(
    game="grid-adaptation",
    picture=picture.draw,
    width=780,
    series=series.series,
    account=account.account,
    default=account.default,
    step_names={"ec-vote": "the EC vote"},
    summary=(
        (
            "Every player holds a secret three-bit sequence. Each of the 8 rounds, everyone "
            "seals the cells they place tiles on (3 in round 1, then 1 a round, plus at most "
            "one reserve tile); a cell two players chose gets no tile."
        ),
        (
            "The tiles carry their player's sequence. Then one step of the Game of Life runs on "
            "the whole grid, and every sequence scores one point per matching bit on every "
            "tile; a player scores what the sequences they held scored."
        ),
        (
            "Everything sealed stays sealed until the match ends: placements, flips, purchases, "
            "votes and who holds which sequence."
        ),
    ),
    terms=room.TERMS,
    seat_picture=picture.seat_draw,
    for_you=room.for_you,
    default_for_you=room.default_for_you,
    result_words=room.result_words,
    seat_words=room.seat_words,
)
