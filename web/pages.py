"""The pages: the match list, a match's timeline, the host console, the dealer room.

Pages render what the service and the replay board return; everything a page does is
done through the JSON API (:mod:`web.api`) by the page's script.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template, request

from domain.rules import UnknownGame, game_names, get_rules
from web import games, matchlist, security
from web.extension import service
from web.timeline import moment, page, part, record_number, replay_of

bp = Blueprint("pages", __name__)
bp.register_blueprint(games.bp)  # each game's static files, at /games/<game>/static/...


@bp.get("/")
def index() -> Any:
    """The front page: what dealerroom is, "Host a match", the match list with filters."""
    rows = [matchlist.listing(m) for m in service().matches()]
    listed = sorted({(m["game"], m["display_name"]) for m in rows}, key=lambda g: g[1].lower())
    return render_template("index.html", matches=rows, listed_games=listed)


@bp.get("/matches/<match_id>")
def timeline(match_id: str) -> Any:
    """A match's timeline: a replay viewer of its log at record ``?at=SEQ`` (the last one).

    ``?from=N`` gives only what a running match's page adds from record ``N`` on (no
    content when there is nothing new), so the page follows the match without reloading.
    """
    board = replay_of(match_id)
    records = board.records
    last = len(records) - 1
    if "from" in request.args:
        since = record_number(request.args["from"], last + 1)
        if since is None:
            abort(400, f"?from= is a record number from 0 to {last + 1}")
        if since > last:
            return "", 204
        match = str(service().match_key(match_id))
        return render_template("timeline_part.html", match_id=match, **part(records, since))
    at = last if "at" not in request.args else record_number(request.args["at"], last)
    if at is None:
        abort(400, _no_such_record(last))
    status = service().status(match_id)
    return render_template(
        "timeline.html",
        match_id=status["match_id"],
        status=status,
        summary=games.for_match(status["game"], status.get("options")).summary,
        **page(records, at, board),
    )


def _no_such_record(last: int) -> str:
    return (
        f"?at= is a record number from 0 to {last}: this match has {last + 1} records, "
        "and its page shows the last one without ?at="
    )


@bp.get("/matches/<match_id>/picture")
def picture_fragment(match_id: str) -> Any:
    """One moment of the timeline (after record ``?at=SEQ``): its picture, caption and changes.

    The timeline swaps it in place when stepping through the match.
    """
    board = replay_of(match_id)
    at = record_number(request.args.get("at"), len(board) - 1)
    if at is None:
        abort(400, _no_such_record(len(board) - 1))
    return render_template("picture.html", moment=moment(board.records, at, board))


@bp.get("/new")
def new_match() -> Any:
    """The host console's first page: create a match of any game."""
    names = [(name, get_rules(name).display_name) for name in game_names()]
    return render_template("new.html", games=names)


@bp.get("/games/<game>/rules")
def rules(game: str) -> Any:
    """A game's rules in short, with its own words (linked from the new-match form)."""
    try:
        found = get_rules(game)
    except UnknownGame:
        abort(404, f"there is no game called {game[:40]!r} here")
    shown = games.presentation(game)
    return render_template(
        "rules.html",
        game=game,
        display_name=found.display_name,
        summary=shown.summary,
        terms=shown.terms,
        options=found.options_schema(),
        players=(found.min_players, found.max_players),
        disclosure=found.disclosure.value,
    )


@bp.get("/matches/<match_id>/host")
def host(match_id: str) -> Any:
    """The host console of a match (reached through the host's private link)."""
    status = service().status(match_id)
    signed_in = security.holds(status["match_id"], security.HOST)
    display_name = games.display_name(status["game"], status.get("options"))
    return render_template(
        "host.html",
        status=status,
        signed_in=signed_in,
        display_name=display_name,
        title=str(status.get("name") or "") or display_name,
    )


@bp.get("/matches/<match_id>/players/<player>")
def room(match_id: str, player: str) -> Any:
    """A player's dealer room (reached through the player's private link)."""
    status = service().status(match_id)
    if player not in status["players"]:
        abort(404, f"{player!r} does not play in this match")
    signed_in = security.holds(status["match_id"], player)
    shown = games.for_match(status["game"], status.get("options"))
    return render_template(
        "room.html",
        status=status,
        player=player,
        signed_in=signed_in,
        controls=games.controls_url(status["game"]),
        room_css=games.room_css_url(status["game"]),
        summary=shown.summary,
        terms=shown.terms,
        display_name=games.display_name(status["game"], status.get("options")),
    )
