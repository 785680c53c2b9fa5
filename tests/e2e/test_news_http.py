"""News where players are, end to end: a match's news posted to a receiver on loopback.

The receiver is a tiny HTTP server in a thread, given to the match as apprise's ``json://``
target; it collects what apprise posts (``{"title", "message", "type", ...}``). A match of
6 nimmt! (the first round of the classic scenario, made the whole match by a low start) is
played through the API, and each message is checked: the step opening with its deadline,
everyone having submitted, the decision waiting on cai, each step's account with a link to
its picture, the result. Beside it: bad ``notify`` input is a 400 that creates nothing; the
targets (their webhook secret) appear in no answer, page, bundle or log line; a failing
target is retried, given up with one plain log line, and never holds up the match.
"""

from __future__ import annotations

import json
import logging
import re
import time
from typing import TYPE_CHECKING, Any

import pytest

from service.config import ConfigError
from service.simulate import load_scenario
from tests.actions import bearer, claim_seats
from tests.conftest import SCENARIOS
from tests.news_receiver import HOOK_PATH, Receiver
from tests.roomy import roomy_app
from web.extension import services
from web.news import news
from web.news_post import TRIES, Postman

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from flask import Flask

PUBLIC = "https://dealerroom.example.org"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """The app with local targets allowed (the receiver is on loopback) and quick retries."""
    made = roomy_app(
        tmp_path / "instance",
        DEALERROOM_NOTIFY_LOCAL="1",
        DEALERROOM_PUBLIC_URL=PUBLIC + "/",
    )
    news(made).postman = Postman(first_wait=0.05)
    try:
        yield made
    finally:
        services(made).close()


def _scenario() -> dict[str, Any]:
    """6 nimmt!'s first round as a whole match (a start of 1 point ends it after the round)."""
    scenario = load_scenario(SCENARIOS / "six-nimmt-classic.json")
    return {**scenario, "options": {"start_points": 1}, "steps": scenario["steps"][:10]}


def _create(app: Flask, scenario: dict[str, Any], notify: list[str]) -> dict[str, Any]:
    body = {
        "game": scenario["game"],
        "players": scenario["players"],
        "options": scenario["options"],
        "auto_open": False,
        "auto_seal": False,
        "notify": notify,
    }
    answer = app.test_client().post("/api/matches", json=body)
    assert answer.status_code == 201, answer.get_json()
    made: dict[str, Any] = answer.get_json()
    made["tokens"] = {"host": made["host_token"], **claim_seats(app.test_client(), made)}
    return made


def _play(app: Flask, made: dict[str, Any], scenario: dict[str, Any]) -> None:
    """Every step through the API: open (5 minutes), submit, seal, answer the decisions."""
    client, tokens = app.test_client(), made["tokens"]
    url = f"/api/matches/{made['match_id']}"

    def post(path: str, role: str, body: Any = None, expect: int = 200) -> Any:
        started = time.monotonic()
        answer = client.post(url + path, json=body, headers=bearer(tokens[role]))
        assert answer.status_code == expect, (path, answer.get_json())
        assert time.monotonic() - started < 2.0, f"{path} was held up"
        return answer.get_json()

    for step in scenario["steps"]:
        opening: dict[str, Any] = {"seconds": 300}
        if step.get("deal"):
            opening["deal"] = step["deal"]
        post("/steps", "host", opening, 201)
        for player, payload in step["submit"].items():
            post(f"/players/{player}/submissions", player, {"payload": payload}, 201)
        status = post("/seal", "host")["status"]
        while status["step"]["decision"]:
            asked = status["step"]["decision"]["player"]
            choice = (step.get("decide") or {}).get(asked)
            if choice is None:
                status = post("/decisions/default", "host")["status"]
            else:
                status = post(f"/players/{asked}/decisions", asked, {"payload": choice})["status"]
    assert status["finished"]


