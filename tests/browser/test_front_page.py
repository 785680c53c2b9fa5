"""The front page in Debian's chromium: what dealerroom is, "Host a match", the match list.

The list says each match in words (its name or game, the players, a human status with the
time left counting down, the winners) and filters live, finished and by game without a
reload; on a 390 px phone each match is a card and nothing scrolls sideways. Screenshots at
1280x900 and 390x844 go to ``test-artifacts/screenshots``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from service.simulate import load_scenario, run_scenario
from tests.browser.rooms import host_creates, host_does
from tests.browser.test_claims import shoot
from tests.conftest import SCENARIOS
from web.extension import service

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from flask import Flask
    from playwright.sync_api import Page

    Shooter = Callable[[Page, str], Path]
    NewPage = Callable[..., Page]

pytestmark = pytest.mark.browser


def played(app: Flask, name: str) -> str:
    """A whole scenario played through the service; its match id."""
    lines = run_scenario(service(app), load_scenario(SCENARIOS / f"{name}.json"))
    match = str(next(lines)["match_id"])
    for _ in lines:
        pass
    return match


@pytest.fixture(scope="module")
def listed(live_app: Flask) -> dict[str, Any]:
    """A finished vote, a finished Apocalypse, a 6 nimmt! turn open, a vote waiting."""
    open_turn = host_creates(live_app, "six-nimmt", ["ana", "ben", "cai"], name="Friday night")
    host_does(live_app, open_turn, "steps", seconds=3600)
    waiting = host_creates(live_app, "vote", ["ana", "ben"], auto_open=False)
    return {
        "vote": played(live_app, "vote-basic"),
        "apocalypse": played(live_app, "apocalypse-bot-match"),
        "open": open_turn["match_id"],
        "waiting": waiting["match_id"],
    }


def row(page: Page, match: str) -> Any:
    return page.locator(f"#matches tr[data-match='{match}']")


def test_the_front_page_says_what_dealerroom_is_and_lists_matches_in_words(
    page: Page, live_server: str, listed: dict[str, Any], screenshot: Shooter
) -> None:
    page.goto(f"{live_server}/")
    # 1. What it is, how to check, and hosting first.
    intro = page.locator(".intro")
    expect(intro.get_by_role("heading", level=1)).to_have_text(
        "Hidden picks, sealed and proven fair"
    )
    expect(intro).to_contain_text("Verify this log in your browser")
    host = intro.get_by_role("link", name="Host a match")
    expect(host).to_have_attribute("href", "/new")
    # 2. Each match in words.
    expect(row(page, listed["vote"]).locator(".title")).to_contain_text("Hidden vote")
    expect(row(page, listed["vote"]).locator(".state")).to_have_text(
        "Finished: ben wins with 2 votes"
    )
    expect(row(page, listed["vote"]).locator(".winner")).to_have_text("ben")
    expect(row(page, listed["apocalypse"]).locator(".winner")).not_to_be_empty()
    turn = row(page, listed["open"])
    expect(turn.locator(".title a")).to_have_text("Friday night")
    expect(turn.locator(".title")).to_contain_text("6 nimmt!")
    expect(turn.locator(".state")).to_have_text(re.compile(r"^Turn 1 open, 59:\d\d left$"))
    expect(turn.locator(".players")).to_have_text("ana, ben, cai")
    expect(row(page, listed["waiting"]).locator(".state")).to_have_text("Waiting for the host")
    expect(page.locator("#matches")).not_to_contain_text("six-nimmt")  # no wire names
    shoot(page, screenshot, "front-page")


def test_filters_work_without_a_reload_and_stay_in_the_address(
    page: Page, live_server: str, listed: dict[str, Any], screenshot: Shooter
) -> None:
    page.goto(f"{live_server}/")
    page.evaluate("() => { window.stayed = true; }")
    page.get_by_label("Live").check()
    expect(row(page, listed["open"])).to_be_visible()
    expect(row(page, listed["vote"])).to_be_hidden()
    expect(page).to_have_url(re.compile(r"/\?show=live$"))
    page.get_by_label("Finished").check()
    expect(row(page, listed["vote"])).to_be_visible()
    expect(row(page, listed["open"])).to_be_hidden()
    page.get_by_label("Game").select_option(label="Apocalypse")
    expect(row(page, listed["apocalypse"])).to_be_visible()
    expect(row(page, listed["vote"])).to_be_hidden()
    expect(page.locator("#shown-count")).to_contain_text("shown")
    assert page.evaluate("() => window.stayed") is True  # filtered in place, no reload
    expect(page).to_have_url(re.compile(r"/\?show=finished&game=apocalypse$"))
    page.reload()  # the address keeps the filters
    expect(page.get_by_label("Finished")).to_be_checked()
    expect(row(page, listed["vote"])).to_be_hidden()
    page.get_by_label("Game").select_option(label="6 nimmt!")
    # Only finished 6 nimmt! matches are shown (other tests of the session may have finished
    # some); with none, the list says that no match fits.
    finished = [
        m["match_id"]
        for m in page.evaluate("async () => (await fetch('/api/matches')).json()")
        if m["game"] == "six-nimmt" and m["status"] == "finished"
    ]
    expect(page.locator("#matches tr[data-match]:visible")).to_have_count(len(finished))
    for match in finished:
        expect(row(page, match)).to_be_visible()
    if not finished:
        expect(page.locator("#none-shown")).to_be_visible()
    page.get_by_label("All", exact=True).check()
    page.get_by_label("Game").select_option(label="All games")
    expect(row(page, listed["vote"])).to_be_visible()


def test_on_a_phone_each_match_is_a_card_and_nothing_scrolls_sideways(
    pages: NewPage, live_server: str, listed: dict[str, Any], screenshot: Shooter
) -> None:
    phone = pages(phone=True)
    phone.goto(f"{live_server}/")
    card = row(phone, listed["open"])
    expect(card).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    box = card.bounding_box()
    assert box is not None and box["width"] <= 390
    expect(card.locator(".state")).to_have_css("display", "block")
    host = phone.locator(".intro").get_by_role("link", name="Host a match")
    size = host.bounding_box()
    assert size is not None and size["height"] >= 44
    screenshot(phone, "front-page-phone")
    phone.get_by_label("Live").check()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "front-page-phone-live")


def test_the_list_keeps_itself_up_to_date(
    page: Page, live_app: Flask, live_server: str, listed: dict[str, Any]
) -> None:
    made = host_creates(live_app, "vote", ["ana", "ben"], auto_open=False)
    page.clock.install()
    page.goto(f"{live_server}/")
    state = row(page, made["match_id"]).locator(".state")
    expect(state).to_have_text("Waiting for the host")
    # 1. The host opens the vote, and someone hosts another match.
    host_does(live_app, made, "steps", seconds=600)
    host_creates(live_app, "apocalypse", ["ana", "ben"])
    # 2. Within 15 seconds the row says so, with its time left, and the new match is offered.
    page.clock.fast_forward(16_000)
    expect(state).to_have_text(re.compile(r"^The vote open, 9:\d\d left$"))
    expect(page.locator("#more-matches")).to_contain_text("1 new match since this page was loaded")
    assert listed  # the other matches are listed too
