"""JSON API: every error is a JSON object with a message, never a traceback."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from service.application import NotFound
from web import service

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.get("/matches")
def matches() -> Any:
    """The match list."""
    return jsonify(
        [
            {**m, "created_at": m["created_at"].isoformat(), "last_activity": m["last_activity"].isoformat()}
            for m in service().matches()
        ]
    )


@bp.get("/matches/<match_id>/records")
def records(match_id: str) -> Any:
    """Every public record of a match, in log order."""
    return jsonify(service().records(match_id))


@bp.get("/matches/<match_id>/state")
def state(match_id: str) -> Any:
    """The public game state now."""
    return jsonify(service().public_state(match_id))


def _error(status: int, message: str) -> Any:
    response = jsonify({"error": message})
    response.status_code = status
    return response


def init_app(app: Flask) -> None:
    """Register the JSON error handlers."""

    @app.errorhandler(NotFound)
    def not_found(exc: NotFound) -> Any:
        return _error(404, str(exc))

    @app.errorhandler(ValueError)
    def bad_input(exc: ValueError) -> Any:
        return _error(400, str(exc))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        return _error(exc.code or 500, exc.description or exc.name)


@bp.get("/key")
def public_key() -> Any:
    """The verifier key of every checkpoint this service signs."""
    return jsonify({"public_key": service().public_key()})


@bp.get("/matches/<match_id>/checkpoint")
def checkpoint(match_id: str) -> Any:
    """The latest signed checkpoint, or a consistency proof from ``?from=SIZE``."""
    old = request.args.get("from", type=int)
    if old is not None:
        return jsonify(service().consistency(match_id, old))
    return jsonify(service().checkpoint(match_id))