def test_every_moment_of_a_match_reaches_a_receiver_on_loopback(
    app: Flask, receiver: Receiver
) -> None:
    scenario = _scenario()
    made = _create(app, scenario, [receiver.url()])
    mid = made["match_id"]
    _play(app, made, scenario)
    assert news(app).flush()
    records = app.test_client().get(f"/api/matches/{mid}/records").get_json()
    posts = receiver.posts
    titles = [p["title"] for p in posts]
    # Check every post is apprise's JSON, an info message, to the target's own path.
    assert all(p["type"] == "info" and p["message"] for p in posts)
    assert set(receiver.paths) == {f"/{HOOK_PATH}"}
    # Check the news in the order of the log: a new match, then each step's moments.
    kinds = [
        "a new match" if t.endswith("a new match") else t.split(": ", 1)[1].split(" ")[0]
        for t in titles
    ]
    assert kinds[0] == "a new match" and titles[-1] == "6 nimmt!: the match is over"
    expected_titles = ["6 nimmt!: a new match"]
    for record in records:
        data = record["data"]
        if record["type"] == "StepOpened":
            expected_titles.append(f"6 nimmt!: step {data['step']} is open")
            expected_titles.append(f"6 nimmt!: everyone has submitted for step {data['step']}")
        elif record["type"] == "DecisionRequested":
            expected_titles.append(f"6 nimmt!: waiting for {data['player']} to decide")
        elif record["type"] == "StepResolved":
            expected_titles.append(f"6 nimmt!: step {data['step']} resolved")
    expected_titles.append("6 nimmt!: the match is over")
    assert titles == expected_titles
    by_title: dict[str, str] = {}
    for post in posts:
        by_title.setdefault(post["title"], post["message"])  # the first of each
    # Check a new match says who plays and where to follow it.
    assert by_title["6 nimmt!: a new match"] == (
        f"ana, ben and cai play 6 nimmt!. Follow the match, step by step, at {PUBLIC}/matches/{mid}"
    )
    # Check each opening: its deadline in plain words and in UTC, and its table.
    for record in (r for r in records if r["type"] == "StepOpened"):
        text = by_title[f"6 nimmt!: step {record['data']['step']} is open"]
        deadline = re.fullmatch(
            r"(\d{4}-\d\d-\d\d)T(\d\d:\d\d):(\d\d).*", record["data"]["deadline"]
        )
        assert deadline is not None
        clock = deadline[2] if deadline[3] == "00" else f"{deadline[2]}:{deadline[3]}"
        assert f"It closes in 5 minutes, at {clock} UTC on {deadline[1]}" in text
        turn = f"round 1, turn {record['data']['step']} of 10"
        assert text.startswith(
            f"Step {record['data']['step']} ({turn}) is open for ana, ben and cai."
        )
        assert text.endswith(f"The table: {PUBLIC}/matches/{mid}?at={record['seq']}")
    assert "The rows start with 7, 40, 14, 61." in by_title["6 nimmt!: step 1 is open"]
    # Check everyone having submitted names them, and nothing of their picks.
    submitted = by_title["6 nimmt!: everyone has submitted for step 1"]
    assert submitted.startswith("Everyone has submitted for step 1: ana, ben and cai.")
    assert not re.search(r"\b(22|11|101)\b", submitted)
    # Check the decision: who, what, and the default if cai does not decide in time.
    decision = by_title["6 nimmt!: waiting for cai to decide"]
    assert decision.startswith("Waiting for cai to choose a row to take: cai's 6 is lower")
    assert "If cai has not decided in 5 minutes, at " in decision
    assert "will go to cai" in decision
    # Check each resolution: its account in words and the link to its picture.
    resolved = [r for r in records if r["type"] == "StepResolved"]
    first = by_title["6 nimmt!: step 1 resolved"]
    assert "Revealed: ana 22, ben 11, cai 101." in first
    assert "ben's 11 went to row 0 (after 7)." in first
    assert first.endswith(f"The picture: {PUBLIC}/matches/{mid}?at={resolved[0]['seq']}")
    assert "cai chose row 1" in by_title["6 nimmt!: step 2 resolved"]
    # Check the end: the result in words, and where to check every pick.
    end = by_title["6 nimmt!: the match is over"]
    assert " wins with " in end or " share the win " in end
    assert end.endswith(f"check the match at {PUBLIC}/matches/{mid}")
    # Check no salt (the pick's secret half) is in any message, even after the end.
    salts = [r["data"]["salt"] for r in records if r["type"] == "SubmissionRevealed"]
    assert salts and not any(s in p["message"] for s in salts for p in posts)
    # Check the news is over: the targets are forgotten, nothing more is posted.
    assert news(app).targets.following() == []
    assert news(app).targets.urls(mid) == []


