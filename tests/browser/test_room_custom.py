"""A custom game played by clicking: the form built from the host's design, the host's verdict.

The host designs a two-round game judged by the host (a number from a stepper and a city
from buttons, an optional comment); two players fill the form by clicking (one on a phone),
and the host declares each round's winners in the console from the revealed picks, with a
note everyone reads. The room shows the title, the round, the winners so far and the points.
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
    from playwright.sync_api import Page

    Shooter = Callable[..., Path]
    NewPage = Callable[..., Page]

pytestmark = pytest.mark.browser

DESIGN = {
    "title": "Pun night",
    "rounds": 2,
    "fields": [
        {"name": "guess", "kind": "integer", "min": 1, "max": 5},
        {"name": "city", "kind": "choice", "choices": ["Paris", "Rome", "Oslo"]},
        {"name": "comment", "kind": "text", "max_length": 20, "optional": True},
    ],
    "resolver": {"kind": "host"},
}
SEND = re.compile("^Seal and send")


def send(page: Page, expected: str) -> None:
    page.get_by_role("button", name=SEND).click()
    expect(page.locator("#pick-result")).to_contain_text("Sealed.")
    expect(page.locator("#pick-words")).to_have_text(expected)


def declare(host: Page, winners: list[str], note: str) -> None:
    form = host.locator("#declare-form")
    expect(form).to_be_visible(timeout=10_000)
    for winner in winners:
        host.get_by_role("button", name=f"winner {winner}").click()
    host.get_by_label("A note for everyone (optional)").fill(note)
    host.get_by_role("button", name="Declare the winners").click()
    expect(host.locator("#host-result")).to_contain_text("You declared")
    expect(form).to_be_hidden()


def test_a_custom_game_is_played_by_clicking_and_judged_by_the_host(
    live_app: Flask, pages: NewPage, screenshot: Shooter
) -> None:
    made = host_creates(live_app, "custom", ["ana", "ben"], options=DESIGN)
    host = pages()
    host.goto(f"/matches/{made['match_id']}/host#{made['host_token']}")
    expect(host.locator("#host-status")).not_to_have_text("Loading…")
    ana = enter(pages, made, "ana")
    ben = enter(pages, made, "ben", phone=True)
    host_does(live_app, made, "steps", seconds=600)

    # Round 1: ana steps her number up and taps a city; the form is complete only then.
    expect(ana.locator("#banner")).to_contain_text("Your turn")
    expect(ana.locator("#seat-words")).to_contain_text("Round 1 of 2.")
    expect(ana.get_by_role("button", name=SEND)).to_be_disabled()
    ana.get_by_role("button", name="one more for guess").click()
    ana.get_by_role("button", name="one more for guess").click()
    expect(ana.get_by_label("number for guess")).to_have_value("2")
    expect(ana.locator("#pick-words")).to_have_text("Choose city.")
    ana.get_by_role("button", name="choice Paris").click()
    ana.get_by_label("text for comment").fill("pâté")
    expect(ana.locator(".cf-counter")).to_have_text("4 of 20 characters")
    screenshot(ana, "room-custom-form-desktop")
    send(ana, "You pick guess 2, city Paris, comment “pâté”.")

    # ben types his number on a phone, taps Rome and skips the comment.
    ben.get_by_label("number for guess").fill("9")
    expect(ben.locator(".cf-field.cf-integer .cf-note")).to_have_text(
        "guess is a whole number from 1 to 5."
    )
    ben.get_by_label("number for guess").fill("4")
    ben.get_by_role("button", name="choice Rome").click()
    ben.get_by_role("button", name="skip comment").click()
    assert_phone_fits(ben)
    screenshot(ben, "room-custom-form-phone")
    send(ben, "You pick guess 4, city Rome, comment left empty.")

    # The host seals; the rules wait on the host's declaration, shown with the picks.
    host_does(live_app, made, "seal")
    expect(ana.locator("#banner")).to_have_text(
        "Waiting for the host to declare the winners of round 1.", timeout=10_000
    )
    # The step asks nothing more of ana: her panel says so instead of standing empty.
    expect(ana.locator("#step-idle")).to_have_text(
        "Your pick for this step is sealed. Nothing to do until the step moves on."
    )
    expect(host.locator("#declare-picks")).to_contain_text("ana: guess 2; city Paris; comment pâté")
    expect(host.locator("#declare-picks")).to_contain_text("ben: guess 4; city Rome")
    host.get_by_role("button", name="winner ben").click()
    expect(host.locator("#declare-what")).to_have_text("You will declare ben the winner.")
    # The default (nobody wins) stays at hand, but quiet beside the declaration itself.
    default = host.get_by_role("button", name="Apply the default decision: nobody wins round 1.")
    expect(default).to_be_visible()
    expect(default).to_have_class(re.compile(r"\bquiet\b"))
    screenshot(host, "host-custom-declare-desktop")
    host.get_by_role("button", name="winner ben").click()  # changed their mind: untoggle
    declare(host, ["ana"], "best pun")

    expect(ana.locator("#yours")).to_contain_text("You won round 1 and gain 1 point.")
    expect(ben.locator("#last-step")).to_contain_text(
        "Round 1: the host declared ana the winner: “best pun”."
    )
    expect(ben.locator("#seat-words")).to_contain_text("Points: ana 1, ben 0.")

    # Round 2: nobody wins.
    host_does(live_app, made, "steps", seconds=600)
    ana.get_by_role("button", name="one less for guess").click()  # empty: starts at the top
    expect(ana.get_by_label("number for guess")).to_have_value("5")
    ana.get_by_role("button", name="choice Oslo").click()
    send(ana, "You pick guess 5, city Oslo, comment left empty.")
    ben.get_by_role("button", name="one more for guess").click()
    ben.get_by_role("button", name="choice Oslo").click()
    ben.get_by_label("text for comment").fill("tie?")
    send(ben, "You pick guess 1, city Oslo, comment “tie?”.")
    host_does(live_app, made, "seal")
    declare(host, [], "no puns this time")

    for page in (ana, ben):
        expect(page.locator("#banner")).to_contain_text("The match is over.")
    expect(ana.locator("#result-words")).to_contain_text("ana wins the match with 1 point.")
    expect(ben.locator("#seat-words")).to_contain_text(
        "Winners so far: round 1: ana · round 2: nobody."
    )
    expect(host.locator("#host-status")).to_contain_text("Finished")
    screenshot(ana, "room-custom-result-desktop")
    screenshot(ben, "room-custom-result-phone")
    screenshot(host, "host-custom-result-desktop")
    assert_phone_fits(ben)
    for page in (ana, ben):
        body = page.inner_text("body")
        assert "{" not in body and "None" not in body and "null" not in body, body


VOTE_DESIGN = {
    "title": "Player of the night",
    "rounds": 1,
    "fields": [
        {"name": "best", "kind": "player", "self": False},
        {"name": "podium", "kind": "ranking", "choices": ["wit", "luck", "nerve"], "length": 2},
    ],
    "resolver": {"kind": "plurality", "field": "best"},
}


def test_a_player_vote_with_a_ranking_is_played_by_tapping(
    live_app: Flask, pages: NewPage, screenshot: Shooter
) -> None:
    made = host_creates(live_app, "custom", ["ana", "ben", "cai"], options=VOTE_DESIGN)
    ana = enter(pages, made, "ana")
    ben = enter(pages, made, "ben", phone=True)
    host_does(live_app, made, "steps", seconds=600)
    expect(ana.locator("#banner")).to_contain_text("Your turn")

    # A player field offers the other players only (self: false), one button each.
    expect(ana.get_by_role("button", name="player ana")).to_have_count(0)
    ana.get_by_role("button", name="player ben").click()
    expect(ana.get_by_role("button", name="player ben")).to_have_attribute("aria-pressed", "true")
    # Tap-to-rank: taps give the order; undo takes the last back; two places complete it.
    ana.get_by_role("button", name="rank luck").click()
    ana.get_by_role("button", name="undo podium").click()
    ana.get_by_role("button", name="rank wit").click()
    ana.get_by_role("button", name="rank nerve").click()
    expect(ana.get_by_label("your order for podium")).to_contain_text("wit")
    send(ana, "You pick best ben, podium wit, then nerve.")

    ben.get_by_role("button", name="player cai").click()
    ben.get_by_role("button", name="rank nerve").click()
    ben.get_by_role("button", name="clear podium").click()
    ben.get_by_role("button", name="rank luck").click()
    ben.get_by_role("button", name="rank wit").click()
    assert_phone_fits(ben)
    screenshot(ben, "room-custom-ranking-phone")
    send(ben, "You pick best cai, podium luck, then wit.")

    cai = enter(pages, made, "cai")
    cai.get_by_role("button", name="player ben").click()
    cai.get_by_role("button", name="rank wit").click()
    cai.get_by_role("button", name="rank luck").click()
    send(cai, "You pick best ben, podium wit, then luck.")

    host_does(live_app, made, "seal")
    expect(ben.locator("#banner")).to_contain_text("The match is over.", timeout=10_000)
    # Plurality: ben was named most, so everyone who named ben wins the round (ana, cai).
    expect(ben.locator("#yours")).to_contain_text("You did not win round 1.")
    expect(ana.locator("#yours")).to_contain_text("You won round 1")
    expect(ana.locator("#result-words")).to_contain_text("ana and cai")
    screenshot(ana, "room-custom-ranking-result-desktop")
