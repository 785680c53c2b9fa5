"""What the timeline page shows, assembled from a match's public records.

Only public records are used here, so nothing sealed can reach a page through this module.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

from domain.record_text import describe
from replay.state import MatchReplay
from web.extension import service

_CACHE_SIZE = 32
_cache: OrderedDict[str, MatchReplay] = OrderedDict()
_lock = threading.Lock()

END = "end"


def replay_of(match_id: str) -> MatchReplay:
    """A replay board of the match's public records, cached while the log does not grow.

    The board keeps snapshots, so the state at any event costs at most a few dozen
    record applications; the cache keeps boards of recently viewed matches.
    """
    records = service().records(match_id)
    key = str(service().match_key(match_id))
    with _lock:
        board = _cache.get(key)
        if board is not None and len(board) == len(records):
            _cache.move_to_end(key)
            return board
    board = MatchReplay(records)
    with _lock:
        _cache[key] = board
        _cache.move_to_end(key)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return board


@dataclass
class Group:
    """The records of one step (or of the setup, or of the end of the match)."""

    key: str
    title: str
    step: int | None
    rows: list[dict[str, Any]] = field(default_factory=list)


def rows(records: Sequence[Mapping[str, Any]]) -> list[Group]:
    """The records grouped by step, each row with what the page shows."""
    groups: list[Group] = [Group("setup", "Setup", None)]
    ended = False
    for record in records:
        data = record["data"]
        kind = record["type"]
        if kind == "MatchFinished":
            ended = True
            groups.append(Group(END, "End of the match: everything sealed is disclosed", None))
        elif kind == "StepOpened" and not ended:
            step = data.get("step")
            groups.append(Group(f"step-{step}", f"Step {step}", step))
        reveal = None
        if kind in ("SubmissionRevealed", "OpeningReceived", "DefaultApplied", "DecisionMade"):
            reveal = data.get("payload")
        groups[-1].rows.append(
            {
                "seq": record["seq"],
                "at": record["at"],
                "type": kind,
                "actor": data.get("actor", ""),
                "commitment": data.get("commitment"),
                "salt": data.get("salt"),
                "reveal": reveal,
                "has_reveal": reveal is not None,
                "text": describe(record),
            }
        )
    return [g for g in groups if g.rows]
