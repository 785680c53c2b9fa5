"""The new-match form is built from each game's typed options, in Debian's chromium.

Choosing a game shows its display name, fills the players box with the players it suggests
and draws one labelled control per option (its description as help text, its default set);
creating the match sends what the controls say and leaves empty controls to the server's
defaults. Screenshots at 1280x900 and 390x844 go to ``test-artifacts/screenshots``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_claims import match_of, shoot

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from playwright.sync_api import Page

    from tests.browser.conftest import Console

    Shooter = Callable[[Page, str], Path]

pytestmark = pytest.mark.browser


def status(page: Page, mid: str) -> dict[str, Any]:
    return page.evaluate("async (u) => (await fetch(u)).json()", f"/api/matches/{mid}")


def test_six_nimmt_options_are_controls_with_their_defaults(
    page: Page, live_server: str, screenshot: Shooter
) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server}/new")
    expect(page.locator("#game option[value=six-nimmt]")).to_have_text("6 nimmt!")
    page.select_option("#game", "six-nimmt")
    start = page.get_by_label("Start points")
    expect(start).to_have_value("66")
    expect(start).to_have_attribute("min", "1")
    action = page.get_by_label("Action card")
    expect(action).to_have_value("")
    expect(action.locator("option")).to_have_text(["none", "even-odd"])
    expect(page.get_by_label("Virtual player")).to_be_checked()
    expect(page.locator("#opt-start_points-help")).to_have_text(
        "The points everybody has at the start."
    )
    expect(page.locator("#players")).to_have_value("ana, ben, cai")
    expect(page.locator("#players-help")).to_have_text("6 nimmt! takes 2 to 9 players.")
    start.fill("50")
    action.select_option("even-odd")
    shoot(page, screenshot, "new-match-six-nimmt")
    page.click("#create")
    expect(page.locator("#created")).to_be_visible()
    mid = match_of(page.get_attribute("#host-link", "href") or "")
    options = status(page, mid)["options"]
    assert options["start_points"] == 50
    assert options["action_card"] == "even-odd"
    assert options["virtual_player"] is True


def test_apocalypse_suggests_two_players_and_errors_show_beside_the_form(
    page: Page, live_server: str, screenshot: Shooter, console: Console
) -> None:
    console.allow("status of 400")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server}/new")
    page.select_option("#game", "apocalypse")
    expect(page.locator("#players")).to_have_value("ana, ben")
    expect(page.locator("#players-help")).to_have_text("Apocalypse takes exactly 2 players.")
    expect(page.locator("#no-options")).to_be_visible()
    page.fill("#players", "zoe, yan")
    page.select_option("#game", "vote")
    expect(page.locator("#players")).to_have_value("zoe, yan")  # typed names are kept
    page.select_option("#game", "apocalypse")
    page.fill("#players", "ana, ben, cai")
    page.click("#create")
    expect(page.locator("#new-error")).to_contain_text("player")
    shoot(page, screenshot, "new-match-apocalypse-refused")


def test_per_player_numbers_follow_the_players_box_and_names_are_optional(
    page: Page, live_server: str, screenshot: Shooter
) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server}/new")
    page.select_option("#game", "grid-adaptation")
    expect(page.locator("#opt-garnets input")).to_have_count(3)
    page.get_by_label("ben", exact=True).fill("7")
    page.fill("#players", "ana, ben, cai, dan")
    expect(page.locator("#opt-garnets input")).to_have_count(4)
    expect(page.get_by_label("ben", exact=True)).to_have_value("7")
    shoot(page, screenshot, "new-match-grid-adaptation")
    page.click("#create")
    expect(page.locator("#created")).to_be_visible()
    mid = match_of(page.get_attribute("#host-link", "href") or "")
    assert status(page, mid)["options"]["garnets"]["ben"] == 7

    page.goto(f"{live_server}/new")
    page.select_option("#game", "vote")
    expect(page.get_by_label("Candidates (comma-separated, optional)")).to_have_value("")
    shoot(page, screenshot, "new-match-vote")
    page.get_by_label("Voters (comma-separated, optional)").fill("ana, ben")
    page.click("#create")
    expect(page.locator("#created")).to_be_visible()
    mid = match_of(page.get_attribute("#host-link", "href") or "")
    options = status(page, mid)["options"]
    assert options["voters"] == ["ana", "ben"]
    assert options.get("candidates") in (None, ["ana", "ben", "cai"])
