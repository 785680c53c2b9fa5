"""State at any event: replaying a match's public records through its rules.

A match's public log (``docs/PROTOCOL.md`` section 3) says everything needed to rebuild the
game state, once the sealed parts have been disclosed: ``StepOpened`` carries the public
deal (``DealRevealed`` the private part, after the match), ``SubmissionRevealed`` and
``DefaultApplied`` the picks, ``DecisionMade`` the decisions, ``SeedRevealed`` the seed of
every draw during resolution. :func:`advance` applies one record to a :class:`Frame` (the
replayed state after some records) and returns the next frame; it never mutates a frame,
so frames can be kept as snapshots and restored, as python-chess keeps ``_BoardState``.
What the records themselves say (each step's status, commitments, defaults, decisions) is
the public-record model, :class:`domain.public_log.PublicLog`, which each frame holds; this
module adds what the rules compute from it.

While a match is under way (or when something was withheld) the rules state may depend on
something not yet disclosed; from there the frame's ``state`` is ``None``, ``unknown`` says
why, and the public view is the one the log recorded.

:class:`MatchReplay` is the board: ``push``/``pop``/``peek`` step through the log, ``seek``
jumps anywhere, ``view_at``/``player_view``/``diff`` read states. It keeps a snapshot every
``snapshot_every`` records, so reaching any position costs at most that many applications.

The same :func:`advance` drives the offline verifier (:mod:`replay.verify`): given a
``report`` callback it compares every recorded deal, default, decision request, outcome,
view and result with the recomputation and reports each difference.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from domain.public_log import PublicLog, PublicStep, Request
from domain.rules.base import Deal, DecisionRequest, Disclosure, Resolution, Rules
from domain.vocabulary import DealSource, StepStatus
from replay.context import Disclosed, ReplayContext, ReplayError, SeedSealed
from replay.diff import MISSING, WHOLE_VALUE, diff_pairs, diff_values

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from domain.rules.base import Payload, State

DEALS = "deals"
OUTCOMES = "outcomes"
_EMPTY: Mapping[str, Any] = MappingProxyType({})


class Reporter(Protocol):
    """Receives what the replay finds: ``report(check, seq, message, pending=..., unchecked=...)``.

    A finding is a failure, unless ``pending`` (it can be checked once more is disclosed)
    or ``unchecked`` (the replay stopped at an earlier failure, so this part of the log
    cannot be checked; that failure is reported on its own).
    """

    def __call__(
        self, check: str, seq: int, message: str, *, pending: bool = False, unchecked: bool = False
    ) -> None:
        """One finding of ``check`` ("deals" or "outcomes") at record ``seq``."""


# ---------------------------------------------------------------------------
# Frames
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """The replayed match after ``position`` records. Never mutated: keep it as a snapshot.

    ``state`` is the whole rules state (``None`` while it depends on something not
    disclosed, ``unknown`` says what, ``waiting`` whether more disclosure may yet make it
    known); ``view`` is the public view (the rules' own when the state is known, else the
    last one the log recorded). ``log`` is what the public records say so far (the
    :class:`~domain.public_log.PublicLog` fold), ``step_state`` the rules state when the
    current step opened, its deal applied.
    """

    position: int = 0
    state: State | None = None
    unknown: str | None = "nothing replayed yet"
    waiting: bool = False
    view: Mapping[str, Any] = field(default_factory=dict)
    log: PublicLog = field(default_factory=PublicLog)
    step_state: State | None = None
    reported: frozenset[str] = field(default=frozenset())

    @property
    def step(self) -> PublicStep | None:
        """The current step's public state (the step opened last)."""
        return self.log.current

    @property
    def finished(self) -> bool:
        """Whether the match is over (``MatchFinished`` or ``MatchEnded`` applied)."""
        return self.log.finished

    @property
    def result(self) -> Mapping[str, Any] | None:
        """The recorded result, once finished."""
        return self.log.result

    def copy(self) -> Frame:
        """The same frame with a log of its own (to apply records to in place)."""
        return replace(self, log=self.log.copy())


