"""The OpenAPI 3.1 document of the JSON API (served at ``/api/openapi.json``).

Written by hand next to the routes of :mod:`web.api`; ``tests/e2e/test_openapi.py``
checks that every route is described and every described route exists, and the fuzzing
tests drive the API from this document.
"""

from __future__ import annotations

from typing import Any

JSON = "application/json"

_ERROR = {"$ref": "#/components/schemas/Error"}
_MATCH_ID = {
    "name": "match_id",
    "in": "path",
    "required": True,
    "description": "the match id (a UUID)",
    "schema": {"type": "string"},
}
_PLAYER = {
    "name": "player",
    "in": "path",
    "required": True,
    "description": "the player's name",
    "schema": {"type": "string"},
}
_ANY: dict[str, Any] = {}  # any JSON value (a pick or a decision is game-specific)


def _errors(*codes: int) -> dict[str, Any]:
    words = {
        400: "bad input (the message says what)",
        401: "needs the role's token or its private link",
        403: "the token or link is not this role's, or the CSRF header is missing",
        404: "no such match or player",
        409: "not now: no step open, the match has finished, no decision pending",
        413: "the body is too large",
        429: "too many submissions; try again shortly",
    }
    return {str(c): {"description": words[c], "content": {JSON: {"schema": _ERROR}}} for c in codes}


def _body(schema: dict[str, Any], *, required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {JSON: {"schema": schema}}}


def _ok(description: str, schema: dict[str, Any] | None = None, code: int = 200) -> dict[str, Any]:
    return {
        str(code): {
            "description": description,
            "content": {JSON: {"schema": schema or {"type": "object"}}},
        }
    }


