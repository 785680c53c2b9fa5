"""Role actions shared by the web tests (like flaskr's ``AuthActions``)."""

from __future__ import annotations

from typing import Any

PLAYERS = ["ana", "ben", "cai"]


def bearer(token: str) -> dict[str, str]:
    """The header that acts as the role whose token this is."""
    return {"Authorization": f"Bearer {token}"}


def claim_seats(client: Any, made: dict[str, Any]) -> dict[str, str]:
    """Claim every seat of a match just created through the API; return player -> token.

    ``client`` is Flask's test client (``post`` answering ``status_code`` and ``get_json``).
    """
    mid = made["match_id"]
    tokens = {}
    for player, invite in made["invites"].items():
        answer = client.post(f"/api/matches/{mid}/players/{player}/claim", json={"invite": invite})
        assert answer.status_code == 201, answer.get_json()
        tokens[player] = answer.get_json()["token"]
    return tokens


def create_match(
    client: Any, game: str = "vote", players: list[str] | None = None, **extra: Any
) -> dict[str, Any]:
    """Create a match through the API as its host and claim every seat.

    The match runs by hand unless ``extra`` says otherwise (``auto_open`` and ``auto_seal``
    false), so a test drives its steps itself. The answer holds the creation's answer and
    ``player_tokens`` (player -> token).
    """
    body = {
        "game": game,
        "players": players or PLAYERS,
        "auto_open": False,
        "auto_seal": False,
        **extra,
    }
    response = client.post("/api/matches", json=body)
    assert response.status_code == 201, response.get_json()
    made: dict[str, Any] = response.get_json()
    made["player_tokens"] = claim_seats(client, made)
    return made


def picking_nine_with_a_secret(client: Any) -> tuple[dict[str, Any], dict[str, str], Any]:
    """A Picking Nine match whose step 1 is open and holds tog's sealed pick.

    Picking Nine keeps every pick sealed until the match ends, so the pick is a secret to
    look for in every answer. Return the creation's answer (with ``player_tokens``), the
    host's header and tog's pick.
    """
    made = create_match(client, "picking-nine", ["tog", "pengu", "grunkle", "dems"])
    mid = made["match_id"]
    host = bearer(made["host_token"])
    client.post(f"/api/matches/{mid}/steps", json={"seconds": 600}, headers=host)
    pool = client.get(f"/api/matches/{mid}/state").get_json()["pool"]
    secret = {"wants": list(reversed(pool[:7])), "ban": pool[-1], "priority": 3}
    answer = client.post(
        f"/api/matches/{mid}/players/tog/submissions",
        json={"payload": secret},
        headers=bearer(made["player_tokens"]["tog"]),
    )
    assert answer.status_code == 201, answer.get_json()
    return made, host, secret
