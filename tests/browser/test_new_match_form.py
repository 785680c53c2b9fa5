"""Hosting a match on /new, in Debian's chromium: real controls, then links that cannot be lost.

The form is built from each game's typed options: a checkbox for a yes/no option and for the
Even/Odd action card, a number for start points, a number per player for garnets, a player
count within what the game takes with the game's own default names, a match name, how the
match runs (opening and sealing by itself, a step deadline from presets) and a rules link.
Errors show beside the field they are about, the API's too.

The created view shows every invite with a copy button and a QR code, copies them all,
downloads every link as a text file, keeps them in the tab across a reload, and opens the
host console in a new tab only once the host says the links are saved; the console's address
keeps no token. Screenshots at 1280x900 and 390x844 go to ``test-artifacts/screenshots``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_claims import match_of, shoot

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from playwright.sync_api import Page, Route

    from tests.browser.conftest import Console

    Shooter = Callable[[Page, str], Path]
    NewPage = Callable[..., Page]

pytestmark = pytest.mark.browser


def status(page: Page, mid: str) -> dict[str, Any]:
    return page.evaluate("async (u) => (await fetch(u)).json()", f"/api/matches/{mid}")


def fits_a_phone(page: Page) -> None:
    """No sideways scroll at 390 px."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_six_nimmt_is_hosted_from_real_controls_and_its_links_cannot_be_lost(
    pages: NewPage, live_server: str, screenshot: Shooter
) -> None:
    page = pages(accept_downloads=True)
    page.goto(f"{live_server}/new")
    expect(page.locator("#game option[value=six-nimmt]")).to_have_text("6 nimmt!")
    page.select_option("#game", "six-nimmt")
    # 1. Check the controls: numbers, checkboxes, the player count and the names.
    start = page.get_by_label("Start points")
    expect(start).to_have_value("66")
    expect(start).to_have_attribute("min", "1")
    even_odd = page.get_by_label("Action card: Even/Odd")
    expect(even_odd).not_to_be_checked()
    expect(page.get_by_label("Virtual player")).to_be_checked()
    expect(page.locator("#opt-start_points-help")).to_have_text(
        "The points everybody has at the start."
    )
    count = page.get_by_label("Number of players")
    expect(count).to_have_value("3")
    expect(count).to_have_attribute("max", "9")
    expect(page.locator("#players")).to_have_value("ana, ben, cai")
    expect(page.locator("#players-help")).to_have_text("6 nimmt! takes 2 to 9 players.")
    expect(page.get_by_role("link", name="Rules of 6 nimmt!")).to_have_attribute(
        "href", "/games/six-nimmt/rules"
    )
    # 2. The host sets them: five players, a name, Even/Odd, a one-minute deadline.
    count.fill("5")
    expect(page.locator("#players")).to_have_value("ana, ben, cai, dan, eve")
    start.fill("50")
    even_odd.check()
    page.get_by_label("Match name").fill("Friday night")
    expect(page.get_by_label("Open each step by itself", exact=False)).to_be_checked()
    expect(page.get_by_label("Seal a step as soon as everyone has submitted")).to_be_checked()
    deadline = page.get_by_label("Deadline of each step")
    expect(deadline).to_have_value("300")
    deadline.select_option(label="1 minute")
    shoot(page, screenshot, "new-match-six-nimmt")
    page.click("#create")
    expect(page.locator("#created")).to_be_visible()
    expect(page.locator("#created-title")).to_have_text("Match created: Friday night (6 nimmt!)")
    mid = match_of(page.get_attribute("#host-link", "href") or "")
    made = status(page, mid)
    assert made["options"] == {**made["options"], "start_points": 50, "action_card": "even-odd"}
    assert made["players"] == ["ana", "ben", "cai", "dan", "eve"]
    assert made.get("name") == "Friday night"
    assert made.get("settings") == {"auto_open": True, "auto_seal": True, "step_seconds": 60}

    # 3. Every invite has its copy button and its QR code; all are copied or downloaded.
    for player in made["players"]:
        expect(page.get_by_role("button", name=f"Copy {player}'s invite link")).to_be_visible()
    page.get_by_role("button", name="Show the QR code of ben's invite link").click()
    qr = page.get_by_role("img", name="QR code of ben's invite link")
    expect(qr).to_be_visible()
    assert (qr.get_attribute("src") or "").startswith("data:image/svg+xml;base64,")
    links = {
        a.get_attribute("data-player"): a.get_attribute("href")
        for a in page.query_selector_all("a.player-link")
    }
    copied = page.get_attribute("#copy-all", "data-copy") or ""
    assert copied == "".join(f"{p}: {u}\n" for p, u in links.items())
    with page.expect_download() as download:
        page.get_by_role("button", name="Download every link as a text file").click()
    text = download.value.path().read_text()
    assert download.value.suggested_filename == "dealerroom-friday-night-6-nimmt-links.txt"
    assert page.get_attribute("#host-link", "href") in text
    assert all(f"{p}: {u}" in text for p, u in links.items())
    shoot(page, screenshot, "new-match-created")

    # 4. A long link never wraps inside its token: the box breaks after "/" or scrolls.
    page.set_viewport_size({"width": 390, "height": 844})
    fits_a_phone(page)
    page.set_viewport_size({"width": 1280, "height": 900})

    # 5. A reload keeps the links in this tab.
    page.reload()
    expect(page.locator("#kept")).to_contain_text("Friday night (6 nimmt!)")
    page.get_by_role("button", name="Show its links again").click()
    expect(page.get_by_role("button", name="Copy cai's invite link")).to_be_visible()

    # 6. The console opens in a new tab only once the links are saved; no token stays.
    console_link = page.get_by_role("link", name="Open the host console in a new tab")
    expect(console_link).to_have_attribute("aria-disabled", "true")
    console_link.click(force=True)  # a host clicks it all the same
    expect(page.locator("#host-link-hint")).to_contain_text("I have saved the links")
    assert len(page.context.pages) == 1
    page.get_by_label("I have saved the links").check()
    with page.context.expect_page() as opened:
        console_link.click()
    host = opened.value
    expect(host.locator("#host")).to_be_visible()
    expect(host).not_to_have_url(re.compile("#"))  # the token left the address bar
    expect(page.locator("#created")).to_be_visible()  # the links page stays as it was


