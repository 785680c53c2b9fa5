"""One describer of a public record in words: what the timeline page and the CLI say of it.

:func:`describe` says what a record says (the timeline's "What happened" column, the CLI's
``dealerroom timeline``); :func:`sentence` is the same words as a sentence (the page's
"what changed"); :func:`label` names a record's type for people ("Pick revealed" for
``SubmissionRevealed``); :func:`pick_words` says a pick in words ("card 39").

>>> describe({"seq": 5, "type": "StepSealed", "at": "T",
...           "data": {"actor": "host", "step": 1, "submitted": ["ana"], "missing": ["ben"]}})
'step 1 sealed: no more picks; ben sent nothing'
>>> describe({"seq": 9, "type": "SeatReinvited", "at": "T",
...           "data": {"actor": "host", "player": "ben"}}, short=True)
"the host issued a new invite for ben's seat"
>>> sentence({"seq": 7, "type": "SubmissionRevealed", "at": "T",
...           "data": {"player": "ana", "payload": {"card": 39}}})
"ana's pick is revealed: card 39."
>>> label("SubmissionRevealed"), label("Unheard")
('Pick revealed', 'Unheard')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from domain.rules import UnknownGame, get_rules

if TYPE_CHECKING:
    from collections.abc import Callable

_SHORT_HASH = 16


def describe(record: Mapping[str, Any], *, short: bool = False) -> str:
    """Say in words what a public record says (the timeline's "What happened" column).

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


def sentence(record: Mapping[str, Any]) -> str:
    """:func:`describe`'s words as a sentence: a capital first letter, a full stop.

    A text that starts with a player's name keeps it as it is written (names are case
    sensitive).
    """
    text = describe(record)
    data = record.get("data")
    player = data.get("player") if isinstance(data, dict) else None
    if not (isinstance(player, str) and player and text.startswith(player)):
        text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?", "…")) else f"{text}."


def label(kind: str) -> str:
    """A record type in words ("Step opened"); an unknown type is named as it is."""
    return _LABELS.get(kind, kind)


def pick_words(payload: Any, limit: int = 200) -> str:
    """A pick (a revealed payload, a decision) in words: ``{"card": 39}`` is "card 39".

    Each field is named as it is (underscores as spaces) and followed by its value; lists
    are joined by commas; empty fields (``null``) are left out.

    >>> pick_words({"wants": ["Y4", "0"], "ban": "G7", "priority": 1, "flip": None})
    'wants Y4, 0; ban G7; priority 1'
    >>> pick_words({"from": "b1", "to": "b2"}), pick_words(None), pick_words(7)
    ('from b1; to b2', 'nothing', '7')
    """
    text = _words(payload)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _words(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        parts = [
            f"{str(key).replace('_', ' ')} {_words(item)}"
            for key, item in value.items()
            if item is not None
        ]
        return "; ".join(parts) if parts else "nothing"
    if isinstance(value, list | tuple):
        return ", ".join(_words(item) for item in value) if value else "none"
    return str(value)


def names(items: Any) -> str:
    """Names joined as people write them: "ana", "ana and ben", "ana, ben and cai".

    >>> names(["ana"]), names(["ana", "ben", "cai"]), names([])
    ('ana', 'ana, ben and cai', 'nobody')
    """
    shown = [str(i) for i in items] if isinstance(items, list | tuple) else []
    if not shown:
        return "nobody"
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def time_words(at: Any) -> str:
    """An RFC 3339 time as people read it in UTC: ``2026-11-21 20:01 UTC``.

    >>> time_words("2026-11-21T20:01:06.000000Z"), time_words(None)
    ('2026-11-21 20:01 UTC', '')
    """
    if not isinstance(at, str):
        return ""
    found = re.fullmatch(r"(\d{4}-\d\d-\d\d)T(\d\d:\d\d).*", at)
    return f"{found.group(1)} {found.group(2)} UTC" if found else at


def game_name(game: Any, options: Any = None) -> str:
    """The game's name for people ("6 nimmt!", a custom design's title), or its wire name.

    ``options`` are the match's (a custom game is named by its design); without them, or
    for a game no rules here know, the game's own name.
    """
    try:
        rules = get_rules(str(game))
    except UnknownGame:
        return str(game)
    return rules.display_name_for(options if isinstance(options, Mapping) else None)


def _match_created(data: Mapping[str, Any]) -> str:
    shown = game_name(data.get("game"), data.get("options"))
    return f"a match of {shown} for {names(data.get('players'))}"


def _seat_claimed(data: Mapping[str, Any]) -> str:
    key = " and registered a signing key" if data.get("public_key") else " (no signing key)"
    return f"{data.get('player')} claimed their seat{key}"


def _step_opened(data: Mapping[str, Any]) -> str:
    deadline = f", deadline {time_words(data['deadline'])}" if data.get("deadline") else ""
    return f"step {data.get('step')} opened{deadline}"


def _step_sealed(data: Mapping[str, Any]) -> str:
    missing = data.get("missing")
    if isinstance(missing, list) and missing:
        return f"step {data.get('step')} sealed: no more picks; {names(missing)} sent nothing"
    return f"step {data.get('step')} sealed: every pick is in"


def _default_applied(data: Mapping[str, Any]) -> str:
    why = (
        "did not open their commitment in time"
        if data.get("reason") == "not-revealed"
        else "sent nothing"
    )
    pick = pick_words(data.get("payload"))
    return f"{data.get('player')} {why}, so the default pick applies: {pick}"


def _committed(data: Mapping[str, Any]) -> str:
    if data.get("supersedes"):
        return f"{data.get('player')} replaced their sealed pick with a new one"
    return f"{data.get('player')} sealed a pick (only its commitment is public)"


def _decision_requested(data: Mapping[str, Any]) -> str:
    kind = str(data.get("kind") or "a decision").replace("-", " ")
    default = data.get("default")
    told = f" (if not in time: {pick_words(default)})" if default is not None else ""
    return f"{data.get('player')} must decide: {kind}{told}"


def _decision_made(data: Mapping[str, Any]) -> str:
    if data.get("defaulted"):
        return f"{data.get('player')} did not decide in time: {pick_words(data.get('payload'))}"
    return f"{data.get('player')} decided: {pick_words(data.get('payload'))}"


_TEXTS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "MatchCreated": _match_created,
    "SeedCommitted": lambda d: (
        "the host committed to a secret seed for the deals: hash "
        f"{str(d.get('seed_hash', ''))[:_SHORT_HASH]}…"
    ),
    "SeatClaimed": _seat_claimed,
    "SeatReinvited": lambda d: (
        f"the host issued a new invite for {d.get('player')}'s seat; "
        "the old one and its credential no longer work"
    ),
    "PlayerJoined": lambda d: (
        f"{d.get('player')} joined" + (", adding entropy to the deals" if d.get("entropy") else "")
    ),
    "StepOpened": _step_opened,
    "SubmissionCommitted": _committed,
    "StepSealed": _step_sealed,
    "DefaultApplied": _default_applied,
    "OpeningReceived": lambda d: f"{d.get('player')} opened their commitment",
    "SubmissionRevealed": lambda d: (
        f"{d.get('player')}'s pick is revealed: {pick_words(d.get('payload'))}"
    ),
    "DecisionRequested": _decision_requested,
    "DecisionMade": _decision_made,
    "StepResolved": lambda d: f"step {d.get('step')} resolved by the rules",
    "MatchFinished": lambda _: "the match is over",
    "MatchEnded": lambda d: (
        "the host ended the match early" + (f": {d['reason']}" if d.get("reason") else "")
    ),
    "DealRevealed": lambda d: f"the private deal of step {d.get('step')} is disclosed",
    "SeedRevealed": lambda _: "the host's seed is disclosed: anyone can recompute every deal",
}
# The texts whose part after "; " explains rather than says (left out of the short form).
_EXPLAINED = frozenset({"SeatReinvited"})

_LABELS = {
    "MatchCreated": "Match created",
    "SeedCommitted": "Seed committed",
    "SeatClaimed": "Seat claimed",
    "SeatReinvited": "Seat re-invited",
    "PlayerJoined": "Player joined",
    "StepOpened": "Step opened",
    "SubmissionCommitted": "Pick sealed",
    "StepSealed": "Step sealed",
    "DefaultApplied": "Default applied",
    "OpeningReceived": "Commitment opened",
    "SubmissionRevealed": "Pick revealed",
    "DecisionRequested": "Decision asked",
    "DecisionMade": "Decision made",
    "StepResolved": "Step resolved",
    "MatchFinished": "Match over",
    "MatchEnded": "Match ended early",
    "DealRevealed": "Deal disclosed",
    "SeedRevealed": "Seed disclosed",
}

__all__ = ["describe", "game_name", "label", "names", "pick_words", "sentence", "time_words"]
