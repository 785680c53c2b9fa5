"""Error answers: every error is a short JSON object ``{"error": message}``, never a traceback.

Client faults are 4xx; server trouble (the store locked or down) is a quick 503 with
``Retry-After``; anything else is a logged 500 whose answer says nothing internal.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from domain.match import BadInvite, MatchConflict
from service.application import NotFound

log = logging.getLogger("dealerroom.web")

CONFLICTS = (MatchConflict,)  # not now: a step not open, a seat taken, the match over...
REFUSED = (BadInvite,)  # a secret that is not this seat's


def error(status: int, message: str) -> Any:
    """A JSON error answer."""
    response = jsonify({"error": message})
    response.status_code = status
    return response


def init_app(app: Flask) -> None:
    """Register the JSON error handlers (for pages too: a page error is a short JSON)."""

    @app.errorhandler(NotFound)
    def not_found(exc: NotFound) -> Any:
        return error(404, str(exc))

    @app.errorhandler(ValueError)
    def bad_input(exc: ValueError) -> Any:
        if isinstance(exc, REFUSED):
            return error(403, str(exc))
        return error(409 if isinstance(exc, CONFLICTS) else 400, str(exc))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        response = error(exc.code or 500, exc.description or exc.name)
        if exc.code == 401:  # noqa: PLR2004
            response.headers["WWW-Authenticate"] = 'Bearer realm="dealerroom"'
        return response

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Any:
        log.exception("unexpected error on %s %s", request.method, request.path)
        return error(500, "internal error; it has been logged")
