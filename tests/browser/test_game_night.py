"""A host's game night, end to end in Debian's chromium: /new, the links, the console, the news.

The host names a match on /new, gives it a chat target (apprise's ``json://`` to a receiver on
loopback), keeps "open each step by itself" and "seal as soon as everyone has submitted" on,
saves the links and opens the console in a new tab. The players claim their seats through
their invite links and vote by clicking; the match opens and seals itself. The console says
the result in words, and the receiver has heard every moment of the match, never a sealed
pick: the votes appear only in the news of the resolved step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import served
from tests.roomy import roomy_app
from web.extension import services
from web.news import news
from web.news_post import Postman

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from playwright.sync_api import Page

    from tests.news_receiver import Receiver

    Shooter = Callable[..., Path]
    NewPage = Callable[..., Page]

pytestmark = pytest.mark.browser


@pytest.fixture
def night_server(tmp_path: Path) -> Iterator[str]:
    """An app that may post to a receiver on this machine, served on loopback."""
    app = roomy_app(tmp_path / "instance", DEALERROOM_NOTIFY_LOCAL="1")
    news(app).postman = Postman(first_wait=0.05)
    try:
        with served(app) as url:
            yield url
    finally:
        services(app).close()


def test_a_vote_night_runs_itself_from_new_and_reaches_the_hosts_chat(
    night_server: str, pages: NewPage, receiver: Receiver, screenshot: Shooter
) -> None:
    # The server is set up first, so it stops only after the pages are closed (a page still
    # polling a stopped server reports a refused connection).
    host = pages(base_url=night_server)
    host.goto("/new")
    host.select_option("#game", "vote")
    host.fill("#match-name", "Friday night")
    host.fill("#players", "ana, ben, cai")
    expect(host.locator("#auto-open")).to_be_checked()
    expect(host.locator("#auto-seal")).to_be_checked()
    host.locator("#notify-group summary").click()
    host.fill("#notify", receiver.url())
    host.click("#create")
    expect(host.locator("#created")).to_be_visible()
    links = {
        a.get_attribute("data-player") or "": a.get_attribute("href") or ""
        for a in host.query_selector_all("a.player-link")
    }
    assert set(links) == {"ana", "ben", "cai"}
    host.check("#links-saved")
    with host.context.expect_page() as opened:
        host.click("#host-link")
    console = opened.value
    expect(console.locator("#host-status")).not_to_have_text("Loading…")
    assert "#" not in console.url  # no token in the address bar
    expect(console.locator("#host-settings")).to_contain_text("by itself")

    votes = {"ana": "ben", "ben": "cai", "cai": "ben"}
    rooms = {}
    for player in votes:
        room = pages(base_url=night_server, phone=player == "ben")
        room.goto(links[player])
        rooms[player] = room
    for player, vote in votes.items():  # the step opened by itself once every seat was claimed
        room = rooms[player]
        expect(room.locator("#banner")).to_contain_text("Your turn")
        room.get_by_role("button", name=vote, exact=True).click()
        room.get_by_role("button", name="Seal and send my pick").click()
        expect(room.locator("#pick-result")).to_contain_text("Sealed")
    for room in rooms.values():  # sealed by itself once everyone had sent
        expect(room.locator("#banner")).to_contain_text("The match is over.")
    expect(rooms["ana"].locator("#result-words")).to_contain_text("ben wins with 2 votes")
    expect(console.locator("#result-words")).to_contain_text("ben wins with 2 votes")
    screenshot(console, "game-night-console-finished")
    screenshot(rooms["ben"], "game-night-room-phone")

    # The chat heard every moment; the votes only once the step had resolved.
    def heard() -> list[str]:
        return [f"{p.get('title', '')} {p.get('message', '')}" for p in receiver.posts]

    expect(console.locator("#host-status")).to_contain_text("ben wins")
    for _ in range(100):
        if any("ben wins" in m for m in heard()):
            break
        console.wait_for_timeout(100)
    messages = heard()
    assert any("open" in m.lower() for m in messages), messages
    submitted = next(i for i, m in enumerate(messages) if "everyone" in m.lower())
    resolved = next(i for i, m in enumerate(messages) if "voted for" in m)
    assert submitted < resolved
    assert not any("voted for" in m for m in messages[:resolved])
    assert "Friday night" in " ".join(messages)
    assert any("ben wins" in m for m in messages[resolved:]), messages
