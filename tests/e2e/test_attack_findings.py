"""Regressions of the outside attack (issue 14) that show through the HTTP API.

Each test names the finding it guards; the service-level ones are in
tests/integration/test_seats.py.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from tests.actions import bearer, create_match
from tests.roomy import roomy_app

if TYPE_CHECKING:
    from pathlib import Path

    from flask.testing import FlaskClient


def _match(client: FlaskClient, players: list[str] | None = None) -> dict[str, Any]:
    made = create_match(client, "vote", players or ["ana", "ben"])
    made["tokens"] = made["player_tokens"]
    return made


def test_the_per_player_rate_limit_holds_however_the_match_id_is_spelled(tmp_path: Path) -> None:
    """Finding: upper case, no dashes, braces or urn:uuid: each got a fresh counter (68 of 80)."""
    app = roomy_app(tmp_path / "instance", DEALERROOM_SUBMIT_RATE="4/minute")
    client = app.test_client()
    made = _match(client)
    mid = made["match_id"]
    client.post(
        f"/api/matches/{mid}/steps", json={"seconds": 600}, headers=bearer(made["host_token"])
    )
    spellings = [
        mid,
        mid.upper(),
        mid.replace("-", ""),
        "{" + mid + "}",
        f"urn:uuid:{mid}",
        mid.replace("-", "").upper(),
        mid,
    ]
    codes = []
    for n, spelled in enumerate(spellings):
        vote = "ana" if n % 2 else "ben"
        answer = client.post(
            f"/api/matches/{spelled}/players/ana/submissions",
            json={"payload": {"vote": vote}},
            headers=bearer(made["tokens"]["ana"]),
        )
        codes.append(answer.status_code)
    assert codes.count(201) == 4, codes
    assert codes[4:] == [429, 429, 429], codes


def test_out_of_range_deadlines_are_a_400_not_a_500(tmp_path: Path) -> None:
    """Finding: 0001-01-01T00:00:00+14:00 and 9999-12-31T23:59:59-14:00 answered 500."""
    client = roomy_app(tmp_path / "instance").test_client()
    made = _match(client)
    url = f"/api/matches/{made['match_id']}/steps"
    for deadline in (
        "0001-01-01T00:00:00+14:00",
        "9999-12-31T23:59:59-14:00",
        "x" * 5000,
        "2026-13-01T00:00:00Z",
    ):
        answer = client.post(url, json={"deadline": deadline}, headers=bearer(made["host_token"]))
        assert answer.status_code == 400, (deadline[:40], answer.get_json())
        assert "time" in answer.get_json()["error"]


def test_a_huge_records_position_is_a_400_not_a_500(tmp_path: Path) -> None:
    """Finding: records?from=9223372036854775808 answered 500 (PostgreSQL bigint overflow)."""
    client = roomy_app(tmp_path / "instance").test_client()
    mid = _match(client)["match_id"]
    for value in ("9223372036854775808", "9" * 400, "-1"):
        answer = client.get(f"/api/matches/{mid}/records?from={value}")
        assert answer.status_code == 400, value
    assert client.get(f"/api/matches/{mid}/records?from=9007199254740991").get_json() == []


def test_opening_a_step_while_one_is_open_is_a_409(tmp_path: Path) -> None:
    """Left from the last notes: it answered 400."""
    client = roomy_app(tmp_path / "instance").test_client()
    made = _match(client)
    url = f"/api/matches/{made['match_id']}/steps"
    host = bearer(made["host_token"])
    assert client.post(url, json={"seconds": 60}, headers=host).status_code == 201
    again = client.post(url, json={"seconds": 60}, headers=host)
    assert again.status_code == 409 and "must resolve first" in again.get_json()["error"]


def test_a_signature_from_a_player_without_a_key_is_refused_at_the_door(tmp_path: Path) -> None:
    """Finding 2: a 60 KB "signature" from a keyless player was logged and broke verification."""
    client = roomy_app(tmp_path / "instance").test_client()
    made = _match(client)
    mid = made["match_id"]
    client.post(
        f"/api/matches/{mid}/steps", json={"seconds": 60}, headers=bearer(made["host_token"])
    )
    before = len(client.get(f"/api/matches/{mid}/records").get_json())
    answer = client.post(
        f"/api/matches/{mid}/players/ana/submissions",
        json={"payload": {"vote": "ben"}, "signature": "A" * 60_000},
        headers=bearer(made["tokens"]["ana"]),
    )
    assert answer.status_code == 400 and "signature" in answer.get_json()["error"]
    assert len(client.get(f"/api/matches/{mid}/records").get_json()) == before


def test_a_resend_with_a_new_salt_answers_the_new_commitment(tmp_path: Path) -> None:
    """Finding: re-submitting the same pick with a new salt answered the OLD commitment."""
    from domain.commitment import commit

    client = roomy_app(tmp_path / "instance").test_client()
    made = _match(client)
    mid = made["match_id"]
    client.post(
        f"/api/matches/{mid}/steps", json={"seconds": 60}, headers=bearer(made["host_token"])
    )
    url = f"/api/matches/{mid}/players/ana/submissions"
    ana = bearer(made["tokens"]["ana"])
    answers = []
    for salt in (uuid.uuid4().bytes + uuid.uuid4().bytes, uuid.uuid4().bytes + uuid.uuid4().bytes):
        body = {"payload": {"vote": "ben"}, "salt": salt.hex()}
        answer = client.post(url, json=body, headers=ana).get_json()
        assert answer["commitment"] == commit(mid, 1, "ana", {"vote": "ben"}, salt)
        answers.append(answer)
    again = client.post(url, json=body, headers=ana).get_json()
    assert [a["unchanged"] for a in (*answers, again)] == [False, False, True]
    assert again["commitment"] == answers[1]["commitment"]


def test_a_deadline_that_passed_while_no_service_ran_is_applied_before_serving(
    tmp_path: Path,
) -> None:
    """Finding 4: after a restart spanning a deadline, late picks were accepted 3-4 s late."""
    from datetime import UTC, datetime, timedelta

    from service.application import DealerRoom
    from service.config import Settings

    instance = tmp_path / "instance"
    earlier = datetime.now(tz=UTC) - timedelta(hours=1)
    before = DealerRoom(
        Settings.load({"DEALERROOM_INSTANCE": str(instance)}), clock=lambda: earlier
    )
    mid = before.create_match("vote", ["ana", "ben"])["match_id"]
    before.open_step(mid, seconds=60)  # its deadline passed 59 minutes ago
    before.close()
    client = roomy_app(instance).test_client()  # the restart: nothing has ticked yet
    status = client.get(f"/api/matches/{mid}").get_json()
    assert status["finished"] is True
    sealed = [
        r for r in client.get(f"/api/matches/{mid}/records").get_json() if r["type"] == "StepSealed"
    ]
    assert sealed[0]["data"]["actor"] == "system"


def test_a_deadline_in_the_past_is_refused(tmp_path: Path) -> None:
    client = roomy_app(tmp_path / "instance").test_client()
    made = _match(client)
    answer = client.post(
        f"/api/matches/{made['match_id']}/steps",
        json={"deadline": "2020-01-01T00:00:00Z"},
        headers=bearer(made["host_token"]),
    )
    assert answer.status_code == 400 and "passed already" in answer.get_json()["error"]


def test_player_names_that_collide_or_cannot_reach_their_routes_are_refused(tmp_path: Path) -> None:
    """Finding: player names that collide or cannot reach their routes were all accepted.

    Among them ana/Ana, NFC/NFD twins, Cyrillic look-alikes, padding, control characters,
    60,000 characters and names with '/', '.' or '..'.
    """
    client = roomy_app(tmp_path / "instance").test_client()
    refused = [
        ["ana", "Ana"],
        ["jos\u00e9", "jose\u0301"],
        ["ana", "\u0430na"],  # Cyrillic a
        [" ana", "ben"],
        ["an\u200ba", "ben"],
        ["an\u202ea", "ben"],
        ["an\x00a", "ben"],
        ["a" * 60_000, "ben"],
        ["a/b", "ben"],
        [".", "ben"],
        ["..", "ben"],
    ]
    for players in refused:
        answer = client.post("/api/matches", json={"game": "vote", "players": players})
        assert answer.status_code == 400, players[0][:20]
        assert answer.get_json()["error"]
    kept = client.post("/api/matches", json={"game": "vote", "players": ["jose\u0301", "ben"]})
    assert kept.status_code == 201
    mid = kept.get_json()["match_id"]
    assert client.get(f"/api/matches/{mid}").get_json()["players"] == ["jos\u00e9", "ben"]
