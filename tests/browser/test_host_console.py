"""The host console runs a whole short match of every game, in Debian's chromium.

The host works from the console alone (its private link; the token leaves the address bar at
once): matches that open their steps by themselves and seal as soon as everyone has sent,
the deadline of a step the host opens chosen from presets and remembered, every action
labelled with what it will do and then saying what it did, the picture, round and turn,
scores and the result in words. The players act through their dealer rooms by clicking
(``tests/browser/rooms.py`` ``enter``). Along the way: an unclaimed seat's invite shown again
(a new link, with its QR code), a claimed seat re-invited (its old holder loses it), a row
decision's default applied from the console, two missing moves defaulted by sealing now, and
one match ended early with a reason. Screenshots at 1280 and 390 px go to
``test-artifacts/screenshots`` (``host-*``).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from tests.browser.rooms import enter, host_creates

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from flask import Flask
    from playwright.sync_api import Locator, Page

    from tests.browser.conftest import Console

    Shooter = Callable[..., Path]
    NewPage = Callable[..., Page]

pytestmark = pytest.mark.browser

RUNS_ITSELF = {"auto_open": True, "auto_seal": True, "step_seconds": 300}
SEND = re.compile("^Seal and send")


# ---------------------------------------------------------------------- the host's side


def open_console(pages: NewPage, made: dict[str, Any], *, phone: bool = False) -> Page:
    """The host opens the console through its private link; the token leaves the address."""
    host = pages(phone=phone)
    host.goto(f"/matches/{made['match_id']}/host#{made['host_token']}")
    expect(host.locator("#host-status")).not_to_have_text("Loading…")
    assert "#" not in host.url and made["host_token"] not in host.url
    return host


def banner(host: Page, text: str) -> None:
    expect(host.locator("#host-status")).to_contain_text(text, timeout=10_000)


def button(page: Page, name: str) -> Locator:
    return page.get_by_role("button", name=name, exact=True)


def did(host: Page, text: str) -> None:
    """The console says what the action did."""
    expect(host.locator("#host-result")).to_have_text(text)


def assert_plain(host: Page, slug: str = "") -> None:
    """Nothing the host reads is JSON, a Python repr, the game's slug or a log's word."""
    text = host.inner_text("#host")
    for link in host.locator(".link-text").all_inner_texts():  # an invite link is a link
        text = text.replace(link, "")
    for raw in ("{", "null", "None", "True", "_", "Done:", "Result:", *([slug] if slug else [])):
        assert raw not in text, (raw, text[max(0, text.find(raw) - 200) :][:400])


def assert_phone_fits(host: Page) -> None:
    """No sideways scroll at 390 px, and every visible button at least 44 px each way."""
    assert host.evaluate("document.documentElement.scrollWidth") <= 390
    small = host.evaluate(
        """() => [...document.querySelectorAll('#host button, #host .button')]
             .filter((b) => b.offsetParent !== null)
             .map((b) => [b.textContent.trim(), b.getBoundingClientRect().width,
                          b.getBoundingClientRect().height])
             .filter(([, w, h]) => w < 44 || h < 44)"""
    )
    assert small == []


def invite_of(link: str) -> str:
    return link.split("#invite=", 1)[1]


# ---------------------------------------------------------------------- the players' side


def my_turn(room: Page, step: int) -> None:
    expect(room.locator("#step-title")).to_have_text(re.compile(f"^Step {step} "), timeout=10_000)
    expect(room.locator("#banner")).to_contain_text("Your turn")


def send(room: Page, *, last: bool = False) -> None:
    """The one seal-and-send button; wait for the service's answer.

    The ``last`` pick of a step seals it at once (and may end the match or open the next
    step before the answer is read): the caller waits for what follows instead.
    """
    sending = room.get_by_role("button", name=SEND)
    expect(sending).to_be_enabled()
    step = room.locator("#step-title").inner_text()
    sending.click()
    if not last:
        expect(room.locator("#pick-result")).to_contain_text("Sealed")
    else:
        # The answer says "Sealed", or the step the pick was for is already gone (sealed,
        # resolved, and the next one opened by itself or the match over before the answer
        # was read).
        sealed = room.locator("#pick-result").filter(has_text="Sealed")
        moved = room.locator("#step-title").filter(has_not_text=step)
        over = room.locator("#banner").filter(has_text="The match is over")
        expect(sealed.or_(moved).or_(over)).not_to_have_count(0)


# ---------------------------------------------------------------------- the vote


def test_a_vote_with_an_invite_shown_again_and_a_seat_reinvited(
    live_app: Flask, pages: NewPage, screenshot: Shooter, console: Console
) -> None:
    made = host_creates(live_app, "vote", ["ana", "ben", "cai"], name="Club vote", **RUNS_ITSELF)
    host = open_console(pages, made)

    # 1. Nothing runs before the seats are claimed, and the console says how the match runs.
    banner(host, "Waiting for ana, ben and cai to claim their seats: the first step opens by")
    expect(host.locator("#host-settings")).to_contain_text("Steps open by themselves")
    expect(host.locator("#host-settings")).to_contain_text("deadline of 5 minutes")
    expect(host.locator("tr[data-player=cai] .seat")).to_have_text("not claimed yet")

    # 2. The deadline of a step the host opens: the match's own at first, then a preset,
    #    remembered across a reload.
    expect(button(host, "5 min")).to_have_attribute("aria-pressed", "true")
    expect(host.locator("#open-step-button")).to_have_text(
        "Open step 1 now, with a deadline of 5 minutes"
    )
    button(host, "1 min").click()
    expect(host.locator("#open-step-button")).to_have_text(
        "Open step 1 now, with a deadline of 1 minute"
    )
    host.reload()
    expect(button(host, "1 min")).to_have_attribute("aria-pressed", "true")
    button(host, "No deadline").click()
    expect(host.locator("#open-step-button")).to_have_text("Open step 1 now, with no deadline")
    screenshot(host, "host-vote-waiting-for-seats")

    # 3. cai's invite, shown again: a new link replaces the old one; copy and QR code.
    button(host, "Show cai's invite again").click()
    expect(host.locator("#reinvite-question")).to_contain_text("a new link replaces the old one")
    button(host, "Make a new invite").click()
    expect(host.locator("#reinvite-what")).to_contain_text("A new link replaces the old one")
    link = host.locator("#reinvite-link").inner_text()
    assert "#invite=" in link and invite_of(link) != made["invites"]["cai"]
    made["invites"]["cai"] = invite_of(link)
    expect(button(host, "Copy cai's new invite link")).to_be_visible()
    qr = host.get_by_role("img", name="QR code of cai's new invite link")
    expect(qr).to_be_visible()
    assert host.evaluate("(img) => img.naturalWidth", qr.element_handle()) > 0
    screenshot(host, "host-vote-invite-again")

    # 4. Every seat claimed: the first step opens by itself.
    rooms = {p: enter(pages, made, p) for p in ("ana", "ben", "cai")}
    banner(host, "Step 1 is open: nobody has sent a pick yet.")
    expect(host.locator("tr[data-player=cai] .seat")).to_have_text("claimed, signs with its key")

    # 5. ben's seat goes to a new invite: asked first, then the old holder loses it.
    console.allow("401 (UNAUTHORIZED)")  # ben's old browser is refused: that is the point
    console.allow("403 (FORBIDDEN)")
    button(host, "New invite for ben").click()
    expect(host.locator("#reinvite-question")).to_contain_text("loses it")
    button(host, "Make a new invite").click()
    expect(host.locator("#reinvite-what")).to_contain_text("ben's new invite link")
    link = host.locator("#reinvite-link").inner_text()
    made["invites"]["ben"] = invite_of(link)
    expect(rooms["ben"].locator("#seat-lost-message")).to_contain_text("no longer hold this seat")
    rooms["ben"] = enter(pages, made, "ben", phone=True)

    # 6. ana and cai vote; sealing now says who gets the default, then what it did.
    for voter in ("ana", "cai"):
        my_turn(rooms[voter], 1)
        button(rooms[voter], "ben").click()
        send(rooms[voter])
    seal = host.locator("#seal")
    expect(seal).to_have_text(
        "Seal now: ana and cai have sent their picks, ben has not and will get the default."
    )
    expect(host.locator("tr.ok")).to_have_count(2)
    screenshot(host, "host-vote-seal-now")
    seal.click()
    did(host, "Step 1 sealed: ben got the default.")
    banner(host, "Finished: ben wins with 2 votes.")
    expect(host.locator("#result-words")).to_contain_text("ana got 0 votes, cai got 0 votes.")
    assert_plain(host)
    screenshot(host, "host-vote-finished")


# ---------------------------------------------------------------------- 6 nimmt!

# ben's 5 is lower than every row end in turn 1: he must take a row, chooses none, and the
# host applies the default from the console (every row is worth 3 bullheads: row 0). With one
# start point, the match ends after the first round. Row 0 then ends with 5, lower than every
# later card, so no other decision comes.
DEAL = {
    "rows": [10, 20, 30, 40],
    "hands": {
        "ana": [41, 42, 43, 44, 45, 46, 47, 48, 49, 50],
        "ben": [5, 61, 62, 63, 64, 65, 66, 67, 68, 69],
        "virtual": [91, 92, 93, 94, 95, 96, 97, 98, 99, 100],
    },
}


def test_six_nimmt_runs_itself_and_the_host_applies_a_default_decision(
    live_app: Flask, pages: NewPage, screenshot: Shooter
) -> None:
    made = host_creates(
        live_app, "six-nimmt", ["ana", "ben"], options={"start_points": 1}, **RUNS_ITSELF
    )
    host = open_console(pages, made)
    # The host deals the first round from the console and opens step 1 before the seats are
    # claimed; every later step opens by itself.
    host.get_by_text("Deal the cards yourself").click()
    host.fill("#deal", json.dumps(DEAL))
    host.locator("#open-step-button").click()
    did(host, "Step 1 is open, with a deadline of 5 minutes.")
    rooms = {"ana": enter(pages, made, "ana"), "ben": enter(pages, made, "ben", phone=True)}
    expect(host.locator("#host-where")).to_have_text("Step 1 · Round 1, turn 1 of 10 under way")
    expect(host.locator("#host-picture svg")).to_be_visible()

    for turn in range(10):
        for player, room in rooms.items():
            my_turn(room, turn + 1)
            button(room, f"card {DEAL['hands'][player][turn]}").click()
            send(room, last=player == "ben")
        if turn == 0:
            # ben's 5 takes a row: the console says what the default will do, then does it.
            default = host.locator("#default-decision")
            expect(default).to_have_text(
                "Apply the default decision: row 0 (3 bullheads) will go to ben."
            )
            expect(host.locator("#decision-words")).to_contain_text(
                "Waiting for ben to choose a row to take"
            )
            screenshot(host, "host-six_nimmt-decision")
            default.click()
            did(host, "Default decision applied: row 0 (3 bullheads) went to ben.")
            expect(host.locator("#last-step-lines")).to_contain_text(
                "ben chose no row in time, so the default row 0"
            )
            expect(host.locator("#host-scores")).to_have_text("Points: ana 1, ben −2, virtual 1.")
        if turn == 1:
            expect(host.locator("#host-where")).to_have_text(
                "Step 3 · Round 1, turn 3 of 10 under way", timeout=10_000
            )
            screenshot(host, "host-six_nimmt-running")
    banner(host, "Finished:")
    expect(host.locator("#result-words")).to_contain_text("points")
    assert_plain(host, "six-nimmt")
    screenshot(host, "host-six_nimmt-finished")
    phone = open_console(pages, made, phone=True)
    banner(phone, "Finished:")
    assert_phone_fits(phone)
    screenshot(phone, "host-six_nimmt-finished-phone")


# ---------------------------------------------------------------------- Apocalypse


def test_apocalypse_ends_by_forfeit_when_the_host_seals_twice(
    live_app: Flask, pages: NewPage, screenshot: Shooter
) -> None:
    made = host_creates(live_app, "apocalypse", ["ana", "ben"], **RUNS_ITSELF)
    host = open_console(pages, made, phone=True)
    ana = enter(pages, made, "ana")
    enter(pages, made, "ben")  # ben claims his seat and then sends nothing
    for step, (start, end) in enumerate([("b1", "b2"), ("c1", "c2")], start=1):
        my_turn(ana, step)
        button(ana, f"square {start}").click()
        button(ana, f"square {end}").click()
        send(ana)
        seal = host.locator("#seal")
        expect(seal).to_have_text(
            "Seal now: ana has sent a pick, ben has not and will get the default."
        )
        if step == 1:
            expect(host.locator("#host-where")).to_have_text("Step 1 · Turn 1 under way")
            assert_phone_fits(host)
            screenshot(host, "host-apocalypse-seal-now-phone")
        seal.click()
        did(host, f"Step {step} sealed: ben got the default.")
    banner(host, "Finished:")
    expect(host.locator("#result-words")).to_contain_text("ana")
    assert_plain(host, "apocalypse")
    screenshot(host, "host-apocalypse-finished-phone")


# ---------------------------------------------------------------------- Picking Nine


def test_picking_nine_runs_itself_round_after_round(
    live_app: Flask, pages: NewPage, screenshot: Shooter
) -> None:
    players = ["ana", "ben", "cai"]
    made = host_creates(live_app, "picking-nine", players, **RUNS_ITSELF)
    host = open_console(pages, made)
    rooms = {p: enter(pages, made, p) for p in players}
    for number in range(1, 6):
        for priority, room in enumerate(rooms.values(), start=1):
            my_turn(room, number)
            button(room, "Clear my list").click()  # the room starts from the default list
            button(room, "Fill the rest in pool order").click()
            button(room, f"priority {priority}").click()
            send(room, last=priority == len(players))
        if number == 2:
            expect(host.locator("#last-step-title")).to_have_text("What step 2 did")
            expect(host.locator("#host-where")).to_have_text("Step 3 · Round 3 under way")
            expect(host.locator("#host-scores")).to_contain_text("Best Quattro score: ana ")
            screenshot(host, "host-picking_nine-running")
    banner(host, "Finished:")
    expect(host.locator("#result-words li")).not_to_have_count(0)
    assert_plain(host, "picking-nine")
    screenshot(host, "host-picking_nine-finished")


# ---------------------------------------------------------------------- Grid Adaptation


def test_grid_adaptation_is_ended_early_with_a_reason(
    live_app: Flask, pages: NewPage, screenshot: Shooter
) -> None:
    made = host_creates(live_app, "grid-adaptation", ["ana", "ben"], **RUNS_ITSELF)
    host = open_console(pages, made)
    rooms = {"ana": enter(pages, made, "ana"), "ben": enter(pages, made, "ben")}
    cells = {"ana": ["A1", "C3", "E5"], "ben": ["O15", "M13", "K11"]}
    for player, room in rooms.items():
        my_turn(room, 1)
        for cell in cells[player]:
            button(room, f"cell {cell}").click()
        send(room, last=player == "ben")
    banner(host, "Step 2 is open: nobody has sent a pick yet.")
    expect(host.locator("#host-where")).to_have_text("Step 2 · Round 2 under way")

    # Ending early asks for a reason and a confirmation; "Keep playing" changes nothing.
    button(host, "End the match early…").click()
    button(host, "Keep playing").click()
    banner(host, "Step 2 is open")
    button(host, "End the match early…").click()
    host.fill("#end-reason", "The café closes at ten.")
    screenshot(host, "host-grid_adaptation-end-early")
    button(host, "End the match now").click()
    expect(host.locator("#end-result")).to_contain_text(
        "You ended the match early: “The café closes at ten.”"
    )
    banner(host, "The host ended the match early: “The café closes at ten.”")
    expect(host.locator("#host-where")).to_have_text("After round 1")
    expect(host.locator("tr[data-player=ana] .state")).to_have_text("—")
    expect(host.locator("#seal")).to_be_hidden()
    expect(host.locator("#open-step")).to_be_hidden()
    assert_plain(host, "grid-adaptation")
    screenshot(host, "host-grid_adaptation-ended")
