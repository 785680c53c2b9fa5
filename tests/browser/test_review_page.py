"""Dispute review in the browser: a pick changed with the dealer room's controls, then replayed.

For a finished match of every game, a reviewer opens a step, taps another pick on the player's
table with the very controls the dealer room uses, and replays the match: the comparison comes
in place (no page load), says where the two courses part, shows both tables side by side and
the scores, and the address it leaves reproduces it in a new browser. The answer is the API's
(which is the command line's: tests/e2e/test_review_api.py). At 1280 and 390 px nothing
overflows sideways and every control is a 44 px target on a phone. Screenshots are saved as
``review-<game>-<size>``.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from service.simulate import load_scenario, run_scenario
from tests.conftest import SCENARIOS
from web.extension import service

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from flask import Flask
    from playwright.sync_api import Page

    Shooter = Callable[..., Path]
    NewPage = Callable[..., Page]

pytestmark = pytest.mark.browser

PHONE_WIDTH = 390


def play(app: Flask, scenario: str) -> str:
    """Play a scenario to its end in the served app; return the match id."""
    lines = run_scenario(service(app), load_scenario(SCENARIOS / f"{scenario}.json"))
    match_id = str(next(lines)["match_id"])
    for _ in lines:
        pass
    return match_id


def asked_of_the_api(app: Flask, match_id: str, step: int, player: str, payload: Any) -> Any:
    answer = app.test_client().post(
        f"/api/matches/{match_id}/what-if",
        json={"step": step, "player": player, "payload": payload},
    )
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def open_review(page: Page, match_id: str, query: str) -> None:
    page.goto(f"/matches/{match_id}/review{query}")
    expect(page.locator("#table-stage svg.table-picture")).to_be_visible()
    page.evaluate("window.notReloaded = true")


def replay(page: Page) -> None:
    """Press the replay button; wait for the comparison (in place: the page is not reloaded)."""
    page.get_by_role("button", name="Replay the match from here").click()
    expect(page.locator("#comparison-title")).to_be_visible()
    expect(page.locator("#replay-result")).to_contain_text("Replayed")
    assert page.evaluate("window.notReloaded === true")


def assert_fits(page: Page, width: int) -> None:
    """No sideways scroll; on a phone every control outside the table at least 44 px."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if width > PHONE_WIDTH:
        return
    small = page.evaluate(
        """() => [...document.querySelectorAll('#review button, #review a.choice, '
                                             + '#review a.button, .course-steps a, #review select')]
             .filter((b) => b.offsetParent !== null && !b.classList.contains('hit')
                     && !b.closest('#pick-controls .p9-list'))
             .map((b) => [b.textContent.trim() || b.getAttribute('aria-label'),
                          b.getBoundingClientRect().width, b.getBoundingClientRect().height])
             .filter(([, w, h]) => w < 44 || h < 44)"""
    )
    assert small == []


def assert_plain(page: Page) -> None:
    """What a reviewer reads (outside "Advanced") is words, not JSON or Python."""
    body = page.evaluate(
        """() => { const c = document.getElementById('review').cloneNode(true);
                   c.querySelectorAll('details.advanced, svg, textarea').forEach((e) => e.remove());
                   return c.innerText; }"""
    )
    for raw in ("{", "}", "None", "null", "True", "first_divergent"):
        assert raw not in body, body[max(0, body.find(raw) - 200) :][:400]