def _attempt(fn: Callable[..., Any], *args: Any) -> tuple[Any, str | None]:
    """Call a rules function on recorded (possibly forged) data; never let it crash us."""
    try:
        return fn(*args), None
    except SeedSealed:
        raise
    except Exception as exc:  # noqa: BLE001 - forged logs may break rules in any way
        return None, f"{type(exc).__name__}: {exc}"


def _obj(value: Any) -> dict[str, Any]:
    """A recorded JSON object, or ``{}`` for anything else (forged records may hold anything)."""
    return value if isinstance(value, dict) else {}


def _json(value: Any) -> Any:
    """The value as the log would hold it (tuples become lists, keys text)."""
    return json.loads(json.dumps(value))


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _first_difference(old: Any, new: Any) -> str:
    lines = diff_values(old, new)
    return lines[0] if lines else "they differ"


def explicit_deal_problem(rules: Rules, state: State, deal: Deal) -> str | None:
    """Why an explicit deal could not have been dealt in ``state`` (``None`` if it could).

    The recorded public and private parts are put back into the scenario shape and run
    through ``rules.check_deal``, which must accept them and split them back into exactly
    the recorded parts (``rules.scenario_deal`` gives the shape, the same way for every
    game). For a game that gives no shape, ``apply_deal`` must accept the deal.
    """
    shape, error = _attempt(rules.scenario_deal, deal)
    if error is not None:
        return f"the deal has no scenario shape: {error}"
    if shape is None:
        _, error = _attempt(rules.apply_deal, state, deal)
        return None if error is None else f"the deal cannot be applied: {error}"
    checked, error = _attempt(rules.check_deal, state, shape)
    if error is not None:
        return f"the rules reject the deal: {error}"
    if dict(checked.public) != dict(deal.public) or dict(checked.private) != dict(deal.private):
        return "the deal is not in the form the rules give it"
    return None


# ---------------------------------------------------------------------------
# Applying one record
# ---------------------------------------------------------------------------


def initial_frame() -> Frame:
    """The frame before any record."""
    return Frame()


def advance(
    ctx: ReplayContext,
    frame: Frame,
    record: Mapping[str, Any],
    report: Reporter | None = None,
) -> Frame:
    """Apply one public record to ``frame`` and return the frame after it.

    With ``report``, every difference between the record and the rules' recomputation is
    reported under ``"deals"`` or ``"outcomes"`` (``pending=True`` when it can only be
    checked after more disclosure). Malformed records never raise: they make the state
    unknown and are reported. ``frame`` itself is left as it is.
    """
    return apply_in_place(ctx, frame.copy(), record, report)


def apply_in_place(
    ctx: ReplayContext,
    frame: Frame,
    record: Mapping[str, Any],
    report: Reporter | None = None,
) -> Frame:
    """:func:`advance`, folding the record into ``frame.log`` itself (no copy).

    For one pass over a log that keeps no earlier frame (the verifier, building snapshots):
    ``frame`` must not be used afterwards.
    """
    data = record.get("data")
    seq = frame.position
    nxt = replace(frame, position=frame.position + 1)
    handler = _HANDLERS.get(str(record.get("type")))
    if handler is not None and isinstance(data, dict):
        run = _Run(ctx, seq, report)
        try:
            nxt = handler(run, nxt, data)
        except SeedSealed:  # pragma: no cover - every draw is guarded where it happens
            pass
        except Exception as exc:  # noqa: BLE001 - a forged record of the wrong shape
            nxt = run.lose(
                nxt, OUTCOMES, f"record {seq} cannot be replayed: {type(exc).__name__}: {exc}"
            )
    nxt.log.apply(record)  # what the record says, after the rules have checked it
    return nxt


