"""What a player's dealer room shows, in one answer: the table, the choices, the words.

The room page asks for this whenever the match's public status changes. Everything the
player reads is said here in plain words by the game's presentation (``web/games/<game>/``):
what a missing pick would mean, the decision asked of them or awaited from another player,
what the latest step did to them, their own situation and, at the end, the result. The
picture is the public drawing at the latest record, from the player's seat, with the regions
a player taps marked ``data-hit`` (the page lays a real button over each).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.public_log import PublicLog
from domain.vocabulary import StepStatus
from web import games
from web.extension import service
from web.pictures import account, picture
from web.timeline import replay_of

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from domain.public_log import PublicStep
    from web.games.base import Presentation


def _latest_resolved(records: Sequence[Mapping[str, Any]]) -> PublicStep | None:
    """The step resolved last, if any."""
    steps = [s for s in PublicLog.of(records).steps.values() if s.status is StepStatus.RESOLVED]
    return max(steps, key=lambda s: s.resolved_seq or 0, default=None)


def _words(
    shown: Presentation,
    status: Mapping[str, Any],
    public: Mapping[str, Any],
    me: Mapping[str, Any],
    player: str,
    records: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """Every sentence of the room, said by the game's presentation."""
    step = status.get("step") or {}
    decision = step.get("decision")
    latest = _latest_resolved(records)
    default = me.get("default_pick")
    return {
        "default": (
            None
            if default is None
            else f"If you send nothing by the deadline, {shown.default_for_you(default)}."
        ),
        "decision": None if decision is None else shown.decision_words(decision, player),
        "yours": [] if latest is None else shown.for_you(latest, player),
        "last_step": [] if latest is None else account(records, latest.number),
        "last_step_number": None if latest is None else latest.number,
        "result": (
            shown.result_words(status.get("result") or {}, status["players"])
            if status.get("finished")
            else None
        ),
        "seat": shown.seat_words(public, me.get("view") or {}, player),
        "defaulted": (
            latest is not None and latest.number == step.get("number") and player in latest.defaults
        ),
    }


def room_data(match_id: str, player: str) -> dict[str, Any]:
    """The dealer room of ``player`` (already authorised) in match ``match_id``."""
    app = service()
    status = app.status(match_id)
    public = app.public_state(match_id)
    me = app.private_state(match_id, player)
    board = replay_of(match_id)
    records = board.records
    shown = games.for_match(status["game"], status.get("options"))
    return {
        "status": status,
        "public": public,
        "me": me,
        "words": _words(shown, status, public, me, player, records),
        "picture": str(picture(records, len(records) - 1, board=board, seat=player)),
        "log_size": len(records),
    }
