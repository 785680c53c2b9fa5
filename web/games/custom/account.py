"""A custom round's account: each revealed pick, who won and why, the points gained.

"Round 2: ana won with 3, the lowest number nobody else chose." "Round 3: the host
declared ben the winner: “best pun”." The reason is the resolver's, read from the
match's design; the values are the outcome's (``values``, disclosed at each round's end)
or, once the match has ended, the revealed picks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.record_text import names
from web.games.custom.design import NUMBER_RESOLVERS, label, pick_words, quoted, value_words
from web.games.record import revealed, seated
from web.games.words import plural

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from domain.public_log import PublicStep
    from web.games.custom.design import Design


def winners_of(outcome: Mapping[str, Any]) -> list[str]:
    """The round's winners, as the outcome lists them."""
    return [str(w) for w in outcome.get("winners") or () if isinstance(w, str)]


def values_of(design: Design, step: PublicStep) -> dict[str, Any]:
    """Each player's value of the judged field: the outcome's, else the revealed picks'."""
    values = (step.outcome or {}).get("values")
    if isinstance(values, dict):
        return dict(values)
    found = {}
    for player, pick in revealed(step).items():
        if isinstance(pick, dict) and pick.get(design.resolver_field or "") is not None:
            found[player] = pick[design.resolver_field or ""]
    return found


def _number_words(design: Design, won: list[str], values: Mapping[str, Any]) -> str:
    which = NUMBER_RESOLVERS[design.resolver]
    if not won:
        if values:
            return "nobody won: every number was chosen by two players or more."
        return "nobody won: nobody chose a number."
    winner = won[0]
    if winner in values:
        return f"{winner} won with {values[winner]}, the {which} number nobody else chose."
    judged = label(design.resolver_field or "number")
    return f"{winner} won: their {judged} was the {which} number nobody else chose."


def _plurality_words(design: Design, won: list[str], outcome: Mapping[str, Any]) -> str:
    top = [value_words(design.judged, t) for t in outcome.get("top") or ()]
    if not top:
        return f"nobody chose a {label(design.resolver_field or 'value')}, so nobody won."
    chosen = (
        f"{top[0]} was chosen most" if len(top) == 1 else f"{names(top)} tied as the most chosen"
    )
    return f"{chosen}, so {names(won)} won."


def _host_words(won: list[str], outcome: Mapping[str, Any]) -> str:
    if not won:
        declared = "the host declared no winner"
    elif len(won) == 1:
        declared = f"the host declared {won[0]} the winner"
    else:
        declared = f"the host declared {names(won)} the winners"
    note = str(outcome.get("note") or "").strip()
    return f"{declared}: {quoted(note, 500)}." if note else f"{declared}."


def outcome_words(design: Design, step: PublicStep) -> str:
    """Who won the round and why, in one sentence: "Round 2: ana won with 3, ..."."""
    outcome = step.outcome or {}
    won = winners_of(outcome)
    if design.resolver in NUMBER_RESOLVERS:
        said = _number_words(design, won, values_of(design, step))
    elif design.resolver == "plurality":
        said = _plurality_words(design, won, outcome)
    elif design.resolver == "host" or "note" in outcome:
        said = _host_words(won, outcome)
    else:
        said = f"{names(won)} won." if won else "nobody won."
    return f"Round {step.number}: {said}"


def points_words(design: Design, won: Sequence[str]) -> str | None:
    """What the winners gained: "ana gains 1 point.", "ana and ben gain 2 points each."."""
    if not won:
        return None
    if len(won) == 1:
        return f"{won[0]} gains {plural(design.points, 'point')}."
    return f"{names(list(won))} gain {plural(design.points, 'point')} each."


def account(design: Design, step: PublicStep, players: Sequence[str], told: list[str]) -> None:
    """Tell each revealed pick, then who won the round, why, and the points gained."""
    for player, pick in seated(players, revealed(step)):
        told.append(f"{player} picked {pick_words(design, pick)}.")
    if step.resolved_seq is None:
        return
    told.append(outcome_words(design, step))
    gained = points_words(design, winners_of(step.outcome or {}))
    if gained:
        told.append(gained)


def took_part(payload: Any) -> bool:
    """Whether a pick gives anything (a missing pick without a default is every field null)."""
    return isinstance(payload, dict) and any(v is not None for v in payload.values())


def default(design: Design, payload: Any) -> str:
    """What a missing pick became: the default pick, or no part in the round."""
    if took_part(payload):
        return f"so the default pick applies ({pick_words(design, payload)})"
    return "so they take no part in this round"