@dataclass
class _Run:
    """One application of one record: the context, the record's seq and the reporter."""

    ctx: ReplayContext
    seq: int
    report: Reporter | None

    @property
    def rules(self) -> Rules:
        return self.ctx.rules

    def fail(self, check: str, message: str) -> None:
        if self.report is not None:
            self.report(check, self.seq, message)

    def note(
        self,
        frame: Frame,
        check: str,
        reason: str,
        *,
        pending: bool = False,
        unchecked: bool = False,
    ) -> Frame:
        """Report that ``check`` cannot go on from here, once per check."""
        if check in frame.reported:
            return frame
        if self.report is not None:
            self.report(check, self.seq, reason, pending=pending, unchecked=unchecked)
        return replace(frame, reported=frame.reported | {check})

    def lose(self, frame: Frame, check: str, reason: str, *, pending: bool = False) -> Frame:
        """The state is unknown from here: report why (once per check)."""
        frame = self.note(frame, check, reason, pending=pending)
        return replace(frame, state=None, unknown=reason, waiting=pending)

    def postpone(self, frame: Frame, check: str, reason: str, *, lose: bool = True) -> Frame:
        """Something needed is not disclosed: pending while the match runs, else a failure."""
        pending = self.ctx.expecting_more
        if lose:
            return self.lose(frame, check, reason, pending=pending)
        return self.note(frame, check, reason, pending=pending)


def _match_created(run: _Run, frame: Frame, data: Mapping[str, Any]) -> Frame:
    del data  # the set-up is in the replay context
    state, error = _attempt(run.rules.setup, run.ctx.options, list(run.ctx.players))
    if error is not None:
        return run.lose(frame, OUTCOMES, f"the rules reject the match set-up: {error}")
    view, _ = _attempt(run.rules.public_view, state)
    return replace(frame, state=state, unknown=None, view=_json(view) if view else {})


def _step_opened(run: _Run, frame: Frame, data: Mapping[str, Any]) -> Frame:
    number, source = data["step"], data.get("deal_source")
    public = _obj(data.get("deal"))
    recorded_view = _obj(data.get("view"))
    kind, submitters = str(data.get("kind")), tuple(data.get("submitters") or ())
    frame = replace(frame, step_state=None, view=recorded_view)
    state = frame.state
    dealt = source in (DealSource.SEED, DealSource.EXPLICIT)
    if state is None:
        if dealt:
            reason = f"the deals from step {number} on cannot be checked: {frame.unknown}"
            if frame.waiting:
                return run.postpone(frame, DEALS, reason, lose=False)
            return run.note(frame, DEALS, reason, unchecked=True)
        return frame
    rules = run.rules

    # The step the rules ask for.
    spec, error = _attempt(rules.next_step, state)
    if error is not None:
        return run.lose(frame, OUTCOMES, f"the rules cannot open step {number}: {error}")
    if spec is None:
        return run.lose(
            frame, OUTCOMES, f"the rules say the match is over, yet step {number} opens"
        )
    if (spec.kind, list(spec.submitters)) != (kind, list(submitters)):
        run.fail(
            OUTCOMES,
            f"step {number} asks {list(submitters)} for a {kind!r}; the rules ask "
            f"{list(spec.submitters)} for a {spec.kind!r}",
        )
    if spec.needs_deal != (source != DealSource.NONE):
        want = "a deal" if spec.needs_deal else "no deal"
        run.fail(DEALS, f"step {number} has deal_source {source!r}, but the rules need {want}")

    # The deal: recomputed from the seed, or checked as an explicit deal.
    private = run.ctx.disclosed.private_deal(number)
    if source == DealSource.SEED:
        if run.ctx.disclosed.seed is None:
            reason = f"step {number} was dealt from the seed, which is not revealed yet"
            frame = run.postpone(frame, DEALS, reason, lose=False)
        else:
            rng = run.ctx.rng(f"deal/{number}", frame.log.entropy)
            dealt, error = _attempt(rules.deal, state, rng)
            if error is not None:
                run.fail(DEALS, f"the rules cannot deal step {number} from the seed: {error}")
            elif _json(dealt.public) != public:
                run.fail(
                    DEALS,
                    f"the public deal of step {number} is not the one the seed gives: "
                    + _first_difference(_json(dealt.public), public),
                )
            elif private is not None and _json(dealt.private) != dict(private):
                run.fail(
                    DEALS,
                    f"the private deal of step {number} (DealRevealed) is not the one the seed "
                    "gives: " + _first_difference(_json(dealt.private), dict(private)),
                )
    elif source == DealSource.EXPLICIT:
        if private is None:
            reason = f"the private part of the deal of step {number} is not disclosed yet"
            frame = run.postpone(frame, DEALS, reason, lose=False)
        else:
            problem = explicit_deal_problem(rules, state, Deal(public, dict(private)))
            if problem is not None:
                run.fail(DEALS, f"the explicit deal of step {number} could not be dealt: {problem}")
    elif source == DealSource.NONE and public:
        run.fail(DEALS, f"step {number} deals nothing but records the deal {_short(public)}")
    elif source not in tuple(DealSource):
        run.fail(DEALS, f"step {number} has the unknown deal_source {source!r}")

    # Apply the deal as recorded: this is what the aggregate did.
    if dealt:
        if private is None:
            reason = f"the private part of the deal of step {number} is not disclosed yet"
            return run.postpone(frame, OUTCOMES, reason)
        state, error = _attempt(rules.apply_deal, state, Deal(public, dict(private)))
        if error is not None:
            return run.lose(
                frame, OUTCOMES, f"the deal of step {number} cannot be applied: {error}"
            )
    view, error = _attempt(rules.public_view, state)
    if error is not None:
        return run.lose(frame, OUTCOMES, f"no public view after the deal of step {number}: {error}")
    view = _json(view)
    if view != recorded_view:
        run.fail(
            OUTCOMES,
            f"StepOpened.view of step {number} is not the public state after the deal: "
            + _first_difference(view, recorded_view),
        )
    return replace(frame, state=state, view=view, step_state=state)


