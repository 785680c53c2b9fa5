"""Pictures, score charts and resolution accounts of a match, from its public records.

Three pure functions the timeline page calls with the records it already has (the
public records of ``docs/PROTOCOL.md`` section 3, oldest first, ``seq`` equal to the
position):

* :func:`picture` draws the public game state just after one record as an inline SVG;
* :func:`chart` draws each player's points or score after every step as a line chart;
* :func:`account` tells what happened in one step, in plain sentences.

What is drawn, plotted and said of a game is its presentation folder's
(:mod:`web.games`); a game with none gets a table of its public view, a chart of a
score-like view entry and its records in JSON, so a new game never breaks the page. This
module adds what every game shares: the heading and status line of a picture, the
fallback when a damaged log gives a game's drawing something it cannot read, and the
account's frame (the step, its defaults, decisions and what is still awaited).

Everything shown comes from the public records: the state is the public view replayed by
:class:`replay.state.MatchReplay` (while a step's picks are sealed, the view the log
recorded), and the extras (the last turn's moves, revealed cards, decisions) are read from
the records of that step. The SVG is built with :mod:`web.svg`, so every name and value is
escaped, and it carries no ``style`` attribute.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from markupsafe import Markup

from domain.public_log import PublicLog
from domain.record_text import label, names, pick_words
from domain.vocabulary import StepStatus
from web import chart as charts
from web import games, svg
from web.games import generic
from web.games.record import game_of, moment_at, pending

if TYPE_CHECKING:
    from collections.abc import Sequence

    from domain.public_log import Default
    from replay.state import MatchReplay
    from web.games.base import Presentation
    from web.games.record import Moment, Record

__all__ = ["account", "chart", "picture", "standing"]


def standing(log: PublicLog) -> str:
    """Where the match stands after the records folded into ``log``, in a few words.

    "step 3 open: 2 of 3 picks sealed", "step 3 sealed: revealing and resolving",
    "step 3: waiting for cai to decide", "step 3 resolved", "the match is over"; the words
    follow the step's own status, so a sealed step is never said to be open.
    """
    step = log.current
    if log.finished:
        return "the match is over"
    if step is None:
        return "no step opened yet"
    number = step.number
    if step.status is StepStatus.OPEN:
        sealed, asked = len(step.commitments), len(step.submitters)
        return f"step {number} open: {sealed} of {asked} picks sealed"
    if step.status is StepStatus.RESOLVED:
        return f"step {number} resolved"
    request = step.pending_request
    if request is not None:
        return f"step {number}: waiting for {request.player} to decide"
    opening = step.awaiting_openings(log.custody)
    if opening:
        return f"step {number} sealed: waiting for {names(list(opening))} to open their picks"
    return f"step {number} sealed: revealing and resolving"


def _status(m: Moment, *, seat: bool = False) -> str:
    """One line under the title: where in the log we are (in a room: only the step under way)."""
    now = standing(m.log)
    if seat:
        step = m.open_step
        return now[:1].upper() + now[1:] if step is not None else ""
    return f"after record {m.seq} ({label(m.record_type).lower()}) · {now}"


def _kind(game: str) -> str:
    """The game's name as a CSS class (``dr-<kind>``), when it is a safe one."""
    return game if re.fullmatch(r"[a-z0-9-]{1,40}", game) else "game"


def picture(
    records: Sequence[Record],
    seq: int,
    *,
    board: MatchReplay | None = None,
    seat: str | None = None,
) -> Markup:
    """Draw the public state just after record ``seq`` as an inline ``<svg>``.

    ``records`` are a match's public records, oldest first; ``board`` may pass a
    :class:`~replay.state.MatchReplay` of the same records to reuse across calls. The game is
    dispatched on ``MatchCreated.game``; a game without a drawing here (or a view it cannot
    draw) is shown as a table of the public view, so a new game never breaks the page.

    ``seat`` draws it from that player's seat (the game's ``seat_picture``, when it has one).

    :raises ValueError: when ``records`` is empty.
    :raises IndexError: when there is no record ``seq``.
    """
    m = moment_at(records, seq, board)
    shown = games.presentation(m.game)
    drawing, width = shown.picture, shown.width
    try:
        if seat is not None and shown.seat_picture is not None:
            head, height, body = shown.seat_picture(m, seat)
        else:
            head, height, body = drawing(m)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        drawing, width = generic.table, generic.WIDTH
        head, height, body = drawing(m)
    status = _status(m, seat=seat is not None)
    label = f"{head} ({status})" if status else head
    return svg.root(
        f"dr-picture dr-{_kind(m.game)}",
        width,
        int(height) + 8,
        label,
        svg.text(16, 26, head, size=17, bold=True, class_="heading"),
        svg.text(16, 44, svg.fit(status, width - 32, 12), size=12, fill=svg.MUTED),
        *body,
    )


def chart(records: Sequence[Record]) -> Markup:
    """Draw each player's points or score after every step as an SVG line chart.

    What is plotted is the game's (6 nimmt!: points; Picking Nine: best Quattro score;
    Apocalypse: pieces on the board; Grid Adaptation: each player's score once the match has
    revealed who held which sequence, before that the eight sequences' scores). A vote has
    one step, so its chart is an empty ``Markup`` (the picture's bars show the tally); so is
    the chart of any match with nothing to plot yet.

    :raises ValueError: when ``records`` is empty.
    """
    game, players = game_of(records)
    try:
        series = games.presentation(game).series(records)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        series = None  # a damaged log: no chart rather than a broken page
    return Markup("") if series is None else charts.draw(series, players)


def _default_words(shown: Presentation, default: Default) -> str:
    """Who got the default pick, why, and what it means in the game."""
    why = (
        "did not open their commitment in time"
        if default.reason == "not-revealed"
        else "submitted nothing"
    )
    return f"{default.player} {why}, {shown.default(default.payload or {})}."


def account(records: Sequence[Record], step: int) -> list[str]:
    """Tell what happened in step ``step`` in plain sentences, from the public records alone.

    The picks revealed, the defaults applied, the decisions made and the outcome the
    rules recorded, in resolution order; for a step still open, what is public so far. The
    sentences are plain text (escape them when rendering, as Jinja does). A step that never
    opened gives ``[]``.

    :raises ValueError: when ``records`` is empty.
    """
    game, players = game_of(records)
    log = PublicLog.of(records)
    shown = games.for_match(game, log.options)
    found = log.step(step)
    if found is None:
        return []
    words = [f"Step {step} ({found.kind or 'step'})."]
    told: list[str] = []
    try:
        opening = shown.opening(found)
        shown.account(found, players, told)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        # A record this game's account cannot read (a damaged log): tell it as it is.
        opening, told = [], []
        generic.account(found, players, told)
    words += opening
    if found.resolved_seq is None:
        sealed = (
            f"{len(found.reveals)} revealed"
            if found.reveals
            else "they stay sealed until the rules reveal them"
        )
        words.append(
            f"The step is not resolved yet: {len(found.commitments)} of "
            f"{len(found.submitters)} picks committed, {sealed}."
        )
    words += [_default_words(shown, d) for d in found.defaults.values()]
    words += told
    if not shown.tells_decisions:
        for decision in found.decisions:
            words.append(f"{decision.player} decided: {pick_words(decision.payload)}.")
    for request in pending(found):
        kind = str(request.kind or "a decision").replace("-", " ")
        words.append(
            f"Waiting for {request.player} to decide ({kind}); if not in time: "
            f"{pick_words(request.default)}."
        )
    return words