def _obj(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


_STATUS = {"$ref": "#/components/schemas/Status"}
_READ = _errors(400, 404)
_HOST: list[dict[str, list[str]]] = [{"bearer": []}, {"session": []}]


def _host_action(
    summary: str, body: dict[str, Any] | None = None, code: int = 200
) -> dict[str, Any]:
    op: dict[str, Any] = {
        "summary": summary,
        "security": _HOST,
        "parameters": [_MATCH_ID],
        "responses": {
            **_ok("done", _obj({"result": {}, "status": _STATUS}), code),
            **_errors(400, 401, 403, 404, 409),
        },
    }
    if body is not None:
        op["requestBody"] = _body(body)
    return op


def _player_action(
    summary: str, body: dict[str, Any], code: int = 200, ok: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {
        "summary": summary,
        "security": _HOST,
        "parameters": [_MATCH_ID, _PLAYER],
        "requestBody": _body(body),
        "responses": {
            **_ok("done", ok, code),
            **_errors(400, 401, 403, 404, 409, 413, 429),
        },
    }


def openapi_document() -> dict[str, Any]:
    """The OpenAPI document."""
    match = "/api/matches/{match_id}"
    player = f"{match}/players/{{player}}"
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "dealerroom",
            "version": "1",
            "description": (
                "Sealed picks committed, revealed, replayed and proven fair. Acting as a role "
                "needs its token as `Authorization: Bearer <token>`, or a session grant from "
                "its private link plus the `X-CSRF-Token` header. Errors are JSON objects "
                "with an `error` message."
            ),
        },
        "paths": {
            "/api/openapi.json": {
                "get": {"summary": "this document", "responses": _ok("the document")}
            },
            "/api/games": {
                "get": {
                    "summary": (
                        "the games: name and display name, rules version, disclosure, default "
                        "options, the typed options a new-match form is built from (name, "
                        "kind, default, description, minimum, maximum, choices, filled) and "
                        "the players it takes (min, max, suggested names)"
                    ),
                    "responses": _ok(
                        "the games",
                        {
                            "type": "array",
                            "items": _obj(
                                {
                                    "game": {"type": "string"},
                                    "display_name": {"type": "string"},
                                    "version": {"type": "string"},
                                    "disclosure": {"type": "string"},
                                    "default_options": {"type": ["object", "null"]},
                                    "options": {"type": "array", "items": {"type": "object"}},
                                    "players": _obj(
                                        {
                                            "min": {"type": "integer"},
                                            "max": {"type": "integer"},
                                            "suggested": {"type": ["array", "null"]},
                                        }
                                    ),
                                    "doc": {"type": "string"},
                                },
                                ["game", "display_name", "options", "players"],
                            ),
                        },
                    ),
                }
            },
            "/api/key": {
                "get": {
                    "summary": "the C2SP verifier key of every checkpoint",
                    "responses": _ok(
                        "the key", _obj({"public_key": {"type": "string"}}, ["public_key"])
                    ),
                }
            },
            "/api/qr": {
                "post": {
                    "summary": (
                        "the QR code of a link (an invite to hand across the table), as an SVG "
                        "image; the link is neither logged nor kept"
                    ),
                    "requestBody": _body(
                        _obj(
                            {"text": {"type": "string", "minLength": 1, "maxLength": 1000}},
                            ["text"],
                        )
                    ),
                    "responses": {
                        "200": {
                            "description": "the QR code",
                            "content": {"image/svg+xml": {"schema": {"type": "string"}}},
                        },
                        **_errors(400, 413, 429),
                    },
                }
            },
            "/api/matches": {
                "get": {
                    "summary": "the match list, most recent activity first",
                    "responses": _ok("the matches", {"type": "array", "items": {"type": "object"}}),
                },
                "post": {
                    "summary": (
                        "create a match; the answer holds the host's token and one single-use "
                        "invite per player (never a player's token), with their private links, "
                        "shown once"
                    ),
                    "requestBody": _body(
                        _obj(
                            {
                                "game": {"type": "string"},
                                "players": {"type": "array", "items": {"type": "string"}},
                                "options": {"type": "object"},
                                "custody": {
                                    "type": "object",
                                    "additionalProperties": {"enum": ["sealed", "self"]},
                                },
                                "player_keys": {
                                    "type": "object",
                                    "additionalProperties": {"type": "string"},
                                },
                                "sign_in_as_host": {"type": "boolean"},
                                "name": {
                                    "type": "string",
                                    "maxLength": 80,
                                    "description": "the match's public name (trimmed)",
                                },
                                "auto_open": {
                                    "type": "boolean",
                                    "default": True,
                                    "description": (
                                        "open the first step once every seat is claimed and "
                                        "each next one as soon as the last resolves (public)"
                                    ),
                                },
                                "auto_seal": {
                                    "type": "boolean",
                                    "default": True,
                                    "description": (
                                        "seal a step as soon as everyone asked has submitted "
                                        "(public)"
                                    ),
                                },
                                "step_seconds": {
                                    "type": ["integer", "null"],
                                    "minimum": 30,
                                    "maximum": 86400,
                                    "default": 300,
                                    "description": (
                                        "the deadline of a step opened by itself, in seconds "
                                        "(null: none); the console offers it for the others"
                                    ),
                                },
                                "notify": {
                                    "type": "array",
                                    "maxItems": 5,
                                    "items": {"type": "string", "maxLength": 500},
                                    "description": (
                                        "where the match's news goes: apprise URLs (a Discord "
                                        "or Slack webhook, a Matrix room, mailto://...); "
                                        "private to the host, never shown again"
                                    ),
                                },
                            },
                            ["game", "players"],
                        )
                    ),
                    "responses": {
                        **_ok(
                            "created",
                            _obj(
                                {
                                    "match_id": {"type": "string"},
                                    "host_token": {"type": "string"},
                                    "invites": {
                                        "type": "object",
                                        "additionalProperties": {"type": "string"},
                                    },
                                    "links": {"type": "object"},
                                    "csrf_token": {"type": "string"},
                                },
                                ["match_id", "host_token", "invites", "links"],
                            ),
                            201,
                        ),
                        **_errors(400, 413, 429),
                    },
                },
            },
            match: {
                "get": {
                    "summary": (
                        "where the match stands: current step, who has submitted (never what)"
                    ),
                    "parameters": [_MATCH_ID],
                    "responses": {**_ok("the status", _STATUS), **_READ},
                }
            },
            f"{match}/records": {
                "get": {
                    "summary": "the public records in log order",
                    "parameters": [
                        _MATCH_ID,
                        {
                            "name": "from",
                            "in": "query",
                            "schema": {"type": "integer", "minimum": 0},
                        },
                    ],
                    "responses": {
                        **_ok(
                            "the records",
                            {"type": "array", "items": {"$ref": "#/components/schemas/Record"}},
                        ),
                        **_READ,
                    },
                }
            },
            f"{match}/state": {
                "get": {
                    "summary": "the public game state now, or just after record `at`",
                    "parameters": [
                        _MATCH_ID,
                        {"name": "at", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                    ],
                    "responses": {**_ok("the public view"), **_READ},
                }
            },
            f"{match}/checkpoint": {
                "get": {
                    "summary": (
                        "the latest signed checkpoint, or a consistency proof from size `from`"
                    ),
                    "parameters": [
                        _MATCH_ID,
                        {
                            "name": "from",
                            "in": "query",
                            "schema": {"type": "integer", "minimum": 0},
                        },
                    ],
                    "responses": {**_ok("the checkpoint"), **_READ},
                }
            },
            f"{match}/bundle": {
                "get": {
                    "summary": (
                        "the bundle (docs/protocol-bundles.md): records, every checkpoint, the key"
                    ),
                    "parameters": [
                        _MATCH_ID,
                        {"name": "download", "in": "query", "schema": {"type": "string"}},
                    ],
                    "responses": {**_ok("the bundle"), **_READ},
                }
            },
            f"{match}/session": {
                "post": {
                    "summary": "exchange a private link's token for a grant in the session cookie",
                    "parameters": [_MATCH_ID],
                    "requestBody": _body(_obj({"token": {"type": "string"}}, ["token"])),
                    "responses": {
                        **_ok(
                            "signed in",
                            _obj({"role": {"type": "string"}, "csrf_token": {"type": "string"}}),
                        ),
                        **_errors(400, 403, 404),
                    },
                },
                "delete": {
                    "summary": (
                        "sign this browser out of the match: its grants are revoked on the server"
                    ),
                    "parameters": [_MATCH_ID],
                    "responses": {**_ok("signed out"), **_errors(403, 404)},
                },
            },
            f"{player}/claim": {
                "post": {
                    "summary": (
                        "a player claims their seat with its invite (once; a public SeatClaimed "
                        "event); the answer holds the player's own token, shown once"
                    ),
                    "parameters": [_MATCH_ID, _PLAYER],
                    "requestBody": _body(
                        _obj(
                            {
                                "invite": {"type": "string"},
                                "public_key": {
                                    "type": "string",
                                    "description": (
                                        "standard base64 of a 32-byte Ed25519 key; every "
                                        "later submission must be signed with it"
                                    ),
                                },
                                "sign_in": {"type": "boolean"},
                            },
                            ["invite"],
                        )
                    ),
                    "responses": {
                        **_ok(
                            "claimed",
                            _obj(
                                {
                                    "player": {"type": "string"},
                                    "token": {"type": "string"},
                                    "public_key": {"type": ["string", "null"]},
                                    "csrf_token": {"type": "string"},
                                },
                                ["player", "token", "public_key"],
                            ),
                            201,
                        ),
                        **_errors(400, 403, 404, 409, 413, 429),
                    },
                }
            },
            f"{player}/invite": {
                "post": {
                    "summary": (
                        "the host issues a new invite for a seat (a public SeatReinvited event); "
                        "the seat's credential, key and browser grants are revoked"
                    ),
                    "security": _HOST,
                    "parameters": [_MATCH_ID, _PLAYER],
                    "responses": {
                        **_ok(
                            "a new invite",
                            _obj(
                                {
                                    "player": {"type": "string"},
                                    "invite": {"type": "string"},
                                    "link": {"type": "string"},
                                },
                                ["player", "invite", "link"],
                            ),
                            201,
                        ),
                        **_errors(400, 401, 403, 404, 409),
                    },
                }
            },
            f"{match}/steps": {
                "post": _host_action(
                    "open the next step with a deadline (and optionally an explicit deal)",
                    _obj(
                        {
                            "seconds": {"type": "integer", "minimum": 1, "maximum": 604800},
                            "deadline": {"type": "string", "format": "date-time"},
                            "deal": {"type": "object"},
                        }
                    ),
                    201,
                )
            },
            f"{match}/seal": {"post": _host_action("seal the open step now")},
            f"{match}/end": {
                "post": _host_action(
                    "end the match early, with a reason (a public MatchEnded record); "
                    "everything sealed is disclosed as at a normal end, and later commands "
                    "answer 409",
                    _obj(
                        {"reason": {"type": "string", "minLength": 1, "maxLength": 300}}, ["reason"]
                    ),
                )
            },
            f"{match}/openings/force": {
                "post": _host_action("end the opening window of self-custody picks")
            },
            f"{match}/decisions/default": {
                "post": _host_action("apply the default to the pending decision")
            },
            f"{match}/declare": {
                "post": _host_action(
                    "declare the winners of the step a custom game with the host resolver is "
                    "waiting on (a public DecisionMade of the host); 409 when no declaration "
                    "is awaited",
                    _obj(
                        {
                            "winners": {
                                "type": "array",
                                "items": {"type": "string"},
                                "uniqueItems": True,
                                "maxItems": 30,
                            },
                            "note": {"type": "string", "maxLength": 500},
                        },
                        ["winners"],
                    ),
                )
            },
            f"{match}/host/view": {
                "get": {
                    "summary": (
                        "everything the host console shows (the match's host only): the public "
                        "status, the match's settings, the picture of the public state at the "
                        "latest record (SVG) and the console's sentences (where the match "
                        "stands, scores, how it runs itself, what sealing now or a decision's "
                        "default would do, the last step, the result, an early end)"
                    ),
                    "security": _HOST,
                    "parameters": [_MATCH_ID],
                    "responses": {
                        **_ok(
                            "the console",
                            _obj(
                                {
                                    "status": {"type": "object"},
                                    "settings": {"type": "object"},
                                    "words": {"type": "object"},
                                    "picture": {"type": "string"},
                                    "log_size": {"type": "integer"},
                                },
                                ["status", "settings", "words", "picture", "log_size"],
                            ),
                        ),
                        **_errors(401, 403, 404),
                    },
                }
            },
            player: {
                "get": {
                    "summary": "the player's own view and current pick (that player only)",
                    "security": _HOST,
                    "parameters": [_MATCH_ID, _PLAYER],
                    "responses": {**_ok("the private view"), **_errors(401, 403, 404)},
                }
            },
            f"{player}/room": {
                "get": {
                    "summary": (
                        "everything the player's dealer room shows (that player only): the "
                        "public status and view, the private view, the legal picks (listed when "
                        "there are at most 400, else null), the pick's fields, the picture from "
                        "the player's seat (SVG, tappable regions marked data-hit) and the "
                        "room's sentences (default, decision, what the last step did to you, "
                        "your situation, the result)"
                    ),
                    "security": _HOST,
                    "parameters": [_MATCH_ID, _PLAYER],
                    "responses": {
                        **_ok(
                            "the room",
                            _obj(
                                {
                                    "player": {"type": "string"},
                                    "status": {"type": "object"},
                                    "public": {"type": "object"},
                                    "me": {"type": "object"},
                                    "words": {"type": "object"},
                                    "picture": {"type": "string"},
                                    "log_size": {"type": "integer"},
                                },
                                ["status", "public", "me", "words", "picture", "log_size"],
                            ),
                        ),
                        **_errors(401, 403, 404),
                    },
                }
            },
            f"{player}/receipts": {
                "get": {
                    "summary": (
                        "receipts of the player's own commitments, oldest first, each proving "
                        "its record is in the signed log (that player only, on any device)"
                    ),
                    "security": _HOST,
                    "parameters": [_MATCH_ID, _PLAYER],
                    "responses": {
                        **_ok("the receipts", {"type": "array", "items": {"type": "object"}}),
                        **_errors(401, 403, 404),
                    },
                }
            },
            f"{player}/join": {
                "post": _player_action(
                    "take the seat, optionally adding public entropy (before the first deal)",
                    _obj({"entropy": {"type": "string", "minLength": 1, "maxLength": 256}}),
                )
            },
            f"{player}/submissions": {
                "post": _player_action(
                    "seal a pick (sealed custody); amend by sending again until the seal",
                    _obj(
                        {
                            "payload": _ANY,
                            "salt": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                            "step": {"type": "integer"},
                            "signature": {"type": "string"},
                        },
                        ["payload"],
                    ),
                    201,
                    _obj(
                        {
                            "step": {"type": "integer"},
                            "player": {"type": "string"},
                            "commitment": {"type": "string"},
                            "unchanged": {"type": "boolean"},
                            "receipt": {"type": "object"},
                        },
                        ["step", "player", "commitment", "unchanged", "receipt"],
                    ),
                )
            },
            f"{player}/commitments": {
                "post": _player_action(
                    "self custody: send only the commitment",
                    _obj(
                        {
                            "commitment": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                            "step": {"type": "integer"},
                            "signature": {"type": "string"},
                        },
                        ["commitment"],
                    ),
                    201,
                )
            },
            f"{player}/openings": {
                "post": _player_action(
                    "self custody: open the commitment after the seal",
                    _obj({"payload": _ANY, "salt": {"type": "string"}}, ["payload", "salt"]),
                )
            },
            f"{player}/decisions": {
                "post": _player_action(
                    "answer the decision resolution asks (public)",
                    _obj({"payload": _ANY}, ["payload"]),
                )
            },
            f"{match}/what-if": {
                "post": {
                    "summary": (
                        "dispute review: replay a finished match with one player's pick in one "
                        "step changed; the answer is `dealerroom replay BUNDLE --what-if "
                        "STEP:PLAYER=JSON --json` for the match's bundle, plus `review_url`, the "
                        "page that shows it (limited per address)"
                    ),
                    "parameters": [_MATCH_ID],
                    "requestBody": _body(
                        _obj(
                            {
                                "step": {"type": "integer", "minimum": 1},
                                "player": {"type": "string", "minLength": 1, "maxLength": 200},
                                "payload": _ANY,
                            },
                            ["step", "player", "payload"],
                        )
                    ),
                    "responses": {
                        **_ok(
                            "the recorded and the new course, step by step",
                            _obj(
                                {
                                    "match_id": {"type": "string"},
                                    "step": {"type": "integer"},
                                    "player": {"type": "string"},
                                    "payload": _ANY,
                                    "first_divergent_step": {"type": ["integer", "null"]},
                                    "original_result": {"type": ["object", "null"]},
                                    "new_result": {"type": ["object", "null"]},
                                    "steps": {"type": "array", "items": {"type": "object"}},
                                    "review_url": {"type": "string"},
                                },
                                ["match_id", "step", "player", "first_divergent_step", "steps"],
                            ),
                        ),
                        **_errors(400, 404, 409, 413),
                        "429": {
                            "description": "too many what-ifs from this address; try again shortly",
                            "content": {JSON: {"schema": _ERROR}},
                        },
                    },
                }
            },
        },
        "components": {
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer", "description": "a role's token"},
                "session": {
                    "type": "apiKey",
                    "in": "cookie",
                    "name": "dealerroom",
                    "description": "a grant from a private link, with the X-CSRF-Token header",
                },
            },
            "schemas": {
                "Error": _obj({"error": {"type": "string"}}, ["error"]),
                "Record": _obj(
                    {
                        "seq": {"type": "integer"},
                        "type": {"type": "string"},
                        "at": {"type": "string"},
                        "data": {"type": "object"},
                    },
                    ["seq", "type", "at", "data"],
                ),
                "Status": _obj(
                    {
                        "match_id": {"type": "string"},
                        "game": {"type": "string"},
                        "players": {"type": "array", "items": {"type": "string"}},
                        "seats": {
                            "type": "object",
                            "description": (
                                "each seat: whether it is claimed and the signing key it registered"
                            ),
                            "additionalProperties": _obj(
                                {
                                    "claimed": {"type": "boolean"},
                                    "public_key": {"type": ["string", "null"]},
                                },
                                ["claimed", "public_key"],
                            ),
                        },
                        "name": {"type": "string"},
                        "settings": _obj(
                            {
                                "auto_open": {"type": "boolean"},
                                "auto_seal": {"type": "boolean"},
                                "step_seconds": {"type": ["integer", "null"]},
                            },
                            ["auto_open", "auto_seal", "step_seconds"],
                        ),
                        "finished": {"type": "boolean"},
                        "ended": {
                            "type": ["object", "null"],
                            "description": "after an early end: its reason and time",
                            "properties": {
                                "reason": {"type": "string"},
                                "at": {"type": "string"},
                            },
                        },
                        "step": {
                            "type": ["object", "null"],
                            "description": (
                                "the current step; its decision (if one waits) names the "
                                "player, prompt, deadline and the default payload"
                            ),
                        },
                    },
                    ["match_id", "game", "players", "finished", "step"],
                ),
            },
        },
    }