def test_six_nimmt_a_card_changed_by_tapping_and_replayed_in_place(
    live_app: Flask, pages: NewPage, screenshot: Shooter
) -> None:
    match_id = play(live_app, "six-nimmt-even-odd")
    page = pages()

    # 1. Step 2 from ana's seat: her hand as the dealer room shows it, her card preselected
    open_review(page, match_id, "?step=2&player=ana")
    expect(page.locator("#played-title")).to_have_text("Step 2 as it was played")
    expect(page.locator("#recorded-line")).to_contain_text("ana picked card 41")
    expect(page.get_by_role("button", name="card 41")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#pick-words")).to_contain_text("This is the pick ana made.")
    for row in range(4):
        expect(page.locator(f'#table-stage .hit[data-hit="row {row}"]')).to_be_attached()

    # 2. She plays 21 instead: the controls say where it goes, the replay comes in place
    page.get_by_role("button", name="card 21").click()
    expect(page.locator("#pick-words")).to_have_text("You play card 21: it goes on row 1, after 7.")
    replay(page)
    expected = asked_of_the_api(live_app, match_id, 2, "ana", {"card": 21})
    first = expected["first_divergent_step"]
    assert first == 2
    expect(page.locator(".verdict")).to_contain_text(f"another course from step {first}")
    assert re.search(r"/review\?step=2&player=ana&pick=%7B%22card%22:21%7D$", page.url)
    expect(page.locator("#shown-title")).to_have_text(f"After step {first}")
    pictures = page.locator(".pictures figure svg.dr-picture")
    expect(pictures).to_have_count(2)
    expect(page.locator(".pictures figure.what-if figcaption")).to_have_text(
        f"What if, after step {first}"
    )
    expect(page.locator("table.scores").first).to_contain_text("points")
    expect(page.locator(".course-steps a.first")).to_have_attribute("aria-current", "step")
    assert_plain(page)
    assert_fits(page, 1280)
    screenshot(page, "review-six-nimmt-desktop")

    # 3. Another step of both courses, in place, the address following
    page.get_by_role("link", name=re.compile(r"^Step 10: ")).click()
    expect(page.locator("#shown-title")).to_have_text("After step 10")
    expect(page.get_by_role("link", name=re.compile(r"^Step 10: "))).to_have_attribute(
        "aria-current", "step"
    )
    assert page.url.endswith("&show=10")
    assert page.evaluate("window.notReloaded === true")

    # 4. The address reproduces the review in another browser, controls on the changed card
    again = pages(phone=True)
    again.goto(page.url)
    expect(again.locator("#shown-title")).to_have_text("After step 10")
    expect(again.locator(".verdict")).to_contain_text(f"another course from step {first}")
    expect(again.get_by_role("button", name="card 21")).to_have_attribute("aria-pressed", "true")
    assert_fits(again, PHONE_WIDTH)
    screenshot(again, "review-six-nimmt-phone")


def test_apocalypse_black_changes_a_move_on_a_phone(
    live_app: Flask, pages: NewPage, screenshot: Shooter
) -> None:
    match_id = play(live_app, "apocalypse-bot-match")
    page = pages(phone=True)
    open_review(page, match_id, "?step=3")
    page.get_by_role("link", name="ben", exact=True).click()
    expect(page.locator("#table-title")).to_have_text("ben's table in step 3")
    page.evaluate("window.notReloaded = true")

    # Ben's board from his seat: tap one of his pieces, then one of its lit squares
    seat = json.loads(page.locator("#review").get_attribute("data-seat") or "null")
    made = seat["me"]["current_pick"]["pick"]
    move = next(m for m in seat["me"]["legal"] if m["from"] != made["from"] and "drop" not in m)
    page.get_by_role("button", name=f"square {move['from']}").click()
    target = page.locator(f'#table-stage .hit.target[data-hit="square {move["to"]}"]')
    expect(target).to_be_visible()
    target.click()
    expect(page.locator("#pick-words")).to_contain_text(f"from {move['from']} to {move['to']}")
    expect(page.locator("#pick-words")).not_to_contain_text("This is the pick ben made")
    replay(page)
    expect(page.locator(".verdict")).to_be_visible()
    expect(page.locator(".pictures figure.recorded svg")).to_be_visible()
    assert_plain(page)
    assert_fits(page, PHONE_WIDTH)
    screenshot(page, "review-apocalypse-phone")


@pytest.mark.parametrize(
    ("game", "scenario", "query", "tap"),
    [
        ("vote", "vote-basic", "?step=1&player=ana", "cai"),
        ("picking-nine", "picking-nine-six-bots", "?step=2&player=tog", "priority 1"),
        ("grid-adaptation", "grid-adaptation-ec-vote", "?step=2&player=ana", "cell H8"),
    ],
)
def test_every_game_replays_a_pick_tapped_with_its_own_controls(
    live_app: Flask,
    pages: NewPage,
    screenshot: Shooter,
    game: str,
    scenario: str,
    query: str,
    tap: str,
) -> None:
    match_id = play(live_app, scenario)
    for phone in (False, True):
        page = pages(phone=phone)
        open_review(page, match_id, query)
        page.locator("#pick-controls, #table-stage").get_by_role(
            "button", name=tap, exact=True
        ).first.click()
        expect(page.locator("#pick-words")).not_to_contain_text("This is the pick")
        replay(page)
        expect(page.locator(".results")).to_contain_text("As played")
        assert_plain(page)
        width = PHONE_WIDTH if phone else 1280
        assert_fits(page, width)
        screenshot(page, f"review-{game}-{'phone' if phone else 'desktop'}")


def test_a_refused_pick_and_a_bad_address_say_what_was_wrong(
    live_app: Flask, pages: NewPage, screenshot: Shooter, console: Any
) -> None:
    match_id = play(live_app, "six-nimmt-classic")
    page = pages()
    open_review(page, match_id, "?step=1&player=ben")

    # A pick typed by hand that is not in ben's hand: refused in words, nothing replaced
    console.allow("400 (BAD REQUEST)")  # the browser logs the refused request
    page.locator("#advanced summary").click()
    page.locator("#pick").fill('{"card": 104}')
    page.get_by_role("button", name="Use this pick").click()
    expect(page.locator("#pick-words")).to_contain_text("You typed: card 104.")
    page.get_by_role("button", name="Replay the match from here").click()
    expect(page.locator("#replay-result")).to_have_text(
        "“card 104” is not a pick ben could make in step 1: card 104 is not in the hand; "
        "play one of the cards in your hand"
    )
    expect(page.locator("#comparison-title")).to_have_count(0)

    # An address naming a step the match never had: a page of the site, with its way back
    console.allow("404 (NOT FOUND)")
    page.goto(f"/matches/{match_id}/review?step=77")
    expect(page.get_by_role("alert")).to_contain_text("This match has no step 77")
    expect(page.get_by_role("link", name="Matches")).to_be_visible()
    expect(page.get_by_role("link", name="Step 1", exact=True)).to_be_visible()
    screenshot(page, "review-bad-step")
