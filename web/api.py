"""The JSON API: everything the pages do, described by ``/api/openapi.json``.

Errors are JSON objects ``{"error": message}`` with a 4xx status, never a traceback.
Acting as a role needs that role's token (``Authorization: Bearer``) or a session grant
from its private link (see :mod:`web.security`); reading public records needs nothing.
Sealed picks never appear in any response except the submitting player's own.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, Flask, jsonify, request, url_for
from werkzeug.exceptions import BadRequest, Forbidden

from domain.errors import Conflict
from domain.rules import game_names, get_rules
from domain.rules.base import RulesError
from web import errors, matchlist, security
from web.extension import archive, service
from web.host_view import host_view
from web.news import news
from web.openapi import openapi_document
from web.room import room_data
from web.timeline import replay_of

bp = Blueprint("api", __name__, url_prefix="/api")
log = logging.getLogger("dealerroom.web")


def _int_arg(name: str) -> int | None:
    raw = request.args.get(name)
    if raw is None:
        return None
    msg = f"?{name}= is a whole number, not {raw[:40]!r}"
    if len(raw) > MAX_DIGITS:  # longer than any position, and int() of it costs
        raise BadRequest(msg)
    try:
        value = int(raw)
    except ValueError:
        raise BadRequest(msg) from None
    if not 0 <= value <= MAX_POSITION:
        msg = f"?{name}= is a whole number from 0 to {MAX_POSITION}"
        raise BadRequest(msg)
    return value


MAX_DIGITS = 20
MAX_POSITION = 2**53 - 1  # positions and sizes in a log; JSON numbers are exact up to here


def _field(body: dict[str, Any], name: str, kind: type, *, required: bool = True) -> Any:
    """``body[name]`` if it is a ``kind`` (``None`` when absent and not required)."""
    value = body.get(name)
    if value is None:
        if required:
            msg = f"{name!r} is required"
            raise BadRequest(msg)
        return None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        msg = f"{name!r} must be {_KINDS.get(kind, kind.__name__)}"
        raise BadRequest(msg)
    return value


_KINDS = {
    str: "text",
    int: "a whole number",
    list: "a list",
    dict: "an object",
    bool: "true or false",
}


# ---------------------------------------------------------------------- public reads


@bp.get("/openapi.json")
def openapi() -> Any:
    """The OpenAPI 3.1 document of this API."""
    return jsonify(openapi_document())


@bp.get("/games")
def games() -> Any:
    """The games this service runs: default options, the typed options, the players."""
    out = []
    for name in game_names():
        rules = get_rules(name)
        try:
            defaults: Any = rules.normalise_options({})
            fewest, most = rules.player_range({})
            suggested: Any = rules.default_players({})
        except RulesError:
            defaults = suggested = None
            fewest, most = rules.min_players, rules.max_players
        out.append(
            {
                "game": name,
                "display_name": rules.display_name,
                "version": rules.version,
                "disclosure": rules.disclosure.value,
                "default_options": defaults,
                "options": [option.as_json() for option in rules.options_schema()],
                "players": {"min": fewest, "max": most, "suggested": suggested},
                "doc": (type(rules).__doc__ or "").strip().split("\n\n")[0],
            }
        )
    return jsonify(out)


@bp.get("/key")
def public_key() -> Any:
    """The verifier key of every checkpoint this service signs."""
    return jsonify({"public_key": service().public_key()})


@bp.get("/matches")
def matches() -> Any:
    """The match list, most recent activity first, with each match's status in words."""
    return jsonify([matchlist.listing(m) for m in service().matches()])


@bp.get("/matches/<match_id>")
def match_status(match_id: str) -> Any:
    """Where a match stands: the current step and who has submitted (never what)."""
    return jsonify(service().status(match_id))


@bp.get("/matches/<match_id>/records")
def records(match_id: str) -> Any:
    """The public records of a match in log order (``?from=SEQ`` for the newer ones)."""
    return jsonify(service().records(match_id, _int_arg("from") or 0))


@bp.get("/matches/<match_id>/state")
def state(match_id: str) -> Any:
    """The public game state now, or just after record ``?at=SEQ``."""
    at = _int_arg("at")
    if at is None:
        return jsonify(service().public_state(match_id))
    replay = replay_of(match_id)
    if at >= len(replay):
        msg = f"?at={at} is past the last record ({len(replay) - 1})"
        raise BadRequest(msg)
    return jsonify(replay.view_at(at))


