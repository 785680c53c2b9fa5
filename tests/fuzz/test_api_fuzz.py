"""Fuzzing every operation of the JSON API from its own OpenAPI document, in process.

schemathesis generates each operation's requests from ``/api/openapi.json`` (bodies,
queries, path parameters and credentials, both valid and schema-violating ones); the
test sends each one through the app's WSGI interface, now with the path naming a live
match and a real player and the caller holding a real token or session, now with hostile
ids and forged credentials. Whatever is sent:

* no answer is a 5xx, and no answer carries a Python traceback;
* every 4xx is a JSON object with an ``error`` message;
* the answer is one the document describes (status code, content type, schema);
* a refused request, and any read, writes nothing to the store (notification count).

The explicit cases below pin the limits: bodies over 64 KiB (413), a submission flood and
a creation flood past the configured rates (429), deep, huge, non-finite and odd-unicode
JSON, hostile match creation, ids that try to walk out of their path; and the regressions
of what the fuzzing found.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from domain.commitment import commit
from tests.actions import bearer
from tests.conftest import seat_all
from tests.roomy import roomy_app
from web.extension import service
from web.openapi import openapi_document

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from flask import Flask
    from flask.testing import FlaskClient

DOCUMENT = openapi_document()
SCHEMA = schemathesis.openapi.from_dict(DOCUMENT)
OPERATIONS = [(path, method.upper()) for path, ops in DOCUMENT["paths"].items() for method in ops]
PLAYERS = ["ana", "ben", "cai"]  # cai keeps custody of his picks (commitments, openings)

HOSTILE_IDS = [
    "../../etc/passwd", "..%2F..%2Fetc%2Fpasswd", "%2e%2e", ".",
    "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffffX", "x" * 5000,
    "%00", "%F0%9F%82%A1", "%EF%BF%BF", "1e309", "-1", "null", "%7B%7D",
    "urn:uuid:00000000-0000-0000-0000-000000000000",
]  # fmt: skip
HOSTILE_NAMES = [
    "..", "%2e%2e%2f", "host", "system", "virtual", "ANA", "ana%00", "%E2%80%AEana", "a" * 3000,
]  # fmt: skip
# Half the draws aim at the live match, a real player, the right caller or a legal pick;
# the other half at everything else.
MATCHES = st.just("live") | st.sampled_from(
    ["fresh", "other", "upper", "braces", "schema", *HOSTILE_IDS]
)
NAMES = st.sampled_from(PLAYERS) | st.sampled_from(["schema", *HOSTILE_NAMES])
CALLERS = st.just("right") | st.sampled_from(
    ["schema", "anonymous", "host", "named", "ana", "other-host", "forged", "host-session",
     "named-session", "session-no-csrf"]
)  # fmt: skip
PAYLOADS = st.sampled_from(["schema", "legal"])
# The answer is one the document describes: its status, content type and schema.
CONFORMANCE = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
EXAMPLES = 14  # per operation: about 300 requests in all, a few seconds


def _assert_error(body: Any, where: str) -> str:
    """Assert ``body`` is ``{"error": message}``; return the message."""
    assert isinstance(body, dict) and isinstance(body.get("error"), str) and body["error"], where
    return str(body["error"])


def assert_answer_is_clean(response: Any, where: str) -> None:
    """No 5xx, no traceback, and a 4xx is ``{"error": message}``."""
    status, text = response.status_code, response.content.decode("utf-8", "replace")
    assert status < 500, f"{where}: {status} {text[:300]}"
    assert "Traceback" not in text and 'File "' not in text, f"{where}: {text[:300]}"
    if status >= 400:
        _assert_error(json.loads(text), where)


@dataclass
class World:
    """A live match (a step always open), a fresh one (no step yet), another one; credentials."""

    app: Flask
    live: dict[str, Any] = field(default_factory=dict)
    fresh: dict[str, Any] = field(default_factory=dict)
    other: dict[str, Any] = field(default_factory=dict)
    sessions: dict[str, tuple[FlaskClient, str]] = field(default_factory=dict)

    @property
    def room(self) -> Any:
        """The service behind the app."""
        return service(self.app)

    def written(self) -> int:
        """How many events the store holds."""
        return self.room.recorder.max_notification_id() or 0

    def new_match(self) -> dict[str, Any]:
        """A 6 nimmt! match (ten steps to a round) in which cai keeps custody of his picks."""
        made = self.room.create_match("six-nimmt", PLAYERS, custody={"cai": "self"})
        return {"id": made["match_id"], "host": made["host_token"], **seat_all(self.room, made)}

    def ready(self) -> None:
        """Make sure the live match has a step open and the fresh one none (calls move them on)."""
        if not self.live:
            self.live, self.other = self.new_match(), self.new_match()
            self.room.open_step(self.other["id"], seconds=600)
        if not self.fresh or self.room.status(self.fresh["id"])["step"] is not None:
            self.fresh = self.new_match()
        for player in PLAYERS:  # the fuzzer may have re-invited a seat: claim it back
            if self.room.role_of(self.live["id"], self.live[player]) != player:
                invite = self.room.reinvite(self.live["id"], player)["invite"]
                self.live[player] = self.room.claim(self.live["id"], player, invite)["token"]
                self.sessions = {}
        for _ in range(4):
            status = self.room.status(self.live["id"])
            step = status["step"]
            if status["finished"]:
                self.live, self.sessions = self.new_match(), {}
            elif step is None or step["status"] == "resolved":
                self.room.open_step(self.live["id"], seconds=600)
            elif step["decision"] is not None:
                self.room.apply_decision_default(self.live["id"])
            elif step["status"] == "sealed":
                self.room.force_openings(self.live["id"])
            else:
                return
        pytest.fail("the live match does not settle on an open step")

    def session(self, role: str) -> tuple[FlaskClient, str]:
        """A browser signed in as ``role`` in the live match, and its CSRF token."""
        if role not in self.sessions:
            client = self.app.test_client()
            url = f"/api/matches/{self.live['id']}/session"
            answer = client.post(url, json={"token": self.live[role]})
            assert answer.status_code == 200
            self.sessions[role] = (client, answer.get_json()["csrf_token"])
        return self.sessions[role]

    def path_value(self, name: str, choice: str, generated: Any) -> Any:
        """The value of a path parameter for a drawn choice."""
        if name == "player":
            return generated if choice == "schema" else choice
        return {
            "live": self.live["id"],
            "fresh": self.fresh["id"],
            "other": self.other["id"],
            "upper": self.live["id"].upper(),
            "braces": "{" + self.live["id"] + "}",
            "schema": generated,
        }.get(choice, choice)

    def credentials(
        self, caller: str, match: dict[str, Any], named: str | None
    ) -> tuple[FlaskClient | None, dict[str, str]]:
        """The client (a signed-in browser, or ``None``) and headers a caller sends.

        ``right`` is the role the route acts as: the player it names, or else the host.
        """
        player = named if named in PLAYERS else "ana"
        if caller == "right":
            caller = "named" if named is not None else "host"
        if caller == "host-session":
            client, csrf = self.session("host")
            return client, {"X-CSRF-Token": csrf}
        if caller == "named-session":
            client, csrf = self.session(player)
            return client, {"X-CSRF-Token": csrf}
        if caller == "session-no-csrf":
            return self.session(player)[0], {}
        token = {
            "anonymous": None,
            "host": match["host"],
            "named": match.get(str(named)),
            "ana": match["ana"],
            "other-host": self.other["host"],
            "forged": secrets.token_urlsafe(32),
        }[caller]
        return None, {} if token is None else {"Authorization": f"Bearer {token}"}


def _legal_pick(world: World, match: dict[str, Any], named: str | None) -> dict[str, Any]:
    if named not in PLAYERS:
        return {}
    return {"payload": world.room.private_state(match["id"], named)["default_pick"]}


# Bodies the rules accept, for the calls whose generated bodies they almost never do.
LEGAL = {
    "/api/matches": lambda *_: {"game": "vote", "players": PLAYERS, "options": {}},
    "/api/matches/{match_id}/steps": lambda *_: {"seconds": 60, "deal": None, "deadline": None},
    "/api/matches/{match_id}/players/{player}/submissions": _legal_pick,
}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """The app on a fresh SQLite store, with limits out of the fuzzer's way."""
    app = roomy_app(tmp_path_factory.mktemp("fuzz") / "instance")
    yield World(app)
    service(app).close()


