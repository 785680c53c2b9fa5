"""Who may do what, CSRF protection and the security headers of every response.

**Roles.** Creating a match returns a secret token per role: one for the host and one per
player. The service stores only their hashes and compares in constant time. A token is
presented in one of two ways:

* ``Authorization: Bearer <token>`` on an API request (scripts, the CLI, tests); such
  requests carry no ambient credential, so they need no CSRF token;
* exchanged once for a *grant* in the signed session cookie (``POST
  /api/matches/<id>/session``), which the private links do: a link is
  ``/matches/<id>/host#<token>`` or ``/matches/<id>/players/<player>#<token>``, and the
  token sits in the URL *fragment*, which browsers never send to the server, so it appears
  in no request line, access log or ``Referer``. The page's script posts it and forgets it.

A browser may hold grants for several roles (a host testing their own match as each
player); each API call names the role it acts as in its URL, and the grant must cover it.

**CSRF.** Every state-changing request made with the session cookie must carry the header
``X-CSRF-Token`` equal to the session's CSRF token (pages put it in
``<meta name="csrf-token">``), and API bodies must be ``application/json``, which a
cross-site form cannot send. The cookie is ``HttpOnly`` and ``SameSite=Strict``.

**Rate limits.** Submissions, commitments, openings and decisions are limited per match and
player (``DEALERROOM_SUBMIT_RATE``, default ``30/second;1200/minute``), match creation per
client address (``DEALERROOM_CREATE_RATE``, default ``120/minute``); past the limit the
answer is 429 with a JSON message. Counters live in the process (one set per worker).
Request bodies are limited to 64 KiB (413).

**Headers.** Every response carries a Content Security Policy that allows only this
origin's scripts, styles and images (no inline script or style), forbids framing, and sends
no referrer.
"""

from __future__ import annotations

import hmac
import secrets
from typing import TYPE_CHECKING

from flask import current_app, request, session
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.exceptions import BadRequest, Forbidden, Unauthorized

from web import service

if TYPE_CHECKING:
    from flask import Flask, Response

HOST = "host"
GRANTS = "grants"
CSRF = "csrf"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}


SUBMIT_RATE = "30/second;1200/minute"
CREATE_RATE = "120/minute"

limiter = Limiter(key_func=get_remote_address, storage_uri="memory://", default_limits=[])


def _submitter() -> str:
    args = request.view_args or {}
    return f"{args.get('match_id')}/{args.get('player')}"


def _rate(name: str, default: str) -> str:
    return str(current_app.config.get(name) or default)


submit_limit = limiter.limit(
    lambda: _rate("DEALERROOM_SUBMIT_RATE", SUBMIT_RATE),
    key_func=_submitter,
    error_message="too many submissions from this player; wait a moment and try again",
)
create_limit = limiter.limit(
    lambda: _rate("DEALERROOM_CREATE_RATE", CREATE_RATE),
    error_message="too many new matches from this address; wait a moment and try again",
)


def csrf_token() -> str:
    """The session's CSRF token (made on first use)."""
    token = session.get(CSRF)
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        session[CSRF] = token
    return token


def grants() -> dict[str, list[str]]:
    """The roles this browser holds, by match id."""
    value = session.get(GRANTS)
    return value if isinstance(value, dict) else {}


def grant(match_id: str, role: str) -> None:
    """Remember in the session that this browser acts as ``role`` in the match."""
    held = grants()
    roles = [r for r in held.get(match_id, []) if r != role]
    held[match_id] = [*roles, role]
    session[GRANTS] = held
    session.permanent = True


def revoke(match_id: str) -> None:
    """Forget every role this browser holds in the match."""
    held = grants()
    held.pop(match_id, None)
    session[GRANTS] = held


def holds(match_id: str, role: str) -> bool:
    """Whether the session holds ``role`` in the match."""
    return role in grants().get(match_id, [])


def bearer() -> str | None:
    """The token of an ``Authorization: Bearer`` header, if any."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def require_role(match_id: str, role: str) -> None:
    """Let the request act as ``role`` in the match, or raise 401/403.

    A bearer token must be the role's own; otherwise the session must hold a grant for
    it and, on a state-changing request, carry the CSRF header.
    """
    token = bearer()
    if token is not None:
        if service().role_of(match_id, token) != role:
            msg = f"this token does not act as {role!r} in this match"
            raise Forbidden(msg)
        return
    if not holds(match_id, role):
        msg = f"acting as {role!r} needs that role's private link or its bearer token"
        raise Unauthorized(msg)
    if request.method not in SAFE_METHODS:
        check_csrf()


def require_player(match_id: str, player: str) -> None:
    """Let the request act as the match's player ``player``, or raise 401/403.

    Roles are the host and the player names, and no player may be called ``host``; so a
    player route named ``host`` is refused here, or the host's token would pass as a player.
    """
    if player == HOST:
        msg = "the host is not a player: player routes act only as one of the match's players"
        raise Forbidden(msg)
    require_role(match_id, player)


def check_csrf() -> None:
    """:raises Forbidden: unless the request carries the session's CSRF token."""
    sent = request.headers.get("X-CSRF-Token", "")
    expected = session.get(CSRF)
    if not isinstance(expected, str) or not hmac.compare_digest(sent.encode(), expected.encode()):
        msg = "missing or wrong X-CSRF-Token header (reload the page)"
        raise Forbidden(msg)


def json_body() -> dict[str, object]:
    """The request's JSON object body.

    :raises BadRequest: unless the body is ``application/json`` holding an object.
    """
    if not request.is_json:
        msg = "send a JSON object with Content-Type: application/json"
        raise BadRequest(msg)
    try:
        body = request.get_json(silent=True)
    except RecursionError:  # the decoder gives up on about a thousand levels of nesting
        msg = "the body is nested too deeply"
        raise BadRequest(msg) from None
    if not isinstance(body, dict):
        msg = "the body must be a JSON object"
        raise BadRequest(msg)
    return body


def init_app(app: Flask) -> None:
    """Session cookie settings and the headers of every response."""
    app.config.setdefault("SESSION_COOKIE_HTTPONLY", True)
    app.config.setdefault("SESSION_COOKIE_SAMESITE", "Strict")
    app.config.setdefault("SESSION_COOKIE_NAME", "dealerroom")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    limiter.init_app(app)

    @app.after_request
    def headers(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        if "grants" in session or request.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    @app.context_processor
    def template_helpers() -> dict[str, object]:
        return {"csrf_token": csrf_token}
