"""A custom game through the API: ``POST /api/matches/<id>/declare``, the host's declaration.

The host resolver (RULINGS.md §5) pauses each round after the reveal until the host declares
the winners; the declaration is host-only, refused in words when malformed (400) or when
none is awaited (409), recorded as the host's decision, and the exported bundle verifies
with the outcome reported as declared by the host.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from replay.bundle import load_bundle
from replay.verify import verify_bundle
from tests.actions import bearer, claim_seats

if TYPE_CHECKING:
    from flask.testing import FlaskClient

PLAYERS = ["ana", "ben", "cai"]
AUCTION = {
    "title": "Sealed-bid auction",
    "rounds": 2,
    "fields": [
        {"name": "bid", "kind": "integer", "min": 0, "max": 100},
        {"name": "why", "kind": "text", "max_length": 80, "optional": True},
    ],
    "resolver": {"kind": "host"},
}


def declare(client: FlaskClient, mid: str, token: str, body: Any) -> Any:
    return client.post(f"/api/matches/{mid}/declare", json=body, headers=bearer(token))


def test_the_host_declares_the_winners_of_a_round_and_the_bundle_verifies(
    client: FlaskClient,
) -> None:
    # 1. The host creates the auction; every seat is claimed and round 1 opens by itself.
    answer = client.post(
        "/api/matches", json={"game": "custom", "players": PLAYERS, "options": AUCTION}
    )
    assert answer.status_code == 201, answer.get_json()
    made = answer.get_json()
    mid, host = made["match_id"], made["host_token"]
    tokens = claim_seats(client, made)
    # Check: nothing is awaited from the host yet.
    early = declare(client, mid, host, {"winners": ["ana"]})
    assert early.status_code == 409
    assert "no declaration" in early.get_json()["error"]
    # 2. Everyone bids; the round seals by itself and waits for the host.
    bids = {"ana": {"bid": 40, "why": "I like it"}, "ben": {"bid": 55}, "cai": {"bid": 10}}
    for player, bid in bids.items():
        url = f"/api/matches/{mid}/players/{player}/submissions"
        sent = client.post(url, json={"payload": bid}, headers=bearer(tokens[player]))
        assert sent.status_code == 201, sent.get_json()
    decision = client.get(f"/api/matches/{mid}").get_json()["step"]["decision"]
    assert decision["player"] == "host"
    # Check: a player cannot declare; bad shapes are refused in words and write nothing.
    assert declare(client, mid, tokens["ben"], {"winners": ["ben"]}).status_code in (401, 403)
    for body, words in (
        ({"winners": ["zed"]}, '"zed" is not a player'),
        ({"winners": ["ben", "ben"]}, "twice"),
        ({"winners": [], "note": "x" * 501}, "500"),
        ({"note": "no list"}, "winners"),
        ([1], "JSON object"),
    ):
        refused = declare(client, mid, host, body)
        assert refused.status_code == 400, (body, refused.get_json())
        assert words in refused.get_json()["error"]
    # 3. The host declares ben, with a note; the round resolves and ben scores.
    done = declare(client, mid, host, {"winners": ["ben"], "note": "highest bid, fair price"})
    assert done.status_code == 200, done.get_json()
    state = client.get(f"/api/matches/{mid}/state").get_json()
    assert state["points"] == {"ana": 0, "ben": 1, "cai": 0}
    records = client.get(f"/api/matches/{mid}/records").get_json()
    made_by = next(r for r in records if r["type"] == "DecisionMade")["data"]
    assert made_by["player"] == "host"
    assert made_by["actor"] == "host"
    assert made_by["payload"] == {"winners": ["ben"], "note": "highest bid, fair price"}
    resolved = next(r for r in records if r["type"] == "StepResolved")["data"]["outcome"]
    assert resolved == {
        "winners": ["ben"],
        "note": "highest bid, fair price",
        "values": {
            "ana": {"bid": 40, "why": "I like it"},
            "ben": {"bid": 55, "why": None},
            "cai": {"bid": 10, "why": None},
        },
    }
    # 4. Round 2: nobody bids; the host ends the wait with the default (no winner).
    assert client.post(f"/api/matches/{mid}/seal", headers=bearer(host)).status_code == 200
    defaulted = client.post(f"/api/matches/{mid}/decisions/default", headers=bearer(host))
    assert defaulted.status_code == 200
    assert client.get(f"/api/matches/{mid}").get_json()["finished"]
    # Check: the exported bundle verifies, and says who declared the outcomes.
    bundle = load_bundle(client.get(f"/api/matches/{mid}/bundle").data)
    verdict = verify_bundle(bundle)
    assert verdict.ok, str(verdict)
    assert "declared by the host" in str(verdict)


def test_a_custom_game_is_called_by_its_design_s_title_on_every_page(
    client: FlaskClient,
) -> None:
    """The room, the host console, the timeline and its log say "Sealed-bid auction"."""
    made = client.post(
        "/api/matches", json={"game": "custom", "players": PLAYERS, "options": AUCTION}
    ).get_json()
    mid = made["match_id"]
    for page in (f"/matches/{mid}/players/ana", f"/matches/{mid}/host", f"/matches/{mid}"):
        html = client.get(page).get_data(as_text=True)
        heading = re.search(r"<h1[^>]*>(.*?)</h1>", html, re.DOTALL)
        assert heading is not None, page
        assert "Sealed-bid auction" in heading.group(1), (page, heading.group(1))
        assert "Custom game" not in heading.group(1), page
    timeline = client.get(f"/matches/{mid}").get_data(as_text=True)
    assert "a match of Sealed-bid auction for ana, ben and cai" in timeline
    # A design without a title is a "Custom game", as RULINGS.md §5 names the default.
    plain = {k: v for k, v in AUCTION.items() if k != "title"}
    other = client.post(
        "/api/matches", json={"game": "custom", "players": PLAYERS, "options": plain}
    ).get_json()["match_id"]
    assert "<h1>Custom game" in client.get(f"/matches/{other}").get_data(as_text=True)
