"""What-if replay: re-run a recorded match with one pick changed.

:func:`what_if` replays a fully disclosed match through its rules, step by step, feeding
every step the inputs the log recorded, except that in ``step`` the ``player`` submits
``payload`` instead. From there the match may take another course, so each later input is
kept only while it is still legal:

* **picks**: a recorded pick is kept when ``rules.check_pick`` accepts it in the new state;
  otherwise (and for a player who got the default) the game's default applies;
* **decisions**: a recorded decision is kept when the same player is asked at the same
  place and ``rules.check_decision`` accepts it; otherwise the request's default applies;
* **deals**: an explicit deal is kept while it can still be dealt (the same check the
  verifier makes); a seed deal, or an explicit deal that no longer fits, is dealt afresh
  from the revealed seed, as the host's fair randomness would have dealt it;
* **randomness** during resolution comes from the revealed seed, as in the real match.

Steps after the original match ended get default picks, up to ``max_steps``.

The result lists, per step, the original public view after the step, the new one and
whether they diverged (the view or the outcome differs), and names the first divergent
step.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from domain.errors import UserError
from domain.rules.base import Deal, DecisionRequest, Resolution, Rules
from replay.state import ReplayContext, ReplayError, explicit_deal_problem

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from domain.rules.base import Payload, State


class WhatIfError(UserError):
    """A what-if that cannot be run: undisclosed inputs, a bad step, an illegal payload."""


@dataclass
class RecordedStep:
    """The inputs and results one step of the log records."""

    number: int
    deal_source: str = "none"
    deal_public: dict[str, Any] = field(default_factory=dict)
    deal_private: dict[str, Any] | None = None
    picks: dict[str, Payload] = field(default_factory=dict)
    defaulted: set[str] = field(default_factory=set)
    decisions: list[tuple[str, Payload, bool]] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    view: dict[str, Any] | None = None


@dataclass(frozen=True)
class StepComparison:
    """One step of the what-if: the recorded and the new public view after it."""

    step: int
    original_view: dict[str, Any] | None
    new_view: dict[str, Any] | None
    diverged: bool
    original_outcome: dict[str, Any] | None = None
    new_outcome: dict[str, Any] | None = None
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The comparison as JSON."""
        return {
            "step": self.step,
            "original_view": self.original_view,
            "new_view": self.new_view,
            "diverged": self.diverged,
            "original_outcome": self.original_outcome,
            "new_outcome": self.new_outcome,
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class WhatIf:
    """The result of :func:`what_if`."""

    step: int
    player: str
    payload: Any
    steps: tuple[StepComparison, ...]
    first_divergent_step: int | None
    original_result: dict[str, Any] | None
    new_result: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        """The what-if as JSON."""
        return {
            "step": self.step,
            "player": self.player,
            "payload": self.payload,
            "first_divergent_step": self.first_divergent_step,
            "original_result": self.original_result,
            "new_result": self.new_result,
            "steps": [s.to_json() for s in self.steps],
        }


def recorded_steps(
    records: Sequence[Mapping[str, Any]], ctx: ReplayContext
) -> dict[int, RecordedStep]:
    """Gather each step's recorded deal, picks, decisions, outcome and view from the log."""
    steps: dict[int, RecordedStep] = {}
    for record in records:
        kind, data = record.get("type"), record.get("data")
        if not isinstance(data, dict) or not isinstance(data.get("step"), int):
            continue
        step = steps.setdefault(data["step"], RecordedStep(data["step"]))
        if kind == "StepOpened":
            step.deal_source = str(data.get("deal_source"))
            step.deal_public = dict(data.get("deal") or {})
            private = ctx.disclosed.private_deal(step.number)
            step.deal_private = None if private is None else dict(private)
        elif kind == "DefaultApplied":
            step.picks[data["player"]] = data["payload"]
            step.defaulted.add(data["player"])
        elif kind == "SubmissionRevealed":
            step.picks.setdefault(data["player"], data["payload"])
        elif kind == "DecisionMade":
            step.decisions.append((data["player"], data["payload"], bool(data.get("defaulted"))))
        elif kind == "StepResolved":
            step.outcome, step.view = data.get("outcome"), data.get("view")
    return steps


def what_if(
    bundle: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    step: int,
    player: str,
    payload: Any,
    *,
    max_steps: int | None = None,
) -> WhatIf:
    """Re-run the match from ``step`` with ``player`` submitting ``payload`` there.

    ``bundle`` is a bundle or its list of records; the match must be disclosed (finished,
    seed revealed). ``max_steps`` bounds a new course that outlasts the original (default:
    twice the original's steps plus ten).

    :raises WhatIfError: if the match is not disclosed, ``step`` was not played, the player
        was not asked in it or the payload is illegal there.
    """
    records: Sequence[Mapping[str, Any]] = (
        bundle["records"]
        if isinstance(bundle, dict)
        else list(cast("Sequence[Mapping[str, Any]]", bundle))
    )
    try:
        ctx = ReplayContext.from_records(records)
    except ReplayError as exc:
        raise WhatIfError(str(exc)) from None
    if ctx.disclosed.seed is None:
        msg = "a what-if needs the whole match disclosed; its seed is not revealed yet"
        raise WhatIfError(msg)
    original = recorded_steps(records, ctx)
    if step not in original:
        msg = f"step {step} was not played; the match has steps 1..{len(original)}"
        raise WhatIfError(msg)
    rules = ctx.rules
    entropy = _entropy(records)
    limit = max_steps if max_steps is not None else 2 * len(original) + 10
    original_result = _result(records)

    state: State = rules.setup(dict(ctx.options), list(ctx.players))
    comparisons: list[StepComparison] = []
    number = 0
    while number < limit:
        spec = rules.next_step(state)
        if spec is None:
            break
        number += 1
        recorded = original.get(number) or RecordedStep(number)
        notes: list[str] = []

        # The deal.
        if spec.needs_deal:
            deal = _deal(ctx, state, number, recorded, entropy, notes)
            state = rules.apply_deal(state, deal)

        # The picks.
        picks: dict[str, Payload] = {}
        for who in spec.submitters:
            if number == step and who == player:
                try:
                    picks[who] = rules.check_pick(state, who, payload)
                except ValueError as exc:
                    msg = f"{payload!r} is not a legal pick for {who} in step {step}: {exc}"
                    raise WhatIfError(msg) from None
            elif who in recorded.picks and who not in recorded.defaulted:
                try:
                    picks[who] = rules.check_pick(state, who, recorded.picks[who])
                except ValueError as exc:
                    picks[who] = rules.default_pick(state, who)
                    notes.append(
                        f"{who}'s recorded pick is illegal now ({exc}); the default applies"
                    )
            else:
                picks[who] = rules.default_pick(state, who)
        if number == step and player not in spec.submitters:
            msg = f"{player!r} is not asked to submit in step {step}"
            raise WhatIfError(msg)

        # Resolution, with the recorded decisions where they still answer.
        decisions: list[Payload] = []
        while True:
            outcome = rules.resolve(state, picks, decisions, ctx.rng(f"resolve/{number}", entropy))
            if isinstance(outcome, Resolution):
                break
            decisions.append(_decision(rules, state, outcome, recorded, len(decisions), notes))
        state = outcome.state
        new_view = _json(rules.public_view(state))
        new_outcome = _json(outcome.outcome)
        diverged = (recorded.view, recorded.outcome) != (new_view, new_outcome)
        comparisons.append(
            StepComparison(
                number,
                recorded.view,
                new_view,
                diverged,
                recorded.outcome,
                new_outcome,
                tuple(notes),
            )
        )

    for number in sorted(n for n in original if n > len(comparisons)):
        recorded = original[number]
        comparisons.append(
            StepComparison(
                number,
                recorded.view,
                None,
                True,
                recorded.outcome,
                None,
                ("the new course ended before this step",),
            )
        )
    first = next((c.step for c in comparisons if c.diverged), None)
    new_result = _json(rules.result(state)) if rules.is_finished(state) else None
    return WhatIf(step, player, payload, tuple(comparisons), first, original_result, new_result)


def _deal(
    ctx: ReplayContext,
    state: State,
    number: int,
    recorded: RecordedStep,
    entropy: Mapping[str, str],
    notes: list[str],
) -> Deal:
    """The recorded explicit deal while it still fits, else a fresh deal from the seed."""
    if recorded.deal_source == "explicit" and recorded.deal_private is not None:
        deal = Deal(recorded.deal_public, recorded.deal_private)
        problem = explicit_deal_problem(ctx.rules, ctx.game, state, deal)
        if problem is None:
            return deal
        notes.append(f"the recorded deal no longer fits ({problem}); dealt from the seed")
    return ctx.rules.deal(state, ctx.rng(f"deal/{number}", entropy))


def _decision(
    rules: Rules,
    state: State,
    request: DecisionRequest,
    recorded: RecordedStep,
    index: int,
    notes: list[str],
) -> Payload:
    """The recorded decision when the same player is asked at this place and it is valid."""
    if index < len(recorded.decisions):
        who, answer, defaulted = recorded.decisions[index]
        if who == request.player and not defaulted:
            try:
                return dict(rules.check_decision(state, request, answer))
            except ValueError as exc:
                notes.append(
                    f"{who}'s recorded decision is not valid now ({exc}); the default applies"
                )
    return dict(request.default)


def _entropy(records: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    entropy: dict[str, str] = {}
    for record in records:
        if record.get("type") == "StepOpened":
            break
        data = record.get("data") or {}
        if record.get("type") == "PlayerJoined" and isinstance(data.get("entropy"), str):
            entropy[data["player"]] = data["entropy"]
    return entropy


def _result(records: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    for record in records:
        if record.get("type") == "MatchFinished":
            result = (record.get("data") or {}).get("result")
            return result if isinstance(result, dict) else None
    return None


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


__all__ = ["RecordedStep", "StepComparison", "WhatIf", "WhatIfError", "recorded_steps", "what_if"]
