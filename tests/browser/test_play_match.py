"""A short match played through the pages in Debian's chromium, as a host and players would.

The host creates a vote from the host console, opens the step, the players claim their
seats through their invite links and seal their picks (the commitment computed and signed in
the browser, the receipt shown), the host seals, the timeline shows the reveals and the
picture, and the in-browser verification turns every event green. A 6 nimmt! turn follows,
with a row decision.
Screenshots of the main pages go to ``test-artifacts/screenshots``.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from domain.commitment import commit, salt_from_hex

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from playwright.sync_api import Page

    from tests.browser.conftest import Console

    Shooter = Callable[[Page, str], Path]
    NewPage = Callable[[], Page]

pytestmark = pytest.mark.browser


def create_from_console(
    page: Page, base: str, game: str, players: str
) -> tuple[str, dict[str, str]]:
    """Create a match on /new; return the host link and the players' invite links."""
    page.goto(f"{base}/new")
    page.select_option("#game", game)
    page.fill("#players", players)
    # These tests run each step by hand from the console.
    page.uncheck("#auto-open")
    page.uncheck("#auto-seal")
    page.click("#create")
    expect(page.locator("#created")).to_be_visible()
    links = {
        a.get_attribute("data-player") or "": a.get_attribute("href") or ""
        for a in page.query_selector_all("a.player-link")
    }
    return page.get_attribute("#host-link", "href") or "", links


def open_step(host: Page, seconds: int = 600) -> None:
    host.fill("#seconds", str(seconds))
    host.click("#open-step-button")
    expect(host.locator("#host-result")).to_contain_text("is open")


def seal_pick(page: Page, choice: str) -> dict[str, Any]:
    """Tap a choice, seal and send it in one action; return its receipt, fetched again."""
    expect(page.locator("#pick-area")).to_be_visible()
    page.get_by_role("button", name=choice, exact=True).click()
    page.get_by_role("button", name=re.compile("^Seal and send")).click()
    expect(page.locator("#pick-result")).to_contain_text("Sealed")
    local = page.get_attribute("#commitment-short", "title") or ""
    assert re.fullmatch(r"[0-9a-f]{64}", local)
    receipts = page.evaluate(
        "async () => (await fetch(location.pathname.replace('/matches/', '/api/matches/')"
        " + '/receipts')).json()"
    )
    receipt: dict[str, Any] = receipts[-1]
    assert receipt["record"]["data"]["commitment"] == local
    return receipt


def test_a_vote_is_played_through_the_links_and_verifies_in_the_browser(
    pages: NewPage, live_server: str, screenshot: Shooter, console: Console
) -> None:
    host = pages()
    host_link, links = create_from_console(host, live_server, "vote", "ana, ben, cai")
    assert "#" in host_link and set(links) == {"ana", "ben", "cai"}
    screenshot(host, "new-match")
    host.goto(host_link)
    open_step(host)
    screenshot(host, "host-console")

    votes = {"ana": "ben", "ben": "cai", "cai": "ben"}
    receipts = {}
    rooms = {}
    for player, vote in votes.items():
        room = pages()
        room.goto(links[player])
        receipts[player] = seal_pick(room, vote)
        rooms[player] = room
    screenshot(rooms["ana"], "dealer-room")
    # The invite left the address bar, and ana's room cannot act as ben.
    assert "#" not in rooms["ana"].url
    mid = host_link.split("/matches/")[1].split("/")[0]
    console.allow("401 (UNAUTHORIZED)")  # that refusal is the point
    status = rooms["ana"].evaluate(
        """async (url) => (await fetch(url, {method: "POST", headers: {"Content-Type":
        "application/json", "X-CSRF-Token":
        document.querySelector('meta[name=csrf-token]').content},
        body: JSON.stringify({payload: {vote: "ana"}})})).status""",
        f"/api/matches/{mid}/players/ben/submissions",
    )
    assert status == 401

    # The host sees who submitted, never what.
    expect(host.locator("#submitters tr.ok")).to_have_count(3)
    assert '{"vote"' not in host.content()
    host.click("#seal")
    expect(host.locator("#host-status")).to_contain_text("Finished")

    match_url = host_link.split("#")[0].removesuffix("/host")
    timeline = pages()
    timeline.goto(match_url)
    expect(timeline.locator("tr.event")).to_have_count(16)  # with the three SeatClaimed
    expect(timeline.locator("#timeline")).to_contain_text("ana's pick is revealed: vote ben")
    expect(timeline.locator("figure.picture svg")).to_be_visible()
    timeline.click("#verify-log")
    expect(timeline.locator("tr.event.ok")).to_have_count(16)
    expect(timeline.locator("tr.event.bad")).to_have_count(0)
    screenshot(timeline, "timeline-verified")
    # Every receipt's commitment opens to the revealed pick, as a reviewer would check.
    records = timeline.evaluate(
        "async (u) => (await fetch(u)).json()", f"/api/matches/{mid}/records"
    )
    revealed = {
        r["data"]["player"]: r["data"] for r in records if r["type"] == "SubmissionRevealed"
    }
    for player, receipt in receipts.items():
        opened = revealed[player]
        assert opened["payload"] == {"vote": votes[player]}
        assert (
            receipt["record"]["data"]["commitment"]
            == opened["commitment"]
            == commit(mid, 1, player, opened["payload"], salt_from_hex(opened["salt"]))
        )


