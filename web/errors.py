"""Error answers: a short JSON object ``{"error": message}``, or a page; never a traceback.

A browser asking for a page (not under ``/api/``, preferring ``text/html`` to JSON, as a
browser's navigation does) gets the same message as a page with the site's navigation
(``error.html``): an unknown match, an unknown page, a bad ``?at=``. Everything else, every
API route and every script's ``fetch`` included, gets the JSON object.

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

from flask import Flask, jsonify, make_response, render_template, request
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


# What a page says of each status: its title and what to do about it.
PAGES: dict[int, tuple[str, str]] = {
    400: ("That address asks for something that does not exist",
          "Check the address, or open the page without the part after the question mark."),
    401: ("This page needs your private link", "Open the link your host sent you."),
    403: ("This is not yours to open", "Open the private link of your own seat or match."),
    404: ("Nothing here", "Check the address, or find the match in the list of matches."),
    405: ("This address does not take that request", "Open it as a page."),
    409: ("Not now", "Reload the page to see where the match stands."),
    413: ("That is too much at once", "Send less."),
    429: ("Too many requests", "Wait a moment and try again."),
    503: ("The service cannot answer right now", "Try again in a moment."),
}  # fmt: skip
UNKNOWN_PAGE = ("Something went wrong on our side", "Try again in a moment; it has been logged.")


def wants_page() -> bool:
    """Whether the request is a browser asking for a page (not the API, not a script)."""
    if request.path.startswith("/api/"):
        return False
    accepted = request.accept_mimetypes
    return accepted["text/html"] > accepted["application/json"]


def error(status: int, message: str) -> Any:
    """An error answer: JSON, or a page for a browser asking for one (:func:`wants_page`)."""
    if wants_page():
        title, advice = PAGES.get(status, UNKNOWN_PAGE)
        try:
            page = render_template(
                "error.html",
                status=status,
                title=title,
                message=message,
                advice=advice,
                path=request.path if status == 400 else None,  # noqa: PLR2004
            )
        except Exception:  # the page itself failed: the JSON answer still says it
            log.exception("the error page failed on %s %s", request.method, request.path)
        else:
            response = make_response(page, status)
            response.headers["Content-Type"] = "text/html; charset=utf-8"
            return response
    response = jsonify({"error": message})
    response.status_code = status
    return response


def init_app(app: Flask) -> None:
    """Register the error handlers (a page for a browser, JSON for everyone else)."""

    @app.errorhandler(UserError)
    def user_error(exc: UserError) -> Any:
        status = next(code for kind, code in USER_ERRORS if isinstance(exc, kind))
        return error(status, str(exc))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        response = error(exc.code or 500, exc.description or exc.name)
        for name, value in exc.get_headers():
            if name == "Retry-After":  # a 429's (web.seat_limits): when to try again
                response.headers[name] = value
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
