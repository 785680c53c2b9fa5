"""Dispute review in the browser: one pick of a played step changed, the match replayed.

The page ``/matches/<id>/review?step=N`` shows step N as it was played and one of its players'
table at that step (``&player=P``), with the dealer room's own controls for the game
(``web/games/<game>/static/controls.js``) fed with what that player had and could do then
(:func:`seat_at`: their view, legal picks and default, computed by the replay from the public
records). A reviewer picks again and the match is replayed from there by
:func:`replay.whatif.what_if`, the function ``dealerroom replay --what-if`` calls: side by side,
what happened and what would have (pictures from the player's seat, scores, the result), and
the first step where the two part. The page's address holds the step, the player and the pick
(``&pick=JSON``; ``&show=K`` the step whose pictures are shown), so a link reproduces it.

Only public records are read, so nothing sealed reaches a page through this module. A what-if
needs the whole match disclosed (its seed is revealed when it ends), as on the command line:
for a match under way the page shows the step as the log tells it and says when a what-if
becomes possible.

Routes:

* ``GET /matches/<id>/review``: the page;
* ``GET /matches/<id>/review/comparison``: the comparison alone, which the page swaps in place;
* ``POST /api/matches/<id>/what-if`` with ``{"step", "player", "payload"}``: the output of
  ``dealerroom replay BUNDLE --what-if STEP:PLAYER=JSON --json`` for the match's bundle, plus
  ``review_url``, the page that shows it. Limited per client address
  (``DEALERROOM_WHATIF_RATE``, default ``60/minute``); the body is limited like every body.
"""

from __future__ import annotations

import copy
import json
import shlex
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Any

from flask import (
    Blueprint,
    current_app,
    jsonify,
    render_template,
    request,
    url_for,
)
from werkzeug.exceptions import BadRequest, Conflict

from domain.public_log import PublicLog
from domain.record_text import pick_words
from domain.rules.base import RulesError
from domain.vocabulary import StepStatus
from replay.diff import diff_values
from replay.inputs import InputError, parse_json
from replay.review import ReviewError, check_player, what_if_table
from replay.state import MatchReplay
from replay.whatif import WhatIfError, what_if
from service.application import LEGAL_SHOWN, NotFound
from web import games, security
from web.extension import service
from web.pictures import account, chart, picture
from web.timeline import replay_of

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from domain.public_log import PublicStep
    from replay.whatif import StepComparison, WhatIf
    from web.chart import Series

bp = Blueprint("review", __name__)

WHATIF_RATE = "60/minute"
MAX_DIGITS = 19  # a step number longer than this is no step of any match
MAX_NAME = 200  # a player's name in a query or body
MAX_PICK = 4000  # characters of a pick in the page's address
MISSING_STEP_STATE = (
    "the log does not disclose what this player had in this step, so it cannot be played again"
)
_FAULTS = (RulesError, KeyError, TypeError, ValueError, IndexError, AttributeError)


class Problem(Exception):
    """A review the page cannot show: the HTTP status and one sentence for the reader."""

    def __init__(self, status: int, message: str) -> None:
        """``status`` is a 4xx code; ``message`` says what was wrong and what to do."""
        super().__init__(message)
        self.status = status
        self.message = message


# ---------------------------------------------------------------------- the match


@dataclass(frozen=True)
class Reviewed:
    """A match as the review reads it: its replay board, its public log and status."""

    board: MatchReplay
    log: PublicLog
    status: dict[str, Any]

    @property
    def records(self) -> Sequence[Mapping[str, Any]]:
        """The public records, oldest first."""
        return self.board.records

    @property
    def disclosed(self) -> bool:
        """Whether a what-if can run: the match is over and its seed revealed."""
        return self.log.finished and self.board.context.disclosed.seed is not None

    @property
    def game_name(self) -> str:
        """The game's name for people ("6 nimmt!")."""
        return games.display_name(self.log.game, self.log.options)


def load(match_id: str) -> Reviewed:
    """The match ``match_id``; :raises Problem: 404 for an unknown match."""
    try:
        board = replay_of(match_id)
        status = service().status(match_id)
    except NotFound:
        shown = match_id if len(match_id) <= 40 else match_id[:39] + "…"  # noqa: PLR2004
        msg = f"There is no match {shown!r} here: check the link, or find it in the match list."
        raise Problem(404, msg) from None
    return Reviewed(board, PublicLog.of(board.records), status)


