"""Who may use which route: every route of the app against every kind of caller.

One table, ``ROUTES``, classifies every route and method of the app's ``url_map`` (pages,
API, static files); a route missing from it fails :func:`test_every_route_is_classified`,
so a new route must be classified before it ships. Each class has one row of ``EXPECTED``:
what each caller gets. The callers:

=========================  ==================================================================
``anonymous``              no credential at all
``forged``                 a bearer token that is nobody's
``host``                   the match's host, ``Authorization: Bearer``
``host-session``           the host's private-link session, with the ``X-CSRF-Token`` header
``host-no-csrf``           the same session without the header
``player`` …               the player the route names (bearer, session, session without CSRF)
``other-player`` …         another player of the same match (bearer, session)
``other-host`` …           the host of another match (bearer, session)
``other-match-player``     a player of the same name in another match (bearer)
=========================  ==================================================================

Outcomes: ``ok`` a 2xx answer; ``in`` a 2xx page that shows its caller signed in (the
others show it signed out); a number, that exact 4xx, as a JSON ``{"error"}``. A refusal
writes nothing; an allowed state-changing call gets a match of its own, in the state the
call needs, so that it succeeds.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest

from domain.commitment import commit
from service.simulate import load_scenario
from tests.conftest import SCENARIOS, seat_all
from tests.roomy import roomy_app
from web.extension import service

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from flask import Flask
    from flask.testing import FlaskClient

    from service.application import DealerRoom

CALLERS = [
    "anonymous",
    "forged",
    "host",
    "host-session",
    "host-no-csrf",
    "player",
    "player-session",
    "player-no-csrf",
    "other-player",
    "other-player-session",
    "other-host",
    "other-host-session",
    "other-match-player",
]

# One row per class of route: what each caller (in the order of CALLERS) gets.
#                     anon forg host hses hnoc play pses pnoc oply opse ohst ohse omp
EXPECTED = {
    "public":       "ok   ok   ok   ok   ok   ok   ok   ok   ok   ok   ok   ok   ok",
    "host-page":    "ok   ok   ok   in   in   ok   ok   ok   ok   ok   ok   ok   ok",
    "player-page":  "ok   ok   ok   ok   ok   ok   in   in   ok   ok   ok   ok   ok",
    "host":         "401  403  ok   ok   403  403  401  401  403  401  403  401  403",
    "host-read":    "401  403  ok   ok   ok   403  401  401  403  401  403  401  403",
    "player":       "401  403  403  401  401  ok   ok   403  403  401  403  401  403",
    "player-read":  "401  403  403  401  401  ok   ok   ok   403  401  403  401  403",
    "sign-in":      "400  403  ok   ok   ok   ok   ok   ok   ok   ok   403  403  403",
    "sign-out":     "403  403  403  ok   403  403  ok   403  403  ok   403  ok   403",
    "claim":        "409  409  409  409  409  409  409  409  409  409  409  409  409",
}  # fmt: skip
# "claim": a seat is claimed with its invite alone; no role's token or grant stands in for it.
# The scenes' seats are claimed already (a public fact: SeatClaimed is in the log), so every
# caller is told so; a wrong invite for an unclaimed seat is 403 (tests/e2e/test_web_roles.py).


@dataclass(frozen=True)
class Route:
    """A route's class, the match state a call needs (a ``Scene`` name), query and body."""

    access: str
    scene: str = "open"
    query: str = ""
    body: Any = None


