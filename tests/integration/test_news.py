"""A match's news on both stores: its targets kept sealed, each record told once, nothing sealed.

The targets are stored encrypted and forgotten when the news is over; two services following
one store (two workers) tell each record once between them; and a complete match of every
game, played through the API while the leak test's hunt searches every message, never tells
a pick, salt, deal, seed or token before its disclosure.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy import select

from service.bootstrap import bootstrap
from service.simulate import load_scenario, run_scenario
from tests.conftest import SCENARIOS
from tests.integration.test_leaks import MATCHES, Hunt
from web.extension import replay_bundles
from web.news import News, compose, news
from web.news_post import TRIES, Delivery, Postman

if TYPE_CHECKING:
    from flask import Flask

    from service.bootstrap import Services
    from service.config import Settings

HOOK = "json://news.invalid/hook-5ecret"
OTHER = "discord://4242/tok3n-of-the-webhook"


@dataclass
class Inbox:
    """Targets that keep what is posted to them (no network)."""

    told: list[tuple[str, str, str]] = field(default_factory=list)  # url, title, body
    lock: threading.Lock = field(default_factory=threading.Lock)

    def open(self, url: str) -> _Kept:
        return _Kept(self, url)

    def bodies(self) -> list[str]:
        with self.lock:
            return [f"{title}\n{body}" for _, title, body in self.told]


@dataclass
class _Kept:
    inbox: Inbox
    url: str
    kind: str = "kept"

    def post(self, title: str, body: str) -> bool:
        with self.inbox.lock:
            self.inbox.told.append((self.url, title, body))
        return True


def _news(services: Services, inbox: Inbox) -> News:
    return News(
        services.room,
        services.targets,
        "https://dealerroom.example.org",
        postman=Postman(inbox.open, first_wait=0.01),
    )


def test_targets_are_kept_sealed_and_forgotten_once_the_news_is_over(services: Services) -> None:
    targets = services.targets
    mid = "0b9c3c1e-4b8a-4f3e-9a57-2d1c9f0e7a11"
    targets.keep(mid, [HOOK, OTHER])
    # Check they read back as given, and are followed from the first record.
    assert targets.urls(mid) == [HOOK, OTHER]
    assert targets.following() == [(mid, 0)]
    # Check the table holds them encrypted: no part of a URL in any column.
    with targets.engine.connect() as conn:
        rows = [str(value) for row in conn.execute(select(targets.table)) for value in row]
    assert not any(secret in value for value in rows for secret in ("5ecret", "tok3n", "news."))
    # Check the news moves on once from each position (a compare-and-set).
    assert targets.advance(mid, 0, 5)
    assert not targets.advance(mid, 0, 7)
    assert targets.following() == [(mid, 5)]
    # Check the end of the news forgets the targets.
    assert targets.advance(mid, 5, 9, done=True)
    assert targets.following() == []
    assert targets.urls(mid) == []
    assert not targets.advance(mid, 9, 10)


def test_a_match_s_news_is_told_once_by_two_services_on_one_store(
    services: Services, settings: Settings
) -> None:
    other = bootstrap(settings, bundles=replay_bundles())  # a second worker on the same store
    inbox = Inbox()
    first, second = _news(services, inbox), _news(other, inbox)
    try:
        scenario = load_scenario(SCENARIOS / "six-nimmt-classic.json")
        scenario = {**scenario, "options": {"start_points": 1}, "steps": scenario["steps"][:10]}
        played = run_scenario(services.room, scenario)
        mid = next(played)["match_id"]
        first.follow(mid, [HOOK, OTHER])
        # Both follow the match while it is played, each in its own thread.
        stop = threading.Event()

        def follow(follower: News) -> None:
            while not stop.is_set():
                follower.catch_up()

        threads = [threading.Thread(target=follow, args=(n,)) for n in (first, second)]
        for thread in threads:
            thread.start()
        for _ in played:
            pass
        stop.set()
        for thread in threads:
            thread.join()
        assert first.flush() and second.flush()
        # Check each message reached each target exactly once (in order within a worker:
        # the workers of one instance take turns on a lock file to follow, web.news says).
        records = services.room.records(mid)
        expected, over = compose(mid, records, 0, "https://dealerroom.example.org")
        assert over
        for url in (HOOK, OTHER):
            got = [(title, body) for to, title, body in inbox.told if to == url]
            assert sorted(got) == sorted((m.title, m.body) for m in expected)
        assert services.targets.following() == []
    finally:
        first.stop()
        second.stop()
        other.close()


def test_a_store_that_fails_skips_a_turn_with_one_plain_line(
    services: Services, caplog: pytest.LogCaptureFixture
) -> None:
    inbox = Inbox()
    follower = _news(services, inbox)
    created = services.room.create_match("vote", ["ana", "ben"])
    services.targets.keep(created["match_id"], [HOOK])  # no follower thread: the test drives it

    def broken(*args: Any) -> list[str]:
        raise RuntimeError(HOOK)

    services.targets.urls = broken  # type: ignore[method-assign]
    assert follower.catch_up() == 0
    lines = [r.getMessage() for r in caplog.records if r.name == "dealerroom.news"]
    assert lines == [f"news of match {created['match_id']}: skipped this turn (RuntimeError)"]
    assert services.targets.following() == [(created["match_id"], 0)]  # told next turn


class NewsHunt(Hunt):
    """The leak test's hunt, searching the match's news instead of every page."""

    inbox: Inbox

    def act(self, method: str, url: str, body: Any = None, **kw: Any) -> dict[str, Any]:
        if (method, url) == ("POST", "/api/matches"):
            body = {**body, "notify": [HOOK, OTHER]}
        return super().act(method, url, body, **kw)

    def probe(self, *, every_role: bool = False) -> None:
        del every_role
        assert news(self.app).flush()
        told = "\n".join(self.inbox.bodies())
        self.assert_clean(told, self.sealed(), "the news")


@pytest.mark.parametrize("game", list(MATCHES))
def test_no_sealed_pick_is_in_any_message_before_its_disclosure(
    game: str, store_app: tuple[Flask, str | None], caplog: pytest.LogCaptureFixture
) -> None:
    app, schema = store_app
    caplog.set_level(logging.DEBUG)
    inbox = Inbox()
    follower = news(app)
    follower.postman = Postman(inbox.open, first_wait=0.01)
    name, changes, steps = MATCHES[game]
    scenario = load_scenario(SCENARIOS / name)
    hunt = NewsHunt(
        app, {**scenario, **changes, "steps": scenario["steps"][:steps]}, caplog, schema
    )
    hunt.inbox = inbox
    try:
        # Check the news of the new match, then before each disclosure, then at the end.
        hunt.create()
        hunt.probe()
        hunt.play()
        hunt.probe()
        # Check the search saw the whole match: every message, to both targets.
        records = hunt.room.records(hunt.match_id)
        expected, over = compose(hunt.match_id, records, 0, "http://localhost:5000")
        assert over and len(inbox.told) == 2 * len(expected)
        kinds = {m.kind for m in expected}
        assert {"created", "opened", "resolved", "ended"} <= kinds
        # Check no log line shows a target.
        assert "5ecret" not in caplog.text and "tok3n" not in caplog.text
    finally:
        follower.stop()


def test_the_news_of_an_early_end_and_of_steps_without_deadline() -> None:
    created = {"game": "vote", "players": ["ana", "ben"], "name": "Friday night"}
    created["settings"] = {"auto_open": True, "auto_seal": True, "step_seconds": None}
    opened = {"step": 1, "kind": "vote", "submitters": ["ana", "ben"], "deadline": None}
    records = [
        {"seq": 0, "type": "MatchCreated", "at": "2026-11-21T20:00:00.000000Z", "data": created},
        {"seq": 1, "type": "SeedCommitted", "at": "2026-11-21T20:00:00.000000Z", "data": {}},
        {"seq": 2, "type": "StepOpened", "at": "2026-11-21T20:00:01.000000Z", "data": opened},
        {
            "seq": 3,
            "type": "MatchEnded",
            "at": "2026-11-21T20:03:00.000000Z",
            "data": {"reason": "the venue closed"},
        },
        {"seq": 4, "type": "MatchFinished", "at": "2026-11-21T20:03:00.000000Z", "data": {}},
    ]
    told, over = compose("m1", records, 2, "https://dr.example.org/")
    assert over
    assert [(m.kind, m.title) for m in told] == [
        ("opened", "Friday night (Hidden vote): step 1 is open"),
        ("ended", "Friday night (Hidden vote): the match was ended early"),
    ]
    assert told[0].body == (
        "Step 1 is open for ana and ben. It has no deadline: it is sealed once everyone has "
        "submitted. The table: https://dr.example.org/matches/m1?at=2"
    )
    assert told[1].body.startswith("The host ended the match early: the venue closed.")
    assert told[1].body.endswith("check the match at https://dr.example.org/matches/m1")


def test_a_target_given_up_on_is_tried_once_a_message_until_it_takes_one_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    tries: list[str] = []
    down = threading.Event()
    down.set()

    @dataclass
    class Flaky:
        kind: str = "flaky"

        def post(self, title: str, body: str) -> bool:
            del body
            tries.append(title)
            return not down.is_set()

    postman = Postman(lambda _url: Flaky(), first_wait=0.01)
    try:
        # Check a target that is down: 4 tries of the first message, one of each next one.
        postman.post(Delivery("m1", 1, HOOK, f"message {n}", "") for n in range(3))
        assert postman.wait_idle(10)
        assert tries == ["message 0"] * TRIES + ["message 1", "message 2"]
        # Check it is back: the next message is taken and said so, then all go as usual.
        down.clear()
        postman.post(Delivery("m1", 1, HOOK, f"message {n}", "") for n in range(3, 5))
        assert postman.wait_idle(10)
        assert tries[-2:] == ["message 3", "message 4"]
        lines = [r.getMessage() for r in caplog.records if r.name == "dealerroom.news"]
        given_up = (
            f"news of match m1: target 1 (flaky) failed {TRIES} times; a message was dropped, "
            "and the next ones are tried once each until it takes one"
        )
        assert lines == [given_up, "news of match m1: target 1 (flaky) takes messages again"]
    finally:
        postman.stop()
