"""A match that runs itself, and where a match stands.

:func:`carry_on` does what a match's recorded settings do by themselves
(:mod:`domain.match_settings`): with ``auto_seal`` the open step seals as soon as everyone
asked has submitted, and resolution goes as far as it can; with ``auto_open`` the first step
opens once every seat is claimed and each next one as soon as the last resolves, with the
match's ``step_seconds`` as its deadline. It runs inside the command that made it due (a
claim, a pick, an opening, a decision, a passed deadline), in the same save, as the
``system`` actor: the log says the match moved by itself.

:func:`match_status` is the public status of a match (``GET /api/matches/<id>``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from domain.match import actor, format_time
from domain.vocabulary import Automatic, StepStatus

if TYPE_CHECKING:
    from collections.abc import Callable
    from datetime import datetime

    from domain.match import Match
    from domain.vocabulary import Advance

SYSTEM = "system"
MOST_AUTOMATIC = 1000  # actions in one go; a match that needs more goes on at the next command


def carry_on(match: Match, now: datetime, advance: Callable[[Match], Advance]) -> list[Automatic]:
    """Seal and open steps as the match's settings say, until nothing more is due.

    ``advance`` carries a sealed step on (the service's, with its decision deadline).
    Return what was done, in order (nothing for a match whose settings are off).
    """
    done: list[Automatic] = []
    token = actor.set(SYSTEM)
    try:
        while len(done) < MOST_AUTOMATIC:
            due = match.automatic()
            if due is None:
                break
            if due is Automatic.SEAL:
                match.seal(now)
                advance(match)
            else:
                seconds = match.settings["step_seconds"]
                deadline = None if seconds is None else now + timedelta(seconds=seconds)
                match.open_step(now, deadline=None if deadline is None else format_time(deadline))
            done.append(due)
    finally:
        actor.reset(token)
    return done


def match_status(match: Match) -> dict[str, Any]:
    """Where a match stands: its current step, who has submitted (never what), what waits.

    This is public: commitments are public records, so who committed is no secret, and a
    decision's default follows from the public state.
    """
    record = match.current
    step: dict[str, Any] | None = None
    if record is not None:
        step = {
            "number": record.number,
            "kind": record.kind,
            "status": record.status,
            "deadline": record.deadline,
            "submitters": list(record.submitters),
            "submitted": [p for p in record.submitters if p in record.commitments],
            "missing": [p for p in record.submitters if p not in record.commitments],
            "awaiting_openings": (
                record.awaiting_openings()
                if record.status == StepStatus.SEALED and match.ended is None
                else []
            ),
            "decision": None,
        }
        pending = match.pending_request()
        if pending is not None and match.ended is None:
            index, request, deadline = pending
            step["decision"] = {
                "index": index,
                "player": request.player,
                "kind": request.kind,
                "prompt": request.prompt,
                "default": request.default,
                "deadline": deadline,
            }
    return {
        "match_id": match.match_id,
        "game": match.game,
        "name": match.name,
        "settings": dict(match.settings),
        "options": match.options,
        "players": list(match.players),
        "custody": dict(match.custody),
        "seats": match.seats(),
        "finished": match.finished,
        "ended": None if match.ended is None else dict(match.ended),
        "result": match.result,
        "step": step,
    }


__all__ = ["MOST_AUTOMATIC", "SYSTEM", "carry_on", "match_status"]
