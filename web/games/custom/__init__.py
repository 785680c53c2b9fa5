"""A custom game the host designs: its results table, points, words and the player's form.

Every match of it is presented from its own design (``Presentation.designed``): the summary,
the terms, the accounts and the room's sentences name its title, its fields and how its
rounds are won. ``static/controls.js`` builds the player's form from the design's fields
(and exports the same field controls for the designer's preview on the new-match page).
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from web.games.base import Presentation
from web.games.custom import account, picture, room
from web.games.custom.design import design_of, summary, terms

if TYPE_CHECKING:
    from collections.abc import Mapping

GENERAL = (
    (
        "The host designs the game: a title, how many rounds, the fields of a pick (a whole "
        "number, one of a few choices, a player, a ranking or a short text) and how a round is "
        "won: the lowest or the highest number nobody else chose, the most chosen value, or the "
        "host's own judgement once the picks are revealed."
    ),
    (
        "Every player seals a pick each round; nobody sees it before the round is sealed. "
        "Each round's winners gain points; the players with the most points at the end win."
    ),
)


def designed(options: Mapping[str, Any]) -> Presentation:
    """The presentation of one custom match, its words built from its design."""
    design = design_of(options)
    return Presentation(
        game="custom",
        picture=picture.draw,
        width=picture.WIDTH,
        series=picture.series,
        account=partial(account.account, design),
        default=partial(account.default, design),
        tells_decisions=True,
        summary=summary(design),
        terms=terms(design),
        step_names={"round": "round {n}"},
        for_you=partial(room.for_you, design),
        default_for_you=partial(room.default_for_you, design),
        decision_words=room.decision_words,
        default_decision=room.default_decision,
        result_words=room.result_words,
        seat_words=partial(room.seat_words, design),
        progress=partial(room.progress, design),
    )


# A match's design replaces these general words; the rules page (no match) shows them.
PRESENTATION = replace(designed({}), summary=GENERAL, terms=(), designed=designed)
