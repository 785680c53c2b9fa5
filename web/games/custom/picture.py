"""A custom game's picture: the points, then a results table with a row per round.

Each row says the round, each player's value as far as it is disclosed (the judged field's
value from the outcome, or the revealed pick; "sealed" while the picks stay sealed until
the end), the winners starred, and the host's note under a declared round. The rows are
the log's resolved steps; the latest rounds are shown when there are many.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from domain.record_text import names
from web import chart, svg
from web.games.custom.account import values_of, winners_of
from web.games.custom.design import design_of, pick_words, played_rounds, quoted, value_words
from web.games.words import plural

if TYPE_CHECKING:
    from collections.abc import Sequence

    from markupsafe import Markup

    from domain.public_log import PublicStep
    from web.games.custom.design import Design
    from web.games.record import Moment, Record

WIDTH = 480  # narrow, so that a phone shows its text at a readable size
SHOWN_ROUNDS = 10  # the latest rounds drawn; the timeline steps through the others
SIZE = 14  # the rows' text
LINE = 19  # one line of a row's text
PICKS_X, PICKS_W = 84, 250
WINNERS_X, WINNERS_W = 344, 122


def _picks(design: Design, step: PublicStep, players: Sequence[str]) -> list[str]:
    """Each player's value in the round, as far as disclosed, as lines to draw.

    Values of the judged field share lines ("ana: 3 · ben: 5 · cai —"); whole picks (a round
    the host judges) take a line or two each.
    """
    values = values_of(design, step) if design.judged is not None else {}
    shown, whole = [], False
    for player in players:
        if player in values:
            shown.append(f"{player}: {value_words(design.judged, values[player])}")
        elif player in step.reveals:
            shown.append(f"{player}: {pick_words(design, step.reveals[player].payload)}")
            whole = True
        elif player in step.defaults:
            shown.append(f"{player} —")
    if not shown:
        return ["sealed until the match ends" if design.disclosure == "at-end" else "no picks"]
    if whole:
        return [line for one in shown for line in svg.wrap(one, PICKS_W, SIZE, lines=2)]
    return svg.wrap(" · ".join(shown), PICKS_W, SIZE, lines=3)


def _standings(m: Moment, y: int) -> tuple[list[Markup], int]:
    """Each player's points, as name tags across the picture, wrapping."""
    points = m.view.get("points") or {}
    body: list[Markup] = []
    x = 16.0
    for player in m.players:
        count = points.get(player, 0)
        words = f"{svg.short(player, 14)} {count}"
        width = svg.text_width(words, 14, bold=True) + 34
        if x + width > WIDTH - 16:
            x, y = 16.0, y + 24
        body.append(
            svg.group(
                svg.name_tag(x, y, player, m.colours[player], player=player, size=14, bold=True),
                svg.text(x + width - 16, y, count, size=14, anchor="end", bold=True),
                class_="points",
                data_player=player,
                data_points=count,
            )
        )
        x += width + 12
    return body, y + 20


def _row(design: Design, step: PublicStep, players: Sequence[str], y: int, *, shade: bool) -> Any:
    """One round's row; returns the row and its height."""
    picks = _picks(design, step, players)
    won = winners_of(step.outcome or {})
    winners = svg.wrap(f"★ {names(won)}" if won else "nobody", WINNERS_W, SIZE, bold=True)
    note = str((step.outcome or {}).get("note") or "").strip()
    wide = WIDTH - PICKS_X - 16
    notes = svg.wrap(f"host's note: {quoted(note, 500)}", wide, SIZE, lines=3) if note else []
    lines = max(len(picks), len(winners))
    height = (lines + len(notes)) * LINE + 10
    parts = [
        svg.rect(12, y, WIDTH - 24, height, fill="#efece3" if shade else "#ffffff"),
        svg.text(20, y + 18, str(step.number), size=SIZE, bold=True),
    ]
    parts += [svg.text(PICKS_X, y + 18 + i * LINE, t, size=SIZE) for i, t in enumerate(picks)]
    parts += [
        svg.text(WINNERS_X, y + 18 + i * LINE, t, size=SIZE, bold=True)
        for i, t in enumerate(winners)
    ]
    parts += [
        svg.text(PICKS_X, y + 18 + (lines + i) * LINE, t, size=SIZE, fill=svg.MUTED)
        for i, t in enumerate(notes)
    ]
    parts.append(svg.el("title", f"Round {step.number}: winners {names(won)}"))
    return (
        svg.group(*parts, class_="round", data_round=step.number, data_winners=",".join(won)),
        height,
    )


def _heading(design: Design, m: Moment) -> str:
    played = played_rounds(m.view)
    head = design.title or "Custom game"
    if m.view.get("finished"):
        won = [str(w) for w in m.view.get("winners") or ()]
        ending = f" · won by {names(won)}" if won else " · over"
        room = WIDTH - 32 - svg.text_width(ending, 17, bold=True)
        if svg.text_width(head, 17, bold=True) > room:  # the title before the winners' names
            ending = " · over"  # (the table and the page's result name them)
    elif design.rounds:
        ending = f" · round {min(played + 1, design.rounds)} of {design.rounds}"
    else:
        ending = ""
    return svg.fit(head, WIDTH - 32 - svg.text_width(ending, 17, bold=True), 17, bold=True) + ending


def draw(m: Moment) -> tuple[str, int, list[Markup]]:
    """Draw the points and the results table of the rounds resolved so far."""
    design = design_of(m.log.options)
    body, y = _standings(m, 76)
    done = [s for s in m.log.steps.values() if s.resolved_seq is not None]
    y += 8
    body += [
        svg.text(20, y, "Round", size=12, fill=svg.MUTED),
        svg.text(PICKS_X, y, "Picks", size=12, fill=svg.MUTED),
        svg.text(WINNERS_X, y, "Winners", size=12, fill=svg.MUTED),
    ]
    y += 8
    if len(done) > SHOWN_ROUNDS:
        earlier = len(done) - SHOWN_ROUNDS
        body.append(
            svg.text(20, y + 16, f"{plural(earlier, 'earlier round')} on the timeline", size=12)
        )
        y += 24
    for i, step in enumerate(done[-SHOWN_ROUNDS:]):
        row, height = _row(design, step, m.players, y, shade=i % 2 == 0)
        body.append(row)
        y += height
    if not done:
        body.append(svg.text(20, y + 18, "No round resolved yet.", size=13, fill=svg.MUTED))
        y += 26
    return _heading(design, m), y + 8, body


def series(records: Sequence[Record]) -> chart.Series | None:
    """Each player's points after every round."""
    found = chart.view_series(records, "points", "points")
    return None if found is None else replace(found, axis="round")
