"""The per-seat rate limit of picks (web.seat_limits): per match, player and route."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.actions import bearer, create_match
from tests.roomy import roomy_app

if TYPE_CHECKING:
    from pathlib import Path


def test_past_its_limit_a_seat_gets_a_429_with_retry_after_and_others_are_not_held_back(
    tmp_path: Path,
) -> None:
    client = roomy_app(tmp_path / "instance", DEALERROOM_SUBMIT_RATE="2/minute").test_client()
    made = create_match(client, "vote", ["ana", "ben"])  # the claims count on their own route
    mid, tokens = made["match_id"], made["player_tokens"]
    client.post(
        f"/api/matches/{mid}/steps", json={"seconds": 600}, headers=bearer(made["host_token"])
    )
    url = f"/api/matches/{mid}/players/ana/submissions"
    sent = [
        client.post(url, json={"payload": {"vote": v}}, headers=bearer(tokens["ana"]))
        for v in ("ana", "ben", "ana")
    ]
    assert [answer.status_code for answer in sent] == [201, 201, 429]
    refused = sent[-1]
    assert refused.get_json() == {
        "error": "too many submissions from this player; wait a moment and try again"
    }
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    # ben's seat, and ana's commitments route, count on their own
    ben = client.post(
        f"/api/matches/{mid}/players/ben/submissions",
        json={"payload": {"vote": "ana"}},
        headers=bearer(tokens["ben"]),
    )
    assert ben.status_code == 201
    own = client.post(
        f"/api/matches/{mid}/players/ana/commitments",
        json={"commitment": "ab" * 32},
        headers=bearer(tokens["ana"]),
    )
    assert own.status_code != 429
    # nothing refused was recorded: ana's two picks and ben's one
    records = client.get(f"/api/matches/{mid}/records").get_json()
    assert [r["data"]["player"] for r in records if r["type"] == "SubmissionCommitted"] == [
        "ana",
        "ana",
        "ben",
    ]