def _current(frame: Frame, data: Mapping[str, Any]) -> PublicStep | None:
    step = frame.log.current
    return step if step is not None and step.number == data.get("step") else None


def _request(request: Request) -> DecisionRequest:
    """A recorded decision request as the rules make them."""
    return DecisionRequest(request.player, request.kind, request.prompt, request.default)


def _default_applied(run: _Run, frame: Frame, data: Mapping[str, Any]) -> Frame:
    step = _current(frame, data)
    if step is None:
        return frame
    player, payload = data["player"], data.get("payload")
    if frame.step_state is not None and frame.state is not None:
        expected, error = _attempt(run.rules.default_pick, frame.step_state, player)
        if error is not None:
            run.fail(
                OUTCOMES, f"the rules give no default for {player} in step {step.number}: {error}"
            )
        elif _json(expected) != payload:
            run.fail(
                OUTCOMES,
                f"the default for {player} in step {step.number} is {_short(expected)}, "
                f"not {_short(payload)}",
            )
    return frame


def _picks(run: _Run, frame: Frame, step: PublicStep) -> tuple[dict[str, Payload] | None, Frame]:
    """Every submitter's pick: their default, or their revealed payload."""
    picks: dict[str, Payload] = {}
    for player in step.submitters:
        if player in step.defaults:
            picks[player] = _obj(step.defaults[player].payload)
            continue
        revealed = run.ctx.disclosed.reveals.get((step.number, player), _MISSING)
        if revealed is _MISSING:
            if player not in step.commitments:
                reason = f"{player} neither committed nor got a default in step {step.number}"
                return None, run.lose(frame, OUTCOMES, reason)
            reason = f"the pick of {player} in step {step.number} is not revealed"
            if (
                run.rules.disclosure_for(run.ctx.options) is Disclosure.AT_END
                and run.ctx.expecting_more
            ):
                reason += " (this game reveals picks when the match ends)"
            return None, run.postpone(frame, OUTCOMES, reason)
        assert frame.step_state is not None  # noqa: S101 - callers check
        checked, error = _attempt(run.rules.check_pick, frame.step_state, player, revealed)
        if error is not None:
            run.fail(
                OUTCOMES, f"the revealed pick of {player} in step {step.number} is illegal: {error}"
            )
        elif _json(checked) != revealed:
            run.fail(
                OUTCOMES,
                f"the revealed pick of {player} in step {step.number} is not in normal form "
                f"({_short(revealed)}, normally {_short(checked)})",
            )
        picks[player] = revealed
    return picks, frame