def test_the_timeline_updates_while_a_match_runs(pages: NewPage, live_server: str) -> None:
    host = pages()
    host_link, links = create_from_console(host, live_server, "vote", "ana, ben")
    match_url = host_link.split("#")[0].removesuffix("/host")
    timeline = pages()
    timeline.goto(match_url)
    expect(timeline.locator("tr.event")).to_have_count(2)
    host.goto(host_link)
    open_step(host)
    expect(timeline.locator("tr.event")).to_have_count(
        3, timeout=10_000
    )  # polled, no reload by hand
    room = pages()
    room.goto(links["ana"])
    seal_pick(room, "ben")
    expect(timeline.locator("tr.event")).to_have_count(5, timeout=10_000)  # SeatClaimed, the pick
    expect(timeline.locator("#timeline")).not_to_contain_text("vote ben")  # still sealed


def test_a_six_nimmt_turn_with_a_row_decision(
    pages: NewPage, live_server: str, screenshot: Shooter
) -> None:
    """The host deals explicitly so that cai's card is lower than every row: cai must choose."""
    host = pages()
    host_link, links = create_from_console(host, live_server, "six-nimmt", "ana, ben, cai")
    host.goto(host_link)
    deal = {
        "rows": [7, 40, 14, 61],
        "hands": {
            "ana": [12, 15, 22, 31, 49, 53, 62, 70, 84, 98],
            "ben": [11, 25, 50, 55, 60, 76, 87, 92, 94, 102],
            "cai": [1, 6, 10, 18, 26, 41, 45, 54, 65, 101],
            "virtual": [23, 28, 34, 35, 39, 71, 75, 93, 95, 97],
        },
    }
    host.click("details summary")
    host.fill("#deal", json.dumps(deal))
    open_step(host)
    rooms = {}
    for player, card in {"ana": "card 22", "ben": "card 11", "cai": "card 1"}.items():
        room = pages()
        room.goto(links[player])
        seal_pick(room, card)
        rooms[player] = room
    host.click("#seal")
    cai = rooms["cai"]
    expect(cai.locator("#decision-area")).to_be_visible(timeout=10_000)
    screenshot(cai, "dealer-room-decision")
    cai.get_by_role("button", name="row 2", exact=True).click()
    cai.get_by_role("button", name="Send my decision").click()
    expect(cai.locator("#decision-result")).to_contain_text("Sent")
    expect(host.locator("#host-status")).to_contain_text("resolved", timeout=10_000)
    timeline = pages()
    timeline.goto(host_link.split("#")[0].removesuffix("/host"))
    expect(timeline.locator("ul.account")).to_contain_text("cai")
    expect(timeline.locator("figure.picture svg")).to_be_visible()
    screenshot(timeline, "timeline-six-nimmt")
