"""Custom games through ``simulate``: random designs and picks against a tiny re-implementation.

The re-implementation below is written from RULINGS.md §5 alone (it shares no code with
``domain.rules.custom``); every public state ``run_scenario`` prints must equal its own.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.simulate import run_scenario

if TYPE_CHECKING:
    from service.application import DealerRoom

PLAYERS = ["ana", "ben", "cai", "dee"]
CHOICES = ["b", "a", "B", "é", "zz"]


@st.composite
def fields(draw: st.DrawFn) -> list[dict[str, Any]]:
    """One integer field ``n``, one choice ``c``, one player ``p`` and maybe a text ``t``."""
    low = draw(st.integers(-3, 3))
    out = [
        {"name": "n", "kind": "integer", "min": low, "max": low + draw(st.integers(0, 4))},
        {"name": "c", "kind": "choice", "choices": draw(st.sampled_from([CHOICES, CHOICES[:2]]))},
        {"name": "p", "kind": "player", "self": draw(st.booleans())},
    ]
    if draw(st.booleans()):
        out.append({"name": "t", "kind": "text", "max_length": 3})
    for field in out:
        if draw(st.booleans()):
            field["optional"] = True
    return out


def value(draw: st.DrawFn, field: dict[str, Any], player: str) -> Any:
    if field.get("optional") and draw(st.booleans()):
        return None
    if field["kind"] == "integer":
        return draw(st.integers(field["min"], field["max"]))
    if field["kind"] == "choice":
        return draw(st.sampled_from(field["choices"]))
    if field["kind"] == "player":
        return draw(st.sampled_from([p for p in PLAYERS if field["self"] or p != player]))
    return draw(st.text(st.characters(codec="utf-8"), min_size=1, max_size=3))


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    design = draw(fields())
    kind = draw(st.sampled_from(["lowest-unique", "highest-unique", "plurality", "host"]))
    resolver: dict[str, Any] = {"kind": kind}
    if kind in ("lowest-unique", "highest-unique"):
        resolver["field"] = "n"
    elif kind == "plurality":
        resolver["field"] = draw(st.sampled_from(["c", "p"]))
    disclosure = "at-resolve" if kind == "host" else draw(st.sampled_from(["at-resolve", "at-end"]))
    rounds = draw(st.integers(1, 3))
    options: dict[str, Any] = {
        "rounds": rounds,
        "fields": design,
        "resolver": resolver,
        "disclosure": disclosure,
        "points": draw(st.integers(0, 3)),
    }
    if draw(st.booleans()):  # a default every player may take: "self" allowed, or left empty
        options["default"] = {
            f["name"]: value(draw, f, "nobody") if f["kind"] != "player" or f["self"] else None
            for f in design
        }
        if any(
            v is None and not f.get("optional")
            for f, v in zip(design, options["default"].values(), strict=True)
        ):
            del options["default"]
    steps = []
    for _ in range(rounds):
        submit = {
            player: {f["name"]: value(draw, f, player) for f in design}
            for player in PLAYERS
            if draw(st.integers(0, 3))  # one time in four, missing
        }
        step: dict[str, Any] = {"submit": submit}
        if kind == "host" and draw(st.booleans()):
            step["declare"] = {
                "winners": draw(st.lists(st.sampled_from(PLAYERS), unique=True)),
                "note": draw(st.text(max_size=5)),
            }
        steps.append(step)
    return {"game": "custom", "players": PLAYERS, "options": options, "steps": steps}


def expected_states(scenario: dict[str, Any]) -> list[dict[str, Any]]:
    """§5, re-derived: the public state after every step."""
    options = scenario["options"]
    names = [f["name"] for f in options["fields"]]
    resolver = options["resolver"]
    points = dict.fromkeys(PLAYERS, 0)
    outcomes: list[dict[str, Any]] = []
    states = []
    for number, step in enumerate(scenario["steps"], start=1):
        picks = {}
        for player in PLAYERS:
            pick = step["submit"].get(player, options.get("default"))
            picks[player] = {n: (pick or {}).get(n) for n in names}
        outcome: dict[str, Any]
        if resolver["kind"] == "host":
            declared = step.get("declare") or {"winners": []}
            outcome = {"winners": declared["winners"]}
        else:
            chosen = {p: picks[p][resolver["field"]] for p in PLAYERS}
            chosen = {p: v for p, v in chosen.items() if v is not None}
            counts = Counter(chosen.values())
            if resolver["kind"] == "plurality":
                most = max(counts.values(), default=0)
                top = sorted(v for v, k in counts.items() if k == most) if counts else []
                outcome = {"winners": [p for p in PLAYERS if p in chosen and chosen[p] in top]}
                outcome["top"] = top
            else:
                unique = [v for v, k in counts.items() if k == 1]
                pick_of = min if resolver["kind"] == "lowest-unique" else max
                best = pick_of(unique) if unique else None
                outcome = {"winners": [p for p in PLAYERS if unique and chosen.get(p) == best]}
        for winner in outcome["winners"]:
            points[winner] += options["points"]
        outcomes.append(outcome)
        finished = number == options["rounds"]
        top_points = max(points.values())
        states.append(
            {
                "round": number,
                "points": dict(points),
                "outcomes": list(outcomes),
                "finished": finished,
                "winners": [p for p in PLAYERS if points[p] == top_points] if finished else [],
            }
        )
    return states


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(scenario=scenarios())
def test_simulate_agrees_with_an_independent_reading_of_section_5(
    scenario: dict[str, Any], sqlite_service: DealerRoom
) -> None:
    lines = list(run_scenario(sqlite_service, scenario))[1:]
    assert [line["state"] for line in lines] == expected_states(scenario)
