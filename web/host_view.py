"""What the host console shows, in one answer: the table, where the match stands, the words.

The console asks for this whenever it refreshes (``GET /api/matches/<id>/host/view``, the
host's only). Everything in it is public, as the dealer room's table is: the match's status
(who has sent a pick, never what), the picture of the public state at the latest record, and
sentences the game's presentation (``web/games/<game>/``) says in plain words: where the
match stands, the scores, how the match runs itself, what sealing now or applying a
decision's default would do, what the last step did, the result and an early end's reason.
The console adds only what it asks the host (the deadline of a step it opens) and the
buttons.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.public_log import PublicLog
from domain.record_text import pick_words
from domain.vocabulary import StepStatus
from web import games
from web.extension import service
from web.games.record import moment_at
from web.pictures import account, picture
from web.timeline import replay_of

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from replay.state import MatchReplay
    from web.games.base import Presentation
    from web.games.record import Record

__all__ = ["duration_words", "host_view", "names"]

_DRAWING_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError)
MINUTE, HOUR, DAY = 60, 3600, 86400


def names(items: Sequence[str]) -> str:
    """Names as people write them: "ana", "ana and ben", "ana, ben and cai".

    >>> names(["ana"]), names(["ana", "ben", "cai"]), names([])
    ('ana', 'ana, ben and cai', 'nobody')
    """
    shown = [str(i) for i in items]
    if not shown:
        return "nobody"
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def duration_words(seconds: int) -> str:
    """A step deadline's length as people say it.

    >>> duration_words(30), duration_words(60), duration_words(300), duration_words(5400)
    ('30 seconds', '1 minute', '5 minutes', '1 hour 30 minutes')
    >>> duration_words(86400), duration_words(90)
    ('24 hours', '90 seconds')
    """

    def unit(count: int, word: str) -> str:
        return f"{count} {word}{'' if count == 1 else 's'}"

    if seconds % HOUR == 0:
        return unit(seconds // HOUR, "hour")
    if seconds > HOUR and seconds % MINUTE == 0:
        hours, minutes = divmod(seconds // MINUTE, 60)
        return f"{unit(hours, 'hour')} {unit(minutes, 'minute')}"
    if seconds % MINUTE == 0:
        return unit(seconds // MINUTE, "minute")
    return unit(seconds, "second")


def _has(people: Sequence[str]) -> str:
    return "has" if len(people) == 1 else "have"


def _their(people: Sequence[str], thing: str) -> str:
    """A pick for one person, their picks for more."""
    return f"a {thing}" if len(people) == 1 else f"their {thing}s"


def _number(value: float) -> str:
    """A score as people write it: whole when whole, a true minus sign."""
    text = str(int(value)) if float(value).is_integer() else f"{value:g}"
    return text.replace("-", "−")


def settings_of(status: Mapping[str, Any]) -> dict[str, Any]:
    """The match's settings; a match from before them runs nothing by itself."""
    settings = status.get("settings")
    settings = settings if isinstance(settings, dict) else {}
    seconds = settings.get("step_seconds")
    return {
        "auto_open": settings.get("auto_open") is True,
        "auto_seal": settings.get("auto_seal") is True,
        "step_seconds": seconds if isinstance(seconds, int) and seconds > 0 else None,
    }


def settings_words(settings: Mapping[str, Any]) -> list[str]:
    """How the match runs itself (or does not), one sentence a setting."""
    words = []
    if settings["auto_open"]:
        words.append(
            "Steps open by themselves: the first once every seat is claimed, each next one "
            "as soon as the last one resolves."
        )
    else:
        words.append("You open each step yourself.")
    if settings["auto_seal"]:
        words.append(
            "A step is sealed as soon as everyone has sent their pick, or at its deadline."
        )
    else:
        words.append("A step is sealed at its deadline, or when you seal it.")
    seconds = settings["step_seconds"]
    if settings["auto_open"]:
        words.append(
            f"Each step that opens by itself has a deadline of {duration_words(seconds)}."
            if seconds
            else "Steps that open by themselves have no deadline."
        )
    return words


def _where(
    shown: Presentation,
    status: Mapping[str, Any],
    records: Sequence[Record],
    board: MatchReplay,
) -> str:
    """How far the match has come: "Round 2, turn 3 of 10 under way"."""
    step = status.get("step") or {}
    ended = bool(status.get("ended"))
    under_way = bool(step) and step.get("status") != StepStatus.RESOLVED
    try:
        view = moment_at(records, len(records) - 1, board).view
        words = shown.progress(view, under_way and not status.get("finished") and not ended)
    except _DRAWING_ERRORS:
        return ""
    return words[:1].upper() + words[1:]


def _scores(shown: Presentation, records: Sequence[Record], players: Sequence[str]) -> str | None:
    """The latest scores the game charts: "points: ana 66, ben 58"."""
    try:
        series = shown.series(records)
    except _DRAWING_ERRORS:
        return None
    if series is None or not series.points:
        return None
    latest = series.points[-1][1]
    order = [p for p in players if p in latest] + [n for n in latest if n not in players]
    listed = ", ".join(f"{name} {_number(latest[name])}" for name in order)
    return f"{series.label[:1].upper()}{series.label[1:]}: {listed}." if listed else None