ROUTES: dict[tuple[str, str], Route] = {
    ("/", "GET"): Route("public"),
    ("/new", "GET"): Route("public"),
    ("/games/<game>/rules", "GET"): Route("public"),
    ("/check", "GET"): Route("public"),
    ("/static/<path:filename>", "GET"): Route("public"),
    ("/games/<game>/static/<path:filename>", "GET"): Route("public"),
    ("/matches/<match_id>", "GET"): Route("public"),
    ("/matches/<match_id>/picture", "GET"): Route("public", query="?at=0"),
    ("/matches/<match_id>/host", "GET"): Route("host-page"),
    ("/matches/<match_id>/players/<player>", "GET"): Route("player-page"),
    ("/api/openapi.json", "GET"): Route("public"),
    ("/api/games", "GET"): Route("public"),
    ("/api/key", "GET"): Route("public"),
    ("/api/qr", "POST"): Route("public", body={"text": "https://dealerroom.example/x#invite=y"}),
    ("/api/matches", "GET"): Route("public"),
    ("/api/matches", "POST"): Route("public", body={"game": "vote", "players": ["ana", "ben"]}),
    ("/api/matches/<match_id>", "GET"): Route("public"),
    ("/api/matches/<match_id>/records", "GET"): Route("public", query="?from=1"),
    ("/api/matches/<match_id>/state", "GET"): Route("public", query="?at=1"),
    ("/api/matches/<match_id>/checkpoint", "GET"): Route("public", query="?from=1"),
    ("/api/matches/<match_id>/bundle", "GET"): Route("public", query="?download=1"),
    ("/api/matches/<match_id>/session", "POST"): Route("sign-in"),
    ("/api/matches/<match_id>/session", "DELETE"): Route("sign-out"),
    ("/api/matches/<match_id>/steps", "POST"): Route("host", "new", body={"seconds": 60}),
    ("/api/matches/<match_id>/seal", "POST"): Route("host"),
    ("/api/matches/<match_id>/end", "POST"): Route("host", body={"reason": "the host had to go"}),
    ("/api/matches/<match_id>/openings/force", "POST"): Route("host", "awaiting-opening"),
    ("/api/matches/<match_id>/decisions/default", "POST"): Route("host", "decision"),
    ("/api/matches/<match_id>/declare", "POST"): Route(
        "host", "declaring", body={"winners": ["ben"], "note": "best guess"}
    ),
    ("/api/matches/<match_id>/host/view", "GET"): Route("host-read"),
    ("/api/matches/<match_id>/players/<player>", "GET"): Route("player-read"),
    ("/api/matches/<match_id>/players/<player>/room", "GET"): Route("player-read"),
    ("/api/matches/<match_id>/players/<player>/receipts", "GET"): Route("player-read"),
    ("/api/matches/<match_id>/players/<player>/invite", "POST"): Route("host"),
    ("/api/matches/<match_id>/players/<player>/claim", "POST"): Route(
        "claim", body={"invite": "guessed-invite"}
    ),
    ("/api/matches/<match_id>/players/<player>/join", "POST"): Route(
        "player", "new", body={"entropy": "dice"}
    ),
    ("/api/matches/<match_id>/players/<player>/submissions", "POST"): Route(
        "player", body={"payload": {"vote": "ben"}}
    ),
    ("/api/matches/<match_id>/players/<player>/commitments", "POST"): Route(
        "player", "self-custody", body="commitment"
    ),
    ("/api/matches/<match_id>/players/<player>/openings", "POST"): Route(
        "player", "awaiting-opening", body="opening"
    ),
    ("/api/matches/<match_id>/players/<player>/decisions", "POST"): Route(
        "player", "decision", body={"payload": {"row": 1}}
    ),
    ("/matches/<match_id>/review", "GET"): Route("public", "finished", query="?step=1&player=ana"),
    ("/matches/<match_id>/review/comparison", "GET"): Route(
        "public", "finished", query="?step=1&player=ana&pick=%7B%22vote%22%3A%22cai%22%7D"
    ),
    ("/api/matches/<match_id>/what-if", "POST"): Route(
        "public", "finished", body={"step": 1, "player": "ana", "payload": {"vote": "cai"}}
    ),
}  # fmt: skip


def expected(access: str) -> dict[str, str]:
    """The row of ``EXPECTED`` for a class, by caller."""
    return dict(zip(CALLERS, EXPECTED[access].split(), strict=True))


# ---------------------------------------------------------------------- matches in a state


@dataclass
class Scene:
    """A match in some state: its id, its tokens, the player routes name, bodies it needs."""

    match_id: str
    tokens: dict[str, str]  # "host" and each player
    player: str  # the player the route names
    other: str  # another player of the match
    salt: bytes = b""  # a self-custody commitment's salt


VOTE = ["ana", "ben", "cai"]


def _tokens(room: DealerRoom, made: dict[str, Any]) -> dict[str, str]:
    return {"host": made["host_token"], **seat_all(room, made)}


def _new(room: DealerRoom, custody: dict[str, str] | None = None) -> Scene:
    made = room.create_match("vote", VOTE, custody=custody or {})
    return Scene(made["match_id"], _tokens(room, made), "ana", "ben")


def _open(room: DealerRoom, custody: dict[str, str] | None = None) -> Scene:
    scene = _new(room, custody)
    room.open_step(scene.match_id, seconds=600)
    return scene


def _awaiting_opening(room: DealerRoom) -> Scene:
    """Ana (self custody) has committed; the step is sealed and waits for her opening."""
    scene = _open(room, {"ana": "self"})
    scene.salt = secrets.token_bytes(32)
    commitment = commit(scene.match_id, 1, "ana", {"vote": "ben"}, scene.salt)
    room.submit_commitment(scene.match_id, "ana", commitment)
    room.submit(scene.match_id, "ben", {"vote": "cai"})
    assert room.seal(scene.match_id) == "openings"
    return scene


