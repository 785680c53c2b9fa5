"""One describer of a public record in words: what the timeline page and the CLI say of it.

>>> describe({"seq": 5, "type": "StepSealed", "at": "T",
...           "data": {"actor": "host", "step": 1, "submitted": ["ana"], "missing": ["ben"]}})
'sealed; missing: ben'
>>> describe({"seq": 9, "type": "SeatReinvited", "at": "T",
...           "data": {"actor": "host", "player": "ben"}}, short=True)
"the host issued a new invite for ben's seat"
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping


def describe(record: Mapping[str, Any], *, short: bool = False) -> str:
    """Say in words what a public record says (the timeline's last column).

    ``short`` gives the same text without its explanation (what comes after ``"; "``), for
    a one-line table such as ``dealerroom timeline``. A record of an unknown type is named
    by its type.
    """
    data = record.get("data")
    kind = str(record.get("type"))
    make = _TEXTS.get(kind)
    if make is None or not isinstance(data, dict):
        return kind
    text = make(data)
    if short and kind in _EXPLAINED:
        text = text.split("; ", 1)[0]
    return text


def _match_created(data: Mapping[str, Any]) -> str:
    players = data.get("players")
    return f"{data.get('game')} for " + ", ".join(
        map(str, players) if isinstance(players, list) else []
    )


def _seat_claimed(data: Mapping[str, Any]) -> str:
    key = " and registered a signing key" if data.get("public_key") else " (no signing key)"
    return f"{data.get('player')} claimed their seat{key}"


def _step_opened(data: Mapping[str, Any]) -> str:
    deadline = f", deadline {data['deadline']}" if data.get("deadline") else ""
    return f"step {data.get('step')} opened{deadline}"


def _step_sealed(data: Mapping[str, Any]) -> str:
    missing = data.get("missing")
    names = ", ".join(map(str, missing)) if isinstance(missing, list) else ""
    return "sealed; missing: " + (names or "nobody")


_TEXTS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "MatchCreated": _match_created,
    "SeedCommitted": lambda d: f"host seed committed: hash {str(d.get('seed_hash', ''))[:16]}…",
    "SeatClaimed": _seat_claimed,
    "SeatReinvited": lambda d: (
        f"the host issued a new invite for {d.get('player')}'s seat; "
        "the old one and its credential no longer work"
    ),
    "PlayerJoined": lambda d: (
        f"{d.get('player')} joined" + (" with entropy" if d.get("entropy") else "")
    ),
    "StepOpened": _step_opened,
    "SubmissionCommitted": lambda d: (
        f"{d.get('player')} committed" + (" (amended)" if d.get("supersedes") else "")
    ),
    "StepSealed": _step_sealed,
    "DefaultApplied": lambda d: f"{d.get('player')} gets the default ({d.get('reason')})",
    "OpeningReceived": lambda d: f"{d.get('player')} opened their commitment",
    "SubmissionRevealed": lambda d: f"{d.get('player')} revealed",
    "DecisionRequested": lambda d: f"{d.get('player')} is asked: {d.get('kind')}",
    "DecisionMade": lambda d: (
        f"{d.get('player')} decided" + (" (default)" if d.get("defaulted") else "")
    ),
    "StepResolved": lambda d: f"step {d.get('step')} resolved",
    "MatchFinished": lambda _: "the match finished",
    "DealRevealed": lambda d: f"the private deal of step {d.get('step')} is disclosed",
    "SeedRevealed": lambda _: "the host seed is disclosed",
}
# The texts whose part after "; " explains rather than says (left out of the short form).
_EXPLAINED = frozenset({"SeatReinvited"})

__all__ = ["describe"]
