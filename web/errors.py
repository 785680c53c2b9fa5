"""Error answers: every error is a short JSON object ``{"error": message}``, never a traceback.

Client faults are 4xx, and only they: a :class:`~domain.errors.UserError` is a 400, a
``Conflict`` (not now) a 409, a ``Refused`` (a secret that is not this one) a 403, a
``Missing`` (an unknown match) a 404, besides werkzeug's own HTTP errors. Server trouble
(the store locked or down) is a quick 503 with ``Retry-After``; sealed data that the
configured keys cannot open (a key missing or wrong, a tampered store) is a 503 that says
only that the operator has been told; anything else, a bare ``ValueError`` or ``KeyError``
from a bug included, is a 500 logged as ``unexpected error`` whose answer says nothing
internal (the test suite fails on that log line). Server-side details (SQL, file paths,
event topics, key ids) go to the log, never into an answer.

A body of unknown length (``Transfer-Encoding: chunked``) over the limit is a 413 like one
whose ``Content-Length`` says so: werkzeug stops reading such a body at the limit and
passes on what it read, so a long chunked JSON body was cut and answered 400.
"""

from __future__ import annotations

import logging
from io import BytesIO
from typing import Any

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from domain.errors import Conflict, Missing, Refused, UserError
from domain.sealed import SealedBindingError
from service.faults import RETRY_AFTER_SECONDS, STORE_FAULTS
from service.sealing import SealingError, UnreadableEvent

log = logging.getLogger("dealerroom.web")

UNEXPECTED = "unexpected error on %s %s"
"""The log message of a 500 (a bug): the test suite fails a test that logs it."""
USER_ERRORS: tuple[tuple[type[UserError], int], ...] = (
    (Missing, 404),  # an unknown match
    (Refused, 403),  # a secret that is not this seat's
    (Conflict, 409),  # not now: a step not open, a seat taken, the match over...
    (UserError, 400),  # a bad pick, option, name or file
)
KEY_FAULTS = (SealingError, SealedBindingError, UnreadableEvent)  # the operator's, not the caller's
UNAVAILABLE = "the service cannot answer right now; try again in a moment"
CANNOT_OPEN = "the service cannot read this data right now; its operator has been told"


def error(status: int, message: str) -> Any:
    """A JSON error answer."""
    response = jsonify({"error": message})
    response.status_code = status
    return response


def init_app(app: Flask) -> None:
    """Register the JSON error handlers (for pages too: a page error is a short JSON)."""

    @app.errorhandler(UserError)
    def user_error(exc: UserError) -> Any:
        status = next(code for kind, code in USER_ERRORS if isinstance(exc, kind))
        return error(status, str(exc))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        response = error(exc.code or 500, exc.description or exc.name)
        if exc.code == 401:  # noqa: PLR2004
            response.headers["WWW-Authenticate"] = 'Bearer realm="dealerroom"'
        return response

    def store_fault(exc: Exception) -> Any:
        log.warning("store unavailable on %s %s: %s: %s", request.method, request.path,
                    type(exc).__name__, exc)  # fmt: skip
        response = error(503, UNAVAILABLE)
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response

    for fault in STORE_FAULTS:
        app.register_error_handler(fault, store_fault)

    def keep_retry_after(response: Any) -> Any:
        """A 503 keeps its own Retry-After.

        Flask-Limiter's headers set Retry-After on every answer of a rate-limited route, and
        rounded down it turned the 503's one second into ``0`` ("retry now").
        """
        if response.status_code == 503 and "Retry-After" in response.headers:  # noqa: PLR2004
            response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response

    # after_request functions run last-registered first: at the front, this one runs last.
    app.after_request_funcs.setdefault(None, []).insert(0, keep_retry_after)

    def key_fault(exc: Exception) -> Any:
        log.error("sealed data cannot be opened on %s %s: %s", request.method, request.path, exc)
        return error(503, CANNOT_OPEN)

    for fault in KEY_FAULTS:
        app.register_error_handler(fault, key_fault)

    @app.before_request
    def bounded_chunked_body() -> Any:
        """Read a chunked body up to one byte past the limit: past it, answer 413."""
        environ = request.environ
        if "chunked" not in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            return None
        limit = int(app.config["MAX_CONTENT_LENGTH"])
        stream, body = environ["wsgi.input"], bytearray()
        while len(body) <= limit:
            chunk = stream.read(min(64 * 1024, limit + 1 - len(body)))
            if not chunk:
                break
            body += chunk
        if len(body) > limit:
            return error(413, f"the request body is over the limit of {limit // 1024} KiB")
        # From here on the body is an ordinary one of known length.
        environ["wsgi.input"] = BytesIO(bytes(body))
        environ["CONTENT_LENGTH"] = str(len(body))
        del environ["HTTP_TRANSFER_ENCODING"]
        return None

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Any:
        log.error(UNEXPECTED, request.method, request.path, exc_info=exc)
        return error(500, "internal error; it has been logged")