def _strategy(path: str, method: str) -> st.SearchStrategy[Any]:
    operation = SCHEMA[path][method]
    modes = [GenerationMode.POSITIVE]
    if operation.path_parameters or operation.query or operation.body:
        modes.append(GenerationMode.NEGATIVE)
    return st.one_of([operation.as_strategy(generation_mode=mode) for mode in modes])


@pytest.mark.parametrize(("path", "method"), OPERATIONS, ids=[f"{m} {p}" for p, m in OPERATIONS])
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
    ],
)
@given(data=st.data())
def test_no_input_makes_an_operation_fail_or_write_on_refusal(
    world: World, path: str, method: str, data: st.DataObject
) -> None:
    case = data.draw(_strategy(path, method), label="case")
    world.ready()
    named, match = None, world.live
    for name in case.path_parameters or {}:
        choice = data.draw(NAMES if name == "player" else MATCHES, label=name)
        case.path_parameters[name] = world.path_value(name, choice, case.path_parameters[name])
        named = case.path_parameters[name] if name == "player" else named
        match = world.fresh if choice == "fresh" else match
    legal = path in LEGAL and isinstance(case.body, dict)
    if legal and data.draw(PAYLOADS, label="body") == "legal":
        case.body.update(LEGAL[path](world, match, named))
    caller = data.draw(CALLERS, label="caller")
    client = None
    if caller != "schema":
        client, headers = world.credentials(caller, match, named)
        case.headers.pop("Authorization", None)
        case.headers.update(headers)
        case.cookies.pop("dealerroom", None)  # the generated one would replace the session's
    before = world.written()
    response = case.call(app=world.app, session=client)
    where = f"{method} {path} as {caller}"
    assert_answer_is_clean(response, where)
    if response.status_code not in (308, 405):  # 308, 405: the path left the operation's route
        case.validate_response(response, checks=CONFORMANCE)
    if response.status_code >= 400 or method == "GET":
        assert world.written() == before, f"{where} answered {response.status_code} yet wrote"


