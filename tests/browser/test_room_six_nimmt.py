"""6 nimmt! in the dealer room, played to its end by clicking only.

Three players, each in a browser of their own (ana and cai at 1280×900, ben on a 390 px
phone), tap a card of their hand ("card 37") and the one seal-and-send button; a player whose
card is lower than every row end is told so before sending, and after the reveal takes a row
by tapping it on the table ("row 2"). The host deals explicitly and opens and seals each turn
through the API, with the Even/Odd action card and 12 start points, so the match ends after
its first round and every sentence a player relies on can be checked: the banners, the
default stated before the deadline and applied as stated (cai sends nothing in turn 9), the
decision's reason and the waiting line the others see, what each turn did to you, and the
result in words.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from tests.browser.rooms import assert_phone_fits, enter, host_creates, host_does

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from flask import Flask
    from playwright.sync_api import Page

    Shooter = Callable[..., Path]
    NewPage = Callable[..., Page]

pytestmark = pytest.mark.browser

PLAYERS = ["ana", "ben", "cai"]
# Each turn's cards of ana, ben and cai. Turn 1: ana's 5 is lower than every row end (10, 20,
# 30, 40; the Even/Odd card starts on row 0, Even): she takes row 2. Turn 2: ben's 6 is even,
# the marked row 2 (now Odd, ending 5) refuses it and every other row ends higher: he takes
# row 3. cai sends nothing in turn 9: his lowest card, 73, is played for him.
PLAYS = [
    (5, 21, 41),
    (11, 6, 42),
    (43, 44, 45),
    (47, 48, 49),
    (51, 52, 53),
    (57, 58, 59),
    (61, 62, 63),
    (67, 68, 69),
    (71, 72, None),
    (77, 78, 79),
]
CAI_PASSES = 9  # the turn cai lets pass
ANA_SIXTH = 4  # the turn ana's 47 is the sixth card of row 0
DEAL: dict[str, Any] = {
    "rows": [10, 20, 30, 40],
    "hands": {
        "ana": [5, 11, 43, 47, 51, 57, 61, 67, 71, 77],
        "ben": [6, 21, 44, 48, 52, 58, 62, 68, 72, 78],
        "cai": [41, 42, 45, 49, 53, 59, 63, 69, 73, 79],
        "virtual": [91, 92, 93, 94, 95, 96, 97, 98, 99, 100],
    },
}
ROWS = ["row 0", "row 1", "row 2", "row 3"]


def button(page: Page, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def send(page: Page) -> None:
    """The one seal-and-send button; wait for the service's answer."""
    sending = page.get_by_role("button", name=re.compile("^Seal and send"))
    expect(sending).to_be_enabled()
    sending.click()
    expect(page.locator("#pick-result")).to_contain_text("Sealed")


def my_turn(page: Page, turn: int) -> None:
    expect(page.locator("#step-title")).to_have_text(f"Step {turn} · turn")
    expect(page.locator("#banner")).to_contain_text("Your turn")


def play(page: Page, turn: int, card: int) -> None:
    """Tap the card when the turn is open, then seal and send it."""
    my_turn(page, turn)
    button(page, f"card {card}").click()
    expect(button(page, f"card {card}")).to_have_attribute("aria-pressed", "true")
    send(page)


def rows_fit_a_finger(page: Page) -> None:
    """The rows laid over the table are real buttons at least 44 px each way."""
    for name in ROWS:
        box = button(page, name).bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, (name, box)


def test_six_nimmt_is_played_to_its_end_by_clicking(
    live_app: Flask, pages: NewPage, screenshot: Shooter
) -> None:
    options = {"start_points": 12, "action_card": "even-odd"}
    made = host_creates(live_app, "six-nimmt", PLAYERS, options=options)
    host_does(live_app, made, "steps", seconds=600, deal=DEAL)
    ana = enter(pages, made, "ana")
    ben = enter(pages, made, "ben", phone=True)
    cai = enter(pages, made, "cai")
    rooms = {"ana": ana, "ben": ben, "cai": cai}
    first_turn(live_app, made, rooms, screenshot)
    second_turn(live_app, made, rooms, screenshot)
    later_turns(live_app, made, rooms)
    the_end(rooms, screenshot)


