"""``POST /api/qr``: the QR code of a link as an SVG image, the link never logged nor kept.

The host's created-match page draws one per invite link, so a player can scan their seat
across the table. The link is a credential: it travels in the body, appears in no log line
and in no error message, and the answer is not cached.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import pytest

from web.qr import MAX_TEXT, svg_of

if TYPE_CHECKING:
    from flask.testing import FlaskClient

INVITE = "https://dealerroom.example/matches/5f1c/players/ana#invite=Zm9vYmFyLXNlY3JldC1pbnZpdGU"


def test_a_link_comes_back_as_its_qr_code_in_svg_and_is_never_logged(
    client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    answer = client.post("/api/qr", json={"text": INVITE})
    assert answer.status_code == 200
    assert answer.mimetype == "image/svg+xml"
    assert answer.headers["Cache-Control"] == "no-store"
    assert answer.data == svg_of(INVITE)
    assert answer.data.startswith(b"<svg") and b"<path" in answer.data
    assert INVITE.encode() not in answer.data  # drawn, not written out
    # Check no log line holds the link or its secret part
    for record in caplog.records:
        assert "invite=" not in record.getMessage()
        assert "Zm9vYmFy" not in record.getMessage()


def test_the_longest_link_still_makes_a_code(client: FlaskClient) -> None:
    answer = client.post("/api/qr", json={"text": "h" * MAX_TEXT})
    assert answer.status_code == 200
    assert answer.mimetype == "image/svg+xml"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, "'text' is required"),
        ({"text": 42}, "'text' is required"),
        ({"text": "   "}, "'text' is empty"),
        ({"text": "x" * (MAX_TEXT + 1)}, f"longer than {MAX_TEXT} characters"),
        ({"text": "\U0001f600" * MAX_TEXT}, "too many bytes"),
        ({"text": "\ud800"}, "not valid Unicode"),
        ([INVITE], "JSON object"),
    ],
)
def test_bad_input_is_a_clear_400_that_never_echoes_the_text(
    client: FlaskClient, body: object, words: str
) -> None:
    answer = client.post("/api/qr", json=body)
    assert answer.status_code == 400
    message = answer.get_json()["error"]
    assert words in message
    assert INVITE not in message and "xxxxxxxxxx" not in message


def test_a_body_that_is_not_json_is_refused(client: FlaskClient) -> None:
    answer = client.post("/api/qr", data=INVITE, content_type="text/plain")
    assert answer.status_code == 400
    assert "JSON" in answer.get_json()["error"]
    assert client.get("/api/qr").status_code == 405
