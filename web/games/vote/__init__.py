"""The hidden vote: its tally as bars, its account, and quick picks of the candidates."""

from __future__ import annotations

from web.games.base import Presentation, no_chart
from web.games.vote import account, picture

PRESENTATION = Presentation(
    game="vote",
    picture=picture.draw,
    width=600,
    series=no_chart,  # one step: the picture's bars say it all
    account=account.account,
    default=account.default,
    summary=(
        "Every voter seals a vote for one candidate; nobody sees a vote before the step is sealed.",
        (
            "When the step resolves, every vote is revealed and counted. The candidates with the "
            "most votes win; a tie lists them all. A voter who sends nothing abstains."
        ),
    ),
)
