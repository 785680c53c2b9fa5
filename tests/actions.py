"""Role actions shared by the web tests (like flaskr's ``AuthActions``)."""

from __future__ import annotations

from typing import Any


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