_MISSING = object()


def _resolve(
    run: _Run, frame: Frame, step: PublicStep
) -> tuple[Resolution | DecisionRequest | None, Frame]:
    """Re-run the step's resolution with its decisions so far; ``None`` when it cannot run."""
    picks, frame = _picks(run, frame, step)
    if picks is None:
        return None, frame
    rng = run.ctx.rng(f"resolve/{step.number}", frame.log.entropy)
    decisions = [_obj(decision.payload) for decision in step.decisions]
    try:
        outcome, error = _attempt(run.rules.resolve, frame.step_state, picks, decisions, rng)
    except SeedSealed:
        reason = (
            f"the resolution of step {step.number} draws from the seed, which is not revealed yet"
        )
        return None, run.postpone(frame, OUTCOMES, reason)
    if error is not None:
        return None, run.lose(
            frame, OUTCOMES, f"the rules cannot resolve step {step.number}: {error}"
        )
    return outcome, frame


def _decision_requested(run: _Run, frame: Frame, data: Mapping[str, Any]) -> Frame:
    step = _current(frame, data)
    if step is None:
        return frame
    recorded = DecisionRequest(
        player=data["player"], kind=data["kind"], prompt=data["prompt"], default=data["default"]
    )
    if frame.state is not None and frame.step_state is not None:
        outcome, frame = _resolve(run, frame, step)
        if isinstance(outcome, Resolution):
            run.fail(OUTCOMES, f"step {step.number} asks for a decision the rules do not need")
        elif isinstance(outcome, DecisionRequest) and _json(vars(outcome)) != vars(recorded):
            run.fail(
                OUTCOMES,
                f"decision request {data.get('index')} of step {step.number} is not the one the "
                "rules make: " + _first_difference(_json(vars(outcome)), vars(recorded)),
            )
    return frame


def _decision_made(run: _Run, frame: Frame, data: Mapping[str, Any]) -> Frame:
    step = _current(frame, data)
    if step is None:
        return frame
    payload, index = data.get("payload"), len(step.decisions)
    if frame.state is not None and frame.step_state is not None and index < len(step.requests):
        request = _request(step.requests[index])
        if data.get("defaulted"):
            if payload != _json(request.default):
                run.fail(
                    OUTCOMES,
                    f"defaulted decision {index} of step {step.number} is {_short(payload)}, "
                    f"not the default {_short(request.default)}",
                )
        else:
            checked, error = _attempt(run.rules.check_decision, frame.step_state, request, payload)
            if error is not None:
                run.fail(OUTCOMES, f"decision {index} of step {step.number} is not valid: {error}")
            elif _json(checked) != payload:
                run.fail(OUTCOMES, f"decision {index} of step {step.number} is not in normal form")
    return frame


def _step_resolved(run: _Run, frame: Frame, data: Mapping[str, Any]) -> Frame:
    step = _current(frame, data)
    recorded_view = _obj(data.get("view"))
    frame = replace(frame, view=recorded_view)
    if step is None:
        return frame
    if frame.state is None or frame.step_state is None:
        return replace(frame, state=None)
    outcome, frame = _resolve(run, frame, step)
    if outcome is None:
        return frame
    if isinstance(outcome, DecisionRequest):
        reason = (
            f"step {step.number} resolved, but the rules still ask {outcome.player} for a "
            f"{outcome.kind!r} decision"
        )
        return run.lose(frame, OUTCOMES, reason)
    computed = _json(outcome.outcome)
    if computed != data.get("outcome"):
        run.fail(
            OUTCOMES,
            f"the outcome of step {step.number} does not follow from its inputs: "
            + _first_difference(computed, data.get("outcome")),
        )
    view, error = _attempt(run.rules.public_view, outcome.state)
    if error is not None:
        return run.lose(frame, OUTCOMES, f"no public view after step {step.number}: {error}")
    view = _json(view)
    if view != recorded_view:
        run.fail(
            OUTCOMES,
            f"the view after step {step.number} is not the rules' public state: "
            + _first_difference(view, recorded_view),
        )
    return replace(frame, state=outcome.state, view=view)