def test_bad_notify_input_is_a_clear_400_and_creates_nothing(app: Flask) -> None:
    client = app.test_client()
    body = {"game": "vote", "players": ["ana", "ben"]}
    cases = {
        "not a list": ("json://hooks.invalid/x", "'notify' must be a list of apprise URLs"),
        "six URLs": ([f"json://hooks.invalid/{n}" for n in range(6)], "at most 5 URLs; it has 6"),
        "too long": (["json://hooks.invalid/" + "x" * 490], "notify URL 1 is longer than 500"),
        "not text": (["json://hooks.invalid/a", 7], "notify URL 2 must be an apprise URL"),
        "empty": ([" "], "notify URL 1 must be an apprise URL"),
        "not apprise": (["ftp://hooks.invalid/x"], "notify URL 1 is not an apprise URL"),
        "not a URL": (["hello there"], "notify URL 1 is not an apprise URL"),
    }
    for name, (notify, words) in cases.items():
        answer = client.post("/api/matches", json={**body, "notify": notify})
        assert answer.status_code == 400, name
        message = answer.get_json()["error"]
        assert words in message, (name, message)
        assert "hooks.invalid" not in message  # a URL is never repeated back
    assert client.get("/api/matches").get_json() == []


def test_targets_on_this_machine_are_refused_unless_allowed(tmp_path: Path) -> None:
    closed = roomy_app(tmp_path / "instance")
    try:
        client = closed.test_client()
        for url in (
            "json://127.0.0.1:9/hook",
            "json://localhost/hook",
            "jsons://[::1]/hook",
            "json://10.1.2.3/hook",
            "json://169.254.169.254/latest",
            "json://127.1/hook",
            "json://2130706433/hook",
            "json://0x7f000001/hook",
            "json://0/hook",
            "syslog://",
        ):
            answer = client.post(
                "/api/matches", json={"game": "vote", "players": ["ana", "ben"], "notify": [url]}
            )
            assert answer.status_code == 400, url
            error = answer.get_json()["error"]  # (apprise itself refuses 127.1 and 0)
            assert "this machine or a private network" in error or "not an apprise URL" in error
        public = [
            "discord://1234567890123456789/abcdef",
            "tgram://123456:abc/42",
            "json://chat.example.org/hook",
        ]
        answer = client.post(
            "/api/matches", json={"game": "vote", "players": ["ana", "ben"], "notify": public}
        )
        assert answer.status_code == 201
    finally:
        services(closed).close()


