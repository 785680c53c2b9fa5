"""Grid Adaptation played to its end in the dealer room, by clicking only.

Three players, each in a browser of their own (ana and ben at 1280×900, cai on a 390×844
phone), play the eight rounds and the EC vote by tapping cells on the grid (``cell H8``),
the reserve tile toggle, a flip button and a purchase button, then the candidates of the EC
vote; the host opens and seals each step through the API with an explicit deal.

The deal and the picks keep every score tied: ana (000) and ben (111) build a 2×2 block of
two 000 and two 111 tiles in round 1, which scores 6 for every sequence each round, and
every other tile stands alone and vanishes. So all three tie for the most and the fewest
points, win one ToL each and vote for the EC.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from domain.rules.grid_adaptation import reserve_cost
from tests.actions import bearer

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from flask import Flask
    from playwright.sync_api import Page

    Shooter = Callable[..., Path]
    NewPage = Callable[..., Page]

pytestmark = pytest.mark.browser

PLAYERS = ["ana", "ben", "cai"]
SEQUENCES = {"ana": "000", "ben": "111", "cai": "011"}
FIRST_ROUND = {"ana": ["H7", "I8", "A1"], "ben": ["I7", "H8", "O15"], "cai": ["A15", "O1", "C13"]}
LATER = {"ana": "A1", "ben": "O15", "cai": "A15"}
CAI_GARNETS = 10
PKG = "grid_adaptation"
DEFAULT = (
    "If you send nothing by the deadline, you place no tile this round "
    "(no reserve tile, no flip, no purchase)."
)


def host_creates(app: Flask) -> dict[str, Any]:
    """The host creates the match through the API; the seats stay unclaimed (invites out)."""
    body = {
        "game": "grid-adaptation",
        "players": PLAYERS,
        "options": {"garnets": {"cai": CAI_GARNETS}},
        "auto_open": False,
        "auto_seal": False,
    }
    answer = app.test_client().post("/api/matches", json=body)
    assert answer.status_code == 201, answer.get_json()
    made: dict[str, Any] = answer.get_json()
    return made


def host_does(app: Flask, made: dict[str, Any], action: str, **body: Any) -> None:
    """The host opens a step (``steps``) or seals it (``seal``) through the API."""
    answer = app.test_client().post(
        f"/api/matches/{made['match_id']}/{action}", json=body, headers=bearer(made["host_token"])
    )
    assert answer.status_code in {200, 201}, answer.get_json()


def enter(pages: NewPage, made: dict[str, Any], player: str, **options: Any) -> Page:
    """The player opens their invite link in a browser of their own."""
    page = pages(**options)
    page.goto(f"/matches/{made['match_id']}/players/{player}#invite={made['invites'][player]}")
    expect(page.locator("#banner")).not_to_have_text("Loading your room…")
    return page


def button(page: Page, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def tap(page: Page, cell: str) -> None:
    button(page, f"cell {cell}").click()


def send(page: Page) -> None:
    """The one seal-and-send button; wait for the service's answer."""
    sender = page.get_by_role("button", name=re.compile("^Seal and send"))
    expect(sender).to_be_enabled()
    sender.click()
    expect(page.locator("#pick-result")).to_contain_text("Sealed.")


def wait_turn(page: Page, step: int, kind: str = "round") -> None:
    expect(page.locator("#step-title")).to_have_text(f"Step {step} · {kind}", timeout=10_000)
    expect(page.locator("#banner")).to_contain_text("Your turn")


