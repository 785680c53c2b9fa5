"""The JSON API and pages through Flask's test client."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from domain.signed_note import open_checkpoint
from service.demo import DEMOS, load_demo
from web.extension import service

if TYPE_CHECKING:
    from flask import Flask
    from flask.testing import FlaskClient


def test_the_demo_loads_a_complete_match_of_every_game_once(
    app: Flask, client: FlaskClient
) -> None:
    assert len(load_demo(service(app))) == len(DEMOS)
    assert load_demo(service(app)) == []
    listing = client.get("/api/matches").get_json()
    assert {m["game"] for m in listing} == {
        "vote",
        "six-nimmt",
        "apocalypse",
        "picking-nine",
        "grid-adaptation",
        "custom",
    }
    assert all(m["status"] == "finished" for m in listing)
    page = client.get("/")
    assert page.status_code == 200 and b"grid-adaptation" in page.data
    for m in listing:
        assert client.get(f"/matches/{m['match_id']}").status_code == 200


def test_checkpoints_are_served_with_the_key_that_verifies_them(
    app: Flask, client: FlaskClient
) -> None:
    mid = service(app).create_match("vote", ["ana", "ben"])["match_id"]
    key = client.get("/api/key").get_json()["public_key"]
    note = client.get(f"/api/matches/{mid}/checkpoint").get_json()["note"]
    assert open_checkpoint(note, [key]).size == 2
    proof = client.get(f"/api/matches/{mid}/checkpoint?from=1").get_json()
    assert len(proof["consistency_proof"]) == 1


@pytest.mark.parametrize(
    "url", ["/api/matches/nope/records", "/api/matches/00000000-0000-4000-8000-000000000000/state"]
)
def test_an_unknown_match_is_a_404_with_a_json_message(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    assert "match" in response.get_json()["error"]


def test_a_bad_proof_request_is_a_400_with_a_json_message(app: Flask, client: FlaskClient) -> None:
    mid = service(app).create_match("vote", ["ana", "ben"])["match_id"]
    response = client.get(f"/api/matches/{mid}/checkpoint?from=9")
    assert response.status_code == 400 and "size" in response.get_json()["error"]


def test_an_imported_match_has_a_timeline_and_a_read_only_status(
    app: Flask, client: FlaskClient
) -> None:
    from replay.bundle import load_bundle
    from tests.conftest import archive_of

    path = (
        Path(__file__).resolve().parents[2]
        / "fixtures"
        / "bundles"
        / "six-nimmt-classic.bundle.json"
    )
    bundle = load_bundle(path.read_bytes())
    archive_of(service(app)).import_bundle(bundle)
    mid = bundle["match_id"]
    status = client.get(f"/api/matches/{mid}").get_json()
    assert status["imported"]["public_key"] == bundle["public_key"]
    assert status["finished"] is True and status["step"] is None
    page = client.get(f"/matches/{mid}?at=40")
    assert page.status_code == 200 and b"<svg" in page.data
    assert client.get(f"/api/matches/{mid}/bundle").get_data() == path.read_bytes()
    opened = client.post(
        f"/api/matches/{mid}/steps", json={"seconds": 5}, headers={"Authorization": "Bearer x"}
    )
    assert opened.status_code == 403


def test_serve_prints_working_host_and_player_links_of_live_demo_matches(
    app: Flask, client: FlaskClient
) -> None:
    from service.demo import LIVE_DEMOS, live_demo
    from web.cli import open_these

    live = live_demo(service(app))
    assert [m["match_id"] for m in live_demo(service(app))] == [m["match_id"] for m in live]  # kept
    lines = open_these(app, "http://127.0.0.1:5000", live)
    links = [line.split()[-1] for line in lines if "#" in line]
    assert len(links) == sum(1 + len(players) for _, players, _ in LIVE_DEMOS)
    for link in links:
        path, secret = link.removeprefix("http://127.0.0.1:5000").split("#")
        mid = path.split("/")[2]
        if secret.startswith("invite="):  # a seat's invite: it claims the seat once
            player = path.split("/")[-1]
            claim = f"/api/matches/{mid}/players/{player}/claim"
            answer = client.post(claim, json={"invite": secret.removeprefix("invite=")})
            assert answer.status_code == 201, answer.get_json()
        else:
            role = client.post(f"/api/matches/{mid}/session", json={"token": secret}).get_json()[
                "role"
            ]
            assert role == "host" and path.endswith("/host")
        assert client.get(path).status_code == 200
    vote = live[0]["match_id"]
    assert client.get(f"/api/matches/{vote}").get_json()["step"]["status"] == "open"
    # Check a restart prints the same links for unclaimed seats and says which were claimed
    again = open_these(app, "http://127.0.0.1:5000", live_demo(service(app)))
    assert not any("#invite=" in line for line in again)
    assert sum("seat claimed" in line for line in again) == sum(len(p) for _, p, _ in LIVE_DEMOS)


def test_records_from_a_position_are_the_newer_ones_and_an_unknown_match_is_still_a_404(
    app: Flask, client: FlaskClient
) -> None:
    mid = service(app).create_match("vote", ["ana", "ben"])["match_id"]
    everything = client.get(f"/api/matches/{mid}/records").get_json()
    assert client.get(f"/api/matches/{mid}/records?from=1").get_json() == everything[1:]
    assert client.get(f"/api/matches/{mid}/records?from=9").get_json() == []
    unknown = "00000000-0000-4000-8000-000000000000"
    assert client.get(f"/api/matches/{unknown}/records?from=3").status_code == 404
