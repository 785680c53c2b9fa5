"""Apocalypse in the dealer room, played to its end by clicking only.

ana (White, at 1280×900) and ben (Black, on a 390 px phone) each open their invite link in a
browser of their own and see the board from their seat: their own pieces nearest them, every
square a button named ``square a1`` .. ``square e5``. A move is two taps: one of your pieces
(its legal targets light up), then a lit square. The host opens and seals each turn through
the API. The match ends by penalty points, quickly:

* turn 1: ana taps her knight a1, then a5, which is no knight's jump: the room says the move
  is illegal and asks before sending it ("Send it anyway"); ben moves his pawn a4→a3;
* turn 2: ana moves her pawn b1→b2; ben sends nothing and gets the default stated before the
  deadline (no move, a penalty point);
* turns 3 and 4: ana's pawn goes b2→b3→b4, ben moves e4→e3 and his knight e5→d3;
* turn 5: ana's pawn captures on c5, her last rank; with two knights already, the room asks
  her to tap the square it is dropped on (c3); ben's knight d3→d2, no jump, is illegal and
  confirmed: his second penalty point loses him the match.
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

    from flask import Flask
    from playwright.sync_api import Locator, Page

    Shooter = Callable[..., Path]
    NewPage = Callable[..., Page]

pytestmark = pytest.mark.browser

CONFIRM = "This move is illegal: it costs you a penalty point. Send it anyway?"
DEFAULT = (
    "If you send nothing by the deadline, you make no move and earn a penalty point (two "
    "penalty points lose the match)."
)


def square(page: Page, name: str) -> Locator:
    """The button laid over a square of the board."""
    return page.get_by_role("button", name=f"square {name}", exact=True)


def centre(page: Page, name: str) -> tuple[float, float]:
    box = square(page, name).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def lit(page: Page) -> list[str]:
    """The squares lit as targets, by name."""
    return sorted(
        page.evaluate(
            "() => [...document.querySelectorAll('#table .hit.target')]"
            ".map((b) => b.getAttribute('aria-label'))"
        )
    )


def move(page: Page, start: str, end: str) -> None:
    """Tap a piece, then a square."""
    square(page, start).click()
    expect(square(page, start)).to_have_attribute("aria-pressed", "true")
    square(page, end).click()


def send(page: Page, expected: str = "Sealed.") -> None:
    """The one seal-and-send button; wait for the answer."""
    button = page.get_by_role("button", name=re.compile("^Seal and send"))
    expect(button).to_be_enabled()
    button.click()
    expect(page.locator("#pick-result")).to_contain_text(expected)


def banners(*pages: Page, text: str) -> None:
    for page in pages:
        expect(page.locator("#banner")).to_contain_text(text)


def test_an_apocalypse_match_is_played_to_its_end_by_clicking(  # noqa: PLR0915 - one match, told in order
    live_app: Flask, pages: NewPage, screenshot: Shooter
) -> None:
    made = host_creates(live_app, "apocalypse", ["ana", "ben"])
    host_does(live_app, made, "steps", seconds=600)
    ana = enter(pages, made, "ana")
    ben = enter(pages, made, "ben", phone=True)

    # ------------------------------------------------------------ turn 1: the table from each seat
    banners(ana, ben, text="Your turn")
    expect(ana.locator("#seat-words")).to_contain_text("You play White: your pieces are nearest")
    expect(ben.locator("#seat-words")).to_contain_text("You play Black: your pieces are nearest")
    expect(ben.locator("#seat-words")).to_contain_text("Your opponent is ana, playing White.")
    for page in (ana, ben):
        expect(page.locator("#default-words")).to_have_text(DEFAULT)
        expect(page.locator("#rules-panel")).to_contain_text("penalty point")
        expect(page.locator("#table .hit")).to_have_count(25)
    # Your own pieces are nearest you: White's rank 1 at the bottom, Black's rank 5.
    assert centre(ana, "a1")[1] > centre(ana, "a5")[1]
    assert centre(ana, "a1")[0] < centre(ana, "e1")[0]
    assert centre(ben, "a5")[1] > centre(ben, "a1")[1]
    assert centre(ben, "e5")[0] < centre(ben, "a5")[0]
    # Every square is a touch target of at least 44 px on the phone.
    boxes = ben.evaluate(
        "() => [...document.querySelectorAll('#table .hit')].map((b) =>"
        " [b.getBoundingClientRect().width, b.getBoundingClientRect().height])"
    )
    assert len(boxes) == 25
    assert min(min(w, h) for w, h in boxes) >= 44, boxes
    assert_phone_fits(ben)
    screenshot(ana, "room-apocalypse-turn-desktop")
    screenshot(ben, "room-apocalypse-turn-phone")

    # ana taps her knight: its two jumps light up. Tapping it again puts it back.
    square(ana, "a1").click()
    expect(ana.locator("#table .hit.target")).to_have_count(2)
    assert lit(ana) == ["square b3", "square c2"]
    expect(ana.locator("#pick-words")).to_have_text(
        "You picked your knight on a1: tap a lit square to move it there (b3, c2)."
    )
    expect(ana.get_by_role("button", name=re.compile("^Seal and send"))).to_be_disabled()
    square(ana, "a1").click()
    expect(ana.locator("#table .hit.target")).to_have_count(0)
    # a1→a5 is no knight's jump: the room says so and asks before sending.
    move(ana, "a1", "a5")
    expect(ana.locator("#pick-words")).to_contain_text("(a1 to a5) is illegal")
    expect(ana.locator("#pick-words")).to_contain_text("costs you a penalty point")
    expect(square(ana, "a5")).to_have_class(re.compile(r"\bwarn\b"))
    screenshot(ana, "room-apocalypse-illegal-desktop")
    ana.get_by_role("button", name=re.compile("^Seal and send")).click()
    expect(ana.locator("#confirm")).to_be_visible()
    expect(ana.locator("#confirm-text")).to_have_text(CONFIRM)
    screenshot(ana, "room-apocalypse-confirm-desktop")
    ana.get_by_role("button", name="Send it anyway").click()
    expect(ana.locator("#pick-result")).to_contain_text("Sealed.")
    expect(ana.locator("#banner")).to_contain_text("Sealed · waiting for ben")

    # ben, on the phone, moves a pawn one square towards rank 1.
    square(ben, "a4").click()
    assert lit(ben) == ["square a3"]
    square(ben, "a3").click()
    expect(ben.locator("#pick-words")).to_have_text("You move your pawn from a4 to a3.")
    screenshot(ben, "room-apocalypse-choice-phone")
    send(ben)
    banners(ben, text="Sealed · every pick is in")
    screenshot(ben, "room-apocalypse-sealed-phone")
    assert_phone_fits(ben)

    host_does(live_app, made, "seal")
    expect(ana.locator("#yours")).to_contain_text(
        "Your move a1→a5 was illegal (a knight moves two squares one way and one square the "
        "other; a1 to a5 is not such a jump): it was not made and you earn a penalty point "
        "(1 of 2)."
    )
    expect(ana.locator("#yours")).to_contain_text("ben moved their pawn a4→a3.")
    expect(ben.locator("#yours")).to_contain_text("You moved your pawn a4→a3.")
    expect(ben.locator("#seat-words")).to_contain_text(
        "Penalty points: you have 0 of 2, ana has 1 of 2"
    )
    screenshot(ana, "room-apocalypse-after-desktop")

    # ------------------------------------------------------------ turn 2: ben sends nothing
    host_does(live_app, made, "steps", seconds=600)
    banners(ana, ben, text="Your turn")
    expect(ana.locator("#table .hit.target")).to_have_count(0)  # a new turn starts afresh
    move(ana, "b1", "b2")
    expect(ana.locator("#pick-words")).to_have_text("You move your pawn from b1 to b2.")
    send(ana)
    expect(ben.locator("#default-words")).to_have_text(DEFAULT)
    host_does(live_app, made, "seal")
    expect(ben.locator("#yours")).to_contain_text(
        "You sent no move in time, so you made none and earn a penalty point (1 of 2)."
    )
    expect(ana.locator("#yours")).to_contain_text(
        "ben sent no move, so earns a penalty point (1 of 2)."
    )
    expect(ben.locator("#banner")).to_contain_text("you got the default")
    screenshot(ben, "room-apocalypse-default-phone")

    # ------------------------------------------------------------ turns 3 and 4: pawn b2 to b4
    for white, black in ((("b2", "b3"), ("e4", "e3")), (("b3", "b4"), ("e5", "d3"))):
        host_does(live_app, made, "steps", seconds=600)
        banners(ana, ben, text="Your turn")
        move(ana, *white)
        send(ana)
        move(ben, *black)
        send(ben)
        host_does(live_app, made, "seal")
        expect(ana.locator("#yours")).to_contain_text(f"You moved your pawn {white[0]}→{white[1]}.")

    # ------------------------------------------------------------ turn 5: a drop, a forfeit
    host_does(live_app, made, "steps", seconds=600)
    banners(ana, ben, text="Your turn")
    # ana's pawn b4 may capture on a5 or c5, her last rank; she has two knights already, so
    # the room asks where the pawn is dropped instead of promoting.
    square(ana, "b4").click()
    assert lit(ana) == ["square a5", "square c5"]
    square(ana, "c5").click()
    expect(ana.locator("#pick-words")).to_have_text(
        "Your pawn reaches rank 5, but you already have two knights, so it cannot become one: "
        "tap the empty square where it is dropped instead (lit; not on rank 5)."
    )
    expect(ana.get_by_role("button", name=re.compile("^Seal and send"))).to_be_disabled()
    drops = lit(ana)
    assert "square c3" in drops and "square c1" not in drops and "square a5" not in drops
    assert not [d for d in drops if d.endswith("5")]
    screenshot(ana, "room-apocalypse-drop-desktop")
    square(ana, "c3").click()
    expect(ana.locator("#pick-words")).to_have_text(
        "You move your pawn from b4 to c5: it reaches rank 5 and, as you already have two "
        "knights, it is dropped on c3."
    )
    send(ana)
    # ben taps his knight d3 and then d2, which is no jump: illegal, confirmed on the phone.
    move(ben, "d3", "d2")
    expect(ben.locator("#pick-words")).to_contain_text("(d3 to d2) is illegal")
    ben.get_by_role("button", name=re.compile("^Seal and send")).click()
    expect(ben.locator("#confirm-text")).to_have_text(CONFIRM)
    screenshot(ben, "room-apocalypse-confirm-phone")
    assert_phone_fits(ben)
    ben.get_by_role("button", name="Send it anyway").click()
    expect(ben.locator("#pick-result")).to_contain_text("Sealed.")
    host_does(live_app, made, "seal")
    expect(ana.locator("#yours")).to_contain_text("Your pawn captured ben's pawn on c5.")
    expect(ana.locator("#yours")).to_contain_text(
        "Your pawn reached its last rank with two knights already on the board, so it went "
        "from c5 to its drop square c3."
    )

    # ------------------------------------------------------------ the end
    banners(ana, ben, text="The match is over.")
    for page in (ana, ben):
        expect(page.locator("#result-words")).to_have_text(
            "ana (White) wins: ben (Black) has two penalty points."
        )
        expect(page.locator("#pick-area")).to_be_hidden()
    expect(ana.locator("#yours")).to_contain_text(
        "The match is over: you win, ben has two penalty points."
    )
    expect(ben.locator("#yours")).to_contain_text(
        "The match is over: you lose, you have two penalty points."
    )
    expect(ben.locator("#table svg")).to_contain_text("finished: you lose")
    screenshot(ana, "room-apocalypse-result-desktop")
    screenshot(ben, "room-apocalypse-result-phone")
    assert_phone_fits(ben)
    for page in (ana, ben):
        body = page.inner_text("body")
        for raw in ("{", "None", "null", "_"):
            assert raw not in body, (raw, body[max(body.find(raw) - 200, 0) :][:400])
