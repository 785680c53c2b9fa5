"""Browser tests: the real app served over HTTP, driven by Debian's Chromium through Playwright.

Fixtures:

* ``live_app`` / ``live_server``: ``web.create_app`` on a temporary instance folder (SQLite),
  served by werkzeug on ``127.0.0.1`` and a free port in a thread; ``live_server`` is the base
  URL.
* ``browser``: one headless Chromium for the session (``/usr/bin/chromium``; Playwright never
  downloads a browser here). Without it the browser tests are skipped, except under ``CI``,
  where that is an error.
* ``page``: a fresh browser context per test. A console error, an uncaught exception or a
  Content Security Policy violation fails the test, unless the test excuses it with
  ``console.allow(text)`` (fixture ``console``).
* ``screenshot(page, name, full_page=True)``: saves ``test-artifacts/screenshots/<name>.png``.

Mark browser tests ``@pytest.mark.browser``.
"""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from werkzeug.serving import make_server

from web import create_app
from web.extension import service

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from flask import Flask
    from playwright.sync_api import Browser, ConsoleMessage, Page

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def live_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """The app on a fresh SQLite instance folder, shared by the session's browser tests."""
    instance = tmp_path_factory.mktemp("browser") / "instance"
    app = create_app({"DEALERROOM_INSTANCE": str(instance), "TESTING": True})
    try:
        yield app
    finally:
        service(app).close()


@contextmanager
def served(app: Flask) -> Iterator[str]:
    """The base URL of ``app`` served by werkzeug in a thread, until the block ends."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def live_server(live_app: Flask) -> Iterator[str]:
    """The base URL of ``live_app`` served by werkzeug in a thread."""
    with served(live_app) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Headless Debian Chromium for the whole session."""
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing (apt-get install chromium); browser tests need it"
        if os.environ.get("CI"):
            pytest.fail(f"CI: {message}", pytrace=False)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


class Console:
    """What a page reported: console errors, uncaught exceptions, CSP violations."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.allowed: list[str] = []

    def allow(self, text: str) -> None:
        """Expect a problem containing ``text`` (a test provoking an error on purpose)."""
        self.allowed.append(text)

    def unexpected(self) -> list[str]:
        """The problems no ``allow`` covers."""
        return [p for p in self.problems if not any(a in p for a in self.allowed)]


@pytest.fixture
def console() -> Console:
    """The problems ``page`` reports; ``console.allow(text)`` excuses an expected one."""
    return Console()


@pytest.fixture
def pages(browser: Browser, live_server: str, console: Console) -> Iterator[Callable[..., Page]]:
    """``pages()`` opens a page in a fresh context of its own (its own cookies: one person).

    At 1280×900; ``pages(phone=True)`` a 390×844 touch phone; other keywords go to
    ``browser.new_context`` (``permissions=["notifications"]``, ``accept_downloads``,
    ``base_url`` for a server of the test's own...).

    Console errors, page errors and CSP violations of every page fail the test.
    """
    contexts = []

    def on_console(message: ConsoleMessage) -> None:
        # The browser asks for /favicon.ico by itself; no page of ours refers to it.
        if message.type == "error" and not message.location.get("url", "").endswith("/favicon.ico"):
            where = message.location.get("url")
            console.problems.append(f"console error: {message.text} ({where})")

    def open_page(*, phone: bool = False, **options: Any) -> Page:
        size = PHONE if phone else DESKTOP
        options.setdefault("base_url", live_server)
        context = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone, **options)
        contexts.append(context)
        page = context.new_page()
        page.on("console", on_console)
        page.on("pageerror", lambda error: console.problems.append(f"uncaught: {error}"))
        # The console reports a blocked resource; the event also catches a blocked eval or style.
        page.add_init_script(
            "document.addEventListener('securitypolicyviolation', (e) =>"
            " console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));"
        )
        page.set_default_timeout(15_000)
        return page

    try:
        yield open_page
    finally:
        for context in contexts:
            # A test's route handler may still be answering a poll when the test ends; its
            # answer then has nowhere to go, and that must not fail the next test.
            for open_page_ in context.pages:
                open_page_.unroute_all(behavior="ignoreErrors")
            context.unroute_all(behavior="ignoreErrors")
            context.close()
    if console.unexpected():
        pytest.fail("the page reported errors:\n" + "\n".join(console.unexpected()), pytrace=False)


@pytest.fixture
def page(pages: Callable[..., Page]) -> Page:
    """A page in a fresh context, watched as ``pages`` watches every page."""
    return pages()


@pytest.fixture
def screenshot() -> Callable[..., Path]:
    """``screenshot(page, name, full_page=True)`` saves ``<SCREENSHOTS>/<name>.png``."""

    def save(page: Page, name: str, *, full_page: bool = True) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return save