@bp.get("/matches/<match_id>/checkpoint")
def checkpoint(match_id: str) -> Any:
    """The latest signed checkpoint, or a consistency proof from ``?from=SIZE``."""
    old = _int_arg("from")
    if old is not None:
        return jsonify(service().consistency(match_id, old))
    return jsonify(service().checkpoint(match_id))


@bp.get("/matches/<match_id>/bundle")
def bundle(match_id: str) -> Any:
    """The match's bundle: public records, every checkpoint and the key (a download)."""
    from replay.bundle import dump_bundle  # noqa: PLC0415 - only this route needs it

    body = dump_bundle(archive().export_bundle(match_id))
    response = Flask.response_class(body, mimetype="application/json")
    if request.args.get("download"):
        response.headers["Content-Disposition"] = f'attachment; filename="{match_id}.bundle.json"'
    return response


# ---------------------------------------------------------------------- sessions


def invite_link(match_id: str, player: str, invite: str) -> str:
    """The private link that claims ``player``'s seat (the invite in the URL fragment)."""
    return url_for("pages.room", match_id=match_id, player=player, _external=True) + (
        "#invite=" + invite
    )


MAX_NAME = 80
STEP_SECONDS = (30, 86400)  # a match's step deadline: 30 s to 24 h, or null for none
DEFAULT_STEP_SECONDS = 300


def _match_settings(body: dict[str, Any]) -> dict[str, Any]:
    """The match's name and settings from a new match's body, with their defaults."""
    name = (_field(body, "name", str, required=False) or "").strip()
    if len(name) > MAX_NAME:
        msg = f"'name' is at most {MAX_NAME} characters after trimming (it has {len(name)})"
        raise BadRequest(msg)
    auto_open = _field(body, "auto_open", bool, required=False)
    auto_seal = _field(body, "auto_seal", bool, required=False)
    seconds = body.get("step_seconds", DEFAULT_STEP_SECONDS)
    fewest, most = STEP_SECONDS
    if seconds is not None and (
        isinstance(seconds, bool) or not isinstance(seconds, int) or not fewest <= seconds <= most
    ):
        msg = (
            f"'step_seconds' is a whole number of seconds from {fewest} to {most} (24 hours), "
            "or null for no deadline"
        )
        raise BadRequest(msg)
    return {
        "name": name,
        "auto_open": auto_open is not False,
        "auto_seal": auto_seal is not False,
        "step_seconds": seconds,
    }


@bp.post("/matches")
@security.create_limit
def create_match() -> Any:
    """Create a match; the caller becomes its host. Its token and the invites are shown once."""
    body = security.json_body()
    game = _field(body, "game", str)
    players = _field(body, "players", list)
    options = _field(body, "options", dict, required=False) or {}
    custody = _field(body, "custody", dict, required=False) or {}
    keys = _field(body, "player_keys", dict, required=False) or {}
    settings = _match_settings(body)  # name, auto_open, auto_seal, step_seconds
    notify = news().check(body.get("notify"))  # private to the host: never shown or logged
    created = service().create_match(
        game, players, options, custody=custody, player_keys=keys, **settings
    )
    mid = created["match_id"]
    if notify:
        news().follow(mid, notify)
    created["links"] = {
        "timeline": url_for("pages.timeline", match_id=mid, _external=True),
        "host": url_for("pages.host", match_id=mid, _external=True) + "#" + created["host_token"],
        "players": {p: invite_link(mid, p, code) for p, code in created["invites"].items()},
    }
    if body.get("sign_in_as_host") is True:
        security.grant(mid, created["host_token"])
        created["csrf_token"] = security.csrf_token()
    log.info("match %s created (%s, %d players)", mid, game, len(players))
    return jsonify(created), 201


@bp.post("/matches/<match_id>/players/<player>/claim")
@security.submit_limit
def claim(match_id: str, player: str) -> Any:
    """A player claims their seat with its invite (once); the answer holds their own token.

    With ``"public_key"`` (standard base64 of a 32-byte Ed25519 key) every later submission
    must be signed with it. With ``"sign_in": true`` this browser also gets a grant.
    """
    mid = str(service().match_key(match_id))
    if player == security.HOST:
        msg = "the host is not a player: seats belong to the match's players"
        raise Forbidden(msg)
    body = security.json_body()
    invite = _field(body, "invite", str)
    public_key = _field(body, "public_key", str, required=False)
    claimed = service().claim(mid, player, invite, public_key)
    if body.get("sign_in") is True:
        security.grant(mid, claimed["token"])
        claimed["csrf_token"] = security.csrf_token()
    log.info("match %s: the seat of %s was claimed", mid, player)
    return jsonify(claimed), 201


