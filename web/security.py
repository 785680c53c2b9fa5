"""Who may do what, CSRF protection and the security headers of every response.

**Roles.** Creating a match returns the host's secret token and one single-use invite per
player; each player claims their seat with the invite and receives their own token (the host
never holds it). The service stores only hashes and compares in constant time. A token is
presented in one of two ways:

* ``Authorization: Bearer <token>`` on an API request (scripts, the CLI, tests); such
  requests carry no ambient credential, so they need no CSRF token;
* exchanged once for a *grant* (``POST /api/matches/<id>/session``, or a claim with
  ``"sign_in": true``), which the private links do: a link is ``/matches/<id>/host#<token>``
  or ``/matches/<id>/players/<player>#invite=<code>``, and the secret sits in the URL
  *fragment*, which browsers never send to the server, so it appears in no request line,
  access log or ``Referer``. The grant is a random id in the signed session cookie; the
  service keeps its hash (:mod:`service.grants`), so signing out revokes it on the server
  (a copied cookie stops working) and a re-invite revokes every grant of the old credential.

A browser may hold grants for several roles (a host testing their own match as each
player); each API call names the role it acts as in its URL, and the grant must cover it.

**CSRF.** Every state-changing request made with the session cookie must carry the header
``X-CSRF-Token`` equal to the session's CSRF token (pages put it in
``<meta name="csrf-token">``), and API bodies must be ``application/json``, which a
cross-site form cannot send. The cookie is named ``dealerroom``, ``HttpOnly``,
``SameSite=Strict``, and ``Secure`` whenever the request came over HTTPS (directly, or through
the proxy headers trusted by :mod:`web.proxies`).

**Rate limits.** Submissions, commitments, openings and decisions are limited per match and
player (``DEALERROOM_SUBMIT_RATE``, default ``30/second;1200/minute``; the match id is put in
its canonical form first, so spelling it differently does not reset the count), match creation per
client address (``DEALERROOM_CREATE_RATE``, default ``120/minute``); past the limit the
answer is 429 with a JSON message and ``Retry-After``. Counters live in the process (one set
per worker). The per-seat limit is counted by :mod:`web.seat_limits`, the others by
Flask-Limiter.
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
from flask.sessions import SecureCookieSessionInterface
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.exceptions import BadRequest, Forbidden, Unauthorized

from web import seat_limits
from web.extension import service

if TYPE_CHECKING:
    from flask import Flask, Request, Response
    from flask.sessions import SecureCookieSession, SessionMixin

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


CREATE_RATE = "120/minute"

limiter = Limiter(key_func=get_remote_address, storage_uri="memory://", default_limits=[])


def _rate(name: str, default: str) -> str:
    return str(current_app.config.get(name) or default)


submit_limit = seat_limits.seat_limit  # per match and player, on the hot path: web.seat_limits
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


def grants() -> dict[str, dict[str, str]]:
    """The grants this browser holds: match id -> role -> grant id."""
    value = session.get(GRANTS)
    if not isinstance(value, dict):
        return {}
    return {m: r for m, r in value.items() if isinstance(r, dict)}


def grant(match_id: str, token: str) -> str | None:
    """Exchange a role's token for a server-side grant kept in the session; return the role."""
    opened = service().open_grant(match_id, token)
    if opened is None:
        return None
    role, grant_id = opened
    held = grants()
    held.setdefault(match_id, {})[role] = grant_id
    session[GRANTS] = held
    session.permanent = True
    return role


def revoke(match_id: str) -> None:
    """Revoke (on the server) and forget every grant this browser holds in the match."""
    held = grants()
    roles = held.pop(match_id, {})
    service().revoke_grants(match_id, list(roles.values()))
    session[GRANTS] = held


def holds(match_id: str, role: str) -> bool:
    """Whether the session holds a live grant for ``role`` in the match."""
    grant_id = grants().get(match_id, {}).get(role)
    return isinstance(grant_id, str) and service().grant_holds(match_id, role, grant_id)


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


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, ``Secure`` whenever the request came over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        """Secure when configured so, or when this request is HTTPS (proxy headers included)."""
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """Flask's, without building the cookie's signer when the request sends no cookie.

        API calls with a bearer token send none; for them the session is empty either way.
        """
        if app.secret_key and not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()
        return super().open_session(app, request)

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """Flask's, returning at once for an empty session that nothing changed (as it does)."""
        if not session and not session.modified:
            if session.accessed:
                response.vary.add("Cookie")
            return
        super().save_session(app, session, response)


def init_app(app: Flask) -> None:
    """Session cookie settings and the headers of every response."""
    # Flask defines these keys already, so setdefault would leave Flask's values in place.
    app.config["SESSION_COOKIE_NAME"] = "dealerroom"
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = "Strict"
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    app.session_interface = SessionInterface()
    limiter.init_app(app)
    seat_limits.init_app(app)

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