# ---------------------------------------------------------------------- explicit cases


def _json_error(response: Any, status: int, where: str = "") -> str:
    """Assert a JSON ``{"error"}`` answer with ``status``; return the message."""
    assert response.status_code == status, (where, response.status_code, response.get_data()[:300])
    return _assert_error(response.get_json(silent=True), where)


BODIES = [(p, m) for p, m in OPERATIONS if "requestBody" in DOCUMENT["paths"][p][m.lower()]]


@pytest.mark.parametrize(("path", "method"), BODIES, ids=[f"{m} {p}" for p, m in BODIES])
def test_a_body_over_64_kib_is_a_json_413_that_writes_nothing(
    world: World, path: str, method: str
) -> None:
    world.ready()
    named = "cai" if path.endswith(("/commitments", "/openings")) else "ana"
    url = path.replace("{match_id}", world.live["id"]).replace("{player}", named)
    token = world.live[named] if "{player}" in path else world.live["host"]
    before = world.written()
    for body in (b'{"payload": "' + b"x" * 66_000 + b'"}', b"[" * 70_000):
        response = world.app.test_client().open(
            url, method=method, data=body, content_type="application/json", headers=bearer(token)
        )
        _json_error(response, 413, f"{method} {url}")
    assert world.written() == before


def test_a_submission_flood_is_a_json_429_per_player_and_the_refused_ones_write_nothing(
    tmp_path: Path,
) -> None:
    app = roomy_app(tmp_path / "instance", DEALERROOM_SUBMIT_RATE="3/minute")
    room = service(app)
    made = room.create_match("vote", PLAYERS)
    made["player_tokens"] = seat_all(room, made)
    mid = made["match_id"]
    room.open_step(mid, seconds=600)
    client = app.test_client()
    url = f"/api/matches/{mid}/players/ana/submissions"
    ana = bearer(made["player_tokens"]["ana"])
    for vote in ("ben", "cai", "ben"):  # amendments, each recorded
        answer = client.post(url, json={"payload": {"vote": vote}}, headers=ana)
        assert answer.status_code == 201
    written = room.recorder.max_notification_id()
    refused = client.post(url, json={"payload": {"vote": "cai"}}, headers=ana)
    assert "too many submissions" in _json_error(refused, 429)
    assert room.recorder.max_notification_id() == written
    assert room.private_state(mid, "ana")["current_pick"]["pick"] == {"vote": "ben"}
    ben = client.post(
        f"/api/matches/{mid}/players/ben/submissions",
        json={"payload": {"vote": "ana"}},
        headers=bearer(made["player_tokens"]["ben"]),
    )
    assert ben.status_code == 201
    room.close()


