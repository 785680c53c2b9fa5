"""What the timeline page shows, assembled from a match's public records.

The page is a replay viewer: the log grouped by step (:func:`rows`), where the match stands
in words (:func:`head`), and one moment of the log at a time (:func:`moment`: its picture,
its caption and what changed there, in sentences). The page steps from moment to moment
without reloading, and a running match's page fetches only the records it has not shown
yet (:func:`part`).

Only public records are used here, so nothing sealed can reach a page through this module.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from domain.public_log import PublicLog
from domain.record_text import describe, game_name, label, names, sentence
from domain.vocabulary import StepStatus
from replay.state import MatchReplay
from web import games
from web.extension import service
from web.games.record import game_of
from web.pictures import account, chart, picture, standing

if TYPE_CHECKING:
    from collections.abc import Sequence

    from markupsafe import Markup

    from domain.public_log import PublicStep

_CACHE_SIZE = 32
_cache: OrderedDict[str, MatchReplay] = OrderedDict()
_lock = threading.Lock()

END = "end"
MOST_CHANGES = 14  # sentences said of one moment; a longer account is in the log
_OVER = ("MatchFinished", "MatchEnded")  # the records after which only disclosure follows
_REVEALING = ("SubmissionRevealed", "OpeningReceived")  # picks that open a commitment


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


# ---------------------------------------------------------------------------
# The log, grouped by step
# ---------------------------------------------------------------------------


@dataclass
class Group:
    """The records of one step (or of the setup, or of the end of the match).

    ``resolved`` is the step's ``StepResolved`` record, ``round`` the round its view names
    (when the game counts rounds), ``account`` the step told in sentences.
    """

    key: str
    title: str
    step: int | None
    rows: list[dict[str, Any]] = field(default_factory=list)
    resolved: int | None = None
    round: int | None = None
    account: list[str] = field(default_factory=list)


def _row(record: Mapping[str, Any]) -> dict[str, Any]:
    """What the log shows of one record."""
    data = record["data"]
    kind = record["type"]
    pick = data.get("payload") if kind in _REVEALING else None
    return {
        "seq": record["seq"],
        "at": record["at"],
        "type": kind,
        "label": label(kind),
        "actor": data.get("actor", ""),
        "player": data.get("player", ""),
        "commitment": data.get("commitment"),
        "salt": data.get("salt"),
        "pick": None if pick is None else json.dumps(pick, ensure_ascii=False),
        "text": describe(record),
    }


def rows(records: Sequence[Mapping[str, Any]], *, accounts: bool = False) -> list[Group]:
    """The records grouped by step, each row with what the page shows.

    ``accounts`` tells each step in sentences too (:func:`web.pictures.account`, without
    its first line, which the group's title says).
    """
    groups: list[Group] = [Group("setup", "Setup", None)]
    ended = False
    for record in records:
        data = record["data"]
        kind = record["type"]
        if kind in _OVER and not ended:
            ended = True
            groups.append(Group(END, "End of the match: everything sealed is disclosed", None))
        elif kind == "StepOpened" and not ended:
            step = data.get("step")
            groups.append(Group(f"step-{step}", f"Step {step}", step))
        elif kind == "StepResolved" and groups[-1].step is not None:
            groups[-1].resolved = record["seq"]
            view = data.get("view")
            number = view.get("round") if isinstance(view, dict) else None
            if isinstance(number, int) and not isinstance(number, bool):
                groups[-1].round = number
        groups[-1].rows.append(_row(record))
    found = [g for g in groups if g.rows]
    if accounts:
        for g in found:
            if g.step is not None:
                g.account = account(records, g.step)[1:]
    return found


# ---------------------------------------------------------------------------
# Where the match stands, in words
# ---------------------------------------------------------------------------


@dataclass
class Head:
    """The match in words: its game, players, where it stands and its result.

    ``deadline`` is the time the current step or decision is due (RFC 3339, shown in the
    reader's own time), ``finished_at`` when the match ended.
    """

    game: str
    players: str
    standing: list[str]
    result: list[str]
    deadline: str | None = None
    deadline_words: str = ""
    finished_at: str | None = None
    ended_early: str | None = None  # the host's reason, when the host ended the match early
    name: str = ""  # the match's own name, when the host gave it one


def _open_words(step: PublicStep) -> list[str]:
    sealed = step.submitted
    words = [
        f"Step {step.number} is open: {len(sealed)} of {len(step.submitters)} picks sealed"
        + (f" ({names(list(sealed))})." if sealed else ".")
    ]
    if step.missing:
        words.append(f"Waiting for {names(list(step.missing))}.")
    return words


def _standing_words(log: PublicLog, game: str) -> list[str]:
    """Where the match stands, in sentences."""
    step = log.current
    if log.finished:
        return ["The match is over."]
    if step is None:
        return ["No step is open yet: the host opens the first one."]
    if step.status is StepStatus.OPEN:
        return _open_words(step)
    if step.status is StepStatus.RESOLVED:
        return [f"Step {step.number} is resolved; the host opens the next one."]
    request = step.pending_request
    if request is not None:
        asked = {"player": request.player, "kind": request.kind, "prompt": request.prompt}
        return [
            f"Step {step.number} is sealed.",
            games.presentation(game).decision_words(asked, ""),
        ]
    text = standing(log)
    return [f"{text[:1].upper()}{text[1:]}."]


def _result_words(game: str, result: Any, players: Sequence[str]) -> list[str]:
    """The game's words for a result (none for a damaged one: the log still says it)."""
    try:
        return games.presentation(game).result_words(dict(result or {}), players)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return []


def head(records: Sequence[Mapping[str, Any]]) -> Head:
    """The match in words, from its public records.

    :raises ValueError: when ``records`` is empty.
    """
    game, players = game_of(records)
    log = PublicLog.of(records)
    result: list[str] = []
    finished_at = None
    ended = getattr(log, "ended", None)  # {"reason", "at"} when the host ended it early
    if log.finished:
        over = next((r for r in records if r.get("type") in _OVER), None)
        finished_at = over.get("at") if over is not None else None
        if log.result is not None:
            result = _result_words(game, log.result, players)
    due = log.due
    deadline, deadline_words = None, ""
    if due is not None:
        deadline = due[0]
        deadline_words = "Picks are due" if due[1] == "seal" else "The decision is due"
    return Head(
        game=game_name(game, log.options),
        players=names(players),
        standing=_standing_words(log, game),
        result=result,
        deadline=deadline,
        deadline_words=deadline_words,
        finished_at=finished_at,
        ended_early=str(ended.get("reason") or "") if isinstance(ended, Mapping) else None,
        name=str(getattr(log, "name", "") or ""),
    )


# ---------------------------------------------------------------------------
# One moment: the picture, its caption, what changed
# ---------------------------------------------------------------------------


@dataclass
class Moment:
    """One moment of the log as the viewer shows it."""

    at: int
    last: int
    label: str
    time: str
    group: str
    picture: Markup
    changes: list[str]


def _step_of(log: PublicLog, data: Mapping[str, Any]) -> Any:
    """The step a record is about: its own ``step``, else the current one."""
    if "step" in data:
        return data["step"]
    return log.current.number if log.current is not None else None


def what_changed(records: Sequence[Mapping[str, Any]], at: int) -> list[str]:
    """What record ``at`` changed, in sentences: the same words as the log and the accounts.

    The record said as a sentence (:func:`domain.record_text.sentence`, the log's own
    describer), then what the step's account says now that it did not say before it
    (a reveal, an outcome, where each card went), and at the end of the match its result.

    :raises IndexError: when there is no record ``at``.
    """
    if not 0 <= at < len(records):
        msg = f"record {at} does not exist; this match has records 0 to {len(records) - 1}"
        raise IndexError(msg)
    record = records[at]
    data = record.get("data") or {}
    words = [sentence(record)]
    game, players = game_of(records)
    log = PublicLog.of(records[: at + 1])
    step = _step_of(log, data)
    if step is not None and not isinstance(step, bool):
        before = set(account(records[:at], step)) if at > 0 else set()
        words += [w for w in account(records[: at + 1], step)[1:] if w not in before]
    if record.get("type") == "MatchFinished":
        words += _result_words(game, data.get("result"), players)
    unique = list(dict.fromkeys(words))  # each sentence once, in order
    if len(unique) > MOST_CHANGES:
        unique = [*unique[: MOST_CHANGES - 1], "… the rest is in the log below."]
    return unique


def _group_of(records: Sequence[Mapping[str, Any]], at: int) -> str:
    """The id of the log group record ``at`` is in (as :func:`rows` groups them)."""
    key = "setup"
    for record in records[: at + 1]:
        kind = record.get("type")
        if kind in _OVER:
            key = END
        elif kind == "StepOpened" and key != END:
            key = f"step-{(record.get('data') or {}).get('step')}"
    return f"group-{key}"


def moment(records: Sequence[Mapping[str, Any]], at: int, board: MatchReplay) -> Moment:
    """The moment just after record ``at``: its picture, caption and what changed.

    :raises IndexError: when there is no record ``at``.
    """
    if not 0 <= at < len(records):
        msg = f"record {at} does not exist; this match has records 0 to {len(records) - 1}"
        raise IndexError(msg)
    record = records[at]
    return Moment(
        at=at,
        last=len(records) - 1,
        label=label(str(record.get("type"))),
        time=str(record.get("at") or ""),
        group=_group_of(records, at),
        picture=picture(records, at, board=board),
        changes=what_changed(records, at),
    )


def record_number(text: str | None, last: int) -> int | None:
    """The record number a ``?at=`` gives, or ``None`` when it is not one of ``0..last``.

    >>> record_number("12", 20), record_number("-1", 20), record_number("abc", 20)
    (12, None, None)
    """
    if text is None or not text.isascii() or not text.isdigit():
        return None
    number = int(text)
    return number if number <= last else None


# ---------------------------------------------------------------------------
# The page, and the part of it a running match adds
# ---------------------------------------------------------------------------


def page(records: Sequence[Mapping[str, Any]], at: int, board: MatchReplay) -> dict[str, Any]:
    """What the timeline template needs to show the match at record ``at``."""
    groups = rows(records, accounts=True)
    return {
        "head": head(records),
        "groups": groups,
        "rounds": _rounds(groups),
        "moment": moment(records, at, board),
        "chart": chart(records),
        "at": at,
        "last": len(records) - 1,
    }


def part(records: Sequence[Mapping[str, Any]], since: int) -> dict[str, Any]:
    """What a running match's page adds: records from ``since`` on, every step's words anew.

    The groups keep only their rows from ``since`` on (a group with none keeps only its
    title and account, which later records may have changed).
    """
    groups = rows(records, accounts=True)
    for g in groups:
        g.rows = [r for r in g.rows if r["seq"] >= since]
    return {
        "head": head(records),
        "groups": groups,
        "rounds": _rounds(groups),
        "chart": chart(records),
        "last": len(records) - 1,
        "since": since,
    }


def _rounds(groups: Sequence[Group]) -> bool:
    """Whether a round spans several steps (then the viewer can jump by round too)."""
    numbers = [g.round for g in groups if g.round is not None]
    return len(numbers) != len(set(numbers))
