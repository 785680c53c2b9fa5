"""Picking Nine Possibilities in the dealer room, played to its end by clicking only.

Three players, each in a browser of their own (ben on a 390 px phone), rank 7 cards of each
pool by tapping them (a ranked card tapped again leaves the list; "move R7 up" reorders; the
rest fills in pool order), choose a ban in the select labelled "Ban" and a priority with the
"priority N" buttons. The host deals explicit pools and seals each round through the API, so
every sentence a player reads can be checked: the default stated before the deadline and
applied as stated (cai sends nothing in round 1), the pre-filled pick sent unchanged and
accepted (the old refusal of ``"ban": null``), what each round did to each player, their
holdings and best Quattro, and the result in words.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from tests.browser.rooms import assert_phone_fits, enter, host_creates, host_does

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

    from flask import Flask
    from playwright.sync_api import Page

    Shooter = Callable[..., Path]
    NewPage = Callable[..., Page]

pytestmark = pytest.mark.browser

PLAYERS = ["ana", "ben", "cai"]
POOLS = [
    [f"{colour}{n}" for n in pair for colour in "RGBY"]
    for pair in ((1, 2), (3, 4), (5, 6), (7, 8), (9, 10))
]
# Round by round, each player's plan: the cards tapped first (the rest filled in pool order),
# the ban and the priority. Round 1 is played differently (see the test).
PLANS: list[dict[str, tuple[list[str], str | None, int]]] = [
    {},
    {"ana": (["R4", "G3"], None, 2), "cai": (["Y4"], "R4", 1)},
    {"ana": (["B6"], None, 1), "ben": (["G6"], None, 2), "cai": (["R6"], "Y5", 3)},
    {"ana": (["Y7"], None, 1), "ben": (["R8"], "G8", 3), "cai": (["B8"], None, 2)},
    {"ana": (["R10"], None, 1), "ben": (["G10"], None, 1), "cai": (["Y10"], None, 1)},
]
RECEIVED = [
    {"ana": "the gray zero", "ben": "Y2", "cai": "G1"},
    {"ana": "G3", "ben": "R3", "cai": "Y4"},
    {"ana": "B6", "ben": "G6", "cai": "R6"},
    {"ana": "Y7", "ben": "R8", "cai": "B8"},
    {"ana": "R10", "ben": "G10", "cai": "Y10"},
]
BANNED = ["R1 was banned before anyone picked.", "R4 was banned before anyone picked."]
BANNED += ["Y5 was banned before anyone picked.", "G8 was banned before anyone picked."]
BANNED += ["Nothing was banned."]


def button(page: Page, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def pick_words(page: Page) -> str:
    return page.inner_text("#pick-words")


def wait_for_round(page: Page, number: int) -> None:
    """The round is open for the player, with this round's pool to rank."""
    expect(page.locator("#banner")).to_contain_text("Your turn")
    expect(page.locator("#step-title")).to_have_text(f"Step {number} · round")
    expect(button(page, POOLS[number - 1][0])).to_be_visible()


def rank(page: Page, first: list[str], ban: str | None, priority: int) -> None:
    """Clear the list, tap ``first`` in order, fill the rest, choose the ban and the priority."""
    button(page, "Clear my list").click()
    for card in first:
        button(page, card).click()
    button(page, "Fill the rest in pool order").click()
    page.get_by_label("Ban", exact=True).select_option(value=ban or "")
    button(page, f"priority {priority}").click()


def send(page: Page, expected: str = "Sealed.") -> None:
    """The one seal-and-send button; wait for the service's answer."""
    sender = page.get_by_role("button", name=re.compile("^Seal and send"))
    expect(sender).to_be_enabled()
    sender.click()
    expect(page.locator("#pick-result")).to_contain_text(expected)


def plain_everywhere(page: Page) -> None:
    """Nothing on the page is a Python or JSON repr."""
    body = page.inner_text("#room")
    assert "None" not in body and "null" not in body and "{" not in body, body
    assert "_" not in page.inner_text("#seat-words")