def test_a_creation_flood_from_one_address_is_a_json_429(tmp_path: Path) -> None:
    app = roomy_app(tmp_path / "instance", DEALERROOM_CREATE_RATE="2/minute")
    client = app.test_client()
    body = {"game": "vote", "players": PLAYERS}
    assert [client.post("/api/matches", json=body).status_code for _ in range(2)] == [201, 201]
    assert "too many new matches" in _json_error(client.post("/api/matches", json=body), 429)
    assert len(service(app).matches()) == 2
    service(app).close()


DEEP = "[" * 5000 + "]" * 5000
HOSTILE_JSON = {
    "nested five thousand deep": '{"payload": ' + DEEP + "}",
    "an object nested deep": '{"payload": ' + '{"a":' * 3000 + "1" + "}" * 3000 + "}",
    "a 5000-digit number": '{"payload": {"vote": %s}}' % ("9" * 5000),
    "a number beyond 2**53": '{"payload": {"vote": 18014398509481985}}',
    "1e400": '{"payload": {"vote": 1e400}}',
    "NaN": '{"payload": {"vote": NaN}}',
    "-Infinity": '{"payload": -Infinity}',
    "a lone surrogate": '{"payload": {"vote": "\\ud800"}}',
    "a NUL": '{"payload": {"vote": "b\\u0000en"}}',
    "right-to-left override": '{"payload": {"vote": "\\u202eneb"}}',
    "bytes that are not UTF-8": b'{"payload": {"vote": "\xff\xfe\xfd"}}',
    "truncated": '{"payload": {"vote": "be',
    "a list": "[1, 2, 3]",
    "a string": '"payload"',
    "empty": "",
    "a lone surrogate salt": '{"payload": {"vote": "ben"}, "salt": "\\udfff"}',
    "a lone surrogate signature": '{"payload": {"vote": "ben"}, "signature": "\\ud800"}',
    "a step beyond 2**63": '{"payload": {"vote": "ben"}, "step": 99999999999999999999999}',
}


@pytest.mark.parametrize("name", list(HOSTILE_JSON))
def test_hostile_json_in_a_submission_is_a_json_4xx_that_writes_nothing(
    world: World, name: str
) -> None:
    world.ready()
    before = world.written()
    url = f"/api/matches/{world.live['id']}/players/ana/submissions"
    ana = bearer(world.live["ana"])
    response = world.app.test_client().post(
        url, data=HOSTILE_JSON[name], content_type="application/json", headers=ana
    )
    assert 400 <= response.status_code < 500, response.get_data()[:300]
    _json_error(response, response.status_code, name)
    assert world.written() == before


HOSTILE_MATCHES = {
    "a list as a name": {"players": [[], "ben"]},  # regression: a TypeError, so a 500
    "an object as a name": {"players": ["ana", {"name": "ben"}]},
    "a number as a name": {"players": ["ana", 7]},
    "the host as a name": {"players": ["host", "ben"]},
    "one name twice": {"players": ["ana", "ana"]},
    "a game that is a list": {"game": ["vote"]},
    "custody that is a list": {"custody": ["self"]},
    "custody that is neither": {"custody": {"ana": "both"}},
    "a key that is a list": {"player_keys": {"ana": []}},
    "a key of a stranger": {"player_keys": {"zed": "AAAA"}},
    "options that are text": {"options": "candidates"},
}


