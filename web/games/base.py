"""What a game's presentation folder gives the pages: the plug-in interface.

A folder ``web/games/<package>/`` is one game's presentation. Its ``__init__.py`` exposes
``PRESENTATION``, a :class:`Presentation` naming the game by its wire name and giving its
picture, its chart series, its account wording and a rules summary in plain words; its
``static/`` folder may hold ``controls.js``, the dealer room's quick picks and decisions
(see :mod:`web.games`). Every part but the wire name has a generic default, so a folder
needs only what the game draws or says differently; a game with no folder at all is
presented by the defaults alone (:mod:`web.games.generic`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from web.games import generic

if TYPE_CHECKING:
    from markupsafe import Markup

    from domain.public_log import PublicStep
    from web.chart import Series
    from web.games.record import Moment, Record

Drawing = Callable[["Moment"], tuple[str, int, list["Markup"]]]
"""Draws one moment: returns the heading, the height and the body of the picture."""

Charting = Callable[[Sequence["Record"]], "Series | None"]
"""What the score chart plots for a match's records (``None``: no chart)."""

Telling = Callable[["PublicStep", Sequence[str], list[str]], None]
"""Appends the sentences that tell one step (the players in seat order given) to the list."""

Opening = Callable[["PublicStep"], list[str]]
"""The sentences that say what a step opened with (its round, its deal)."""

Defaulting = Callable[[Mapping[str, Any]], str]
"""What the default pick (the payload given) means: "so they abstain"."""


@dataclass(frozen=True)
class Presentation:
    """One game's presentation: how its state is drawn, plotted and told in words.

    :param game: the game's wire name (``MatchCreated.game``).
    :param picture: draws the public state at one moment; ``width`` is its width.
    :param series: what the score chart plots.
    :param account: tells one step's outcome in sentences.
    :param opening: tells what a step opened with.
    :param default: says what a default pick means.
    :param tells_decisions: the account tells the step's decisions itself (otherwise
        each one is added as "<player> decided <payload>.").
    :param summary: the rules in plain words, one paragraph an item.
    """

    game: str
    picture: Drawing = generic.table
    width: int = generic.WIDTH
    series: Charting = generic.series
    account: Telling = generic.account
    opening: Opening = generic.no_opening
    default: Defaulting = generic.default
    tells_decisions: bool = False
    summary: tuple[str, ...] = ()


def no_chart(records: Sequence[Record]) -> Series | None:  # noqa: ARG001 - the Charting interface
    """No chart: the picture says it all."""
    return None
