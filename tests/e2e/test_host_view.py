"""The host console's read: ``GET /api/matches/<id>/host/view``, the match's host only.

It gives the public status, the match's settings, the picture of the public state at the
latest record and the console's sentences: where the match stands, round and turn, scores,
how the match runs itself, what sealing now or a decision's default would do (and did), what
the last step did, the result and an early end's reason. Nothing in it is sealed, nothing is
a JSON value or a slug shown to the host.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest

from domain.rules.six_nimmt import row_bullheads
from service.simulate import load_scenario
from tests.actions import bearer, claim_seats
from tests.conftest import SCENARIOS
from web.extension import service

if TYPE_CHECKING:
    from flask import Flask
    from flask.testing import FlaskClient


def create(app: Flask, game: str, players: list[str], **extra: Any) -> dict[str, Any]:
    """The host creates a match through the API (the settings off unless given)."""
    body = {"game": game, "players": players, "auto_open": False, "auto_seal": False, **extra}
    answer = app.test_client().post("/api/matches", json=body)
    assert answer.status_code == 201, answer.get_json()
    made: dict[str, Any] = answer.get_json()
    return made


def view_of(client: FlaskClient, made: dict[str, Any]) -> dict[str, Any]:
    """The host console's read, with the host's token."""
    answer = client.get(
        f"/api/matches/{made['match_id']}/host/view", headers=bearer(made["host_token"])
    )
    assert answer.status_code == 200, answer.get_json()
    view: dict[str, Any] = answer.get_json()
    return view


def host_does(client: FlaskClient, made: dict[str, Any], action: str, **body: Any) -> Any:
    answer = client.post(
        f"/api/matches/{made['match_id']}/{action}", json=body, headers=bearer(made["host_token"])
    )
    assert answer.status_code in {200, 201}, answer.get_json()
    return answer.get_json()


def plain(words: Any) -> None:
    """No sentence is a JSON value, a Python repr or a slug."""
    text = " ".join(_sentences(words))
    for raw in ("{", "None", "null", "True", "six-nimmt", "_"):
        assert raw not in text, (raw, text)


def _sentences(words: Any) -> list[str]:
    if isinstance(words, str):
        return [words]
    if isinstance(words, dict):
        return [s for v in words.values() for s in _sentences(v)]
    if isinstance(words, list):
        return [s for v in words for s in _sentences(v)]
    return []


def test_the_view_is_the_hosts_alone(client: FlaskClient) -> None:
    made = create(client.application, "vote", ["ana", "ben"])
    tokens = claim_seats(client, made)
    url = f"/api/matches/{made['match_id']}/host/view"
    assert client.get(url).status_code == 401
    assert client.get(url, headers=bearer(tokens["ana"])).status_code == 403
    assert client.get(url, headers=bearer("nobody's token")).status_code == 403
    assert client.get("/api/matches/not-a-match/host/view").status_code in {401, 404}


def test_a_match_that_runs_itself_says_so_and_waits_for_its_seats(client: FlaskClient) -> None:
    made = create(
        client.application,
        "six-nimmt",
        ["ana", "ben"],
        name="Friday table",
        auto_open=True,
        auto_seal=True,
        step_seconds=300,
    )
    view = view_of(client, made)
    words = view["words"]
    assert view["settings"] == {"auto_open": True, "auto_seal": True, "step_seconds": 300}
    assert words["title"] == "Friday table" and words["game"] == "6 nimmt!"
    assert words["settings"] == [
        (
            "Steps open by themselves: the first once every seat is claimed, each next one as "
            "soon as the last one resolves."
        ),
        "A step is sealed as soon as everyone has sent their pick, or at its deadline.",
        "Each step that opens by itself has a deadline of 5 minutes.",
    ]
    assert words["now"] == (
        "Waiting for ana and ben to claim their seats: the first step opens by itself once "
        "every seat is claimed."
    )
    claim_seats(client, made)
    words = view_of(client, made)["words"]
    assert words["now"] == "Step 1 is open: nobody has sent a pick yet."
    assert words["where"] == "Round 1, turn 1 of 10 under way"
    assert words["scores"] == "Points: ana 66, ben 66, virtual 66."
    assert words["seal"] == "Seal now: nobody has sent a pick, so ana and ben will get the default."
    plain(words)


def test_sealing_now_names_who_has_sent_and_who_gets_the_default(client: FlaskClient) -> None:
    made = create(client.application, "vote", ["ana", "ben", "cai"])
    tokens = claim_seats(client, made)
    host_does(client, made, "steps")
    assert view_of(client, made)["words"]["settings"] == [
        "You open each step yourself.",
        "A step is sealed at its deadline, or when you seal it.",
    ]
    for voter in ("ana", "cai"):
        answer = client.post(
            f"/api/matches/{made['match_id']}/players/{voter}/submissions",
            json={"payload": {"vote": "ben"}},
            headers=bearer(tokens[voter]),
        )
        assert answer.status_code == 201
    view = view_of(client, made)
    words = view["words"]
    assert words["now"] == "Step 1 is open: ana and cai have sent their picks; ben not yet."
    assert words["seal"] == (
        "Seal now: ana and cai have sent their picks, ben has not and will get the default."
    )
    text = str(view)
    assert "salt" not in text and "payload" not in text  # who sent, never what
    host_does(client, made, "seal")
    view = view_of(client, made)
    assert view["status"]["finished"]
    assert view["words"]["result"] == [
        "ben wins with 2 votes.",
        "ana got 0 votes, cai got 0 votes.",
    ]
    assert view["words"]["now"] == "The match is over."
    assert view["words"]["last_step"]["number"] == 1
    assert any("ben" in line for line in view["words"]["last_step"]["lines"])
    assert view["picture"].startswith("<svg")
    plain(view["words"])


def test_a_pending_decision_and_its_default_in_words(client: FlaskClient) -> None:
    scenario = load_scenario(SCENARIOS / "six-nimmt-classic.json")
    made = create(client.application, "six-nimmt", scenario["players"])
    tokens = claim_seats(client, made)
    for step in scenario["steps"][:2]:
        host_does(client, made, "steps", deal=step.get("deal"))
        for player, payload in step["submit"].items():
            client.post(
                f"/api/matches/{made['match_id']}/players/{player}/submissions",
                json={"payload": payload},
                headers=bearer(tokens[player]),
            )
        host_does(client, made, "seal")
    view = view_of(client, made)
    decision = view["status"]["step"]["decision"]
    assert decision["player"] == "cai"
    row = decision["default"]["row"]
    heads = row_bullheads(decision["prompt"]["rows"][row])
    words = view["words"]
    taken = f"row {row} ({heads} bullhead{'' if heads == 1 else 's'})"
    assert words["default_decision"] == {
        "will": f"Apply the default decision: {taken} will go to cai.",
        "did": f"Default decision applied: {taken} went to cai.",
    }
    assert words["decision"].startswith("Waiting for cai to choose a row to take: cai's ")
    assert words["now"] == f"Step 2 is sealed. {words['decision']}"
    plain(words)
    host_does(client, made, "decisions/default")
    words = view_of(client, made)["words"]
    assert words["default_decision"] is None and words["decision"] is None
    told = " ".join(words["last_step"]["lines"])
    assert f"cai chose no row in time, so the default row {row}" in told


def test_an_early_end_says_why(client: FlaskClient) -> None:
    made = create(client.application, "grid-adaptation", ["ana", "ben"])
    claim_seats(client, made)
    host_does(client, made, "steps")
    answer = client.post(
        f"/api/matches/{made['match_id']}/end",
        json={"reason": "Ben's train is leaving."},
        headers=bearer(made["host_token"]),
    )
    assert answer.status_code in {200, 201}, answer.get_json()
    view = view_of(client, made)
    assert view["status"]["ended"]["reason"] == "Ben's train is leaving."
    assert view["words"]["ended"] == "The host ended the match early: “Ben's train is leaving.”"
    assert view["words"]["now"] == "The match was ended early."
    assert view["words"]["seal"] is None


@pytest.mark.parametrize("seconds", [30, 60, 300, 3600, 86400])
def test_a_step_deadline_is_said_as_people_say_it(client: FlaskClient, seconds: int) -> None:
    made = create(client.application, "vote", ["ana", "ben"], auto_open=True, step_seconds=seconds)
    said = view_of(client, made)["words"]["settings"][-1]
    expected = {30: "30 seconds", 60: "1 minute", 300: "5 minutes", 3600: "1 hour"}
    assert re.fullmatch(
        rf"Each step that opens by itself has a deadline of {expected.get(seconds, '24 hours')}\.",
        said,
    )
    assert service(client.application).status(made["match_id"])["settings"]["step_seconds"] == (
        seconds
    )
