"""The public timeline as a replay viewer, in Debian's chromium at 1280, 1920 and 390 px.

A finished match of every game (the demo scenarios) is shown at three widths: no sideways
overflow, the picture large enough that its smallest text reads at 12 px or more on a
desktop, nothing sticky taller than the window, the log a list of cards on a phone. Then
one match is stepped through with keys, the slider, the step and round buttons and autoplay
without a page load; a running match grows in place and keeps its verification marks; and
errors are pages with the site's navigation. Screenshots go to test-artifacts/screenshots.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from domain.rules import get_rules
from service.demo import demo_scenarios
from service.simulate import load_scenario, run_scenario
from tests.actions import bearer, create_match
from web.extension import service

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from flask import Flask
    from playwright.sync_api import Page

    from tests.browser.conftest import Console

    Shooter = Callable[..., Path]
    NewPage = Callable[..., Page]

pytestmark = pytest.mark.browser

SIZES = {"1280": {"width": 1280, "height": 900}, "1920": {"width": 1920, "height": 1080}}
SMALLEST_TEXT = 12  # px, on a desktop

# The picture's text as drawn: each text's font size times the SVG's scale on screen, and
# the height of its box.
PICTURE_TEXT = """() => {
  const svg = document.querySelector('#picture svg');
  const scale = svg.getScreenCTM().a;
  const sizes = [], boxes = [];
  for (const t of svg.querySelectorAll('text')) {
    if (!t.textContent.trim()) continue;
    sizes.push(parseFloat(t.getAttribute('font-size')) * scale);
    boxes.push(t.getBoundingClientRect().height);
  }
  const r = svg.getBoundingClientRect();
  return {font: Math.min(...sizes), box: Math.min(...boxes), width: r.width, height: r.height};
}"""
LAYOUT = """() => {
  const rect = (s) => document.querySelector(s).getBoundingClientRect();
  const sticky = [...document.querySelectorAll('body *')]
    .filter((e) => getComputedStyle(e).position === 'sticky')
    .map((e) => e.getBoundingClientRect().height);
  const box = document.getElementById('log-box');
  const main = document.querySelector('main');
  const style = getComputedStyle(main);
  return {
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    logOverflow: box.scrollWidth - box.clientWidth,
    tallestSticky: Math.max(0, ...sticky),
    window: window.innerHeight,
    content: main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
    viewer: rect('#viewer'), log: rect('#log-box'),
    rowDisplay: getComputedStyle(document.querySelector('tr.event')).display,
  };
}"""


@pytest.fixture(scope="module")
def demo(live_app: Flask) -> dict[str, str]:
    """A finished match of every game, played from the demo scenarios: name -> match id."""
    room = service(live_app)
    played = {}
    for path in demo_scenarios():
        lines = run_scenario(room, load_scenario(path))
        played[path.name.removesuffix(".json")] = next(lines)["match_id"]
        for _ in lines:
            pass
    return played


def open_timeline(page: Page, match_id: str, query: str = "") -> None:
    page.goto(f"/matches/{match_id}{query}")
    expect(page.locator("#play")).to_be_visible()  # the viewer's script has started


def shown_name(name: str) -> str:
    """The name people read for a demo match's game (a custom design's own title)."""
    scenario = load_scenario(next(p for p in demo_scenarios() if p.name == f"{name}.json"))
    return get_rules(str(scenario["game"])).display_name_for(scenario.get("options"))


# ---------------------------------------------------------------------------
# Layout: every game, three widths
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", ["1280", "1920"])
def test_every_game_s_picture_is_legible_beside_or_above_the_log(
    pages: NewPage, demo: dict[str, str], screenshot: Shooter, size: str
) -> None:
    page = pages()
    page.set_viewport_size(SIZES[size])
    for name, match_id in demo.items():
        open_timeline(page, match_id)
        # Check the game's name for people, and times in the reader's own time.
        expect(page.locator("h1")).to_contain_text(shown_name(name))
        expect(page.locator("td.time time").first).not_to_contain_text("UTC")
        text = page.evaluate(PICTURE_TEXT)
        assert text["font"] >= SMALLEST_TEXT, (name, size, text)
        assert text["box"] >= SMALLEST_TEXT, (name, size, text)
        layout = page.evaluate(LAYOUT)
        assert layout["overflow"] <= 0, (name, size, layout)
        assert layout["logOverflow"] <= 0, (name, size, layout)  # the ✓ column shows
        assert layout["tallestSticky"] <= layout["window"], (name, size, layout)
        viewer, log = layout["viewer"], layout["log"]
        if log["left"] >= viewer["right"]:  # the log beside the viewer: half the width or more
            assert viewer["width"] >= layout["content"] / 2, (name, size, layout)
        else:  # the picture full width above the log
            assert log["top"] >= viewer["bottom"] - 1, (name, size, layout)
            assert viewer["width"] >= layout["content"] - 1, (name, size, layout)
        assert layout["rowDisplay"] == ("table-row" if size == "1280" else "grid")
        screenshot(page, f"timeline-{name}-{size}", full_page=False)


def test_every_game_fits_a_phone_and_its_log_is_a_list_of_cards(
    pages: NewPage, demo: dict[str, str], screenshot: Shooter
) -> None:
    page = pages(phone=True)
    for name, match_id in demo.items():
        open_timeline(page, match_id)
        layout = page.evaluate(LAYOUT)
        assert layout["overflow"] <= 0, (name, layout)
        assert layout["logOverflow"] <= 0, (name, layout)
        assert layout["tallestSticky"] <= layout["window"], (name, layout)
        assert layout["rowDisplay"] == "grid", name  # a card per record
        small = page.evaluate(
            """(selector) => [...document.querySelectorAll(selector)]
              .filter((e) => e.offsetParent !== null)
              .map((e) => [e.id, e.getBoundingClientRect().width, e.getBoundingClientRect().height])
              .filter(([, w, h]) => w < 44 || h < 44)""",
            "#stepper a, #stepper button, #stepper input, #stepper select, #zoom",
        )
        assert small == [], (name, small)
        screenshot(page, f"timeline-{name}-390")
    # Check the enlarged picture scrolls inside its own box, not the page.
    page.get_by_role("button", name="Enlarge the picture").click()
    assert page.evaluate(PICTURE_TEXT)["font"] >= SMALLEST_TEXT
    assert page.evaluate(LAYOUT)["overflow"] <= 0
    screenshot(page, "timeline-enlarged-390", full_page=False)


# ---------------------------------------------------------------------------
# Stepping in place
# ---------------------------------------------------------------------------


def seq_of(app: Flask, match_id: str, kind: str, step: int) -> int:
    return next(
        r["seq"]
        for r in service(app).records(match_id)
        if r["type"] == kind and r["data"].get("step") == step
    )


def shown(page: Page, seq: int) -> None:
    """Wait until the moment after record ``seq`` is shown and its row highlighted."""
    expect(page.locator("#moment")).to_have_attribute("data-at", str(seq))
    expect(page.locator("#timeline tr.event.selected")).to_have_attribute("data-seq", str(seq))
    expect(page.locator("#timeline tr.event.selected")).to_have_attribute("aria-current", "true")
    expect(page.locator("#seek")).to_have_value(str(seq))


def test_stepping_through_a_match_never_loads_a_page(
    pages: NewPage, live_app: Flask, demo: dict[str, str], screenshot: Shooter
) -> None:
    match_id = demo["six-nimmt-even-odd"]
    page = pages()
    loads: list[str] = []
    page.on("request", lambda r: loads.append(r.url) if r.resource_type == "document" else None)
    open_timeline(page, match_id, "?at=5")
    page.evaluate("window.stillTheSamePage = true")
    loads.clear()
    shown(page, 5)

    # 1. The → key: the next record; the address follows; the caption says sealed.
    sealed = seq_of(live_app, match_id, "StepSealed", 1)
    assert sealed == 6
    page.keyboard.press("ArrowRight")
    shown(page, sealed)
    assert page.url.endswith(f"?at={sealed}")
    expect(page.locator("#moment-caption")).to_contain_text("Step sealed")
    label = page.get_attribute("#picture svg", "aria-label") or ""
    assert "step 1 sealed" in label and "open" not in label

    # 2. Shift+→: the next step's outcome, told in sentences.
    resolved = seq_of(live_app, match_id, "StepResolved", 1)
    page.keyboard.press("Shift+ArrowRight")
    shown(page, resolved)
    changes = page.locator(".changes")
    expect(changes).to_contain_text("cai's 22 was lower than every row end it may enter")
    expect(changes).not_to_contain_text("rows[")
    page.keyboard.press("ArrowLeft")
    shown(page, resolved - 1)

    # 3. Home and End; at the end the address has no ?at=.
    page.keyboard.press("End")
    last = int(page.get_attribute("#seek", "max") or 0)
    shown(page, last)
    assert "at=" not in page.url
    page.keyboard.press("Home")
    shown(page, 0)

    # 4. The slider, the step and round buttons.
    page.locator("#seek").fill("100")
    shown(page, 100)
    page.get_by_role("link", name="Next step").click()
    after = min(r for r in resolved_seqs(live_app, match_id) if r > 100)
    shown(page, after)
    page.get_by_role("link", name="Previous record").click()
    shown(page, after - 1)
    expect(page.get_by_role("link", name="Next round")).to_be_visible()  # ten turns a round
    page.get_by_role("link", name="Next round").click()
    shown(page, min(s for s in round_ends(live_app, match_id) if s > after - 1))
    # Check the current row is in view inside the log's box.
    inside = page.evaluate(
        """() => { const box = document.getElementById('log-box').getBoundingClientRect();
                   const row = document.querySelector('tr.event.selected').getBoundingClientRect();
                   return row.top >= box.top && row.bottom <= box.bottom; }"""
    )
    assert inside
    screenshot(page, "timeline-stepping", full_page=False)

    # 5. Autoplay and its pause button.
    page.keyboard.press("Home")
    shown(page, 0)
    page.get_by_role("button", name="Play").click()
    expect(page.locator("#moment")).to_have_attribute("data-at", "3", timeout=10_000)
    page.get_by_role("button", name="Pause").click()
    stopped = page.locator("#moment").get_attribute("data-at")
    page.wait_for_timeout(1500)
    assert page.locator("#moment").get_attribute("data-at") == stopped
    expect(page.get_by_role("button", name="Play")).to_be_visible()

    # 6. A click on a row of the log shows that record.
    page.locator("#timeline tr.event[data-seq='20'] td.text").click()
    shown(page, 20)
    assert page.evaluate("window.stillTheSamePage") is True
    assert loads == []


def resolved_seqs(app: Flask, match_id: str) -> list[int]:
    return [r["seq"] for r in service(app).records(match_id) if r["type"] == "StepResolved"]


def round_ends(app: Flask, match_id: str) -> list[int]:
    """The last resolution of each round."""
    ends = {}
    for record in service(app).records(match_id):
        if record["type"] == "StepResolved":
            ends[record["data"]["view"]["round"]] = record["seq"]
    return list(ends.values())


# ---------------------------------------------------------------------------
# A running match
# ---------------------------------------------------------------------------


def test_a_running_match_grows_in_place_and_keeps_its_verification(
    pages: NewPage, live_app: Flask, screenshot: Shooter
) -> None:
    client = live_app.test_client()
    made = create_match(client, "vote", ["ana", "ben", "cai"])
    match_id, host = made["match_id"], bearer(made["host_token"])
    page = pages()
    page.set_viewport_size({"width": 1280, "height": 700})
    open_timeline(page, match_id)
    rows = page.locator("#timeline tr.event")
    count = rows.count()
    assert count == 5  # created, the seed, three seats claimed
    expect(page.locator("#match-status")).to_contain_text("No step is open yet")

    # 1. Verify in the browser: every row is green.
    page.click("#verify-log")
    expect(page.locator("#timeline tr.event.ok")).to_have_count(count)
    page.evaluate("window.stillTheSamePage = true; window.scrollTo(0, 400)")
    scrolled = page.evaluate("window.scrollY")

    # 2. The host opens the step: a row arrives, marked; the green rows stay green.
    assert client.post(f"/api/matches/{match_id}/steps", json={}, headers=host).status_code == 201
    expect(rows).to_have_count(count + 1, timeout=10_000)
    arrived = page.locator(f"#timeline tr.event[data-seq='{count}']")
    expect(arrived).to_have_class(re.compile(r"\barrived\b"))
    expect(page.locator("#timeline tr.event.ok")).to_have_count(count)
    expect(arrived.locator("td.check")).to_have_attribute("title", re.compile("verify again"))
    expect(page.locator("#match-status")).to_contain_text("Step 1 is open: 0 of 3 picks sealed")
    shown(page, count)  # the viewer was at the end: it follows
    expect(page.locator("#arrivals")).to_contain_text("step 1 opened")
    assert abs(page.evaluate("window.scrollY") - scrolled) <= 2

    # 3. Picks and the seal: the step's words and the result arrive too.
    for player, vote in (("ana", "ben"), ("ben", "cai"), ("cai", "ben")):
        sent = client.post(
            f"/api/matches/{match_id}/players/{player}/submissions",
            json={"payload": {"vote": vote}},
            headers=bearer(made["player_tokens"][player]),
        )
        assert sent.status_code == 201
    expect(page.locator("#match-status")).to_contain_text("3 of 3 picks sealed", timeout=10_000)
    screenshot(page, "timeline-live-running", full_page=False)
    assert client.post(f"/api/matches/{match_id}/seal", headers=host).status_code == 200
    expect(page.locator("#match-status")).to_contain_text("ben wins", timeout=10_000)
    expect(page.locator("#timeline")).to_contain_text("ana's pick is revealed: vote ben")
    expect(page.locator("#group-step-1 .review-link")).to_be_visible()
    expect(page.locator("#timeline tr.event.ok")).to_have_count(count)
    assert page.evaluate("window.stillTheSamePage") is True
    # Check again: the rows that arrived are checked too.
    page.click("#verify-log")
    expect(page.locator("#timeline tr.event.ok")).to_have_count(rows.count())
    screenshot(page, "timeline-live-finished", full_page=False)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "status", "said"),
    [
        ("/matches/00000000-0000-4000-8000-000000000000", 404, "No match 00000000"),
        ("/matches/nope", 404, "is not a match id"),
        ("/no/such/page", 404, "Nothing here"),
        ("?at=abc", 400, "is a record number from 0 to {last}"),
        ("?at=-1", 400, "is a record number from 0 to {last}"),
        ("?at={count}", 400, "this match has {count} records"),
    ],
)
def test_an_error_is_a_page_with_the_site_s_navigation(
    page: Page,
    live_app: Flask,
    demo: dict[str, str],
    screenshot: Shooter,
    console: Console,
    path: str,
    status: int,
    said: str,
) -> None:
    console.allow(f"status of {status}")  # the browser reports the error answer itself
    match_id = demo["vote-basic"]
    count = len(service(live_app).records(match_id))
    path, said = (t.format(last=count - 1, count=count) for t in (path, said))
    url = f"/matches/{match_id}{path}" if path.startswith("?") else path
    answer = page.goto(url)
    assert answer is not None and answer.status == status
    expect(page.locator("header.top nav")).to_contain_text("Matches")
    expect(page.locator("main")).to_contain_text(said)
    if status == 400:  # a way back to the page without the bad part
        page.get_by_role(
            "link", name=re.compile("without the part after the question mark")
        ).click()
        expect(page.locator("#moment")).to_have_attribute("data-at", str(count - 1))
    screenshot(page, f"timeline-error-{status}-{re.sub(r'[^a-z0-9]+', '-', path).strip('-')}")


def test_api_routes_and_scripts_keep_getting_json(
    page: Page, demo: dict[str, str], console: Console
) -> None:
    console.allow("status of 400")
    html = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    answer = page.request.get("/api/matches/nope/records", headers=html)
    assert answer.status == 404 and "match id" in answer.json()["error"]
    page.goto("/")
    fetched: dict[str, Any] = page.evaluate(
        "async (u) => { const r = await fetch(u);"
        " return {status: r.status, body: await r.json()}; }",
        f"/matches/{demo['vote-basic']}/picture?at=99",
    )
    assert fetched["status"] == 400 and "record number" in fetched["body"]["error"]