def first_turn(
    app: Flask, made: dict[str, Any], rooms: dict[str, Page], screenshot: Shooter
) -> None:
    """The hand, the default, the rows; ana's too-low card and her row taken by a tap."""
    ana, ben, cai = rooms["ana"], rooms["ben"], rooms["cai"]
    # Turn 1: the hand as cards with their bullheads, the default stated, the rows on the table.
    for player, page in rooms.items():
        my_turn(page, 1)
        expect(page.locator("#pick-controls .sn-card")).to_have_count(10)
        lowest = DEAL["hands"][player][0]
        expect(page.locator("#default-words")).to_have_text(
            f"If you send nothing by the deadline, you play your lowest card, {lowest}."
        )
        for name in ROWS:
            expect(button(page, name)).to_be_attached()
    expect(button(ana, "card 5")).to_contain_text("2 bullheads")  # a multiple of 5
    expect(button(ana, "card 11")).to_contain_text("5 bullheads")  # a multiple of 11
    expect(ana.locator("#table")).to_contain_text("even only")  # the Even/Odd row, marked
    expect(ana.locator("#seat-words")).to_contain_text(
        "The Even/Odd action card is on row 0, showing Even"
    )
    screenshot(ana, "room-six_nimmt-turn-desktop")
    screenshot(ben, "room-six_nimmt-turn-phone")
    assert_phone_fits(ben)

    # A card lower than every row end says so before it is sent (the Even/Odd row counted).
    button(ana, "card 11").click()
    expect(ana.locator("#pick-words")).to_have_text(
        "You play card 11. Your 11 is lower than every row end it may enter (row 0 takes only "
        "even cards): you will take a row."
    )
    button(ana, "card 5").click()
    expect(ana.locator("#pick-words")).to_have_text(
        "You play card 5. Your 5 is lower than every row end: you will take a row."
    )
    expect(button(ana, "card 11")).to_have_attribute("aria-pressed", "false")
    screenshot(ana, "room-six_nimmt-chosen-desktop")
    send(ana)
    expect(ana.locator("#banner")).to_contain_text("Sealed · waiting for ben and cai")
    screenshot(ana, "room-six_nimmt-sealed-desktop")
    button(ben, "card 21").click()
    expect(ben.locator("#pick-words")).to_have_text("You play card 21: it goes on row 1, after 20.")
    screenshot(ben, "room-six_nimmt-chosen-phone")
    send(ben)
    screenshot(ben, "room-six_nimmt-sealed-phone")
    assert_phone_fits(ben)
    play(cai, 1, 41)
    host_does(app, made, "seal")

    # ana decides by tapping a row; the others see whom they wait for, and why.
    expect(ana.locator("#decision-area")).to_be_visible()
    expect(ana.locator("#banner")).to_contain_text("Your decision")
    expect(ana.locator("#decision-words")).to_have_text(
        "Your 5 is lower than every row end, so you must take a row: its bullheads come off "
        "your points and your 5 starts it. Tap a row: row 0 has 3 bullheads, row 1 has 3 "
        "bullheads, row 2 has 3 bullheads, row 3 has 3 bullheads. If you choose none in time, "
        "you take row 0, the one with the fewest bullheads."
    )
    expect(ana.locator("#decision-controls")).to_contain_text("Row 2 (30): 3 bullheads")
    waiting = "Waiting for ana to choose a row to take: ana's 5 is lower than every row end."
    expect(ben.locator("#banner")).to_have_text(waiting)
    expect(cai.locator("#banner")).to_have_text(waiting)
    expect(ana.get_by_role("button", name="Send my decision")).to_be_disabled()
    button(ana, "row 2").click()
    expect(button(ana, "row 2")).to_have_attribute("aria-pressed", "true")
    expect(ana.locator("#decision-choice")).to_have_text(
        "You take row 2: its 3 bullheads come off your points (12 → 9) and your 5 starts it."
    )
    screenshot(ana, "room-six_nimmt-decision-desktop")
    screenshot(ben, "room-six_nimmt-waiting-phone")
    ana.get_by_role("button", name="Send my decision").click()
    expect(ana.locator("#yours li")).to_have_text(
        [
            "Your 5 was lower than every row end: you took row 2, −3 points (now 9).",
            "Your take moved the action card to row 2: it now shows Odd.",
        ]
    )
    expect(ben.locator("#yours li")).to_have_text(["You played 21 on row 1."])
    expect(cai.locator("#yours li")).to_have_text(["You played 41 on row 3."])
    expect(ana.locator("#banner")).to_contain_text("you took row 2, −3 points (now 9)")