def _number(text: str, what: str) -> int:
    """A step number from the address; :raises Problem: 400 for anything else."""
    if not (text.isascii() and text.isdigit() and 0 < len(text) <= MAX_DIGITS):
        shown = text if len(text) <= 20 else text[:19] + "…"  # noqa: PLR2004
        msg = f"{what} is a step number (1, 2, 3...), not {shown!r}."
        raise Problem(400, msg)
    return int(text)


def played_steps(match: Reviewed) -> list[PublicStep]:
    """The match's steps in order."""
    return [match.log.steps[n] for n in sorted(n for n in match.log.steps if isinstance(n, int))]


def step_of(match: Reviewed, text: str | None) -> PublicStep:
    """The step the address names (the first one when it names none).

    :raises Problem: 400 for a malformed number, 404 for a step the match has not played.
    """
    steps = played_steps(match)
    if not steps:
        raise Problem(404, "No step of this match has been played yet, so there is none to review.")
    if text is None:
        return steps[0]
    number = _number(text, "The step")
    found = match.log.step(number)
    if found is None:
        msg = f"This match has no step {number}: its steps are 1 to {len(steps)}."
        raise Problem(404, msg)
    return found


def player_of(step: PublicStep, text: str | None) -> str:
    """The player the address names, who must have been asked for a pick in ``step``.

    :raises Problem: 404 for anyone else.
    """
    if not step.submitters:
        raise Problem(404, f"Nobody was asked for a pick in step {step.number}.")
    if text is None:
        return step.submitters[0]
    if text not in step.submitters:
        shown = text if len(text) <= 40 else text[:39] + "…"  # noqa: PLR2004
        msg = (
            f"{shown!r} was not asked for a pick in step {step.number}; "
            f"these players were: {', '.join(step.submitters)}."
        )
        raise Problem(404, msg)
    return text


def pick_of(text: str | None) -> Any:
    """The pick the address holds (JSON), or ``None`` when it holds none.

    :raises Problem: 400 for text that is not JSON or is too long.
    """
    if text is None or text == "":
        return None
    if len(text) > MAX_PICK:
        raise Problem(400, f"The pick in this address is too long (at most {MAX_PICK} characters).")
    try:
        return parse_json(text, "the pick in this address")
    except InputError as exc:
        raise Problem(400, f"{str(exc)[:1].upper()}{str(exc)[1:]}.") from None


def plain(value: Any) -> Any:
    """The value as JSON holds it (mapping proxies and tuples become objects and lists)."""
    return json.loads(json.dumps(value, default=dict))