def _decision(room: DealerRoom) -> Scene:
    """6 nimmt!: step 2 of the classic scenario asks cai which row to take."""
    scenario = load_scenario(SCENARIOS / "six-nimmt-classic.json")
    made = room.create_match("six-nimmt", scenario["players"])
    mid = made["match_id"]
    for step in scenario["steps"][:2]:
        room.open_step(mid, deal=step.get("deal"))
        for player, payload in step["submit"].items():
            room.submit(mid, player, payload)
        status = room.seal(mid)
    assert status == "decision" and room.status(mid)["step"]["decision"]["player"] == "cai"
    return Scene(mid, _tokens(room, made), "cai", "ana")


def _declaring(room: DealerRoom) -> Scene:
    """A custom game whose host resolver waits for the host to declare the winners."""
    options = {
        "fields": [{"name": "guess", "kind": "text", "max_length": 40}],
        "resolver": {"kind": "host"},
    }
    made = room.create_match("custom", VOTE, options)
    mid = made["match_id"]
    room.open_step(mid, seconds=600)
    room.submit(mid, "ben", {"guess": "a cat"})
    assert room.seal(mid) == "decision"
    return Scene(mid, _tokens(room, made), "ana", "ben")


def _finished(room: DealerRoom) -> Scene:
    """A vote played to its end: every pick and the seed revealed (a what-if can run)."""
    scene = _open(room)
    for player, vote in zip(VOTE, ["ben", "cai", "ben"], strict=True):
        room.submit(scene.match_id, player, {"vote": vote})
    room.seal(scene.match_id)
    assert room.status(scene.match_id)["finished"]
    return scene


SCENES: dict[str, Callable[[DealerRoom], Scene]] = {
    "new": _new,
    "open": _open,
    "self-custody": lambda room: _open(room, {"ana": "self"}),
    "awaiting-opening": _awaiting_opening,
    "decision": _decision,
    "declaring": _declaring,
    "finished": _finished,
}


# ---------------------------------------------------------------------- callers


@dataclass
class Caller:
    """A caller as a browser: its client (with a session, if any) and the headers it sends."""

    name: str
    client: FlaskClient
    token: str | None = None  # the token it holds (what it would sign in with)
    headers: dict[str, str] | None = None  # a bearer token or the CSRF header

    def call(self, method: str, url: str, body: Any) -> Any:
        """Make the request as this caller."""
        return _read(self.client.open(url, method=method, json=body, headers=self.headers or {}))


def _read(response: Any) -> Any:
    """The response, read into memory and closed (a static file's stays open otherwise)."""
    response.get_data()
    response.close()
    return response


def _session(app: Flask, match_id: str, token: str) -> tuple[FlaskClient, str]:
    client = app.test_client()
    signed = client.post(f"/api/matches/{match_id}/session", json={"token": token})
    assert signed.status_code == 200, signed.get_json()
    return client, signed.get_json()["csrf_token"]


def callers(app: Flask, scene: Scene, other: Scene) -> Iterator[Caller]:
    """Every caller of ``CALLERS``, for a route in ``scene`` (``other``: another match)."""
    roles = {"host": "host", "player": scene.player, "other-player": scene.other}
    for name in CALLERS:
        base = name.removesuffix("-session").removesuffix("-no-csrf")
        if name == "anonymous":
            yield Caller(name, app.test_client())
            continue
        if name == "forged":
            token = secrets.token_urlsafe(32)
        elif name == "other-match-player":
            token = other.tokens[scene.player]
        else:
            match, role = (other, "host") if base == "other-host" else (scene, roles[base])
            token = match.tokens[role]
            if name != base:
                client, csrf = _session(app, match.match_id, token)
                headers = {} if name.endswith("no-csrf") else {"X-CSRF-Token": csrf}
                yield Caller(name, client, token, headers)
                continue
        yield Caller(name, app.test_client(), token, {"Authorization": f"Bearer {token}"})


# ---------------------------------------------------------------------- the matrix


@pytest.fixture(scope="module")
def matrix_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """One app for the whole matrix (limits out of the way)."""
    app = roomy_app(tmp_path_factory.mktemp("matrix") / "instance")
    yield app
    service(app).close()


def _url(rule: str, route: Route, scene: Scene) -> str:
    url = rule.replace("<match_id>", scene.match_id).replace("<player>", scene.player)
    if rule.startswith("/games/"):  # a game's dealer-room controls
        return url.replace("<game>", "vote").replace("<path:filename>", "controls.js")
    return url.replace("<path:filename>", "site.css") + route.query