@bp.post("/matches/<match_id>/players/<player>/invite")
def reinvite(match_id: str, player: str) -> Any:
    """The host issues a new invite for a seat; its holder's credential and key are revoked."""
    mid = _as_host(match_id)
    issued = service().reinvite(mid, player)
    issued["link"] = invite_link(mid, player, issued["invite"])
    log.info("match %s: the seat of %s was re-invited", mid, player)
    return jsonify(issued), 201


@bp.post("/matches/<match_id>/session")
def sign_in(match_id: str) -> Any:
    """Exchange a private link's token for a grant in this browser's session cookie."""
    body = security.json_body()
    token = _field(body, "token", str)
    mid = str(service().match_key(match_id))
    role = security.grant(mid, token)
    if role is None:
        return errors.error(403, "that link is not valid for this match (a new invite replaces it)")
    return jsonify({"role": role, "csrf_token": security.csrf_token()})


@bp.delete("/matches/<match_id>/session")
def sign_out(match_id: str) -> Any:
    """Sign this browser out of the match: its grants are revoked on the server."""
    security.check_csrf()
    security.revoke(str(service().match_key(match_id)))
    return jsonify({"signed_out": True})


# ---------------------------------------------------------------------- host


def _as_host(match_id: str) -> str:
    mid = str(service().match_key(match_id))
    security.require_role(mid, security.HOST)
    return mid


@bp.post("/matches/<match_id>/steps")
def open_step(match_id: str) -> Any:
    """The host opens the next step, with a deadline (``seconds`` or RFC 3339 ``deadline``)."""
    mid = _as_host(match_id)
    body = security.json_body()
    seconds = _field(body, "seconds", int, required=False)
    if seconds is not None and not 1 <= seconds <= 7 * 24 * 3600:
        msg = "'seconds' is between 1 and 604800 (a week)"
        raise BadRequest(msg)
    deadline = _field(body, "deadline", str, required=False)
    deal = _field(body, "deal", dict, required=False)
    number = service().open_step(mid, deadline=deadline, seconds=seconds, deal=deal)
    return jsonify({"step": number, "status": service().status(mid)}), 201


@bp.post("/matches/<match_id>/seal")
def seal(match_id: str) -> Any:
    """The host seals the open step now (missing players get the game's default)."""
    mid = _as_host(match_id)
    return jsonify({"result": service().seal(mid), "status": service().status(mid)})


MAX_REASON = 300
HOST = "host"  # who a custom game asks to declare a step's winners


@bp.post("/matches/<match_id>/end")
def end_match(match_id: str) -> Any:
    """The host ends the match early, with a reason; everything sealed is disclosed."""
    mid = _as_host(match_id)
    reason = (_field(security.json_body(), "reason", str) or "").strip()
    if not 1 <= len(reason) <= MAX_REASON:
        msg = f"'reason' is text of 1 to {MAX_REASON} characters (say why the match ends)"
        raise BadRequest(msg)
    service().end_match(mid, reason)
    log.info("match %s was ended early by its host", mid)
    return jsonify({"result": "ended", "status": service().status(mid)})


@bp.post("/matches/<match_id>/openings/force")
def force_openings(match_id: str) -> Any:
    """The host ends the opening window: unopened self-custody picks get the default."""
    mid = _as_host(match_id)
    return jsonify({"result": service().force_openings(mid), "status": service().status(mid)})


@bp.post("/matches/<match_id>/decisions/default")
def default_decision(match_id: str) -> Any:
    """The host applies the default to the pending decision (as its deadline would)."""
    mid = _as_host(match_id)
    return jsonify(
        {"result": service().apply_decision_default(mid), "status": service().status(mid)}
    )


@bp.post("/matches/<match_id>/declare")
def declare(match_id: str) -> Any:
    """The host declares the winners of a step a custom game leaves to the host."""
    mid = _as_host(match_id)
    body = security.json_body()
    pending = service().status(mid)["step"]
    asked = pending.get("decision") if isinstance(pending, dict) else None
    if not isinstance(asked, dict) or asked.get("player") != HOST:
        msg = "no declaration of winners is awaited from the host in this match now"
        raise Conflict(msg)
    result = service().decide(mid, HOST, body)
    return jsonify({"result": result, "status": service().status(mid)})


@bp.get("/matches/<match_id>/host/view")
def host_console(match_id: str) -> Any:
    """Everything the host console shows: the status, the table and the words."""
    return jsonify(host_view(_as_host(match_id)))


# ---------------------------------------------------------------------- players


def _as_player(match_id: str, player: str) -> str:
    mid = str(service().match_key(match_id))
    security.require_player(mid, player)
    return mid