def compact(value: Any) -> str:
    """One line of JSON with sorted keys: the pick in an address or a command."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def made(step: PublicStep, player: str) -> Any:
    """The pick ``player`` made in ``step`` as the log discloses it (``None``: it does not)."""
    try:
        return step.pick(player)
    except KeyError:
        return None


# ---------------------------------------------------------------------- a player's seat


def _before_seal(records: Sequence[Mapping[str, Any]], step: PublicStep) -> int:
    """The last record of ``step`` before it was sealed (every pick committed, none revealed)."""
    for record in records[step.opened_seq + 1 :]:
        data = record.get("data") or {}
        if record.get("type") == "StepSealed" and data.get("step") == step.number:
            return int(record["seq"]) - 1
    return step.opened_seq


def check_pick(match: Reviewed, step: PublicStep, player: str, payload: Any) -> None:
    """:raises ReviewError: when the rules refuse ``payload`` from ``player`` in ``step``.

    The message gives the pick in plain words and the rules' reason (the what-if refuses
    such a pick too, naming it as the command line does, in JSON).
    """
    if player not in step.submitters:
        return  # the what-if says who was asked
    frame = match.board.at(_before_seal(match.records, step))
    if frame.step_state is None:
        return  # the what-if says what is missing
    try:
        match.board.context.rules.check_pick(frame.step_state, player, payload)
    except RulesError as exc:
        said = pick_words(payload)
        msg = f"“{said}” is not a pick {player} could make in step {step.number}: {exc}"
        raise ReviewError(msg) from None
    except _FAULTS:
        return


def seat_at(match: Reviewed, step: PublicStep, player: str) -> dict[str, Any] | None:
    """What the dealer room gave ``player`` in ``step``, rebuilt from the public records.

    The answer has the shape of the room's data (``GET .../players/<p>/room``), so a game's
    ``pickControls`` reads it unchanged: ``status`` (the step open), ``public`` (the public
    view), ``me`` (their view, legal picks, default, fields and, as ``current_pick``, the pick
    the log discloses), ``words`` and ``picture`` (the table from their seat). ``None`` while
    the replay cannot know the state (something is still sealed).
    """
    seq = _before_seal(match.records, step)
    frame = match.board.at(seq)
    state = frame.step_state
    if state is None or frame.state is None:
        return None
    rules = match.board.context.rules
    try:
        listed = list(islice(rules.generate_legal_picks(state, player), LEGAL_SHOWN + 1))
        me = {
            "view": plain(rules.private_view(state, player)),
            "current_pick": {"step": step.number, "pick": plain(step.pick(player))},
            "default_pick": plain(rules.default_pick(state, player)),
            "legal": plain(listed) if len(listed) <= LEGAL_SHOWN else None,
            "fields": [field.as_json() for field in rules.pick_fields_for(state, step.kind)],
            "kind": step.kind,
        }
        drawn = str(picture(match.records, seq, board=match.board, seat=player))
    except _FAULTS:
        return None
    log = match.log
    status = {
        "match_id": match.status["match_id"],
        "game": log.game,
        "options": plain(log.options),
        "players": list(log.players),
        "custody": dict(log.custody),
        "finished": False,
        "result": None,
        "step": {
            "number": step.number,
            "kind": step.kind,
            "status": "open",
            "deadline": None,
            "submitters": list(step.submitters),
            "submitted": list(step.submitters),
            "missing": [],
            "awaiting_openings": [],
            "decision": None,
        },
    }
    return {
        "status": status,
        "public": plain(frame.view),
        "me": me,
        "words": {},
        "picture": drawn,
        "log_size": seq + 1,
    }


# ---------------------------------------------------------------------- the what-if course


def course_records(records: Sequence[Mapping[str, Any]], result: WhatIf) -> list[Mapping[str, Any]]:
    """The what-if's course as public records, for the pictures and the chart to read.

    Up to the changed step they are the match's own records; from there each step the
    what-if played is told by its ``StepOpened``, ``StepSealed`` and ``StepResolved`` (its
    outcome and public view), and a ``MatchFinished`` with the new result ends them. They
    carry no picks, commitments or deals: the what-if computes views, not a log.
    """
    log = PublicLog.of(records)
    start = log.steps[result.step].opened_seq
    course: list[Mapping[str, Any]] = list(records[: start + 1])  # the step opens as it did

    def add(kind: str, data: dict[str, Any]) -> None:
        course.append({"seq": len(course), "type": kind, "at": "", "data": data})

    view = dict(log.steps[result.step].view_at_open)
    for step in result.steps:
        if step.step < result.step or step.new_view is None:
            continue
        if step.step > result.step:
            recorded = log.steps.get(step.step)
            kind = recorded.kind if recorded is not None else "step"
            add("StepOpened", {"step": step.step, "kind": kind, "submitters": [], "view": view})
        add("StepSealed", {"step": step.step})
        add("StepResolved", {"step": step.step, "outcome": step.new_outcome, "view": step.new_view})
        view = step.new_view
    if result.new_result is not None:
        add("MatchFinished", {"result": result.new_result})
    return course


class CourseBoard(MatchReplay):
    """The what-if course as a board whose public view at each record is the one it carries.

    The course is not replayed again (its records hold no picks to replay): the view after a
    record is the last view the course recorded, as the what-if computed it.
    """

    def __init__(self, records: Sequence[Mapping[str, Any]]) -> None:
        """Read the views of ``records`` (no rules are run)."""
        self.records = tuple(records)
        views: list[dict[str, Any]] = []
        view: dict[str, Any] = {}
        for record in self.records:
            recorded = (record.get("data") or {}).get("view")
            view = dict(recorded) if isinstance(recorded, dict) else view
            views.append(view)
        self._views = views

    def view_at(self, seq: int) -> dict[str, Any]:
        """The public view just after record ``seq``."""
        return copy.deepcopy(self._views[seq])


def _resolved_seq(records: Sequence[Mapping[str, Any]], number: int) -> int | None:
    """The seq of step ``number``'s ``StepResolved`` record, if it has one."""
    found = PublicLog.of(records).step(number)
    return None if found is None else found.resolved_seq