def test_the_created_links_fit_a_phone_with_their_qr_codes(
    pages: NewPage, live_server: str, screenshot: Shooter
) -> None:
    phone = pages(phone=True)
    phone.goto(f"{live_server}/new")
    phone.select_option("#game", "grid-adaptation")
    fits_a_phone(phone)
    screenshot(phone, "new-match-grid-adaptation-phone")
    phone.get_by_label("Number of players").fill("4")
    expect(phone.locator("#opt-garnets input")).to_have_count(4)
    phone.click("#create")
    expect(phone.locator("#created")).to_be_visible()
    phone.get_by_role("button", name="Show the QR code of dan's invite link").click()
    expect(phone.get_by_role("img", name="QR code of dan's invite link")).to_be_visible()
    fits_a_phone(phone)
    screenshot(phone, "new-match-created-phone")
    small = phone.evaluate(
        """() => [...document.querySelectorAll('#created button')]
             .filter((b) => b.offsetParent !== null)
             .map((b) => [b.textContent, b.getBoundingClientRect().height])
             .filter(([, h]) => h < 44)"""
    )
    assert small == []


def test_apocalypse_suggests_two_players_and_errors_show_beside_their_field(
    page: Page, live_server: str, screenshot: Shooter, console: Console
) -> None:
    console.allow("status of 400")
    page.goto(f"{live_server}/new")
    page.select_option("#game", "apocalypse")
    expect(page.locator("#players")).to_have_value("ana, ben")
    count = page.get_by_label("Number of players")
    expect(count).to_have_value("2")
    expect(count).to_have_attribute("min", "2")
    expect(count).to_have_attribute("max", "2")
    expect(count).not_to_be_editable()  # a duel: nothing to choose
    expect(page.locator("#players-help")).to_have_text("Apocalypse takes exactly 2 players.")
    expect(page.locator("#no-options")).to_be_visible()
    page.fill("#players", "zoe, yan")
    page.select_option("#game", "vote")
    expect(page.locator("#players")).to_have_value("zoe, yan")  # typed names are kept
    page.select_option("#game", "apocalypse")
    # A third player: said beside the players, before anything is sent.
    page.fill("#players", "ana, ben, cai")
    page.click("#create")
    expect(page.locator("#players-error")).to_have_text(
        "Apocalypse takes exactly 2 players, not 3."
    )
    expect(page.locator("#players")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#new-error")).to_contain_text("not created")
    shoot(page, screenshot, "new-match-apocalypse-refused")
    # The API's own message goes beside the option it names.
    page.select_option("#game", "six-nimmt")
    page.get_by_text("Advanced: options as JSON").click()
    page.fill("#options", '{"start_points": 0}')
    page.click("#create")
    expect(page.locator("#opt-start_points-error")).to_contain_text("start_points")
    expect(page.locator("#created")).to_be_hidden()
    # A place to post news to that is no apprise URL: said beside it, the box opened.
    page.fill("#options", "")
    page.get_by_text("News in your chat (optional)").click()
    page.get_by_label("Where to post news of the match", exact=False).fill("not a place")
    page.get_by_text("News in your chat (optional)").click()  # closed again
    page.click("#create")
    expect(page.locator("#notify-error")).to_contain_text("apprise")
    expect(page.locator("#notify")).to_be_visible()
    expect(page.locator("#created")).to_be_hidden()


def test_per_player_numbers_follow_the_players_and_names_are_optional(
    page: Page, live_server: str, screenshot: Shooter
) -> None:
    page.goto(f"{live_server}/new")
    page.select_option("#game", "grid-adaptation")
    expect(page.locator("#opt-garnets input")).to_have_count(3)
    page.get_by_label("ben", exact=True).fill("7")
    page.fill("#players", "ana, ben, cai, dan")
    expect(page.get_by_label("Number of players")).to_have_value("4")
    expect(page.locator("#opt-garnets input")).to_have_count(4)
    expect(page.get_by_label("ben", exact=True)).to_have_value("7")
    shoot(page, screenshot, "new-match-grid-adaptation")
    page.get_by_label("Deadline of each step").select_option(label="No deadline")
    page.get_by_label("Open each step by itself", exact=False).uncheck()
    page.click("#create")
    expect(page.locator("#created")).to_be_visible()
    mid = match_of(page.get_attribute("#host-link", "href") or "")
    made = status(page, mid)
    assert made["options"]["garnets"]["ben"] == 7
    assert made.get("settings") == {"auto_open": False, "auto_seal": True, "step_seconds": None}

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


def test_the_rules_link_shows_the_games_rules_in_short(
    page: Page, live_server: str, screenshot: Shooter
) -> None:
    page.goto(f"{live_server}/games/six-nimmt/rules")
    expect(page.get_by_role("heading", level=1)).to_have_text("6 nimmt!: the rules in short")
    expect(page.locator("article.rules")).to_contain_text("bullheads")
    expect(page.locator("article.rules")).to_contain_text("Even/Odd")
    shoot(page, screenshot, "rules-six-nimmt")
    page.get_by_role("link", name="Host a match of 6 nimmt!").click()
    expect(page.locator("#game")).to_have_value("six-nimmt")


def test_a_host_quicker_than_the_games_list_still_creates_the_match(pages: NewPage) -> None:
    page = pages()

    def slowly(route: Route) -> None:
        page.wait_for_timeout(800)  # the games' options arrive late (a slow link)
        route.continue_()

    page.route("**/api/games", slowly)
    page.goto("/new")
    page.select_option("#game", "vote")
    page.fill("#players", "ana, ben")
    page.click("#create")
    expect(page.locator("#created")).to_be_visible()
    expect(page.locator("a.player-link")).to_have_count(2)
