"""Designing a custom game on /new, in Debian's chromium (issue #20).

The host starts from the shipped lowest-unique template, adds a free-text field, moves it
up, removes it, sees an error beside a bad setting, tries the player's form in the preview,
saves the design as a template of their own, and creates the match: the server records the
design as the options and the invite links are shown. Every control of the designer has an
accessible name and is at least 44 px each way, on a desktop and on a phone. Screenshots
at 1280x900 and 390x844 go to ``test-artifacts/screenshots``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_claims import match_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from playwright.sync_api import Page

    from tests.browser.conftest import Console

    Shooter = Callable[..., Path]
    NewPage = Callable[..., Page]

pytestmark = pytest.mark.browser

TEMPLATES = Path(__file__).resolve().parents[2] / "web/games/custom/static/templates.json"

# Every visible control of the designer with no accessible name, or smaller than 44 px.
UNNAMED_OR_SMALL = """() => [...document.querySelectorAll(
    '#designer button, #designer input, #designer select, #designer textarea, #designer summary')]
  .filter((e) => e.offsetParent !== null && e.type !== 'radio' && e.type !== 'checkbox')
  .map((e) => {
    const r = e.getBoundingClientRect();
    const label = e.labels && e.labels.length ? e.labels[0].textContent.trim() : '';
    const name = e.getAttribute('aria-label') || label || e.textContent.trim();
    return [e.id || e.tagName, name, Math.round(r.width), Math.round(r.height)];
  })
  .filter(([, name, w, h]) => !name || w < 44 || h < 44)"""


def fits(page: Page, width: int) -> None:
    """No sideways scroll, and every designer control named and at least 44 px."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate(UNNAMED_OR_SMALL) == []


def status(page: Page, mid: str) -> dict[str, Any]:
    return page.evaluate("async (u) => (await fetch(u)).json()", f"/api/matches/{mid}")


def test_a_host_designs_a_game_from_a_template_saves_it_and_creates_the_match(
    pages: NewPage, screenshot: Shooter, console: Console
) -> None:
    console.allow("status of 400")  # the server's refusal of a title, on purpose (step 7)
    page = pages()
    page.goto("/new?game=custom")
    designer = page.locator("#designer")
    expect(designer).to_be_visible()
    expect(page.locator("#options-group")).to_be_hidden()  # the designer replaces the options

    # 1. Start from the shipped lowest-unique template; its description shows.
    page.get_by_label("Start from a template").select_option(label="Lowest unique number")
    expect(page.locator("#d-template-help")).to_contain_text("lowest number that nobody else")
    page.get_by_role("button", name="Start from this template").click()
    expect(page.get_by_label("Title", exact=True)).to_have_value("Lowest unique number")
    expect(page.get_by_label("field 1 kind")).to_have_value("integer")
    expect(page.get_by_label("field 1 kind").locator("option:checked")).to_have_text(
        "A whole number"
    )
    expect(page.get_by_label("How a round is won")).to_have_value("lowest-unique")

    # 2. Add a free-text field, move it up, then remove it.
    page.get_by_label("Kind of the new field").select_option(label="Free text")
    page.get_by_role("button", name="Add the field").click()
    expect(page.get_by_label("field 2 name")).to_have_value("answer")
    expect(page.get_by_label("field 2 name")).to_be_focused()
    page.get_by_role("button", name="move field 2 up").click()
    expect(page.get_by_label("field 1 name")).to_have_value("answer")
    expect(page.get_by_label("field 2 name")).to_have_value("number")
    expect(page.get_by_role("button", name="move field 1 up")).to_be_disabled()
    page.get_by_role("button", name="remove field 1").click()
    expect(page.locator("li.d-field")).to_have_count(1)
    expect(page.get_by_label("field 1 name")).to_have_value("number")

    # 3. A bad setting shows its error beside it, and the preview waits for it to be right.
    page.get_by_label("field 1 smallest number").fill("30")
    expect(page.locator("#d-f1-max-error")).to_have_text(
        "The largest number (20) is smaller than the smallest (30)."
    )
    expect(page.get_by_label("field 1 largest number")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#d-preview-form")).to_contain_text("once the fields above have no errors")
    fits(page, 1280)
    screenshot(page, "custom-designer-error")
    page.get_by_label("field 1 smallest number").fill("1")
    expect(page.locator("#d-f1-max-error")).to_be_hidden()

    # 4. The player's form as it will look: the room's own controls, with the field's limits.
    preview = page.locator("#d-preview-form")
    expect(preview.get_by_label("number", exact=False).first).to_be_visible()
    screenshot(page, "custom-designer")

    # 5. Save the design as a template of mine: it is listed and kept in this browser.
    page.locator("details.d-save summary").click()
    page.get_by_label("Template name").fill("Friday lowest")
    page.get_by_role("button", name="Save this design as a template").click()
    expect(page.locator("#d-templates-status")).to_contain_text('Saved "Friday lowest"')
    expect(page.locator("#d-template optgroup[label^='My templates'] option")).to_have_text(
        ["Friday lowest"]
    )
    mine = json.loads(page.evaluate("localStorage.getItem('dealerroom: my templates')"))
    assert [t["name"] for t in mine] == ["Friday lowest"]

    # 6. On a phone the designer fits, every control named and large enough.
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "custom-designer-phone")
    fits(page, 390)
    page.set_viewport_size({"width": 1280, "height": 900})

    # 7. A refusal only the server makes shows beside the setting it names, then the match
    # is created: the design is its options, and the invite links show.
    title = page.get_by_label("Title", exact=True)
    title.fill("Lowest\u0007unique number")
    page.click("#create")
    expect(page.locator("#d-title-error")).to_contain_text("printable characters")
    expect(page.locator("#new-error")).to_contain_text("The match was not created")
    title.fill("Lowest unique number")
    page.click("#create")
    expect(page.locator("#created")).to_be_visible()
    for player in ["ana", "ben", "cai"]:
        expect(page.get_by_role("button", name=f"Copy {player}'s invite link")).to_be_visible()
    made = status(page, match_of(page.get_attribute("#host-link", "href") or ""))
    shipped = json.loads(TEMPLATES.read_text())[0]["options"]
    assert made["game"] == "custom"
    assert made["options"]["fields"] == [{**shipped["fields"][0], "optional": False}]
    assert made["options"]["resolver"] == shipped["resolver"]
    assert made["options"]["title"] == "Lowest unique number"
