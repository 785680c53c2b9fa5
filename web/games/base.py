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
from dataclasses import dataclass, field
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

SeatDrawing = Callable[["Moment", str], tuple[str, int, list["Markup"]]]
"""Draws one moment from a player's seat (Apocalypse turns the board for Black)."""

YouTelling = Callable[["PublicStep", str], list[str]]
"""What a resolved step did to one player, in the second person."""

YouDefaulting = Callable[[Mapping[str, Any]], str]
"""What the default pick means for the player it would be applied to ("you abstain")."""

DecisionTelling = Callable[[Mapping[str, Any], str], str]
"""A pending decision (``player``, ``kind``, ``prompt``) in words for the player viewing it."""

ResultTelling = Callable[[Mapping[str, Any], Sequence[str]], list[str]]
"""The final result (and the players in seat order) in sentences."""

SeatTelling = Callable[[Mapping[str, Any], Mapping[str, Any], str], list[str]]
"""A player's own situation from the public and private views, in sentences."""

Progressing = Callable[[Mapping[str, Any], bool], str]
"""How far the match has come, from the public view: "round 2, turn 3 of 10 under way" (a
step under way, the second argument true) or "after round 2, turn 3 of 10"."""

DecisionDefaulting = Callable[[Mapping[str, Any], Any], tuple[str, str]]
"""What the default of a pending decision (the payload given) does, said to the host before
and after it is applied: ("row 2 (3 bullheads) will go to ben", "... went to ben")."""

Designing = Callable[[Mapping[str, Any]], "Presentation"]
"""The presentation of one match, from its options (``MatchCreated.options``): its summary,
terms and words built from what the host designed."""


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
    :param step_names: what a step of each kind is called ("the EC vote"; ``{n}``: its number).
    :param terms: the game's own words, each with its meaning (the dealer room's glossary).
    :param seat_picture: draws a moment from a player's seat (``None``: ``picture``).
        Regions a player taps carry ``data-hit="<accessible name>"`` in either drawing.
    :param for_you: what the latest resolved step did to a player.
    :param default_for_you: ends "If you send nothing by the deadline, ...".
    :param decision_words: a pending decision, for its decider or for anyone waiting.
    :param result_words: the final result.
    :param seat_words: a player's own situation (colour, hand, sequence, holdings).
    :param progress: how far the match has come, in rounds and turns (the host console).
    :param default_decision: what a pending decision's default does (the host console).
    :param designed: the presentation of one match from its options, for a game whose words
        follow the host's own design (``None``: every match is presented alike); see
        :func:`web.games.for_match`.
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
    step_names: Mapping[str, str] = field(default_factory=dict)
    terms: tuple[tuple[str, str], ...] = ()
    seat_picture: SeatDrawing | None = None
    for_you: YouTelling = generic.for_you
    default_for_you: YouDefaulting = generic.default_for_you
    decision_words: DecisionTelling = generic.decision_words
    result_words: ResultTelling = generic.result_words
    seat_words: SeatTelling = generic.seat_words
    progress: Progressing = generic.progress
    default_decision: DecisionDefaulting = generic.default_decision
    designed: Designing | None = None


def no_chart(records: Sequence[Record]) -> Series | None:  # noqa: ARG001 - the Charting interface
    """No chart: the picture says it all."""
    return None