def _series(game: str, records: Sequence[Mapping[str, Any]]) -> Series | None:
    try:
        return games.presentation(game).series(records)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None  # a damaged log: no scores rather than a broken page


def _value(series: Series | None, name: str, step: int) -> float | None:
    """The series' value of ``name`` after ``step`` (its last point up to there)."""
    if series is None:
        return None
    found = None
    for at, values in series.points:
        if at <= step and name in values:
            found = values[name]
    return found


def _number_text(value: float | None) -> str:
    if value is None:
        return "–"
    shown = str(int(value)) if float(value).is_integer() else f"{value:g}"
    return shown.replace("-", "−")


def _scores(
    recorded: Series | None, course: Series | None, step: int | None
) -> dict[str, Any] | None:
    """Each name's value in both courses after ``step`` (``None``: at the end)."""
    shown = recorded or course
    if shown is None:
        return None
    names = list(
        dict.fromkeys([*(recorded.names if recorded else []), *(course.names if course else [])])
    )
    last = (
        step
        if step is not None
        else max([at for s in (recorded, course) if s for at, _ in s.points] or [0])
    )
    rows = []
    for name in names:
        before, after = _value(recorded, name, last), _value(course, name, last)
        if before is None and after is None:
            continue
        change = ""
        if before is not None and after is not None and before != after:
            delta = after - before
            change = f"{'+' if delta > 0 else '−'}{_number_text(abs(delta))}"
        rows.append(
            {
                "name": name,
                "recorded": _number_text(before),
                "new": _number_text(after),
                "change": change,
            }
        )
    return {"label": shown.label, "rows": rows} if rows else None


# ---------------------------------------------------------------------- the comparison


def run_what_if(match: Reviewed, step: int, player: str, payload: Any) -> WhatIf:
    """The what-if, as ``dealerroom replay --what-if`` runs it on the match's bundle.

    :raises Conflict: while the match is not disclosed (409).
    :raises ReviewError: for a player not in the match, a pick the rules refuse there (in
        plain words), or a what-if that cannot run (400).
    """
    if not match.disclosed:
        msg = (
            "a what-if needs the whole match disclosed, and this match is still under way: "
            "its seed is revealed when it ends; ask again then"
        )
        raise Conflict(msg)
    check_player(match.records, player)
    played = match.log.step(step)
    if played is not None:
        check_pick(match, played, player, payload)
    try:
        return what_if(match.records, step, player, payload)
    except WhatIfError as exc:
        raise ReviewError(str(exc)) from None


def review_url(match_id: str, step: int, player: str, payload: Any, show: int | None = None) -> str:
    """The page that shows a what-if: the link that reproduces it."""
    args: dict[str, Any] = {"step": step, "player": player, "pick": compact(payload)}
    if show is not None:
        args["show"] = show
    return url_for("review.page", match_id=match_id, **args)


def _course_step(step: StepComparison, first: int | None, url: str) -> dict[str, Any]:
    kind = "differs" if step.diverged else "same"
    if step.new_view is None:
        said, kind = "played only in the match as played; the what-if had ended", "one"
    elif step.original_view is None:
        said, kind = "played only in the what-if", "one"
    elif step.diverged:
        said = "differs" + (", the first step that does" if step.step == first else "")
    else:
        said = "the same"
    return {
        "step": step.step,
        "kind": kind,
        "first": step.step == first,
        "said": said,
        "url": url,
    }