def _player_body(match_id: str, player: str) -> tuple[str, dict[str, Any], Any]:
    """Authorise ``player``; return the match id, the JSON body and its ``payload``."""
    mid = _as_player(match_id, player)
    return mid, *_payload(security.json_body())


def _payload(body: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    if "payload" not in body:
        raise BadRequest("'payload' is required")
    return body, body["payload"]


def _as_pick_maker(match_id: str, player: str) -> tuple[str, str | None]:
    """The match id, and a bearer token the service checks with the pick, in its batch.

    A pick sent with a bearer token is authorised where it is recorded, on the copy of the
    match the save commits (``service.seat_notes.as_seat``): no read of the committed
    credentials of its own (under load, the costliest part of a submission after the save).
    A browser's grant, or a token sent to a ``host`` route, is checked here as before.
    """
    token = security.bearer()
    if token is None or player == security.HOST:
        return _as_player(match_id, player), None
    return str(service().match_key(match_id)), token


@bp.get("/matches/<match_id>/players/<player>")
def private_view(match_id: str, player: str) -> Any:
    """A player's own view (hand, sequence) and current pick: only for that player."""
    mid = _as_player(match_id, player)
    return jsonify({"player": player, **service().private_state(mid, player)})


@bp.get("/matches/<match_id>/players/<player>/room")
def room(match_id: str, player: str) -> Any:
    """Everything the player's dealer room shows: the table, the choices and the words."""
    mid = _as_player(match_id, player)
    return jsonify({"player": player, **room_data(mid, player)})


@bp.get("/matches/<match_id>/players/<player>/receipts")
def receipts(match_id: str, player: str) -> Any:
    """Receipts of the player's own commitments, oldest first (fetch them on any device)."""
    mid = _as_player(match_id, player)
    return jsonify(service().commitments_of(mid, player))


@bp.post("/matches/<match_id>/players/<player>/join")
@security.submit_limit
def join(match_id: str, player: str) -> Any:
    """A player takes their seat, optionally adding public entropy (before the first deal)."""
    mid = _as_player(match_id, player)
    entropy = _field(security.json_body(), "entropy", str, required=False)
    return jsonify({"joined": service().join(mid, player, entropy)})


@bp.post("/matches/<match_id>/players/<player>/submissions")
@security.submit_limit
def submit(match_id: str, player: str) -> Any:
    """Seal a pick (sealed custody); amend by submitting again until the step is sealed.

    Send ``salt`` (64 hex digits) to have computed the commitment yourself (the dealer
    room does, in the browser); the response's commitment must equal yours.
    """
    mid, token = _as_pick_maker(match_id, player)
    body, payload = _payload(security.json_body())
    result = service().submit(
        mid,
        player,
        payload,
        step=_field(body, "step", int, required=False),
        salt=_field(body, "salt", str, required=False),
        signature=_field(body, "signature", str, required=False),
        token=token,
    )
    log.info("match %s step %s: %s submitted", mid, result["step"], player)
    return jsonify(result), 201


@bp.post("/matches/<match_id>/players/<player>/commitments")
@security.submit_limit
def commit_only(match_id: str, player: str) -> Any:
    """Self-custody: send only the commitment now; open it after the seal."""
    mid, token = _as_pick_maker(match_id, player)
    body = security.json_body()
    result = service().submit_commitment(
        mid,
        player,
        _field(body, "commitment", str),
        step=_field(body, "step", int, required=False),
        signature=_field(body, "signature", str, required=False),
        token=token,
    )
    return jsonify(result), 201


@bp.post("/matches/<match_id>/players/<player>/openings")
@security.submit_limit
def open_commitment(match_id: str, player: str) -> Any:
    """Self-custody: open the commitment (payload and salt) after the step is sealed."""
    mid, body, payload = _player_body(match_id, player)
    salt = _field(body, "salt", str)
    step = service().get_match(mid).step  # the sealed step that waits for the opening
    result = service().open_commitment(mid, player, step, payload, salt)
    return jsonify({"result": result, "status": service().status(mid)})


@bp.post("/matches/<match_id>/players/<player>/decisions")
@security.submit_limit
def decide(match_id: str, player: str) -> Any:
    """Answer the decision resolution asks of this player (public, logged)."""
    mid, _, payload = _player_body(match_id, player)
    result = service().decide(mid, player, payload)
    return jsonify({"result": result, "status": service().status(mid)})


# ---------------------------------------------------------------------- errors


def init_app(app: Flask) -> None:
    """Register the error handlers (:mod:`web.errors`)."""
    errors.init_app(app)
