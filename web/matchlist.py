"""The match list in words: what the front page and ``GET /api/matches`` say of each match.

The read model (:meth:`service.readmodel.MatchIndex.matches`) projects the public records;
this module says the row in plain words: the game's display name, the match's title, a
human status ("Turn 12 open", "Waiting for the host", "Finished: ben wins with 66 points")
with the deadline a page counts down to, and the winners. The page and the API call the
same function, :func:`listing`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from web import games

MOST_PLAYERS_SHOWN = 8

# What a step of each kind is called when its game's presentation does not say ("turn 12").
_STEP_WORDS = {
    "turn": "turn {n}",
    "round": "round {n}",
}


def step_words(kind: str | None, number: Any, game: str = "") -> str:
    """A step by its kind and number, in words: the game's name for it, else a generic one.

    >>> step_words("turn", 12), step_words("bid", 2), step_words(None, 3)
    ('turn 12', 'step 2', 'step 3')
    """
    named = games.presentation(game).step_names.get(kind or "") if game else None
    template = named or _STEP_WORDS.get(kind or "", "step {n}")
    return template.format(n=number)


def iso(value: Any) -> Any:
    """A stored time as RFC 3339 text in UTC (SQLite gives it back without its zone).

    >>> iso(datetime(2026, 11, 21, 20, 0)), iso("2026-11-21T20:00:00+00:00"), iso(None)
    ('2026-11-21T20:00:00+00:00', '2026-11-21T20:00:00+00:00', None)
    """
    if isinstance(value, datetime):
        aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        return aware.astimezone(UTC).isoformat()
    return value


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def result_headline(game: str, result: Any, players: list[str]) -> str:
    """The first sentence of the game's result words, without its full stop."""
    if not isinstance(result, dict):
        return ""
    try:
        words = games.presentation(game).result_words(result, players)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError):  # a forged import
        return ""
    return words[0].rstrip(".") if words else ""


def status_words(row: dict[str, Any]) -> tuple[str, str | None]:
    """Where the match stands in words, and the deadline that counts (ISO text, or none).

    A page adds the time left to the words: "Turn 12 open, 1:32 left".
    """
    settings = row.get("settings") or {}
    step = step_words(row.get("step_kind"), row.get("step"), row.get("game") or "")
    deadline = iso(row.get("due_at"))
    status = row.get("status")
    if row.get("ended") is not None or status == "ended":
        reason = row.get("ended")
        return (f"Ended early: {reason}" if reason else "Ended early"), None
    if status == "finished":
        headline = result_headline(row["game"], row.get("result"), row.get("players") or [])
        return (f"Finished: {headline}" if headline else "Finished"), None
    if status == "open":
        return f"{_capital(step)} open", deadline if row.get("due_kind") == "seal" else None
    if status == "deciding":
        who = row.get("decider") or "a player"
        words = f"{_capital(step)}: waiting for {who} to decide"
        return words, deadline if row.get("due_kind") == "decision" else None
    if status == "sealed":
        return f"{_capital(step)} sealed, being resolved", None
    players = row.get("players") or []
    claimed = len([p for p in row.get("claimed") or [] if p in players])
    if status == "created" and settings.get("auto_open") and claimed < len(players):
        return f"Waiting for the players: {claimed} of {len(players)} seats claimed", None
    if status == "resolved" and settings.get("auto_open"):
        return f"{_capital(step)} done; the next opens by itself", None
    return "Waiting for the host", None


def players_words(players: list[str]) -> str:
    """The players in seat order, the first few of a long list.

    >>> players_words(["ana", "ben"]), players_words([str(n) for n in range(10)])
    ('ana, ben', '0, 1, 2, 3, 4, 5, 6, 7 and 2 more')
    """
    if len(players) <= MOST_PLAYERS_SHOWN:
        return ", ".join(players)
    shown = ", ".join(players[:MOST_PLAYERS_SHOWN])
    return f"{shown} and {len(players) - MOST_PLAYERS_SHOWN} more"


def is_over(row: dict[str, Any]) -> bool:
    """Whether the match is over: finished by its rules or ended early by its host."""
    return row.get("status") in ("finished", "ended") or row.get("ended") is not None


def winner_words(row: dict[str, Any]) -> str:
    """The winner column: the winners, "no winner" once over without one, else empty."""
    winners = row.get("winners") or []
    if winners:
        return ", ".join(winners)
    return "no winner" if is_over(row) else ""


def listing(row: dict[str, Any]) -> dict[str, Any]:
    """A row of the match list with its words, JSON-ready (times as ISO text).

    Keeps the projected fields (the result itself is left out: the words say it) and adds
    ``display_name``, ``title``, ``status_words``, ``deadline``, ``live``, ``winner_words``
    and ``players_words``.
    """
    words, deadline = status_words(row)
    shown = games.display_name(row["game"])
    out = {k: iso(v) for k, v in row.items() if k != "result"}
    out |= {
        "display_name": shown,
        # the host's name for the match, else a custom design's title, else "<game> match"
        "title": row.get("name") or row.get("title") or f"{shown} match",
        "status_words": words,
        "deadline": deadline,
        "live": not is_over(row),
        "winners": row.get("winners") or [],
        "winner_words": winner_words(row),
        "players_words": players_words(row.get("players") or []),
    }
    return out