def compare(
    match: Reviewed, step: PublicStep, player: str, payload: Any, show: int | None
) -> dict[str, Any]:
    """Everything the comparison shows for ``player`` picking ``payload`` in ``step``.

    :raises Problem: 400 for a pick the rules refuse there, 404 for a step to show that the
        what-if did not reach, 409 before the match is disclosed.
    """
    try:
        result = run_what_if(match, step.number, player, payload)
    except Conflict as exc:
        raise Problem(409, f"{exc.description[:1].upper()}{exc.description[1:]}.") from None
    except ReviewError as exc:
        raise Problem(400, f"{str(exc)[:1].upper()}{str(exc)[1:]}.") from None
    records, game, players = match.records, match.log.game, list(match.log.players)
    course = course_records(records, result)
    board = CourseBoard(course)
    later = [s for s in result.steps if s.step >= step.number]
    first = result.first_divergent_step
    if show is not None and not any(s.step == show for s in later):
        msg = (
            f"There is no step {show} to show: the review compares steps {later[0].step} "
            f"to {later[-1].step}."
        )
        raise Problem(404, msg)
    shown_step = show or first or step.number
    shown = next(s for s in result.steps if s.step == shown_step)
    recorded_seq = _resolved_seq(records, shown_step)
    course_seq = _resolved_seq(course, shown_step)
    recorded_series, course_series = _series(game, records), _series(game, course)
    words = games.presentation(game).result_words
    recorded_pick = made(step, player)
    match_id = match.status["match_id"]

    def link(at: int | None) -> str:
        return review_url(match_id, step.number, player, payload, at)

    return {
        "step": step.number,
        "player": player,
        "pick": pick_words(payload),
        "same_pick": recorded_pick is not None and plain(recorded_pick) == plain(payload),
        "first": first,
        "steps": [_course_step(s, first, link(s.step)) for s in later],
        "shown": shown_step,
        "notes": list(shown.notes),
        "recorded_picture": (
            None
            if recorded_seq is None
            else picture(records, recorded_seq, board=match.board, seat=player)
        ),
        "course_picture": (
            None if course_seq is None else picture(course, course_seq, board=board, seat=player)
        ),
        "scores_now": _scores(recorded_series, course_series, shown_step),
        "scores_end": _scores(recorded_series, course_series, None),
        "recorded_result": words(result.original_result or {}, players)
        if result.original_result is not None
        else [],
        "course_result": words(result.new_result, players) if result.new_result is not None else [],
        "same_result": result.original_result == result.new_result,
        "ended": None if match.log.ended is None else match.log.ended.get("reason") or "",
        "recorded_chart": chart(records),
        "course_chart": chart(course),
        "differences": [
            *diff_values(shown.original_outcome, shown.new_outcome),
            *diff_values(shown.original_view, shown.new_view),
        ],
        "table": what_if_table(result),
        "command": "dealerroom replay BUNDLE.json --what-if "
        + shlex.quote(f"{step.number}:{player}={compact(payload)}"),
        "link": link(None),
        "timeline": url_for("pages.timeline", match_id=match_id),
        "bundle": url_for("api.bundle", match_id=match_id, download=1),
    }


# ---------------------------------------------------------------------- routes


def _review(match_id: str) -> dict[str, Any]:
    """What the page shows for the address's step, player and pick.

    :raises Problem: for anything the address names that the match does not have.
    """
    args = request.args
    match = load(match_id)
    step = step_of(match, args.get("step"))
    player = player_of(step, _limited(args.get("player")))
    steps = played_steps(match)
    index = next(i for i, s in enumerate(steps) if s.number == step.number)
    context: dict[str, Any] = {
        "match": match,
        "match_id": match.status["match_id"],
        "status": match.status,
        "game_name": match.game_name,
        "steps": steps,
        "step": step,
        "previous": steps[index - 1] if index > 0 else None,
        "next": steps[index + 1] if index + 1 < len(steps) else None,
        "player": player,
        "account": account(match.records, step.number),
        "recorded_pick": None,
        "seat": None,
        "unavailable": None,
        "comparison": None,
        "pick_problem": None,
        "controls": games.controls_url(match.log.game),
        "room_css": games.room_css_url(match.log.game),
    }
    if step.status is not StepStatus.RESOLVED and match.log.finished:
        context["unavailable"] = (
            f"Step {step.number} never resolved: the match ended before it did, so there is "
            "no course to replay from it."
        )
    elif step.status is not StepStatus.RESOLVED:
        context["unavailable"] = (
            f"Step {step.number} is not resolved yet: its picks are sealed until the rules reveal "
            "them, so it cannot be reviewed now."
        )
    elif match.log.finished and not match.disclosed:
        context["unavailable"] = (
            "This match has finished, but its seed is not revealed yet; a what-if replays the "
            "match with it, so it can be asked once the seed is in the log."
        )
    elif not match.disclosed:
        context["unavailable"] = (
            "This match is still under way. A what-if replays the match with the seed the host "
            "reveals when it ends (it deals every later card), so it can be asked once the match "
            "has finished."
        )
    else:
        context["seat"] = seat_at(match, step, player)
        if context["seat"] is None:
            context["unavailable"] = f"This step cannot be reviewed: {MISSING_STEP_STATE}."
        else:
            recorded = context["seat"]["me"]["current_pick"]["pick"]
            context["recorded_pick"] = pick_words(recorded)
            context["recorded_json"] = compact(recorded)
    if args.get("pick"):
        try:
            context["comparison"] = _asked(match, step, player, context["unavailable"])
        except Problem as problem:
            context["pick_problem"] = problem  # shown where the comparison goes
    if context["comparison"] is not None and context["seat"] is not None:
        # The controls start from the pick the address holds, the text field too.
        asked = json.loads(args["pick"])
        context["seat"]["me"]["current_pick"] = {"step": step.number, "pick": asked}
        context["typed_json"] = compact(asked)
    return context