def test_picking_nine_is_played_to_its_end_by_clicking(
    live_app: Flask, pages: NewPage, screenshot: Shooter
) -> None:
    made = host_creates(live_app, "picking-nine", PLAYERS)
    host_does(live_app, made, "steps", seconds=600, deal={"pool": POOLS[0]})
    ana = enter(pages, made, "ana")
    ben = enter(pages, made, "ben", phone=True)
    cai = enter(pages, made, "cai")
    rooms = {"ana": ana, "ben": ben, "cai": cai}

    # 1. Round 1: everyone sees the pool, their holdings, the default in words.
    for page in rooms.values():
        wait_for_round(page, 1)
        expect(page.locator("#default-words")).to_have_text(
            "If you send nothing by the deadline, your want-list is the first 7 cards of the pool "
            "in order (0, R1, G1, B1, Y1, R2, G2), with no ban and priority 3."
        )
        expect(page.locator("#seat-words")).to_contain_text(
            "Round 1 of 5. The pool (with the gray zero, until someone takes it): 0, R1, G1, B1, "
            "Y1, R2, G2, B2, Y2."
        )
        expect(page.locator("#seat-words")).to_contain_text("Your holdings: none yet.")
        expect(page.locator("#pick-controls")).to_contain_text(
            "Unique numbers pick first, lowest first; then shared numbers, lowest first, by the "
            "tie-break list"
        )
        plain_everywhere(page)
    expect(ana.locator("#rules-panel")).to_contain_text("Elimination Candidate")
    screenshot(ana, "room-picking_nine-turn-desktop")
    screenshot(ben, "room-picking_nine-turn-phone")
    assert_phone_fits(ben)

    # Check ana sends the pre-filled pick untouched: it is the default, and it is accepted.
    expect(ana.locator("#pick-words")).to_have_text(
        "You want 0, R1, G1, B1, Y1, R2, G2 (most wanted first), ban nothing, and play priority 3."
    )
    expect(button(ana, "priority 3")).to_have_attribute("aria-pressed", "true")
    expect(ana.get_by_label("Ban", exact=True)).to_have_value("")
    send(ana)
    expect(ana.locator("#pick-result")).not_to_contain_text("not a card")
    expect(ana.locator("#banner")).to_contain_text("Sealed · waiting for ben and cai")
    screenshot(ana, "room-picking_nine-sealed-desktop")

    # Check ben, on the phone, ranks by tapping: the badges, a ranked card tapped out, the fill.
    button(ben, "Clear my list").click()
    expect(ben.locator("#send")).to_be_disabled()
    expect(ben.locator("#pick-words")).to_have_text("Rank 7 more cards (0 of 7 ranked).")
    for card in ("Y2", "B2", "R2"):
        button(ben, card).click()
    expect(button(ben, "Y2")).to_have_attribute("aria-pressed", "true")
    expect(button(ben, "Y2")).to_contain_text("1")
    expect(button(ben, "R2")).to_contain_text("3")
    button(ben, "R2").click()  # tapped again: out of the list
    expect(button(ben, "R2")).to_have_attribute("aria-pressed", "false")
    expect(ben.locator(".p9-count")).to_have_text("2 of 7 ranked.")
    button(ben, "Fill the rest in pool order").click()
    ben.get_by_label("Ban", exact=True).select_option(value="R1")
    button(ben, "priority 1").click()
    expect(ben.locator("#pick-words")).to_have_text(
        "You want Y2, B2, 0, R1, G1, B1, Y1 (most wanted first), ban R1, and play priority 1. "
        "If your ban counts, nobody receives R1, not even you."
    )
    screenshot(ben, "room-picking_nine-choice-phone")
    assert_phone_fits(ben)
    send(ben)
    expect(cai.locator("#who-sent")).to_contain_text("ben: sealed")
    # Check a reload starts from the pick that stands, not from the default.
    ben.reload()
    expect(ben.locator("#banner")).to_contain_text("Sealed · waiting for cai")
    expect(ben.locator("#pick-words")).to_have_text(
        "You want Y2, B2, 0, R1, G1, B1, Y1 (most wanted first), ban R1, and play priority 1. "
        "If your ban counts, nobody receives R1, not even you."
    )
    expect(ben.get_by_label("Ban", exact=True)).to_have_value("R1")

    # cai sends nothing: the host seals and cai gets exactly the default stated.
    host_does(live_app, made, "seal")
    expect(cai.locator("#yours")).to_contain_text(
        "You sent nothing in time for round 1, so the default applied: your want-list is the "
        "first 7 cards of the pool in order (0, R1, G1, B1, Y1, R2, G2), with no ban and "
        "priority 3."
    )
    expect(ana.locator("#yours")).to_contain_text(
        "Round 1: you received the gray zero. R1 was banned before anyone picked."
    )
    expect(ana.locator("#yours")).to_contain_text(
        "you won a tie-break, so you moved down the tie-break list from 1st to 3rd (ben, cai, you)."
    )
    expect(ben.locator("#yours")).to_contain_text("Round 1: you received Y2.")

    # 2. Rounds 2 to 5, by clicking only.
    for number in range(2, 6):
        host_does(live_app, made, "steps", seconds=600, deal={"pool": POOLS[number - 1]})
        for page in rooms.values():
            wait_for_round(page, number)
        if number == 2:
            # Check ben reorders the pre-filled list with the move buttons.
            expect(button(ben, "move R3 up")).to_be_disabled()
            button(ben, "move B4 up").click()
            button(ben, "move B4 up").click()
            button(ben, "priority 2").click()
            expect(ben.locator("#pick-words")).to_have_text(
                "You want R3, G3, B3, Y3, B4, R4, G4 (most wanted first), ban nothing, and play "
                "priority 2."
            )
            # Check a full list refuses a new card until a ranked one is tapped out.
            button(cai, "Y4").click()
            expect(cai.locator(".p9-note")).to_have_text(
                "Your list already holds 7 cards: tap a ranked card to take it out first."
            )
            button(cai, "R3").click()
            expect(cai.locator("#send")).to_be_disabled()
            expect(cai.locator("#pick-words")).to_have_text("Rank 1 more card (6 of 7 ranked).")
            screenshot(cai, "room-picking_nine-choice-desktop")
        for player, (first, ban, priority) in PLANS[number - 1].items():
            rank(rooms[player], first, ban, priority)
        for page in rooms.values():
            send(page)
        if number == 2:
            expect(ben.locator("#banner")).to_contain_text("Sealed")
            screenshot(ben, "room-picking_nine-sealed-phone")
            assert_phone_fits(ben)
        host_does(live_app, made, "seal")
        for player, page in rooms.items():
            expect(page.locator("#yours")).to_contain_text(
                f"Round {number}: you received {RECEIVED[number - 1][player]}. {BANNED[number - 1]}"
            )
        if number < 5:
            plain_everywhere(ana)

    # 3. The result, in words, for everyone.
    for page in rooms.values():
        expect(page.locator("#banner")).to_contain_text("The match is over.")
        expect(page.locator("#result-words li")).to_have_text(
            [
                "ana wins the ToL with the best Quattro, 26 points.",
                "Scores: ana 26, cai 25, ben 0.",
                "EC (Elimination Candidates): cai, ben.",
                "Garnets: ana 7, cai 0, ben 0.",
            ]
        )
        expect(page.locator("#pick-area")).to_be_hidden()
        plain_everywhere(page)
    expect(ana.locator("#seat-words")).to_contain_text(
        "Your best Quattro: G3, B6, Y7, R10 (26 points)."
    )
    expect(ana.locator("#seat-words")).to_contain_text("You earned the ToL: 7 garnets.")
    expect(ben.locator("#seat-words")).to_contain_text(
        "Your best Quattro: none (your cards have 3 different colours and 5 different "
        "numbers; a Quattro needs 4 of each), so it scores 0."
    )
    expect(ana.locator("#yours")).to_contain_text(
        "Your pick, revealed at the end: you wanted R10, R9, G9, B9, Y9, G10, B10, banned "
        "nothing, priority 1."
    )
    screenshot(ana, "room-picking_nine-result-desktop")
    screenshot(ben, "room-picking_nine-result-phone")
    assert_phone_fits(ben)
