"""QR codes of private links, so a host can hand an invite to a player across the table.

``POST /api/qr {"text": "<a link>"}`` answers the QR code of ``text`` as an SVG image
(made with ``segno``). The text travels in the body, never in a URL, and is never logged:
it is usually an invite link, a credential. It is not kept either; the answer is marked
``no-store`` like every API answer.
"""

from __future__ import annotations

import io
from typing import Any

import segno
from flask import Blueprint, Response
from werkzeug.exceptions import BadRequest

from web import security

bp = Blueprint("qr", __name__, url_prefix="/api")

MAX_TEXT = 1000  # characters: a link of this service is about 120
SCALE = 4  # pixels per module: about 200 px for an invite link, a page may scale it
QR_RATE = "600/minute"  # per client address: a host of a large vote shows 100 at once

qr_limit = security.limiter.limit(
    QR_RATE, error_message="too many QR codes from this address; wait a moment and try again"
)


def svg_of(text: str) -> bytes:
    """The QR code of ``text`` as an SVG document (no XML declaration, black on white).

    >>> svg_of("https://example.org/").startswith(b"<svg")
    True
    """
    code = segno.make(text, error="l", boost_error=True)
    out = io.BytesIO()
    code.save(out, kind="svg", scale=SCALE, border=4, xmldecl=False, light="#fff", dark="#000")
    return out.getvalue()


def _text(body: dict[str, Any]) -> str:
    """The body's ``text``: 1 to :data:`MAX_TEXT` characters (never echoed in a message)."""
    text = body.get("text")
    if not isinstance(text, str):
        msg = "'text' is required: the link to draw as a QR code, as text"
        raise BadRequest(msg)
    if not text.strip():
        msg = "'text' is empty: send the link to draw as a QR code"
        raise BadRequest(msg)
    if len(text) > MAX_TEXT:
        msg = f"'text' is longer than {MAX_TEXT} characters; a QR code of it would not scan"
        raise BadRequest(msg)
    try:
        text.encode()
    except UnicodeEncodeError:  # a lone surrogate escape in the JSON
        msg = "'text' is not valid Unicode text"
        raise BadRequest(msg) from None
    return text


@bp.post("/qr")
@qr_limit
def qr_code() -> Any:
    """The QR code of a link, as an SVG image (the link is neither logged nor kept)."""
    text = _text(security.json_body())
    try:
        svg = svg_of(text)
    except segno.DataOverflowError:  # 1000 characters outside ASCII can be too many bytes
        msg = "'text' holds too many bytes for one QR code; send a shorter link"
        raise BadRequest(msg) from None
    return Response(svg, mimetype="image/svg+xml")