@pytest.mark.parametrize("name", list(HOSTILE_MATCHES))
def test_hostile_match_creation_is_a_json_400_that_writes_nothing(world: World, name: str) -> None:
    world.ready()
    before = world.written()
    body = {"game": "vote", "players": ["ana", "ben"], **HOSTILE_MATCHES[name]}
    _json_error(world.app.test_client().post("/api/matches", json=body), 400, name)
    assert world.written() == before


@pytest.mark.parametrize(
    "options",
    [
        {"start_points": 2**60},  # regression: it was recorded, and no leaf could be hashed
        {"start_points": json.loads("1e400")},
        {"start_points": [[[[[[1]]]]]]},
        {"virtual_player": "\ud800"},
    ],
    ids=["2**60", "1e400", "nested", "surrogate"],
)
def test_options_the_log_cannot_hold_are_refused_and_poison_nothing(
    world: World, options: dict[str, Any]
) -> None:
    world.ready()
    before = world.written()
    client = world.app.test_client()
    body = json.dumps({"game": "six-nimmt", "players": PLAYERS, "options": options})
    response = client.post("/api/matches", data=body, content_type="application/json")
    _json_error(response, 400)
    assert world.written() == before
    # Every log still reads: the match list and the live match's signed checkpoint.
    for url in ("/api/matches", f"/api/matches/{world.live['id']}/checkpoint"):
        assert client.get(url).status_code == 200, url


WALKS = [
    "../../etc/passwd", "..%2F..%2Fetc%2Fpasswd", "%2e%2e%2f%2e%2e%2fetc", "..\\..\\windows",
    "%00", "x" * 5000, "00000000-0000-0000-0000-000000000000", "%F0%9F%82%A1",
    "urn:uuid:00000000-0000-0000-0000-000000000000",
]  # fmt: skip


@pytest.mark.parametrize("walk", WALKS)
def test_ids_that_walk_out_of_their_path_are_json_404s(world: World, walk: str) -> None:
    world.ready()
    client = world.app.test_client()
    host = bearer(world.live["host"])
    for url in (
        f"/api/matches/{walk}", f"/api/matches/{walk}/records", f"/api/matches/{walk}/bundle",
        f"/matches/{walk}", f"/api/matches/{world.live['id']}/players/{walk}",
    ):  # fmt: skip
        response = client.get(url, headers=host)
        assert response.status_code in (403, 404), (url, response.status_code)
        _json_error(response, response.status_code, url)
        assert "root:" not in response.get_data(as_text=True)


def test_a_self_custody_opening_through_the_api_opens_the_commitment(world: World) -> None:
    """Regression: ``POST .../openings`` gave the service no step and always answered 500."""
    made = world.room.create_match("vote", ["ana", "ben"], custody={"ana": "self"})
    made["player_tokens"] = seat_all(world.room, made)
    mid, client = made["match_id"], world.app.test_client()
    ana, host = bearer(made["player_tokens"]["ana"]), bearer(made["host_token"])
    opened = client.post(f"/api/matches/{mid}/steps", json={"seconds": 60}, headers=host)
    assert opened.get_json()["status"]["step"]["number"] == 1  # the answer is the Status
    salt = secrets.token_bytes(32)
    commitment = commit(mid, 1, "ana", {"vote": "ben"}, salt)
    url = f"/api/matches/{mid}/players/ana"
    committed = client.post(f"{url}/commitments", json={"commitment": commitment}, headers=ana)
    assert committed.status_code == 201
    assert client.post(f"/api/matches/{mid}/seal", headers=host).get_json()["result"] == "openings"
    before = world.written()
    mistaken = {"payload": {"vote": "ana"}, "salt": salt.hex()}
    wrong = client.post(f"{url}/openings", json=mistaken, headers=ana)
    assert "do not open" in _json_error(wrong, 400)
    assert world.written() == before
    opening = {"payload": {"vote": "ben"}, "salt": salt.hex()}
    right = client.post(f"{url}/openings", json=opening, headers=ana)
    assert right.status_code == 200 and right.get_json()["result"] == "finished"
    (revealed,) = [r["data"] for r in world.room.records(mid) if r["type"] == "SubmissionRevealed"]
    assert (revealed["payload"], revealed["salt"]) == ({"vote": "ben"}, salt.hex())
