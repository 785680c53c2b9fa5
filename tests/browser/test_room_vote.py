"""The dealer room as voters use it: clicking a candidate, one action to seal and send.

A vote is played to its end by three voters, each in a browser of their own (one on a
phone), choosing by clicking only. Around it: what the room promises a player whatever the
game: an identical re-send answered as unchanged, an amendment said to replace the earlier
pick, the default stated before the deadline and applied as stated, the turn shown in the
tab's title and icon, notifications asked for (never assumed), receipts fetched again on a
second device holding the seat, and self-custody openings kept in a file that opens the pick
on another device.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from tests.browser.rooms import assert_phone_fits, enter, host_creates, host_does
from web import games
from web.extension import service

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from flask import Flask
    from playwright.sync_api import Page

    Shooter = Callable[..., Path]
    NewPage = Callable[..., Page]

pytestmark = pytest.mark.browser

VOTERS = ["ana", "ben", "cai"]


def seal(page: Page, choice: str, expected: str) -> None:
    """Tap a choice, then the one seal-and-send button; wait for the answer."""
    page.get_by_role("button", name=choice, exact=True).click()
    send = page.get_by_role("button", name=re.compile("^Seal and send"))
    expect(send).to_be_enabled()
    send.click()
    expect(page.locator("#pick-result")).to_contain_text(expected)


def test_a_vote_is_played_to_its_end_by_clicking(
    live_app: Flask, pages: NewPage, screenshot: Shooter
) -> None:
    made = host_creates(live_app, "vote", VOTERS)
    host_does(live_app, made, "steps", seconds=600)
    ana = enter(pages, made, "ana", permissions=["notifications"])
    ben = enter(pages, made, "ben", phone=True)
    cai = enter(pages, made, "cai")

    for page in (ana, ben, cai):
        expect(page.locator("#banner")).to_contain_text("Your turn")
        expect(page.locator("#default-words")).to_have_text(
            "If you send nothing by the deadline, you abstain."
        )
    assert ana.title().startswith("● Your turn")
    assert (ana.get_attribute("#favicon", "href") or "").endswith("favicon-turn.svg")
    screenshot(ana, "room-vote-turn-desktop")
    screenshot(ben, "room-vote-turn-phone")
    assert_phone_fits(ben)

    # Notifications are offered, asked for on a click, never assumed.
    expect(ana.get_by_role("button", name="Notify me in this browser")).to_be_visible()
    ana.get_by_role("button", name="Notify me in this browser").click()
    expect(ana.locator("#notify-state")).to_contain_text("You will get a notification")

    seal(ana, "ben", "Sealed.")
    expect(ana.locator("#pick-words")).to_have_text("You vote for ben.")
    expect(ana.locator("#sealed-line")).to_be_visible()
    assert re.fullmatch(r"[0-9a-f]{12}…", ana.inner_text("#commitment-short"))
    expect(ana.locator("#banner")).to_contain_text("Sealed · waiting for ben and cai")
    assert not ana.title().startswith("●")
    screenshot(ana, "room-vote-sealed-desktop")

    # The same pick again is answered as unchanged; another replaces it.
    ana.get_by_role("button", name=re.compile("^Seal and send")).click()
    expect(ana.locator("#pick-result")).to_contain_text("Sealed, unchanged")
    seal(ana, "cai", "This replaced your earlier pick")
    expect(ana.locator("#receipts li")).to_have_count(2)

    seal(ben, "ana", "Sealed.")
    assert_phone_fits(ben)
    screenshot(ben, "room-vote-sealed-phone")
    # cai sends nothing: the host seals, and cai gets exactly the default stated.
    host_does(live_app, made, "seal")
    for page in (ana, ben, cai):
        expect(page.locator("#banner")).to_contain_text("The match is over.")
        expect(page.locator("#result")).to_be_visible()
    expect(ana.locator("#result-words")).to_contain_text("A tie: ana, cai, with 1 vote each.")
    expect(ana.locator("#yours")).to_have_text("You voted for cai.")
    expect(cai.locator("#yours")).to_have_text("You did not vote, so you abstained.")
    expect(ana.locator("#pick-area")).to_be_hidden()
    screenshot(ana, "room-vote-result-desktop")
    screenshot(ben, "room-vote-result-phone")
    assert_phone_fits(ben)
    for page in (ana, ben, cai):
        body = page.inner_text("body")
        assert "{" not in body and "None" not in body and "null" not in body, body[
            body.find("{") - 200 :
        ][:400]


def test_receipts_and_the_seat_come_back_on_a_second_device(
    live_app: Flask, pages: NewPage, tmp_path: Path
) -> None:
    made = host_creates(live_app, "vote", VOTERS)
    host_does(live_app, made, "steps", seconds=600)
    first = enter(pages, made, "ana", accept_downloads=True)
    seal(first, "ben", "Sealed.")
    with first.expect_download() as saved:
        first.get_by_role("button", name="Download my seat backup").click()
    backup = tmp_path / "backup.json"
    saved.value.save_as(backup)

    second = pages(phone=True)
    second.goto(f"/matches/{made['match_id']}/players/ana")
    second.set_input_files("#restore-file", str(backup))
    expect(second.locator("#banner")).to_contain_text("Sealed · waiting for ben and cai")
    expect(second.locator("#receipts li")).to_have_count(1)
    expect(second.locator("#receipts li")).to_contain_text("Step 1 · commitment")
    expect(second.locator("#pick-result")).to_contain_text("your pick stands")
    expect(second.locator("#sealed-line")).to_be_visible()


def test_a_self_custody_pick_opens_from_its_file_on_another_device(
    live_app: Flask, pages: NewPage, tmp_path: Path
) -> None:
    made = host_creates(live_app, "vote", VOTERS, custody={"ana": "self"})
    host_does(live_app, made, "steps", seconds=600)
    first = enter(pages, made, "ana", accept_downloads=True)
    seal(first, "cai", "Sealed.")
    with first.expect_download() as saved:
        first.get_by_role("button", name="Download my opening file").click()
    opening = tmp_path / "opening.json"
    saved.value.save_as(opening)
    kept = json.loads(opening.read_text())
    assert kept["payload"] == {"vote": "cai"} and re.fullmatch(r"[0-9a-f]{64}", kept["salt"])
    with first.expect_download() as seat_file:
        first.get_by_role("button", name="Download my seat backup").click()
    backup = tmp_path / "backup.json"
    seat_file.value.save_as(backup)

    host_does(live_app, made, "seal")
    second = pages()
    second.goto(f"/matches/{made['match_id']}/players/ana")
    second.set_input_files("#restore-file", str(backup))
    expect(second.locator("#banner")).to_contain_text("Open your pick now")
    expect(second.get_by_role("button", name="Open my pick")).to_be_hidden()  # not kept here
    second.set_input_files("#open-file", str(opening))
    expect(second.locator("#open-result")).to_contain_text("Opened")
    expect(second.locator("#banner")).to_contain_text("The match is over.")
    expect(second.locator("#yours")).to_have_text("You voted for cai.")


def test_without_permission_the_room_says_notifications_are_blocked(
    live_app: Flask, pages: NewPage
) -> None:
    made = host_creates(live_app, "vote", VOTERS)
    page = enter(pages, made, "ben")
    # The person answers "Block" when the browser asks.
    page.evaluate(
        "() => { Object.defineProperty(Notification, 'requestPermission',"
        " {value: async () => 'denied'}); Object.defineProperty(Notification, 'permission',"
        " {get: () => 'denied'}); }"
    )
    page.get_by_role("button", name="Notify me in this browser").click()
    expect(page.locator("#notify-state")).to_contain_text("blocked")
    expect(page.locator("#banner")).to_have_text("Waiting for the host to open the first step.")


def test_when_the_deadline_passes_the_room_says_so_and_the_default_applies(
    live_app: Flask, pages: NewPage
) -> None:
    made = host_creates(live_app, "vote", VOTERS)
    host_does(live_app, made, "steps", seconds=3)
    cai = enter(pages, made, "cai")
    expect(cai.locator("#banner")).to_contain_text("Your turn · 0:0")
    expect(cai.locator("#default-words")).to_have_text(
        "If you send nothing by the deadline, you abstain."
    )
    expect(cai.locator("#banner")).to_have_text(
        "Deadline passed: you get the default", timeout=10_000
    )
    service(live_app).tick()  # what the running service's ticker does every second
    expect(cai.locator("#yours")).to_have_text("You did not vote, so you abstained.")
    expect(cai.locator("#banner")).to_contain_text("The match is over.")
    expect(cai.locator("#pick-area")).to_be_hidden()


def test_a_game_without_controls_of_its_own_is_played_from_its_legal_picks(
    live_app: Flask, pages: NewPage, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As a new game's room looks before anyone writes its controls.js: a button per legal pick.
    monkeypatch.setattr(games, "controls_url", lambda _game: None)
    made = host_creates(live_app, "vote", VOTERS)
    host_does(live_app, made, "steps", seconds=600)
    ana = enter(pages, made, "ana")
    expect(ana.get_by_role("group", name="Your choices").get_by_role("button")).to_have_count(3)
    seal(ana, "vote ben", "Sealed.")
    expect(ana.locator("#pick-words")).to_have_text("You pick vote ben.")
