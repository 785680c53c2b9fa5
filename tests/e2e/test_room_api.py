"""The dealer room's two reads: the room in one answer, and a player's receipts again.

``GET .../players/<p>/room`` is that player's only: the public status and view, their own
view, their legal picks (listed while there are at most 400), the pick's fields, the
picture from their seat with its tappable regions, and the room's sentences. ``GET
.../players/<p>/receipts`` gives back a receipt for every commitment the player made, each
one checking against the service's key, so a second device (or a cleared browser) has them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from replay.receipt import verify_receipt
from tests.actions import bearer, create_match

if TYPE_CHECKING:
    from flask.testing import FlaskClient


def open_step(client: FlaskClient, made: dict[str, Any], **body: Any) -> None:
    """The host opens the next step."""
    answer = client.post(
        f"/api/matches/{made['match_id']}/steps",
        json={"seconds": 600, **body},
        headers=bearer(made["host_token"]),
    )
    assert answer.status_code == 201, answer.get_json()


def room_of(client: FlaskClient, made: dict[str, Any], player: str) -> dict[str, Any]:
    """The player's room, read with the player's own credential."""
    answer = client.get(
        f"/api/matches/{made['match_id']}/players/{player}/room",
        headers=bearer(made["player_tokens"][player]),
    )
    assert answer.status_code == 200, answer.get_json()
    room: dict[str, Any] = answer.get_json()
    return room


def test_the_room_gives_the_table_the_choices_and_the_words(client: FlaskClient) -> None:
    made = create_match(client, "six-nimmt")
    open_step(client, made)
    room = room_of(client, made, "ana")
    hand = room["me"]["view"]["hand"]
    assert room["me"]["legal"] == [{"card": card} for card in hand]
    assert [f["name"] for f in room["me"]["fields"]] == ["card"]
    assert room["words"]["default"] == (
        f"If you send nothing by the deadline, you play your lowest card, {min(hand)}."
    )
    assert room["status"]["step"]["submitters"] == ["ana", "ben", "cai"]
    assert set(room["public"]["rows"][0]) <= set(range(1, 105))
    hits = re.findall(r'data-hit="([^"]+)"', room["picture"])
    assert hits == ["row 0", "row 1", "row 2", "row 3"]
    assert room["picture"].startswith("<svg")
    assert room["words"]["yours"] == [] and room["words"]["result"] is None


def test_legal_picks_are_listed_only_while_they_are_few(client: FlaskClient) -> None:
    made = create_match(client, "grid-adaptation")
    open_step(client, made)
    room = room_of(client, made, "ana")
    assert room["me"]["legal"] is None  # millions of three-cell placements
    assert [f["name"] for f in room["me"]["fields"]] == ["tiles", "reserve", "flip", "buy_reserves"]
    assert len(re.findall(r'data-hit="cell [A-O]\d{1,2}"', room["picture"])) == 225
    assert "sequence" in " ".join(room["words"]["seat"]).lower()


def test_the_room_is_the_players_alone(client: FlaskClient) -> None:
    made = create_match(client, "vote")
    url = f"/api/matches/{made['match_id']}/players/ana/room"
    assert client.get(url).status_code == 401
    refused = client.get(url, headers=bearer(made["player_tokens"]["ben"]))
    assert refused.status_code == 403
    assert "error" in refused.get_json()
    for path in ("room", "receipts"):
        missing = client.get(
            f"/api/matches/{made['match_id']}/players/zed/{path}",
            headers=bearer(made["host_token"]),
        )
        assert missing.status_code in {403, 404}


def test_receipts_come_back_for_every_commitment_and_check(store_client: FlaskClient) -> None:
    client = store_client
    made = create_match(client, "vote")
    open_step(client, made)
    mine = f"/api/matches/{made['match_id']}/players/ana"
    me = bearer(made["player_tokens"]["ana"])
    sent = []
    for vote in ("ben", "cai"):  # a pick, then its amendment
        answer = client.post(f"{mine}/submissions", json={"payload": {"vote": vote}}, headers=me)
        assert answer.status_code == 201
        sent.append(answer.get_json()["commitment"])
    client.post(
        f"/api/matches/{made['match_id']}/players/ben/submissions",
        json={"payload": {"vote": "ana"}},
        headers=bearer(made["player_tokens"]["ben"]),
    )
    receipts = client.get(f"{mine}/receipts", headers=me).get_json()
    assert [r["record"]["data"]["commitment"] for r in receipts] == sent
    key = client.get("/api/key").get_json()["public_key"]
    for receipt in receipts:
        checked = verify_receipt(receipt, trusted_key=key)
        assert checked.record["data"]["player"] == "ana"
    as_ben = bearer(made["player_tokens"]["ben"])
    assert client.get(f"{mine}/receipts", headers=as_ben).status_code == 403