def assert_phone_fits(page: Page) -> None:
    """No sideways scroll at 390 px; every visible control and grid cell at least 44 px."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    small = page.evaluate(
        """() => [...document.querySelectorAll('#room button')]
             .filter((b) => b.offsetParent !== null)
             .map((b) => [b.textContent.trim() || b.getAttribute('aria-label'),
                          b.getBoundingClientRect().width, b.getBoundingClientRect().height])
             .filter(([, w, h]) => w < 44 || h < 44)"""
    )
    assert small == []


def assert_plain(page: Page) -> None:
    """Nothing a player reads is JSON, a Python repr or a raw key."""
    body = page.inner_text("#room")
    for raw in ("{", "None", "null", "garnets_available", "buy_reserves", "ec_candidates"):
        assert raw not in body, body[max(0, body.find(raw) - 200) :][:400]


def test_grid_adaptation_is_played_to_its_end_by_clicking(  # noqa: PLR0915 - one narrated match
    live_app: Flask, pages: NewPage, screenshot: Shooter
) -> None:
    made = host_creates(live_app)
    host_does(live_app, made, "steps", seconds=600, deal={"sequences": SEQUENCES})
    rooms = {
        "ana": enter(pages, made, "ana"),
        "ben": enter(pages, made, "ben"),
        "cai": enter(pages, made, "cai", phone=True),
    }
    ana, ben, cai = rooms["ana"], rooms["ben"], rooms["cai"]

    # 1. Round 1: your sequence in words, the grid to tap, a counter, the default stated.
    for player, page in rooms.items():
        wait_turn(page, 1)
        bits = SEQUENCES[player]
        expect(page.locator("#seat-words")).to_contain_text(
            f"Your sequence is {bits} (bit 0 is {bits[0]}, bit 1 is {bits[1]}, bit 2 is {bits[2]})."
        )
        expect(page.locator("#default-words")).to_have_text(DEFAULT)
        expect(page.locator("#ga-counter")).to_have_text("0 of 3 cells")
        expect(page.locator("#rules-panel")).to_contain_text("Elimination Candidate")
    expect(cai.locator("#seat-words")).to_contain_text(
        "Garnets: 10 to spend on reserve tiles (the next reserve tile costs 2)."
    )
    expect(ana.locator("#seat-words")).to_contain_text("Reserve tiles: 3")
    screenshot(ana, f"room-{PKG}-turn-desktop")
    screenshot(cai, f"room-{PKG}-turn-phone")
    assert_phone_fits(cai)
    cell = cai.get_by_role("button", name="cell H8", exact=True).bounding_box()
    assert cell is not None and cell["width"] >= 44 and cell["height"] >= 44

    for count, where in enumerate(FIRST_ROUND["ana"], start=1):
        tap(ana, where)
        expect(ana.locator("#ga-counter")).to_have_text(f"{count} of 3 cells")
    expect(button(ana, "cell H7")).to_have_attribute("aria-pressed", "true")
    expect(ana.locator("#pick-words")).to_have_text("You place tiles on H7, I8 and A1.")
    # A fourth cell is refused until one is taken back; tapping a chosen cell takes it back.
    tap(ana, "B2")
    expect(ana.locator("#ga-counter")).to_have_text("3 of 3 cells")
    tap(ana, "A1")
    expect(ana.locator("#ga-counter")).to_have_text("2 of 3 cells")
    expect(ana.locator("#send")).to_be_disabled()
    expect(ana.locator("#pick-words")).to_have_text("Choose 1 more cell.")
    tap(ana, "A1")
    screenshot(ana, f"room-{PKG}-choice-desktop")
    send(ana)
    expect(ana.locator("#banner")).to_contain_text("Sealed · waiting for ben and cai")
    screenshot(ana, f"room-{PKG}-sealed-desktop")
    for player in ("ben", "cai"):
        for where in FIRST_ROUND[player]:
            tap(rooms[player], where)
        send(rooms[player])
    screenshot(cai, f"room-{PKG}-sealed-phone")
    host_does(live_app, made, "seal")
    expect(ana.locator("#yours")).to_contain_text(
        "Your round 1 pick counted; what you chose stays sealed until the match ends."
    )
    expect(ana.locator("#seat-words")).to_contain_text("Your score: 6 points after round 1 of 8.")

    # 2. Rounds 2 to 8: one tile each; cai plays a reserve tile, flips and buys; ben misses one.
    for number in range(2, 9):
        host_does(live_app, made, "steps", seconds=600)
        for page in rooms.values():
            wait_turn(page, number)
        # The block on the grid is occupied: its cells cannot be tapped.
        expect(button(cai, "cell H7")).to_be_disabled()
        expect(ana.locator("#ga-counter")).to_have_text("0 of 1 cell")
        tap(ana, LATER["ana"])
        expect(ana.locator("#pick-words")).to_have_text(f"You place your tile on {LATER['ana']}.")
        send(ana)
        if number != 3:  # in round 3 ben sends nothing
            tap(ben, LATER["ben"])
            send(ben)
        if number == 2:  # the reserve tile
            toggle = button(cai, "Place a reserve tile")
            expect(cai.locator("#pick-controls")).to_contain_text("A reserve tile is an extra tile")
            toggle.click()
            expect(toggle).to_have_attribute("aria-pressed", "true")
            tap(cai, "O1")
            expect(toggle).to_have_attribute("aria-pressed", "false")
            tap(cai, LATER["cai"])
            expect(cai.locator("#pick-words")).to_have_text(
                "You place your tile on A15 and a reserve tile on O1."
            )
            expect(cai.locator("#pick-controls")).to_contain_text(
                "Your reserve tile goes on O1 (tap it to take it back); 2 will be left."
            )
            expect(button(cai, "cell O1")).to_have_attribute("aria-pressed", "true")
            screenshot(cai, f"room-{PKG}-reserve-phone")
            # The overlay is laid again when the room redraws: scroll by where the cell is.
            cai.locator("#table-stage [data-hit='cell O1']").first.evaluate(
                "e => e.scrollIntoView({block: 'center'})"
            )
            screenshot(cai, f"room-{PKG}-reserve-grid-phone", full_page=False)
            assert_phone_fits(cai)
        elif number == 4:  # the flip and the purchase
            expect(cai.locator("#seat-words")).to_contain_text("Reserve tiles: 2")
            expect(cai.locator("#pick-controls")).to_contain_text(
                "numbered 0, 1 and 2 from the left"
            )
            tap(cai, LATER["cai"])
            button(cai, "flip bit 0").click()
            expect(button(cai, "flip bit 0")).to_have_attribute("aria-pressed", "true")
            expect(cai.locator("#ga-flip-0")).to_have_text("011 becomes 111")
            price = reserve_cost(0, 1)
            expect(cai.locator("#ga-buy-1")).to_have_text(f"costs {price} garnets")
            expect(cai.locator("#ga-buy-2")).to_have_text(f"costs {reserve_cost(0, 2)} garnets")
            expect(cai.locator("#ga-buy-3")).to_have_count(0)  # 14 garnets: more than 10
            button(cai, "buy 1 reserve tile").click()
            expect(cai.locator("#pick-words")).to_have_text(
                "You place your tile on A15, flip bit 0 (your sequence becomes 111) "
                f"and buy 1 reserve tile for {price} garnets."
            )
            screenshot(cai, f"room-{PKG}-flip-phone")
            screenshot(ana, f"room-{PKG}-sealed-round4-desktop")
            assert_phone_fits(cai)
        else:
            tap(cai, LATER["cai"])
        send(cai)
        if number == 3:  # ben's default
            expect(ben.locator("#default-words")).to_have_text(DEFAULT)
        host_does(live_app, made, "seal")
        if number == 3:
            expect(ben.locator("#banner")).to_contain_text("Deadline passed: you got the default")
            expect(ben.locator("#yours")).to_contain_text(
                "You sent nothing in time, so you placed no tile in round 3."
            )
        if number == 4:
            expect(cai.locator("#seat-words")).to_contain_text("Your sequence is 111")
            expect(cai.locator("#seat-words")).to_contain_text("Garnets: 8 to spend")
    expect(ana.locator("#seat-words")).to_contain_text("Your score: 48 points after round 8 of 8.")

    # 3. The EC vote: everyone tied, every ToL winner votes by tapping a candidate's name.
    host_does(live_app, made, "steps", seconds=600)
    for page in rooms.values():
        wait_turn(page, 9, "ec vote")
        expect(page.locator("#seat-words")).to_contain_text(
            "You won a ToL, so you vote for the EC among ana, ben and cai"
        )
        expect(page.locator("#default-words")).to_have_text(
            "If you send nothing by the deadline, you abstain from the EC vote."
        )
    screenshot(cai, f"room-{PKG}-vote-phone")
    for voter, vote in {"ana": "ben", "ben": "ben", "cai": "cai"}.items():
        button(rooms[voter], vote).click()
        said = "yourself" if voter == vote else vote
        expect(rooms[voter].locator("#pick-words")).to_have_text(f"You vote for {said} as the EC.")
        send(rooms[voter])
    screenshot(ana, f"room-{PKG}-vote-desktop")
    assert_phone_fits(cai)
    host_does(live_app, made, "seal")

    # 4. The result, in words, for everyone.
    for page in rooms.values():
        expect(page.locator("#banner")).to_contain_text("The match is over.", timeout=10_000)
        expect(page.locator("#result-words")).to_contain_text(
            "ana, ben and cai tied for the most points (48) and win one Token of Life (ToL) each."
        )
        expect(page.locator("#result-words")).to_contain_text(
            "ben is the Elimination Candidate (EC), chosen by the ToL winners' vote "
            "(ana 0 votes, ben 2 votes, cai 1 vote)."
        )
        assert_plain(page)
    expect(ben.locator("#yours")).to_contain_text("You are the Elimination Candidate (EC)")
    expect(cai.locator("#result-words")).to_contain_text(
        "cai 011 in rounds 1–3, then 111 in rounds 4–8."
    )
    expect(ana.locator("#pick-area")).to_be_hidden()
    screenshot(ana, f"room-{PKG}-result-desktop")
    screenshot(cai, f"room-{PKG}-result-phone")
    assert_phone_fits(cai)
