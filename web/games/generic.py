"""The presentation of a game without a folder of its own: a table, a guess, its records.

The picture is the public view as a key/value table; the chart plots the first view entry
that maps every player to a number (one named like a score first); the account lists the
revealed picks and the outcome's entries as JSON. A new game is thus drawn, charted and
told before anyone writes its folder, and a game's own drawing falls back to these when a
damaged log gives it something it cannot read.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from web import chart, svg
from web.games.record import game_of, revealed, seated

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from markupsafe import Markup

    from domain.public_log import PublicStep
    from web.games.record import Moment, Record

WIDTH = 800


def table(m: Moment) -> tuple[str, int, list[Markup]]:
    """Any game: the public view as a key/value table."""
    body: list[Markup] = []
    y = 64
    for i, (key, value) in enumerate(m.view.items()):
        row_y = y + i * 24
        body.append(
            svg.group(
                svg.rect(12, row_y - 16, 776, 22, fill="#ffffff" if i % 2 else "#efece3"),
                svg.text(20, row_y, svg.short(key, 22), bold=True, size=13),
                svg.text(
                    200,
                    row_y,
                    svg.short_json(value),
                    size=13,
                    font_family="'DejaVu Sans Mono', monospace",
                ),
                svg.el("title", f"{key}: {svg.short_json(value, 2000)}"),
                class_="entry",
                data_key=key,
            )
        )
    if not m.view:
        body.append(svg.text(20, y, "No public state yet.", fill=svg.MUTED, size=13))
    return f"{m.game} · public state", y + max(len(m.view), 1) * 24, body


def series(records: Sequence[Record]) -> chart.Series | None:
    """For another game: the first view entry that maps every player to a number."""
    _, players = game_of(records)
    views = [d.get("view") or {} for d in chart.resolved(records)]
    if not views or not players:
        return None
    keys = sorted(views[-1], key=lambda k: not re.search("score|point", str(k)))
    for key in keys:  # an entry named like a score first
        value = views[-1][key]
        if (
            isinstance(value, dict)
            and set(players) <= set(value)
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value.values())
        ):
            return chart.view_series(records, key, key.replace("_", " "))
    return None


def account(step: PublicStep, players: Sequence[str], game_words: list[str]) -> None:
    """Each revealed pick and each entry of the outcome, as JSON."""
    for player, pick in seated(players, revealed(step)):
        game_words.append(f"{player}'s pick: {svg.short_json(pick, 300)}.")
    if step.resolved_seq is not None:
        for key, value in (step.outcome or {}).items():
            game_words.append(f"{key}: {svg.short_json(value, 300)}.")


def default(payload: Mapping[str, Any]) -> str:
    """The default pick, as JSON."""
    return f"so the default pick {svg.short_json(payload)} applies"


def no_opening(step: PublicStep) -> list[str]:  # noqa: ARG001 - the Opening interface
    """Nothing to say about how a step opened."""
    return []


def for_you(step: PublicStep, player: str) -> list[str]:
    """What the step did to ``player``: the pick of theirs it revealed, and whether it defaulted."""
    words = []
    picks = revealed(step)
    if player in step.defaults:
        words.append("You sent nothing in time, so the default pick applied.")
    elif player in picks:
        words.append(f"Your pick, now revealed: {svg.short_json(picks[player], 200)}.")
    return words


def default_for_you(payload: Mapping[str, Any]) -> str:
    """The default pick, for the player it would be applied to."""
    return f"the game's default pick applies ({svg.short_json(payload, 200)})"


def decision_words(decision: Mapping[str, Any], viewer: str) -> str:
    """A decision asked of ``decision["player"]``, said to its decider or to another player."""
    kind = str(decision.get("kind") or "decision").replace("-", " ")
    if decision.get("player") == viewer:
        return f"The rules ask you to decide: {kind}."
    return f"Waiting for {decision.get('player')} to decide: {kind}."


def result_words(result: Mapping[str, Any], players: Sequence[str]) -> list[str]:
    """A result with ``winners``: who won; anything else entry by entry."""
    del players
    winners = result.get("winners")
    if isinstance(winners, list) and winners:
        names = ", ".join(str(w) for w in winners)
        return [f"Winner: {names}." if len(winners) == 1 else f"Tied winners: {names}."]
    return [f"{str(k).replace('_', ' ')}: {svg.short_json(v, 200)}." for k, v in result.items()]


def seat_words(public: Mapping[str, Any], private: Mapping[str, Any], player: str) -> list[str]:
    """What only ``player`` sees, entry by entry."""
    del public, player
    return [
        f"Your {str(k).replace('_', ' ')}: {svg.short_json(v, 200)}." for k, v in private.items()
    ]


def _choice_words(value: Any) -> str:
    """A decision's payload in words: ``{"row": 2}`` is "row 2"."""
    if isinstance(value, dict):
        parts = [
            f"{str(k).replace('_', ' ')} {_choice_words(v)}"
            for k, v in value.items()
            if v is not None
        ]
        return "; ".join(parts) if parts else "nothing"
    if isinstance(value, list):
        return ", ".join(_choice_words(v) for v in value) if value else "none"
    return svg.short(str(value), 80)


def default_decision(decision: Mapping[str, Any], default: Any) -> tuple[str, str]:
    """The default choice made for the decider, before and after it is applied."""
    who = str(decision.get("player"))
    choice = _choice_words(default)
    return (
        f"{who} will get the default choice, {choice}",
        f"{who} got the default choice, {choice}",
    )


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def progress(view: Mapping[str, Any], under_way: bool) -> str:  # noqa: FBT001 - the interface
    """The view's count of rounds (or turns) played, and the one under way.

    >>> progress({"round": 1}, True), progress({"turn": 4}, False), progress({}, True)
    ('round 2 under way', 'after turn 4', '')
    """
    for key in ("turn", "round"):
        played = _count(view.get(key))
        if played is None:
            continue
        if under_way:
            return f"{key} {played + 1} under way"
        return f"after {key} {played}" if played else f"before the first {key}"
    return ""