def _match_finished(run: _Run, frame: Frame, data: Mapping[str, Any]) -> Frame:
    result = data.get("result")
    if frame.state is not None:
        finished, error = _attempt(run.rules.is_finished, frame.state)
        if error is None and not finished:
            run.fail(OUTCOMES, "MatchFinished, but by the rules the match goes on")
        expected, error = _attempt(run.rules.result, frame.state)
        if error is not None:
            run.fail(OUTCOMES, f"the rules give no result: {error}")
        elif _json(expected) != result:
            run.fail(
                OUTCOMES,
                "the result is not the one the rules give: "
                + _first_difference(_json(expected), result),
            )
    return frame


_HANDLERS: dict[str, Callable[[_Run, Frame, Mapping[str, Any]], Frame]] = {
    "MatchCreated": _match_created,
    "StepOpened": _step_opened,
    "DefaultApplied": _default_applied,
    "DecisionRequested": _decision_requested,
    "DecisionMade": _decision_made,
    "StepResolved": _step_resolved,
    "MatchFinished": _match_finished,
}


def finish(ctx: ReplayContext, frame: Frame, report: Reporter | None = None) -> None:
    """Report what the end of the log says: a match the rules ended must say so."""
    if report is None or frame.state is None or frame.finished:
        return
    ended, error = _attempt(ctx.rules.is_finished, frame.state)
    if error is None and ended and (frame.step is None or frame.step.status is StepStatus.RESOLVED):
        report(OUTCOMES, frame.position, "by the rules the match is over, but it never finished")


# ---------------------------------------------------------------------------
# The board
# ---------------------------------------------------------------------------