def _body(route: Route, scene: Scene, caller: Caller) -> Any:
    if route.access == "sign-in":
        return {} if caller.token is None else {"token": caller.token}
    if route.body == "commitment":
        salt = secrets.token_bytes(32)
        return {"commitment": commit(scene.match_id, 1, scene.player, {"vote": "ben"}, salt)}
    if route.body == "opening":
        return {"payload": {"vote": "ben"}, "salt": scene.salt.hex()}
    return route.body


def _written(app: Flask) -> int:
    return service(app).recorder.max_notification_id() or 0


def _check(response: Any, outcome: str, where: str) -> None:
    status, text = response.status_code, response.get_data(as_text=True)
    if outcome in ("ok", "in"):
        assert 200 <= status < 300, (where, status, text[:300])
        signed = re.search(r'data-signed-in="(\w+)"', text)
        if signed is not None:
            assert signed.group(1) == ("yes" if outcome == "in" else "no"), where
        return
    assert status == int(outcome), (where, status, text[:300])
    error = response.get_json(silent=True)
    assert isinstance(error, dict) and isinstance(error.get("error"), str) and error["error"], where


@pytest.mark.parametrize(("rule", "method"), list(ROUTES), ids=[f"{m} {r}" for r, m in ROUTES])
def test_each_caller_gets_what_the_table_says(matrix_app: Flask, rule: str, method: str) -> None:
    route = ROUTES[(rule, method)]
    room = service(matrix_app)
    make = SCENES[route.scene]
    other = _open(room)
    outcomes = expected(route.access)
    # Check every refusal first, on one match: each is the expected error and writes nothing.
    scene = make(room)
    for caller in callers(matrix_app, scene, other):
        outcome = outcomes[caller.name]
        if outcome in ("ok", "in") and method != "GET":
            continue
        before = _written(matrix_app)
        response = caller.call(method, _url(rule, route, scene), _body(route, scene, caller))
        _check(response, outcome, f"{caller.name} {method} {rule}")
        if outcome not in ("ok", "in"):
            wrote = _written(matrix_app) != before
            assert not wrote, f"{caller.name} was refused, yet {method} {rule} wrote"
    # Check each allowed state-changing call on a match of its own, in the state it needs.
    if method == "GET":
        return
    for name, outcome in outcomes.items():
        if outcome not in ("ok", "in"):
            continue
        scene = make(room)
        caller = next(c for c in callers(matrix_app, scene, other) if c.name == name)
        response = caller.call(method, _url(rule, route, scene), _body(route, scene, caller))
        _check(response, outcome, f"{caller.name} {method} {rule}")


def test_every_route_is_classified(matrix_app: Flask) -> None:
    served = {
        (rule.rule, method)
        for rule in matrix_app.url_map.iter_rules()
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    assert served - set(ROUTES) == set(), "classify the new route(s) in ROUTES"
    assert set(ROUTES) - served == set(), "ROUTES names route(s) the app no longer has"
    assert {r.access for r in ROUTES.values()} <= set(EXPECTED)
    assert all(len(row.split()) == len(CALLERS) for row in EXPECTED.values())


def test_a_method_no_route_takes_is_a_json_405_that_writes_nothing(matrix_app: Flask) -> None:
    client = matrix_app.test_client()
    scene = _open(service(matrix_app))
    adapter = matrix_app.url_map.bind("localhost")
    before = _written(matrix_app)
    for rule in {r.rule for r in matrix_app.url_map.iter_rules()}:
        url = _url(rule, Route("public"), scene)
        for method in {"GET", "POST", "PUT", "PATCH", "DELETE"} - set(adapter.allowed_methods(url)):
            response = _read(client.open(url, method=method, json={}))
            _check(response, "405", f"{method} {url}")
    assert _written(matrix_app) == before


def test_the_host_never_acts_on_a_player_route(matrix_app: Flask) -> None:
    """Regression: the host's token and grant passed the role check of ``/players/host/...``."""
    room = service(matrix_app)
    scene = _open(room)
    other = _open(room)
    hosts = [c for c in callers(matrix_app, scene, other) if c.name in ("host", "host-session")]
    before = _written(matrix_app)
    for (rule, method), route in ROUTES.items():
        if route.access not in ("player", "player-read"):
            continue
        url = rule.replace("<match_id>", scene.match_id).replace("<player>", "host")
        for caller in hosts:
            answer = caller.call(method, url, {"payload": {"vote": "ana"}})
            _check(answer, "403", f"{caller.name} {method} {url}")
    assert _written(matrix_app) == before