def _now(status: Mapping[str, Any], settings: Mapping[str, Any], decision: str | None) -> str:
    """Where the match stands, in one or two sentences."""
    step = status.get("step")
    if status.get("ended"):
        return "The match was ended early."
    if status.get("finished"):
        return "The match is over."
    if step is None:
        seats = status.get("seats") or {}
        waiting = [p for p in status["players"] if not (seats.get(p) or {}).get("claimed")]
        if not settings["auto_open"]:
            return "No step is open yet: open the first one when the players are ready."
        if waiting:
            return (
                f"Waiting for {names(waiting)} to claim {_their(waiting, 'seat')}: the first "
                "step opens by itself once every seat is claimed."
            )
        return "The first step opens by itself in a moment."
    number = step["number"]
    if step["status"] == StepStatus.OPEN:
        sent, missing = step["submitted"], step["missing"]
        if not missing:
            return f"Step {number} is open: everyone has sent their pick."
        if not sent:
            return f"Step {number} is open: nobody has sent a pick yet."
        return (
            f"Step {number} is open: {names(sent)} {_has(sent)} sent {_their(sent, 'pick')}; "
            f"{names(missing)} not yet."
        )
    if step["status"] == StepStatus.SEALED:
        if decision is not None:
            return f"Step {number} is sealed. {decision}"
        opening = step.get("awaiting_openings") or []
        if opening:
            return (
                f"Step {number} is sealed: waiting for {names(opening)} to open "
                f"{'a pick they keep' if len(opening) == 1 else 'the picks they keep'} themselves."
            )
        return f"Step {number} is sealed: the picks are being revealed and resolved."
    if settings["auto_open"]:
        return f"Step {number} is resolved; the next step opens by itself."
    return f"Step {number} is resolved: open the next step when you are ready."


def _seal_words(step: Mapping[str, Any]) -> str:
    """What sealing the open step now does: who has sent, who gets the default."""
    sent, missing = step["submitted"], step["missing"]
    if not missing:
        return f"Seal now: {names(sent)} {_has(sent)} sent, so nobody gets the default."
    if not sent:
        return f"Seal now: nobody has sent a pick, so {names(missing)} will get the default."
    return (
        f"Seal now: {names(sent)} {_has(sent)} sent {_their(sent, 'pick')}, {names(missing)} "
        f"{_has(missing)} not and will get the default."
    )


def _latest_resolved(records: Sequence[Record]) -> int | None:
    steps = [s for s in PublicLog.of(records).steps.values() if s.resolved_seq is not None]
    latest = max(steps, key=lambda s: s.resolved_seq or 0, default=None)
    return None if latest is None else latest.number


def _revealed(records: Sequence[Record]) -> list[dict[str, str]]:
    """The current step's picks as far as revealed, in words, in seat order.

    What the host decides on: each player's pick, or that they sent nothing.
    """
    log = PublicLog.of(records)
    step = log.current
    if step is None:
        return []
    shown = []
    for player in step.submitters:
        if player in step.reveals:
            shown.append({"player": player, "pick": pick_words(step.reveals[player].payload)})
        elif player in step.defaults:
            shown.append({"player": player, "pick": "sent nothing"})
    return shown


def _ended_words(ended: Any) -> str | None:
    """An early end and its reason, quoted: "The host ended the match early: “...”"."""
    if not isinstance(ended, dict):
        return None
    reason = str(ended.get("reason") or "").strip()
    if not reason:
        return "The host ended the match early."
    end = "" if reason.endswith((".", "!", "?", "…")) else "."
    return f"The host ended the match early: “{reason}”{end}"


def _words(
    shown: Presentation,
    status: Mapping[str, Any],
    records: Sequence[Record],
    board: MatchReplay,
) -> dict[str, Any]:
    """Every sentence of the console that depends on the game or the match."""
    settings = settings_of(status)
    live = not status.get("finished") and not status.get("ended")
    step = (status.get("step") or {}) if live else {}  # nothing left to seal or decide
    pending = step.get("decision")
    decision = None if pending is None else shown.decision_words(pending, "host")
    default = None
    if pending is not None and "default" in pending and pending["default"] is not None:
        will, did = shown.default_decision(pending, pending["default"])
        default = {
            "will": f"Apply the default decision: {will}.",
            "did": f"Default decision applied: {did}.",
        }
    openings = step.get("awaiting_openings") or []
    latest = _latest_resolved(records)
    finished = bool(status.get("finished"))
    game = games.display_name(status["game"], status.get("options"))
    return {
        "title": str(status.get("name") or "") or game,
        "game": game,
        "where": _where(shown, status, records, board),
        "scores": _scores(shown, records, status["players"]),
        "settings": settings_words(settings),
        "now": _now(status, settings, decision),
        "seal": _seal_words(step) if step.get("status") == StepStatus.OPEN else None,
        "openings": (
            f"End the opening window: {names(openings)} will get the default."
            if openings and step.get("status") == StepStatus.SEALED
            else None
        ),
        "decision": decision,
        "default_decision": default,
        "revealed": [] if pending is None else _revealed(records),
        "last_step": (
            None if latest is None else {"number": latest, "lines": account(records, latest)}
        ),
        "result": (
            shown.result_words(status.get("result") or {}, status["players"])
            if finished and status.get("result")
            else None
        ),
        "ended": _ended_words(status.get("ended")),
    }


def host_view(match_id: str) -> dict[str, Any]:
    """The host console of match ``match_id`` (its host already authorised)."""
    status = service().status(match_id)
    board = replay_of(match_id)
    records = board.records
    shown = games.for_match(status["game"], status.get("options"))
    return {
        "status": status,
        "settings": settings_of(status),
        "words": _words(shown, status, records, board),
        "picture": str(picture(records, len(records) - 1, board=board)),
        "log_size": len(records),
    }
