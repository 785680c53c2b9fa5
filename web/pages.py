"""Public pages: the match list and a match's timeline."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from web import service

bp = Blueprint("pages", __name__)


@bp.get("/")
def index() -> Any:
    """The match list."""
    return render_template("index.html", matches=service().matches())


@bp.get("/matches/<match_id>")
def timeline(match_id: str) -> Any:
    """A match's timeline: every public record in order."""
    app = service()
    return render_template(
        "timeline.html",
        match_id=match_id,
        records=app.records(match_id),
        state=app.public_state(match_id),
    )
