"""The hidden vote: its tally as bars, its account, and the candidates as the voter's choices."""

from __future__ import annotations

from web.games.base import Presentation, no_chart
from web.games.vote import account, picture, room

PRESENTATION = Presentation(
    game="vote",
    picture=picture.draw,
    width=600,
    series=no_chart,  # one step: the picture's bars say it all
    account=account.account,
    default=account.default,
    for_you=room.for_you,
    default_for_you=room.default_for_you,
    result_words=room.result_words,
    seat_words=room.seat_words,
    step_names={"vote": "the vote"},
    summary=(
        "Every voter seals a vote for one candidate; nobody sees a vote before the step is sealed.",
        (
            "When the step resolves, every vote is revealed and counted. The candidates with the "
            "most votes win; a tie lists them all. A voter who sends nothing abstains."
        ),
    ),
)
