"""6 nimmt! in the host console: the round and turn, what a take-row default does, in words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.rules.six_nimmt import ROW_COUNT, TURNS_PER_ROUND, row_bullheads
from web.games import generic
from web.games.words import plural

if TYPE_CHECKING:
    from collections.abc import Mapping


def default_decision(decision: Mapping[str, Any], default: Any) -> tuple[str, str]:
    """The row the default takes and its bullheads, before and after it is applied.

    >>> decision = {"player": "ben", "kind": "take-row", "prompt": {"card": 4,
    ...     "rows": [[10], [20, 25], [30, 40], [50]]}}
    >>> default_decision(decision, {"row": 0})[0]
    'row 0 (3 bullheads) will go to ben'
    """
    who = str(decision.get("player"))
    prompt = decision.get("prompt")
    rows = prompt.get("rows") if isinstance(prompt, dict) else None
    row = default.get("row") if isinstance(default, dict) else None
    if (
        decision.get("kind") != "take-row"
        or not isinstance(row, int)
        or not isinstance(rows, list)
        or len(rows) != ROW_COUNT
        or row not in range(ROW_COUNT)
        or not isinstance(rows[row], list)
        or not all(isinstance(c, int) and not isinstance(c, bool) for c in rows[row])
    ):
        return generic.default_decision(decision, default)
    taken = f"row {row} ({plural(row_bullheads(rows[row]), 'bullhead')})"
    return f"{taken} will go to {who}", f"{taken} went to {who}"


def progress(view: Mapping[str, Any], under_way: bool) -> str:  # noqa: FBT001 - the interface
    """The round and turn under way (or played last): the view counts the turns played.

    >>> progress({"round": 0, "turn": 0}, True), progress({"round": 1, "turn": 10}, True)
    ('round 1, turn 1 of 10 under way', 'round 2, turn 1 of 10 under way')
    >>> progress({"round": 2, "turn": 3}, False)
    'after round 2, turn 3 of 10'
    """
    rnd, turn = view.get("round"), view.get("turn")
    if not isinstance(rnd, int) or not isinstance(turn, int):
        return generic.progress(view, under_way)
    if not under_way:
        return f"after round {rnd}, turn {turn} of {TURNS_PER_ROUND}" if rnd else ""
    if rnd == 0 or turn >= TURNS_PER_ROUND:
        rnd, turn = rnd + 1, 0
    return f"round {rnd}, turn {turn + 1} of {TURNS_PER_ROUND} under way"
