"""The API of a match that runs itself and of an early end.

``POST /api/matches`` takes ``name``, ``auto_open`` and ``auto_seal`` (true by default) and
``step_seconds`` (300 by default, 30..86400 or null), each refused in words when wrong;
``POST /api/matches/<id>/end`` (the host's) ends a match early with a reason; the status
says the name, the settings, the early end and a waiting decision's default.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from replay.bundle import load_bundle
from replay.verify import verify_bundle
from service.simulate import load_scenario
from tests.actions import bearer, claim_seats
from tests.conftest import SCENARIOS
from tests.roomy import roomy_app
from web.extension import service

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from flask import Flask
    from flask.testing import FlaskClient

PLAYERS = ["ana", "ben", "cai"]


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    made = roomy_app(tmp_path / "instance")
    yield made
    service(made).close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def create(client: FlaskClient, **body: Any) -> Any:
    return client.post("/api/matches", json={"game": "vote", "players": PLAYERS, **body})


def status_of(client: FlaskClient, mid: str) -> dict[str, Any]:
    answer = client.get(f"/api/matches/{mid}")
    assert answer.status_code == 200
    status: dict[str, Any] = answer.get_json()
    return status


def end(client: FlaskClient, made: dict[str, Any], body: Any) -> Any:
    return client.post(
        f"/api/matches/{made['match_id']}/end", json=body, headers=bearer(made["host_token"])
    )


# --- Creating a match that runs itself ------------------------------------------------------


def test_a_new_match_runs_itself_by_default(client: FlaskClient) -> None:
    answer = create(client, name="  Friday night  ")
    assert answer.status_code == 201
    made = answer.get_json()
    mid = made["match_id"]
    # 1. The settings are public, in the first record and in the status.
    settings = {"auto_open": True, "auto_seal": True, "step_seconds": 300}
    created = client.get(f"/api/matches/{mid}/records").get_json()[0]["data"]
    assert created["name"] == "Friday night" and created["settings"] == settings
    status = status_of(client, mid)
    assert status["name"] == "Friday night" and status["settings"] == settings
    assert status["ended"] is None and status["step"] is None
    # 2. Every seat claimed: step 1 opens by itself with a deadline 300 s on.
    tokens = claim_seats(client, made)
    step = status_of(client, mid)["step"]
    assert step["number"] == 1 and step["status"] == "open" and step["deadline"]
    # 3. Everyone votes: the step seals by itself and the match finishes.
    for player, token in tokens.items():
        url = f"/api/matches/{mid}/players/{player}/submissions"
        assert (
            client.post(url, json={"payload": {"vote": "ben"}}, headers=bearer(token)).status_code
            == 201
        )
    assert status_of(client, mid)["finished"]


def test_the_settings_can_be_turned_off_and_the_deadline_dropped(client: FlaskClient) -> None:
    answer = create(client, auto_open=False, auto_seal=False, step_seconds=None)
    assert answer.status_code == 201
    made = answer.get_json()
    claim_seats(client, made)
    status = status_of(client, made["match_id"])
    assert status["settings"] == {"auto_open": False, "auto_seal": False, "step_seconds": None}
    assert status["step"] is None  # the host opens the first step


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"name": "x" * 81}, "'name' is at most 80 characters"),
        ({"name": 7}, "'name' must be text"),
        ({"name": "bell\u0007"}, "control character"),
        ({"auto_open": "yes"}, "'auto_open' must be true or false"),
        ({"auto_seal": 1}, "'auto_seal' must be true or false"),
        ({"step_seconds": 29}, "'step_seconds' is a whole number of seconds from 30 to 86400"),
        ({"step_seconds": 86401}, "from 30 to 86400"),
        ({"step_seconds": "300"}, "from 30 to 86400"),
        ({"step_seconds": True}, "from 30 to 86400"),
        ({"step_seconds": 60.5}, "from 30 to 86400"),
        ({"step_seconds": 10**400}, "from 30 to 86400"),
    ],
)
def test_bad_settings_are_refused_in_words(
    client: FlaskClient, body: dict[str, Any], words: str
) -> None:
    answer = create(client, **body)
    assert answer.status_code == 400
    assert words in answer.get_json()["error"]
    assert client.get("/api/matches").get_json() == []


def test_a_blank_name_is_no_name(client: FlaskClient) -> None:
    made = create(client, name="   ").get_json()
    assert status_of(client, made["match_id"])["name"] == ""


# --- Ending a match early -------------------------------------------------------------------


def test_the_host_ends_a_match_early_and_everything_is_disclosed(client: FlaskClient) -> None:
    made = create(client).get_json()
    mid = made["match_id"]
    tokens = claim_seats(client, made)
    ana = bearer(tokens["ana"])
    client.post(
        f"/api/matches/{mid}/players/ana/submissions",
        json={"payload": {"vote": "cai"}},
        headers=ana,
    )
    # 1. The host ends it, with a reason.
    answer = end(client, made, {"reason": "  ben's train is leaving  "})
    assert answer.status_code == 200, answer.get_json()
    ended = answer.get_json()["status"]["ended"]
    assert ended["reason"] == "ben's train is leaving" and ended["at"]
    assert status_of(client, mid)["ended"] == ended
    # 2. Ana's sealed vote is public now, and the seed.
    records = client.get(f"/api/matches/{mid}/records").get_json()
    kinds = [r["type"] for r in records]
    assert kinds[kinds.index("MatchEnded") :] == [
        "MatchEnded",
        "SubmissionRevealed",
        "SeedRevealed",
    ]
    assert records[kinds.index("SubmissionRevealed")]["data"]["payload"] == {"vote": "cai"}
    # 3. Everything after answers 409 in words.
    bob = client.post(
        f"/api/matches/{mid}/players/ben/submissions",
        json={"payload": {"vote": "ana"}},
        headers=bearer(tokens["ben"]),
    )
    assert bob.status_code == 409 and bob.get_json()["error"] == "the match has ended"
    again = end(client, made, {"reason": "twice"})
    assert again.status_code == 409 and again.get_json()["error"] == "the match has ended"
    seal = client.post(f"/api/matches/{mid}/seal", headers=bearer(made["host_token"]))
    assert seal.status_code == 409
    # 4. The bundle verifies, with nothing pending.
    bundle = load_bundle(client.get(f"/api/matches/{mid}/bundle").get_data())
    verdict = verify_bundle(bundle)
    assert verdict.ok and verdict.complete, str(verdict)
    # 5. The match list says it ended.
    listed = {m["match_id"]: m for m in client.get("/api/matches").get_json()}
    assert listed[mid]["status"] == "ended"


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({}, 400, "'reason' is required"),
        ({"reason": ""}, 400, "'reason' is text of 1 to 300 characters"),
        ({"reason": "   "}, 400, "'reason' is text of 1 to 300 characters"),
        ({"reason": "x" * 301}, 400, "1 to 300 characters"),
        ({"reason": ["why"]}, 400, "'reason' must be text"),
        ({"reason": "bell\u0007"}, 400, "control character"),
    ],
)
def test_an_end_without_a_good_reason_is_refused(
    client: FlaskClient, body: dict[str, Any], status: int, words: str
) -> None:
    made = create(client).get_json()
    answer = end(client, made, body)
    assert answer.status_code == status
    assert words in answer.get_json()["error"]
    assert status_of(client, made["match_id"])["ended"] is None


def test_a_player_cannot_end_the_match(client: FlaskClient) -> None:
    made = create(client).get_json()
    tokens = claim_seats(client, made)
    answer = client.post(
        f"/api/matches/{made['match_id']}/end",
        json={"reason": "I am losing"},
        headers=bearer(tokens["ana"]),
    )
    assert answer.status_code == 403
    assert status_of(client, made["match_id"])["ended"] is None


def test_a_finished_match_cannot_be_ended(client: FlaskClient) -> None:
    made = create(client).get_json()
    tokens = claim_seats(client, made)
    for player, token in tokens.items():
        client.post(
            f"/api/matches/{made['match_id']}/players/{player}/submissions",
            json={"payload": {"vote": "ana"}},
            headers=bearer(token),
        )
    answer = end(client, made, {"reason": "too late"})
    assert answer.status_code == 409 and answer.get_json()["error"] == "the match has finished"


# --- A decision's default in the status -----------------------------------------------------


def test_a_waiting_decision_names_its_default(app: Flask, client: FlaskClient) -> None:
    # 6 nimmt!: step 2 of the classic scenario asks cai which row to take.
    scenario = load_scenario(SCENARIOS / "six-nimmt-classic.json")
    room = service(app)
    mid = room.create_match("six-nimmt", scenario["players"])["match_id"]
    for step in scenario["steps"][:2]:
        room.open_step(mid, deal=step.get("deal"))
        for player, payload in step["submit"].items():
            room.submit(mid, player, payload)
        room.seal(mid)
    decision = status_of(client, mid)["step"]["decision"]
    asked = [r for r in room.records(mid) if r["type"] == "DecisionRequested"][-1]["data"]
    assert decision["player"] == "cai"
    assert decision["default"] == asked["default"]  # public: the log holds it already
    assert set(decision["default"]) == {"row"}
