"""The custom game's shipped templates (issue #20) and their demo matches.

Each template the designer offers must be a design the rules accept as it stands, with a
name and a one-paragraph description; ``scripts/serve``'s demo set plays a match of each,
with the template's own options, to the end.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.rules import get_rules
from service.demo import demo_scenarios
from service.simulate import load_scenario

TEMPLATES = Path(__file__).resolve().parents[2] / "web/games/custom/static/templates.json"
SHIPPED = json.loads(TEMPLATES.read_text(encoding="utf-8"))
RULES = get_rules("custom")


def test_three_classic_games_are_shipped_a_lowest_unique_number_a_majority_guess_an_auction() -> (
    None
):
    resolvers = [t["options"]["resolver"]["kind"] for t in SHIPPED]
    assert resolvers == ["lowest-unique", "plurality", "host"]


@pytest.mark.parametrize("template", SHIPPED, ids=[t["name"] for t in SHIPPED])
def test_a_shipped_template_is_a_design_the_rules_accept_unchanged(
    template: dict[str, object],
) -> None:
    options = template["options"]
    assert isinstance(options, dict)
    normalised = RULES.normalise_options(options)
    # Only the fields' "optional" flag is filled in; every setting is the template's own.
    assert {k: v for k, v in normalised.items() if k != "fields"} == {
        k: v for k, v in options.items() if k != "fields"
    }
    assert [{**f, "optional": f.get("optional", False)} for f in options["fields"]] == normalised[
        "fields"
    ]


@pytest.mark.parametrize("template", SHIPPED, ids=[t["name"] for t in SHIPPED])
def test_a_shipped_template_has_a_name_and_a_one_paragraph_description(
    template: dict[str, object],
) -> None:
    name, description = template["name"], template["description"]
    assert isinstance(name, str)
    assert isinstance(description, str)
    assert 0 < len(name) <= 80
    assert "\n" not in description
    assert 200 <= len(description) <= 1000
    assert description.endswith(".")


def test_the_demo_plays_a_complete_match_of_every_shipped_template() -> None:
    custom = [load_scenario(p) for p in demo_scenarios() if load_scenario(p)["game"] == "custom"]
    assert [s["options"] for s in custom] == [t["options"] for t in SHIPPED]
    for scenario, template in zip(custom, SHIPPED, strict=True):
        assert len(scenario["steps"]) == template["options"]["rounds"]  # to the end
        assert 2 <= len(scenario["players"]) <= 30
        if template["options"]["resolver"]["kind"] == "host":
            assert all("declare" in step for step in scenario["steps"])