def second_turn(
    app: Flask, made: dict[str, Any], rooms: dict[str, Page], screenshot: Shooter
) -> None:
    """ben, on the phone, plays his 6, which the Odd row refuses, and taps row 3."""
    ana, ben, cai = rooms["ana"], rooms["ben"], rooms["cai"]
    host_does(app, made, "steps", seconds=600)
    my_turn(ben, 2)
    expect(button(ben, "card 6")).to_contain_text("takes a row")
    button(ben, "card 6").click()
    expect(ben.locator("#pick-words")).to_have_text(
        "You play card 6. Your 6 is lower than every row end it may enter (row 2 takes only "
        "odd cards): you will take a row."
    )
    send(ben)
    play(ana, 2, 11)
    play(cai, 2, 42)
    host_does(app, made, "seal")
    expect(ben.locator("#decision-area")).to_be_visible()
    expect(ben.locator("#decision-words")).to_contain_text(
        "Your 6 is lower than every row end it may enter (row 2 takes only odd cards), so you "
        "must take a row"
    )
    expect(ana.locator("#banner")).to_contain_text("Waiting for ben to choose a row to take")
    rows_fit_a_finger(ben)
    button(ben, "row 3").click()
    expect(ben.locator("#decision-choice")).to_have_text(
        "You take row 3: its 5 bullheads come off your points (12 → 7) and your 6 starts it."
    )
    screenshot(ben, "room-six_nimmt-decision-phone")
    assert_phone_fits(ben)
    ben.get_by_role("button", name="Send my decision").click()
    expect(ben.locator("#yours li")).to_have_text(
        [
            (
                "Your 6 was lower than every row end it may enter (row 2 takes only odd cards): "
                "you took row 3, −5 points (now 7)."
            ),
            "Your take moved the action card to row 3: it now shows Even.",
        ]
    )
    expect(ana.locator("#yours li")).to_have_text(["You played 11 on row 0."])


def later_turns(app: Flask, made: dict[str, Any], rooms: dict[str, Page]) -> None:
    """Turns 3 to 10: a card each (cai sends nothing in turn 9 and gets the default)."""
    ana, cai = rooms["ana"], rooms["cai"]
    for turn, cards in enumerate(PLAYS[2:], start=3):
        host_does(app, made, "steps", seconds=600)
        for player, card in zip(PLAYERS, cards, strict=True):
            if card is not None:
                play(rooms[player], turn, card)
        if turn == CAI_PASSES:
            expect(cai.locator("#default-words")).to_have_text(
                "If you send nothing by the deadline, you play your lowest card, 73."
            )
        host_does(app, made, "seal")
        if turn == CAI_PASSES:
            expect(cai.locator("#banner")).to_have_text(
                "Deadline passed: you got the default. You sent nothing in time, so your "
                "lowest card, 73, was played. You played 73 on row 0."
            )
        if turn == ANA_SIXTH:
            expect(ana.locator("#yours li").first).to_have_text(
                "Your 47 was the sixth card of row 0: you took 10, 11, 43, 44, 45: "
                "−16 points (now −7)."
            )


def the_end(rooms: dict[str, Page], screenshot: Shooter) -> None:
    """The result in words for everyone, and what the last turn did to each."""
    ana, ben, cai = rooms["ana"], rooms["ben"], rooms["cai"]
    result = [
        "ben wins with 2 points; cai −2, ana −12 (the virtual player, never ranked: −1).",
        "It ended when ana, cai and the virtual player fell to 0 points or below.",
    ]
    for page in rooms.values():
        expect(page.locator("#banner")).to_contain_text("The match is over.")
        expect(page.locator("#result-words li")).to_have_text(result)
        expect(page.locator("#pick-area")).to_be_hidden()
    expect(ben.locator("#yours li")).to_have_text(
        ["You played 78 on row 0.", "The match is over: you win, with 2 points."]
    )
    expect(cai.locator("#yours li")).to_have_text(
        [
            "Your 79 was the sixth card of row 0: you took 71, 72, 73, 77, 78: −9 points (now −2).",
            "Your take moved the action card to row 2: it now shows Odd.",
            "The match is over: ben won; you finished with −2 points.",
        ]
    )
    screenshot(ana, "room-six_nimmt-result-desktop")
    screenshot(ben, "room-six_nimmt-result-phone")
    assert_phone_fits(ben)
    for page in rooms.values():
        body = page.inner_text("body")
        assert not re.search(r"[{}]|\bNone\b|\bnull\b|_", body), body