class MatchReplay:
    """A match's public log as a board you can step through, like python-chess's ``Board``.

    ``position`` is how many records have been applied (0 to ``len(records)``);
    :meth:`push` applies the next record, :meth:`pop` takes the last one back, :meth:`peek`
    shows it. ``applied`` is the move stack. A snapshot every ``snapshot_every`` records
    (taken in one pass when the replay is built) bounds the cost of :meth:`seek` and of
    reading any other position.

    >>> from replay.bundle import play_scenario
    >>> from datetime import datetime, UTC
    >>> from uuid import UUID
    >>> scenario = {"game": "vote", "players": ["ana", "ben"], "seed": "00" * 32,
    ...             "steps": [{"submit": {"ana": {"vote": "ben"}, "ben": {"vote": "ben"}}}]}
    >>> played = play_scenario(scenario, match_id=UUID(int=1),
    ...                        start_time=datetime(2026, 1, 1, tzinfo=UTC))
    >>> board = MatchReplay(played.records)
    >>> board.seek(len(board))
    >>> board.view()["winners"]
    ['ben']
    >>> board.pop()["type"]
    'SeedRevealed'
    >>> board.diff(2, 8)
    ['tally.ben: 0 → 2', 'finished: false → true', 'winners: [] → ["ben"]']
    """

    def __init__(self, records: Sequence[Mapping[str, Any]], *, snapshot_every: int = 64) -> None:
        """Replay ``records`` once, keeping a snapshot every ``snapshot_every`` records."""
        if snapshot_every < 1:
            msg = "snapshot_every is at least 1"
            raise ValueError(msg)
        self.records: tuple[Mapping[str, Any], ...] = tuple(records)
        self.context = ReplayContext.from_records(self.records)
        self.snapshot_every = snapshot_every
        self._snapshots: list[Frame] = []
        frame = initial_frame()
        for i, record in enumerate(self.records):
            if i % snapshot_every == 0:
                self._snapshots.append(frame.copy())
            frame = apply_in_place(self.context, frame, record)
        if len(self.records) % snapshot_every == 0:
            self._snapshots.append(frame)
        self.frame = initial_frame()
        self._stack: list[Frame] = []

    def __len__(self) -> int:
        """The number of records."""
        return len(self.records)

    def __repr__(self) -> str:
        """The game, the match and the position."""
        where = f"{self.position}/{len(self)}"
        return f"<MatchReplay {self.context.game} {self.context.match_id} at {where}>"

    # -- Stepping -----------------------------------------------------------------------

    @property
    def position(self) -> int:
        """How many records have been applied."""
        return self.frame.position

    @property
    def applied(self) -> list[Mapping[str, Any]]:
        """The records applied so far, oldest first (the move stack)."""
        return list(self.records[: self.position])

    def push(self) -> Mapping[str, Any]:
        """Apply the next record and return it.

        :raises IndexError: at the end of the log.
        """
        if self.position >= len(self.records):
            msg = "the whole log has been applied"
            raise IndexError(msg)
        record = self.records[self.position]
        self._stack.append(self.frame)
        self.frame = advance(self.context, self.frame, record)
        return record

    def pop(self) -> Mapping[str, Any]:
        """Take back the last record applied and return it.

        :raises IndexError: at the start of the log.
        """
        record = self.peek()
        self.frame = self._stack.pop() if self._stack else self.frame_at(self.position - 1)
        return record

    def peek(self) -> Mapping[str, Any]:
        """Return the last record applied.

        :raises IndexError: at the start of the log.
        """
        if self.position == 0:
            msg = "no record has been applied"
            raise IndexError(msg)
        return self.records[self.position - 1]

    def seek(self, position: int) -> None:
        """Go to ``position`` (records applied), from the nearest snapshot.

        :raises IndexError: outside ``0..len(records)``.
        """
        self.frame = self.frame_at(position)
        self._stack.clear()

    def copy(self, *, stack: bool = True) -> MatchReplay:
        """Return a board at the same position (sharing the log and its snapshots)."""
        board = object.__new__(MatchReplay)
        board.records, board.context = self.records, self.context
        board.snapshot_every, board._snapshots = self.snapshot_every, self._snapshots
        board.frame = self.frame
        board._stack = list(self._stack) if stack else []
        return board

    # -- Reading ------------------------------------------------------------------------

    def frame_at(self, position: int) -> Frame:
        """Return the frame after ``position`` records, from the nearest snapshot.

        :raises IndexError: outside ``0..len(records)``.
        """
        if not 0 <= position <= len(self.records):
            msg = f"position {position} is outside 0..{len(self.records)}"
            raise IndexError(msg)
        frame = self._snapshots[position // self.snapshot_every]
        if frame.position < position:
            frame = frame.copy()  # the snapshot stays as it is
            for record in self.records[frame.position : position]:
                frame = apply_in_place(self.context, frame, record)
        return frame

    def at(self, seq: int) -> Frame:
        """Return the frame just after record ``seq``."""
        return self.frame_at(seq + 1)

    def state(self) -> State | None:
        """A copy of the whole rules state now (``None`` while not disclosed)."""
        return copy.deepcopy(self.frame.state)

    def view(self) -> dict[str, Any]:
        """The public view now."""
        return copy.deepcopy(dict(self.frame.view))

    def view_at(self, seq: int) -> dict[str, Any]:
        """The public view just after record ``seq``."""
        return copy.deepcopy(dict(self.at(seq).view))

    def player_view(self, player: str, seq: int | None = None) -> dict[str, Any] | None:
        """What ``player`` alone saw (hand, sequence), once disclosed; ``None`` before that.

        ``seq`` defaults to the current position.
        """
        frame = self.frame if seq is None else self.at(seq)
        if frame.state is None:
            return None
        view, _ = _attempt(self.context.rules.private_view, frame.state, player)
        return copy.deepcopy(view) if isinstance(view, dict) else None

    def diff(self, a_seq: int, b_seq: int) -> list[str]:
        """Readable ``"path: old → new"`` lines between the public views after two records."""
        return diff_values(dict(self.at(a_seq).view), dict(self.at(b_seq).view))


__all__ = [
    "DEALS",
    "MISSING",
    "OUTCOMES",
    "WHOLE_VALUE",
    "Disclosed",
    "Frame",
    "MatchReplay",
    "ReplayContext",
    "ReplayError",
    "Reporter",
    "advance",
    "apply_in_place",
    "diff_pairs",
    "diff_values",
    "explicit_deal_problem",
    "finish",
    "initial_frame",
]
