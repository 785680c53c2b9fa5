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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from domain.errors import UserError
from domain.public_log import PublicLog, PublicStep
from domain.rules.base import Deal, DecisionRequest, RulesError, play_step
from domain.vocabulary import DealSource
from replay.state import ReplayContext, ReplayError, explicit_deal_problem

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from domain.fairrand import Rng
    from domain.rules.base import Payload, Rules, State


class WhatIfError(UserError):
    """A what-if that cannot be run: undisclosed inputs, a bad step, an illegal payload."""


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


def recorded_steps(records: Sequence[Mapping[str, Any]]) -> dict[int, PublicStep]:
    """Each step's public state as the log records it (:class:`~domain.public_log.PublicLog`)."""
    return dict(PublicLog.of(records).steps)


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
    log = PublicLog.of(records)
    original = dict(log.steps)
    if step not in original:
        msg = f"step {step} was not played; the match has steps 1..{len(original)}"
        raise WhatIfError(msg)
    rules = ctx.rules
    entropy = dict(log.entropy)
    limit = max_steps if max_steps is not None else 2 * len(original) + 10
    original_result = dict(log.result) if log.result is not None else None

    change = (step, player, payload)
    state: State = rules.setup(dict(ctx.options), list(ctx.players))
    comparisons: list[StepComparison] = []
    number = 0
    while number < limit:
        spec = rules.next_step(state)
        if spec is None:
            break
        number += 1
        recorded = original.get(number)
        notes: list[str] = []
        if number == step and player not in spec.submitters:
            msg = f"{player!r} is not asked to submit in step {step}"
            raise WhatIfError(msg)
        deal = _deal(ctx, state, recorded, notes) if spec.needs_deal else None
        streams = _streams(ctx, number, entropy)
        try:
            played = play_step(
                rules,
                state,
                streams,
                deal=deal,
                submit=_picks(rules, recorded, notes, change if number == step else None),
                decide=_decisions(rules, recorded, notes),
            )
        except _IllegalChange as exc:
            raise WhatIfError(str(exc)) from None
        state = played.resolution.state
        new_view = _json(rules.public_view(state))
        new_outcome = _json(played.resolution.outcome)
        old_view, old_outcome = _recorded(recorded)
        diverged = (old_view, old_outcome) != (new_view, new_outcome)
        comparisons.append(
            StepComparison(
                number, old_view, new_view, diverged, old_outcome, new_outcome, tuple(notes)
            )
        )

    for number in sorted(n for n in original if n > len(comparisons)):
        old_view, old_outcome = _recorded(original[number])
        comparisons.append(
            StepComparison(
                number,
                old_view,
                None,
                diverged=True,
                original_outcome=old_outcome,
                new_outcome=None,
                notes=("the new course ended before this step",),
            )
        )
    first = next((c.step for c in comparisons if c.diverged), None)
    new_result = _json(rules.result(state)) if rules.is_finished(state) else None
    return WhatIf(step, player, payload, tuple(comparisons), first, original_result, new_result)


class _IllegalChange(Exception):
    """The changed pick is not legal where it is made."""


def _recorded(step: PublicStep | None) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The view and outcome the log recorded after a step (``None`` if it never resolved)."""
    if step is None:
        return None, None
    view = None if step.view is None else dict(step.view)
    outcome = None if step.outcome is None else dict(step.outcome)
    return view, outcome


def _streams(ctx: ReplayContext, number: int, entropy: Mapping[str, str]) -> Callable[[str], Rng]:
    """The step's streams from the revealed seed, as the match drew them."""

    def stream(purpose: str) -> Rng:
        return ctx.rng(f"{purpose}/{number}", entropy)

    return stream


def _deal(
    ctx: ReplayContext, state: State, recorded: PublicStep | None, notes: list[str]
) -> dict[str, Any] | None:
    """The recorded explicit deal while it still fits, else ``None``: a fresh deal from the seed."""
    if recorded is None or recorded.deal_source != DealSource.EXPLICIT:
        return None
    private = ctx.disclosed.private_deal(recorded.number)
    if private is None:
        return None
    deal = Deal(dict(recorded.deal), dict(private))
    problem = explicit_deal_problem(ctx.rules, state, deal)
    if problem is None:
        return ctx.rules.scenario_deal(deal)
    notes.append(f"the recorded deal no longer fits ({problem}); dealt from the seed")
    return None


def _picks(
    rules: Rules,
    recorded: PublicStep | None,
    notes: list[str],
    change: tuple[int, str, Any] | None,
) -> Callable[[State, str], Payload | None]:
    """The changed pick; each other recorded pick while it is still legal; else the default."""

    def choose(state: State, who: str) -> Payload | None:
        if change is not None and who == change[1]:
            try:
                return dict(rules.check_pick(state, who, change[2]))
            except RulesError as exc:
                msg = f"{change[2]!r} is not a legal pick for {who} in step {change[0]}: {exc}"
                raise _IllegalChange(msg) from None
        if recorded is None or who in recorded.defaults or who not in recorded.reveals:
            return None
        try:
            return dict(rules.check_pick(state, who, recorded.reveals[who].payload))
        except RulesError as exc:
            notes.append(f"{who}'s recorded pick is illegal now ({exc}); the default applies")
            return None

    return choose


def _decisions(
    rules: Rules, recorded: PublicStep | None, notes: list[str]
) -> Callable[[State, DecisionRequest, int], Payload | None]:
    """The recorded decision when the same player is asked at this place and it is valid."""

    def answer_to(state: State, request: DecisionRequest, index: int) -> Payload | None:
        if recorded is None or index >= len(recorded.decisions):
            return None
        made = recorded.decisions[index]
        if made.player != request.player or made.defaulted:
            return None
        try:
            return dict(rules.check_decision(state, request, made.payload))
        except RulesError as exc:
            notes.append(
                f"{made.player}'s recorded decision is not valid now ({exc}); the default applies"
            )
            return None

    return answer_to


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


__all__ = ["StepComparison", "WhatIf", "WhatIfError", "recorded_steps", "what_if"]
