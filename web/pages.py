"""The pages: the match list, a match's timeline, the host console, the dealer room.

Pages render what the service and the replay board return; everything a page does is
done through the JSON API (:mod:`web.api`) by the page's script.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template, request

from domain.rules import game_names, get_rules
from web import games, security
from web.extension import service
from web.pictures import account, chart, picture
from web.timeline import replay_of, rows

bp = Blueprint("pages", __name__)
bp.register_blueprint(games.bp)  # each game's static files, at /games/<game>/static/...


@bp.get("/")
def index() -> Any:
    """The match list: game, players, status, last activity."""
    return render_template("index.html", matches=service().matches())


@bp.get("/matches/<match_id>")
def timeline(match_id: str) -> Any:
    """A match's timeline, grouped by step, with the state drawn at the selected event."""
    board = replay_of(match_id)
    records = board.records
    last = len(records) - 1
    at = request.args.get("at", type=int)
    if at is None or not 0 <= at <= last:
        at = last
    groups = rows(records)
    accounts = {g.step: account(records, g.step) for g in groups if g.step is not None}
    status = service().status(match_id)
    return render_template(
        "timeline.html",
        match_id=status["match_id"],
        summary=games.presentation(status["game"]).summary,
        status=status,
        groups=groups,
        accounts=accounts,
        at=at,
        last=last,
        selected=records[at],
        picture=picture(records, at, board=board),
        chart=chart(records),
        diff=board.diff(at - 1, at) if at > 0 else [],
    )


@bp.get("/matches/<match_id>/picture")
def picture_fragment(match_id: str) -> Any:
    """Only the picture of the state after ``?at=SEQ`` (the timeline swaps it in place)."""
    board = replay_of(match_id)
    at = request.args.get("at", type=int)
    if at is None or not 0 <= at < len(board):
        abort(400, f"?at= is a record number from 0 to {len(board) - 1}")
    return render_template("picture.html", picture=picture(board.records, at, board=board), at=at)


@bp.get("/new")
def new_match() -> Any:
    """The host console's first page: create a match of any game."""
    names = [(name, get_rules(name).display_name) for name in game_names()]
    return render_template("new.html", games=names)


@bp.get("/matches/<match_id>/host")
def host(match_id: str) -> Any:
    """The host console of a match (reached through the host's private link)."""
    status = service().status(match_id)
    signed_in = security.holds(status["match_id"], security.HOST)
    return render_template("host.html", status=status, signed_in=signed_in)


@bp.get("/matches/<match_id>/players/<player>")
def room(match_id: str, player: str) -> Any:
    """A player's dealer room (reached through the player's private link)."""
    status = service().status(match_id)
    if player not in status["players"]:
        abort(404, f"{player!r} does not play in this match")
    signed_in = security.holds(status["match_id"], player)
    private = service().private_state(status["match_id"], player) if signed_in else None
    return render_template(
        "room.html",
        status=status,
        player=player,
        signed_in=signed_in,
        private=private,
        controls=games.controls_url(status["game"]),
        summary=games.presentation(status["game"]).summary,
    )
