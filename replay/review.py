"""Dispute review from a bundle alone: the state at any event, and what-if tables.

What ``dealerroom replay`` shows (and what a page showing the same should call):

* :func:`state_at`: the state just after one record, the public view or a player's own
  view once the log discloses it, and the readable diff from the record before;
* :func:`parse_what_if` reads ``STEP:PLAYER=JSON``; :func:`what_if_table` lays a
  :class:`~replay.whatif.WhatIf` out side by side, step by step, recorded against new,
  marking the steps that diverge.

Pure like the rest of :mod:`replay`: no database, clock or network.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from domain.errors import UserError
from replay.inputs import InputError, parse_json
from replay.state import (
    MISSING,
    WHOLE_VALUE,
    MatchReplay,
    ReplayContext,
    ReplayError,
    diff_pairs,
    diff_values,
)

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from replay.whatif import WhatIf


class ReviewError(UserError):
    """A request the bundle cannot answer: no such event, player or step, bad JSON."""


def check_player(match: MatchReplay | Sequence[Mapping[str, Any]], player: str) -> None:
    """:raises ReviewError: unless ``player`` is a player of the match (a board or records)."""
    try:
        context = (
            match.context if isinstance(match, MatchReplay) else (ReplayContext.from_records(match))
        )
    except ReplayError as exc:
        raise ReviewError(str(exc)) from None
    if player not in context.players:
        msg = f"{player!r} is not a player of this match (players: {', '.join(context.players)})"
        raise ReviewError(msg)


def state_at(board: MatchReplay, seq: int, player: str | None = None) -> dict[str, Any]:
    """The state just after record ``seq`` and what changed since the record before.

    Returns ``{"match_id", "game", "seq", "records", "record", "player", "state",
    "changes", "unknown"}``: ``state`` is the public view, or ``player``'s own view
    (:meth:`MatchReplay.player_view`); ``changes`` are :func:`~replay.state.diff_values`
    lines from the state after record ``seq - 1`` (from nothing for record 0);
    ``unknown`` says why the public view is the one the log recorded rather than the
    rules' own (the match is under way and something is still sealed), else ``None``.

    :raises ReviewError: for a record outside the log, a player not in the match, or a
        player's view that the bundle does not disclose.
    """
    if not 0 <= seq < len(board):
        msg = f"event {seq} is outside the log: the bundle holds records 0..{len(board) - 1}"
        raise ReviewError(msg)
    frame = board.at(seq)
    if player is None:
        state: dict[str, Any] = dict(frame.view)
        before: dict[str, Any] = dict(board.frame_at(seq).view)
    else:
        check_player(board, player)
        view = board.player_view(player, seq)
        if view is None:
            msg = (
                f"{player}'s view after event {seq} is not disclosed in this bundle "
                f"({frame.unknown})"
            )
            raise ReviewError(msg)
        state = view
        before = (board.player_view(player, seq - 1) if seq else None) or {}
    return {
        "match_id": board.context.match_id,
        "game": board.context.game,
        "seq": seq,
        "records": len(board),
        "record": dict(board.records[seq]),
        "player": player,
        "state": _plain(state),
        "changes": diff_values(_plain(before), _plain(state)),
        "unknown": frame.unknown if frame.state is None else None,
    }


def _plain(value: Any) -> Any:
    """The value as JSON holds it (mapping proxies and tuples become dicts and lists)."""
    return json.loads(json.dumps(value, default=dict))


# ---------------------------------------------------------------------------
# What-if
# ---------------------------------------------------------------------------


def parse_what_if(spec: str) -> tuple[int, str, Any]:
    """Split ``STEP:PLAYER=JSON`` into the step, the player and the payload.

    :raises ReviewError: naming the part that is wrong.

    >>> parse_what_if('3:ana={"card": 11}')
    (3, 'ana', {'card': 11})
    >>> parse_what_if("x:ana={}")
    Traceback (most recent call last):
    ...
    replay.review.ReviewError: what-if STEP must be a step number, not 'x' (STEP:PLAYER=JSON)
    """
    step_text, colon, rest = spec.partition(":")
    player, equals, payload_text = rest.partition("=")
    if not colon or not equals:
        msg = f'what-if {_shown(spec)} is not STEP:PLAYER=JSON, e.g. 3:ana={{"card": 11}}'
        raise ReviewError(msg)
    digits = step_text.isascii() and step_text.isdigit() and len(step_text) <= 19  # noqa: PLR2004
    step = int(step_text) if digits else 0
    if not 1 <= step <= MAX_STEP:
        msg = f"what-if STEP must be a step number, not {_shown(step_text)} (STEP:PLAYER=JSON)"
        raise ReviewError(msg)
    if not player:
        msg = "what-if PLAYER is empty (STEP:PLAYER=JSON)"
        raise ReviewError(msg)
    try:
        payload = parse_json(payload_text, f"what-if JSON {_shown(payload_text)}")
    except InputError as exc:  # not JSON, nested too deep, a number too long
        raise ReviewError(str(exc)) from None
    return step, player, payload


MAX_STEP = 2**63 - 1


def _shown(text: str, width: int = 40) -> str:
    """``text`` quoted for a message, cut to about ``width`` characters."""
    return repr(text) if len(text) <= width else repr(text[: width - 3]) + "…"


def _cell(value: Any, width: int) -> str:
    text = "(none)" if value is MISSING else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 1] + "…"


def what_if_table(result: WhatIf, *, where: int = 36, width: int = 30, limit: int = 8) -> list[str]:
    """The what-if side by side: per step, where the recorded and the new course differ.

    One block per step, marked ``=`` when its outcome and public view are the recorded
    ones and ``≠`` when they diverge; a divergent step lists each difference
    (``outcome.<path>`` or ``view.<path>`` in a column ``where`` wide, the recorded value,
    the new value; at most ``limit`` rows, values cut at ``width`` characters) and the
    notes (a recorded pick no longer legal, a deal made afresh). The first divergent step
    is named at the top and marked; the results end the table.
    """
    first = result.first_divergent_step
    payload = json.dumps(result.payload, ensure_ascii=False)
    lines = [
        f"what if {result.player} had submitted {payload} in step {result.step}",
        "first divergent step: "
        + ("none, the course is the recorded one" if first is None else str(first)),
        f"{'':10}{'where':<{where}}  {'recorded':<{width}}  what-if",
    ]
    for comparison in result.steps:
        label = f"step {comparison.step}"
        if not comparison.diverged:
            lines.append(f"{label:<8}= same outcome and view")
            continue
        tag = " (first divergence)" if comparison.step == first else ""
        lines.append(f"{label:<8}≠ diverges{tag}")
        if comparison.new_view is None:
            lines.append(f"{'':10}not played: the new course ended before this step")
        found = [
            *_prefixed("outcome", diff_pairs(comparison.original_outcome, comparison.new_outcome)),
            *_prefixed("view", diff_pairs(comparison.original_view, comparison.new_view)),
        ]
        if comparison.new_view is not None:
            lines += _table(found, where, width, limit)
        lines += [f"{'':10}note: {note}" for note in comparison.notes]
    found = _prefixed("result", diff_pairs(result.original_result, result.new_result))
    lines.append(f"{'result':<8}" + ("≠ differs" if found else "= the same"))
    lines += _table(found, where, width, limit)
    return [line.rstrip() for line in lines]


def _prefixed(label: str, found: list[tuple[str, Any, Any]]) -> list[tuple[str, Any, Any]]:
    return [(label if path == WHOLE_VALUE else f"{label}.{path}", a, b) for path, a, b in found]


def _table(found: list[tuple[str, Any, Any]], where: int, width: int, limit: int) -> list[str]:
    rows = [
        f"{'':10}{path:<{where}}  {_cell(a, width):<{width}}  {_cell(b, width)}"
        for path, a, b in found[:limit]
    ]
    if len(found) > limit:
        rows.append(f"{'':10}… and {len(found) - limit} more difference(s); --json has all")
    return rows


__all__ = [
    "ReviewError",
    "check_player",
    "parse_what_if",
    "state_at",
    "what_if_table",
]