def test_the_targets_stay_private_to_the_host(
    app: Flask, receiver: Receiver, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    scenario = _scenario()
    made = _create(app, scenario, [receiver.url(), "discord://4242/tok3n-of-the-webhook"])
    mid = made["match_id"]
    _play(app, made, scenario)
    news(app).flush()
    client = app.test_client()
    host = {"Authorization": f"Bearer {made['host_token']}"}
    # Check the answer of the creation, every public read, the pages and the bundle.
    reads = [
        f"/api/matches/{mid}",
        f"/api/matches/{mid}/records",
        f"/api/matches/{mid}/state",
        f"/api/matches/{mid}/bundle",
        "/api/matches",
        f"/matches/{mid}",
        f"/matches/{mid}/host",
        "/",
    ]
    bodies = [json.dumps(made)]
    bodies += [client.get(url, headers=host).get_data(as_text=True) for url in reads]
    bodies.append(caplog.text)
    for secret in (HOOK_PATH, "tok3n-of-the-webhook", f"127.0.0.1:{receiver.port}"):
        for body in bodies:
            assert secret not in body
    assert "notify" not in client.get(f"/api/matches/{mid}").get_json()


def test_a_failing_target_is_retried_given_up_and_never_holds_up_the_match(
    app: Flask, receiver: Receiver, caplog: pytest.LogCaptureFixture
) -> None:
    failing = Receiver(status=500)
    slow = Receiver(delay=0.6)
    dead = Receiver()
    dead_url = dead.url("dead-" + HOOK_PATH)
    dead.close()  # nothing listens there any more
    caplog.set_level(logging.DEBUG)
    try:
        notify = [dead_url, failing.url("failing-" + HOOK_PATH), slow.url(), receiver.url()]
        made = _create(app, {"game": "vote", "players": ["ana", "ben"], "options": {}}, notify)
        mid = made["match_id"]
        vote = {"steps": [{"submit": {"ana": {"vote": "ben"}, "ben": {"vote": "ben"}}}]}
        _play(app, made, vote)  # each request answered at once (checked in _play)
        assert news(app).flush(timeout=30)
        told = len(receiver.posts)
        # Check the good targets got every message, the slow one too, in the same order.
        assert told == 5  # new match, open, everyone submitted, resolved, over
        assert [p["title"] for p in slow.posts] == [p["title"] for p in receiver.posts]
        # Check a failing target was tried a few times, given up with one plain line, and
        # then tried once a message (a target that is down builds no backlog of retries).
        assert failing.tried == TRIES + told - 1
        lines = [r.getMessage() for r in caplog.records if r.name == "dealerroom.news"]
        assert (
            lines.count(
                f"news of match {mid}: target 2 (JSON) failed {TRIES} times; a message was "
                "dropped, and the next ones are tried once each until it takes one"
            )
            == 1
        )
        assert sum(f"target 1 (JSON) failed {TRIES} times" in line for line in lines) == 1
        assert len(lines) == 2
        # Check no log line of any logger shows a target's address or secret.
        for secret in (HOOK_PATH, *(f"127.0.0.1:{r.port}" for r in (failing, dead, slow))):
            assert secret not in caplog.text
    finally:
        failing.close()
        slow.close()


def test_the_news_of_a_match_that_runs_itself_and_is_ended_early(
    app: Flask, receiver: Receiver
) -> None:
    client = app.test_client()
    body = {"game": "six-nimmt", "players": ["ana", "ben", "cai"], "name": "Friday night"}
    answer = client.post("/api/matches", json={**body, "notify": [receiver.url()]})
    assert answer.status_code == 201
    made = answer.get_json()
    mid = made["match_id"]
    tokens = claim_seats(client, made)  # the last claim opens step 1 (a 5-minute deadline)
    url = f"/api/matches/{mid}"
    hand = client.get(f"{url}/players/ana", headers=bearer(tokens["ana"])).get_json()
    card = min(hand["view"]["hand"])
    sent = client.post(
        f"{url}/players/ana/submissions", json={"payload": {"card": card}},
        headers=bearer(tokens["ana"]),
    )  # fmt: skip
    assert sent.status_code == 201
    # Check a pick alone is no news (ben and cai have not submitted; the card stays sealed).
    assert news(app).flush()
    assert len(receiver.posts) == 2
    ended = client.post(
        f"{url}/end", json={"reason": "the venue closed"}, headers=bearer(made["host_token"])
    )
    assert ended.status_code == 200
    assert news(app).flush()
    # Check the news: the match by its name, the step opened by itself, the early end.
    assert [p["title"] for p in receiver.posts] == [
        "Friday night (6 nimmt!): a new match",
        "Friday night (6 nimmt!): step 1 is open",
        "Friday night (6 nimmt!): the match was ended early",
    ]
    opened, end = receiver.posts[1]["message"], receiver.posts[2]["message"]
    assert "It closes in 5 minutes, at " in opened
    assert opened.startswith("Step 1 (round 1, turn 1 of 10) is open for ana, ben and cai.")
    assert end.startswith("The host ended the match early: the venue closed.")
    assert end.endswith(f"check the match at {PUBLIC}/matches/{mid}")
    assert news(app).targets.following() == []


def test_a_public_url_that_is_not_an_address_stops_the_start(tmp_path: Path) -> None:
    for bad in ("dealerroom.example.org", "ftp://example.org", "https://example.org/?a=1"):
        with pytest.raises(ConfigError, match="DEALERROOM_PUBLIC_URL must be the service's"):
            roomy_app(tmp_path / "instance", DEALERROOM_PUBLIC_URL=bad)
