"""A custom game in a player's dealer room: the round, the points, what a round did to you.

"Round 2 of 5." "Points: ana 1, ben 0." "You won round 1 and gain 1 point." The host's
declaration is awaited in plain words ("Waiting for the host to declare the winners of
this round."), and the default a missing pick gets is said from the design.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.record_text import names
from web.games import generic
from web.games.custom.account import took_part, winners_of
from web.games.custom.design import pick_words, played_rounds
from web.games.record import revealed
from web.games.words import plural

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from domain.public_log import PublicStep
    from web.games.custom.design import Design

DECLARE = "declare"


def for_you(design: Design, step: PublicStep, player: str) -> list[str]:
    """Your revealed pick (or the default you got), and whether you won the round."""
    words = []
    if player in step.defaults:
        payload = step.defaults[player].payload
        if took_part(payload):
            got = pick_words(design, payload)
            words.append(f"You sent nothing in time, so you got the default pick ({got}).")
        else:
            words.append(f"You sent nothing in time, so you took no part in round {step.number}.")
    elif player in step.reveals:
        words.append(f"Your pick: {pick_words(design, revealed(step)[player])}.")
    if step.resolved_seq is None or player not in step.submitters:
        return words
    if player in winners_of(step.outcome or {}):
        words.append(f"You won round {step.number} and gain {plural(design.points, 'point')}.")
    else:
        words.append(f"You did not win round {step.number}.")
    return words


def default_for_you(design: Design, payload: Mapping[str, Any]) -> str:
    """Ends "If you send nothing by the deadline, ...": the default pick, or no part."""
    if took_part(payload):
        return f"you get the default pick ({pick_words(design, payload)})"
    return "you take no part in this round"


def _declaring(decision: Mapping[str, Any]) -> str | None:
    """For the host's declaration, the round it is about ("round 2"); else ``None``."""
    if decision.get("player") != "host" or decision.get("kind") != DECLARE:
        return None
    prompt = decision.get("prompt")
    number = prompt.get("round") if isinstance(prompt, dict) else None
    return f"round {number}" if isinstance(number, int) else "this round"


def decision_words(decision: Mapping[str, Any], viewer: str) -> str:
    """The host's declaration awaited; any other decision as every game says it."""
    which = _declaring(decision)
    if which is None:
        return generic.decision_words(decision, viewer)
    if viewer == "host":  # the host console
        return f"Declare the winners of {which}: the revealed picks are below."
    return f"Waiting for the host to declare the winners of {which}."


def default_decision(decision: Mapping[str, Any], default: Any) -> tuple[str, str]:
    """The declaration's default: nobody wins the round (to the host, before and after)."""
    which = _declaring(decision)
    if which is None:
        return generic.default_decision(decision, default)
    won = [str(w) for w in (default or {}).get("winners") or ()]
    if not won:
        return f"nobody wins {which}", f"nobody won {which}"
    return f"{names(won)} will win {which}", f"{names(won)} won {which}"


def _points(points: Mapping[str, Any], players: Sequence[str]) -> str:
    return ", ".join(f"{p} {points.get(p, 0)}" for p in players)


def result_words(result: Mapping[str, Any], players: Sequence[str]) -> list[str]:
    """Who won the match, with how many points, then everyone's points."""
    won = [str(w) for w in result.get("winners") or ()]
    points = result.get("points")
    if not isinstance(points, dict):
        return generic.result_words(result, players)
    if not won:
        words = ["Nobody won the match."]
    elif len(won) == 1:
        words = [f"{won[0]} wins the match with {plural(points.get(won[0], 0), 'point')}."]
    else:
        each = plural(points.get(won[0], 0), "point")
        words = [f"A tie: {names(won)} win the match, with {each} each."]
    words.append(f"Points: {_points(points, players)}.")
    return words


def _outcomes(public: Mapping[str, Any]) -> str | None:
    """The rounds' winners so far: "Round 1: ana · round 2: nobody"."""
    outcomes = [o for o in public.get("outcomes") or () if isinstance(o, dict)]
    if not outcomes:
        return None
    shown = [f"round {i}: {names(winners_of(o))}" for i, o in enumerate(outcomes, start=1)][-10:]
    text = " · ".join(shown)
    return f"Winners so far: {text}."


def seat_words(
    design: Design, public: Mapping[str, Any], private: Mapping[str, Any], player: str
) -> list[str]:
    """The game's title, the round, the winners so far, everyone's points and yours."""
    del private
    played = played_rounds(public)
    words = []
    if design.title:
        words.append(f"{design.title}.")
    if public.get("finished"):
        words.append("The round is played." if played == 1 else f"All {played} rounds played.")
    elif design.rounds:
        words.append(f"Round {min(played + 1, design.rounds)} of {design.rounds}.")
    so_far = _outcomes(public)
    if so_far:
        words.append(so_far)
    points = public.get("points")
    if isinstance(points, dict) and points:
        words.append(f"Points: {_points(points, list(points))}.")
        if player in points:
            words.append(f"You have {plural(points[player], 'point')}.")
    return words


def progress(design: Design, view: Mapping[str, Any], under_way: bool) -> str:  # noqa: FBT001
    """How far the match has come: "round 2 of 5 under way", "after round 2 of 5"."""
    played = played_rounds(view)
    if "round" not in view:
        return ""
    of = f" of {design.rounds}" if design.rounds else ""
    if under_way:
        return f"round {played + 1}{of} under way"
    return f"after round {played}{of}" if played else "before the first round"