def _asked(match: Reviewed, step: PublicStep, player: str, unavailable: str | None) -> Any:
    """The comparison the address asks for (``&pick=JSON``, ``&show=K``).

    :raises Problem: for a pick or a step to show that cannot be used, or no what-if yet.
    """
    args = request.args
    payload = pick_of(args.get("pick"))
    show = _number(args["show"], "The step to show") if args.get("show") else None
    if unavailable is not None:
        raise Problem(409, unavailable)
    return compare(match, step, player, payload, show)


def _limited(text: str | None) -> str | None:
    if text is not None and len(text) > MAX_NAME:
        raise Problem(400, f"A player's name has at most {MAX_NAME} characters.")
    return text


@bp.get("/matches/<match_id>/review")
def page(match_id: str) -> Any:
    """The dispute review of one step of a match, with a what-if when the address holds one."""
    try:
        context = _review(match_id)
    except Problem as problem:
        return _problem_page(match_id, problem)
    refused: Problem | None = context["pick_problem"]
    return render_template("review.html", **context), 200 if refused is None else refused.status


@bp.get("/matches/<match_id>/review/comparison")
def comparison(match_id: str) -> Any:
    """Only the what-if's comparison (the review page swaps it in place)."""
    try:
        context = _review(match_id)
    except Problem as problem:
        return render_template("review.html", fragment=True, problem=problem), problem.status
    refused: Problem | None = context["pick_problem"]
    if refused is None and context["comparison"] is None:
        refused = Problem(400, "This address holds no pick to replay the match with.")
    if refused is not None:
        return render_template("review.html", fragment=True, problem=refused), refused.status
    return render_template("review.html", fragment=True, comparison=context["comparison"])


def _problem_page(match_id: str, problem: Problem) -> Any:
    try:
        match: Reviewed | None = load(match_id)
    except Problem:
        match = None
    steps = played_steps(match) if match is not None else []
    page_context = {
        "problem": problem,
        "match": match,
        "match_id": match.status["match_id"] if match is not None else None,
        "game_name": match.game_name if match is not None else None,
        "steps": steps,
    }
    return render_template("review.html", **page_context), problem.status


def _rate() -> str:
    return str(current_app.config.get("DEALERROOM_WHATIF_RATE") or WHATIF_RATE)


@bp.post("/api/matches/<match_id>/what-if")
@security.limiter.limit(
    _rate, error_message="too many what-ifs from this address; wait a moment and try again"
)
def what_if_api(match_id: str) -> Any:
    """The what-if of one changed pick, as ``dealerroom replay --what-if --json`` gives it."""
    body = security.json_body()
    step, player = body.get("step"), body.get("player")
    if not isinstance(step, int) or isinstance(step, bool) or not 1 <= step <= 2**53 - 1:
        raise BadRequest("'step' is the number of a played step (1, 2, 3...)")
    if not isinstance(player, str) or not 0 < len(player) <= MAX_NAME:
        raise BadRequest(
            f"'player' is the name of a player of the match (1 to {MAX_NAME} characters)"
        )
    if "payload" not in body:
        raise BadRequest("'payload' is the pick to replay the match with")
    payload = body["payload"]
    try:
        match = load(match_id)
    except Problem as problem:
        raise NotFound(problem.message) from None
    result = run_what_if(match, step, player, payload)
    answer = {"match_id": match.status["match_id"], **result.to_json()}
    return jsonify({**answer, "review_url": review_url(answer["match_id"], step, player, payload)})


__all__ = [
    "CourseBoard",
    "Problem",
    "Reviewed",
    "bp",
    "compare",
    "course_records",
    "load",
    "seat_at",
]
