"""What the dealer-room browser tests share: the host's API actions and a player's first visit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from playwright.sync_api import expect

from tests.actions import bearer

if TYPE_CHECKING:
    from collections.abc import Callable

    from flask import Flask
    from playwright.sync_api import Page

    NewPage = Callable[..., Page]


def host_creates(app: Flask, game: str, players: list[str], **extra: Any) -> dict[str, Any]:
    """The host creates a match through the API; the seats stay unclaimed (invites out).

    The match runs by hand (``auto_open`` and ``auto_seal`` false) unless ``extra`` says
    otherwise: the test opens and seals its steps itself.
    """
    body = {"game": game, "players": players, "auto_open": False, "auto_seal": False, **extra}
    answer = app.test_client().post("/api/matches", json=body)
    assert answer.status_code == 201, answer.get_json()
    made: dict[str, Any] = answer.get_json()
    return made


def host_does(app: Flask, made: dict[str, Any], action: str, **body: Any) -> dict[str, Any]:
    """The host opens a step (``steps``) or seals it (``seal``) through the API."""
    answer = app.test_client().post(
        f"/api/matches/{made['match_id']}/{action}", json=body, headers=bearer(made["host_token"])
    )
    assert answer.status_code in {200, 201}, answer.get_json()
    result: dict[str, Any] = answer.get_json()
    return result


def enter(pages: NewPage, made: dict[str, Any], player: str, **options: Any) -> Page:
    """The player opens their invite link in a browser of their own."""
    page = pages(**options)
    page.goto(f"/matches/{made['match_id']}/players/{player}#invite={made['invites'][player]}")
    expect(page.locator("#banner")).not_to_have_text("Loading your room…")
    return page


def assert_phone_fits(page: Page) -> None:
    """No sideways scroll at 390 px, and every visible button at least 44 px each way."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    small = page.evaluate(
        """() => [...document.querySelectorAll('#room button')]
             .filter((b) => b.offsetParent !== null && !b.classList.contains('hit'))
             .map((b) => [b.textContent.trim() || b.getAttribute('aria-label'),
                          b.getBoundingClientRect().width, b.getBoundingClientRect().height])
             .filter(([, w, h]) => w < 44 || h < 44)"""
    )
    assert small == []
