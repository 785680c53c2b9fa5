"""No sealed pick is readable anywhere before its game's disclosure policy allows it.

A complete match of every game (the fixtures' scenarios) is played through the HTTP API
with salts the test chooses, on both stores. Before each disclosure the test searches for
the plaintext of every pick still sealed (the canonical JSON of its payload, its 64-hex
salt) in:

1. every API response and page, as every role (anonymous, the host, each player; bearer
   token on the API and a private-link session on the pages); a player's own private view
   may show that player's own pick and private deal, nothing else;
2. the answer to every action taken (opening a step, a submission, the seal, a decision);
3. the export bundle (the API's download and the service's bundle);
4. every log line of every logger, captured at DEBUG (SQLAlchemy's statements included);
5. a dump of the database: every column of every row of every table, as text and bytes,
   through SQL (in the test's own PostgreSQL schema), plus the SQLite files themselves.

6 nimmt!, Apocalypse and the vote reveal a step's picks when it resolves (at the seal), so
each step is searched before its seal; Picking Nine and Grid Adaptation reveal at the end,
so every pick is searched for throughout, until ``MatchFinished``. Beside the picks, the
host seed and the private deals (hands, sequences) stay sealed until the end, and neither
an *amended* pick (a decoy submitted and then replaced) nor a role's token (or its stored
hash) may appear at all after the answer that created the match.

The search is shown to work: once disclosed, every pick's salt is found in the public
records and the database, and the log capture holds the API's own lines.
"""

from __future__ import annotations

import base64
import html
import json
import logging
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy import Engine, text

from domain.canonical import canonical_json
from domain.match import token_hash
from domain.rules import game_names, get_rules
from domain.rules.base import Disclosure
from replay.bundle import dump_bundle
from service.simulate import load_scenario
from tests.actions import claim_seats
from tests.conftest import SCENARIOS, archive_of
from web.extension import service

if TYPE_CHECKING:
    from collections.abc import Iterator

    from flask import Flask
    from flask.testing import FlaskClient

# One complete match of every game (a new game must add one): the scenario, and for 6 nimmt!
# only its first round, made the whole match by a low start (someone takes a row in it).
MATCHES: dict[str, tuple[str, dict[str, Any], int | None]] = {
    "vote": ("vote-basic.json", {}, None),
    "six-nimmt": ("six-nimmt-classic.json", {"options": {"start_points": 1}}, 10),
    "picking-nine": ("picking-nine-six-bots.json", {}, None),
    "grid-adaptation": ("grid-adaptation-ec-vote.json", {}, None),
    "apocalypse": ("apocalypse-bot-match.json", {}, None),
    # Picks sealed until the end, written in their normal form (every field), each distinct
    # from the test's amended ones (eve's own view shows her pick, which would otherwise
    # read as ana's amended one).
    "custom": (
        "custom-majority-at-end.json",
        {
            "steps": [
                {
                    "submit": {
                        "ana": {"city": "Paris", "why": None},
                        "ben": {"city": "Lyon", "why": "food"},
                        "cai": {"city": "Paris", "why": "cai"},
                        "dee": {"city": "Lyon", "why": "d"},
                    }
                },
                {
                    "submit": {
                        "ana": {"city": "lille", "why": None},
                        "ben": {"city": "Paris", "why": "b"},
                        "cai": {"city": "Lyon", "why": None},
                        "dee": {"city": "lille", "why": "dee"},
                        "eve": {"city": "Paris", "why": "eve"},
                    }
                },
            ]
        },
        None,
    ),
}


def _without_options(body: str) -> str:
    """``body`` without a private view's list of legal picks (``legal``).

    That list holds every choice the rules give the viewer (each candidate of a vote), so
    another player's pick reads the same as one of them by nature; the salt, which is what
    would give a sealed pick away, is still searched for in the whole answer.
    """
    try:
        answer = json.loads(body)
    except ValueError:
        return body
    if not isinstance(answer, dict):
        return body
    for view in (answer, answer.get("me")):
        if isinstance(view, dict) and isinstance(view.get("legal"), list):
            view["legal"] = []
    return json.dumps(answer)


@dataclass(frozen=True)
class Secret:
    """Something sealed: what it is, who may see it, and the texts that would give it away."""

    label: str
    owner: str | None  # the player whose own private view may show it
    texts: tuple[str, ...]  # searched in responses, logs and the database
    blobs: tuple[bytes, ...] = ()  # searched in the database too


@dataclass
class Pick:
    """A sealed submission the test made, with the salt it chose."""

    step: int
    player: str
    payload: Any
    salt: str
    final: bool = True  # False: amended before the seal, so never to be revealed

    @property
    def canonical(self) -> str:
        """The pick's canonical JSON, as the commitment hashes it."""
        return canonical_json(self.payload).decode()

    def secret(self, *, payload_public: bool = False) -> Secret:
        """The pick's canonical JSON, Python's renderings (a template shows ``repr``), its salt.

        ``payload_public``: an equal pick is public already (two players moved alike and
        one was revealed), so only the salt gives this one away.
        """
        raw = bytes.fromhex(self.salt)
        value, stored = self.payload, json.loads(self.canonical)  # stored: keys in order
        renderings = (json.dumps(value), json.dumps(stored), repr(value), repr(stored))
        texts = () if payload_public else (self.canonical, *renderings)
        kind = "pick" if self.final else "amended pick"
        return Secret(
            label=f"step {self.step} {self.player}'s {kind} {self.canonical} salt {self.salt[:8]}…",
            owner=self.player,
            texts=(*texts, self.salt, self.salt.upper()),
            blobs=(raw, base64.b64encode(raw)),
        )


def _private_deal(step: int, player: str, part: Any) -> Secret:
    """A player's private deal (hand, sequence): ``[12,15,...]`` and ``"ana":[12,15,...]``."""
    canonical = canonical_json(part).decode()
    return Secret(
        label=f"step {step} {player}'s private deal {canonical}",
        owner=player,
        texts=(canonical, canonical_json({player: part}).decode()[1:-1]),
    )


def _visible(body: str) -> tuple[str, str]:
    """A response as searched: HTML entities decoded, and the same without whitespace."""
    plain = html.unescape(body)
    return plain, re.sub(r"\s+", "", plain)


@dataclass
class Viewer:
    """One role reading everything: a bearer token on the API, a private-link session on pages."""

    name: str
    client: FlaskClient
    token: str | None = None

    def get(self, url: str) -> tuple[int, str]:
        """GET ``url`` as this role."""
        api = self.token is not None and url.startswith("/api/")
        headers = {"Authorization": f"Bearer {self.token}"} if api else {}
        response = self.client.get(url, headers=headers)
        return response.status_code, response.get_data(as_text=True)


@dataclass
class Hunt:
    """One match played through the API while searching everywhere for its sealed picks."""

    app: Flask
    scenario: dict[str, Any]
    caplog: pytest.LogCaptureFixture
    schema: str | None
    picks: list[Pick] = field(default_factory=list)
    viewers: list[Viewer] = field(default_factory=list)
    match_id: str = ""
    tokens: dict[str, str] = field(default_factory=dict)
    seed: bytes = b""
    deals: dict[int, dict[str, Any]] = field(default_factory=dict)  # private deals by step

    @property
    def room(self) -> Any:
        """The service behind the app."""
        return service(self.app)

    @property
    def players(self) -> list[str]:
        """The scenario's players."""
        return list(self.scenario["players"])

    # ------------------------------------------------------------------ playing

    def create(self) -> None:
        """Create the match through the API and sign every role in on a browser of its own."""
        body = {k: self.scenario[k] for k in ("game", "players", "options") if k in self.scenario}
        body |= {"auto_open": False, "auto_seal": False}  # the test drives every step
        made = self.act("POST", "/api/matches", body, expect=201)
        self.match_id = made["match_id"]
        self.seed = self.room.get_match(self.match_id).seed
        self.tokens = {"host": made["host_token"], **claim_seats(self.app.test_client(), made)}
        self.viewers = [Viewer("anonymous", self.app.test_client())]
        for role, token in self.tokens.items():
            client = self.app.test_client()
            signed = client.post(f"/api/matches/{self.match_id}/session", json={"token": token})
            assert signed.status_code == 200 and signed.get_json()["role"] == role
            self.viewers.append(Viewer(role, client, token))

    def act(
        self,
        method: str,
        url: str,
        body: Any = None,
        *,
        role: str | None = None,
        expect: int | None = 200,
    ) -> dict[str, Any]:
        """Act through the API as ``role`` and search the answer (``expect=None``: any 2xx/4xx)."""
        headers = {"Authorization": f"Bearer {self.tokens[role]}"} if role else {}
        response = self.app.test_client().open(url, method=method, json=body, headers=headers)
        answer = response.get_json()
        if expect is not None:
            assert response.status_code == expect, (url, answer)
        assert response.status_code < 500, (url, answer)
        self.assert_clean(response.get_data(as_text=True), self.sealed(), f"{method} {url}")
        return answer

    def play(self) -> None:
        """Every step: open, submit (after a decoy that is amended), search, seal, decide."""
        steps = self.scenario["steps"]
        url = f"/api/matches/{self.match_id}"
        at_end = get_rules(self.scenario["game"]).disclosure is Disclosure.AT_END
        for number, step in enumerate(steps, start=1):
            body: dict[str, Any] = {"seconds": 3600}
            if step.get("deal"):
                body["deal"] = step["deal"]
            self.act("POST", f"{url}/steps", body, role="host", expect=201)
            self.deals[number] = self.room.get_match(self.match_id).steps[number].deal_private
            submit = step.get("submit") or {}
            for index, (player, payload) in enumerate(submit.items()):
                if index == 0:
                    others = [p for q, p in submit.items() if q != player]
                    later = [(s.get("submit") or {}).get(player) for s in steps[number:]]
                    self.decoy(number, player, [p for p in [*others, *later] if p is not None])
                self.submit(number, player, payload)
                if index == 0 and number in (1, len(steps)):
                    self.probe()
            # Check everything just before the seal discloses the step (or, at the end, all).
            self.probe(every_role=number in (1, len(steps)))
            status = self.act("POST", f"{url}/seal", role="host")["status"]
            decide = step.get("decide") or {}
            while status["step"]["decision"]:
                self.probe()
                asked = status["step"]["decision"]["player"]
                if asked in decide:
                    to = f"{url}/players/{asked}/decisions"
                    answer = self.act("POST", to, {"payload": decide[asked]}, role=asked)
                else:
                    answer = self.act("POST", f"{url}/decisions/default", role="host")
                status = answer["status"]
            if at_end and not status["finished"]:
                self.probe()
        assert status["finished"], "the scenario is a complete match"

    def submit(self, number: int, player: str, payload: Any) -> None:
        """Seal ``payload`` with a salt of the test's choosing."""
        pick = Pick(number, player, payload, secrets.token_hex(32))
        self.picks.append(pick)  # sealed from now on
        answer = self.act(
            "POST", f"/api/matches/{self.match_id}/players/{player}/submissions",
            {"payload": payload, "salt": pick.salt, "step": number}, role=player, expect=201,
        )  # fmt: skip
        assert (answer["step"], answer["player"]) == (number, player)

    def decoy(self, number: int, player: str, candidates: list[Any]) -> None:
        """Submit a legal pick the player then amends: it must never be seen at all."""
        for payload in candidates[:3]:
            before = len(self.room.records(self.match_id))
            pick = Pick(number, player, payload, secrets.token_hex(32), final=False)
            self.picks.append(pick)
            answer = self.act(
                "POST", f"/api/matches/{self.match_id}/players/{player}/submissions",
                {"payload": payload, "salt": pick.salt}, role=player, expect=None,
            )  # fmt: skip
            if "commitment" in answer:
                return
            self.picks.remove(pick)  # not a legal pick for this player: refused, nothing recorded
            assert len(self.room.records(self.match_id)) == before, answer

    # ------------------------------------------------------------------ secrets

    def sealed(self) -> list[Secret]:
        """Every secret not yet disclosed, by the public records."""
        records = self.room.records(self.match_id) if self.match_id else []
        kinds = {r["type"] for r in records}
        reveals = [r["data"] for r in records if r["type"] == "SubmissionRevealed"]
        revealed = {(data["step"], data["player"]) for data in reveals}
        payloads = [r["data"]["payload"] for r in records if "payload" in r["data"]]
        public = {canonical_json(payload).decode() for payload in payloads}
        out = [
            pick.secret(payload_public=pick.canonical in public)
            for pick in self.picks
            if not pick.final or (pick.step, pick.player) not in revealed
        ]
        out += [
            Secret(f"the {role}'s token", None, (token, token_hash(token)))
            for role, token in self.tokens.items()
        ]
        if self.seed and "SeedRevealed" not in kinds:
            out.append(Secret("the host seed", None, (self.seed.hex(),), (self.seed,)))
        if "DealRevealed" not in kinds:
            out += [
                _private_deal(number, player, part)
                for number, deal in self.deals.items()
                for player, part in deal.items()
            ]
        return out

    @staticmethod
    def assert_clean(body: str, sealed: list[Secret], where: str, owner: str | None = None) -> None:
        """:raises AssertionError: if ``body`` shows a sealed secret (but ``owner``'s own)."""
        plain, squeezed = _visible(_without_options(body))
        # The owner's own secrets, and another's that read the same (two equal votes), are theirs.
        own = {t for s in sealed if owner is not None and s.owner == owner for t in s.texts}
        for secret in sealed:
            for needle in set(secret.texts) - own:
                shown = needle in plain or needle in squeezed
                assert not shown, f"{where} shows {secret.label}"

    # ------------------------------------------------------------------ searching

    def urls(self, viewer: Viewer, *, every: bool) -> Iterator[tuple[str, str | None]]:
        """What ``viewer`` reads, each with the player whose own view it is.

        Each read covers the status, the public records and state and the timeline; an
        ``every`` read adds the bundle, the host console, the viewer's own and a neighbour's
        private views, rooms and receipts (the latter refused, and searched all the same), and
        for the anonymous reader the rest of the pages and the API.
        """
        mid, api, players = self.match_id, f"/api/matches/{self.match_id}", self.players
        last = len(self.room.records(mid)) - 1
        public = [api, f"{api}/records", f"{api}/state", f"/matches/{mid}"]
        yield from ((url, None) for url in public)
        if not every:
            return
        yield from ((url, None) for url in (f"{api}/bundle?download=1", f"/matches/{mid}/host"))
        if viewer.token is None:
            yield from (
                (url, None)
                for url in (
                    "/", "/api/matches", f"{api}/records?from={max(last - 3, 0)}",
                    f"{api}/state?at={last}", f"{api}/checkpoint", f"{api}/checkpoint?from=1",
                    f"/matches/{mid}?at={max(last - 1, 0)}", f"/matches/{mid}/picture?at={last}",
                )
            )  # fmt: skip
        own = [viewer.name] if viewer.name in players else []
        neighbour = players[(players.index(viewer.name) + 1) % len(players)] if own else players[0]
        for player in [*own, neighbour]:
            mine = player if player == viewer.name else None
            yield f"{api}/players/{player}", mine
            yield f"{api}/players/{player}/room", mine
            yield f"{api}/players/{player}/receipts", mine
            yield f"/matches/{mid}/players/{player}", mine

    def probe(self, *, every_role: bool = False) -> None:
        """Search for every secret still sealed.

        As the anonymous reader (or every role), in the bundle, the logs and the database.
        """
        sealed = self.sealed()
        for viewer in self.viewers if every_role else self.viewers[:1]:
            for url, owner in self.urls(viewer, every=every_role):
                status, body = viewer.get(url)
                assert status < 500, (viewer.name, url)
                self.assert_clean(body, sealed, f"{viewer.name} GET {url}", owner)
        bundle = dump_bundle(archive_of(self.room).export_bundle(self.match_id)).decode()
        self.assert_clean(bundle, sealed, "the bundle")
        self.assert_clean(self.caplog.text, sealed, "the logs")
        dump = self.database_dump()
        for secret in sealed:
            for needle in (*[t.encode() for t in secret.texts], *secret.blobs):
                assert needle not in dump, f"the database shows {secret.label}"

    def database_dump(self) -> bytes:
        """Every column of every row of every table (and, on SQLite, the files themselves)."""
        engine: Engine = self.room.factory.datastore.engine
        out: list[bytes] = []
        with engine.connect() as conn:
            if self.schema is None:
                tables = conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'table'"))
                names = [f'"{t}"' for t in tables.scalars()]
            else:
                catalogue = "SELECT table_name FROM information_schema.tables WHERE table_schema=:s"
                tables = conn.execute(text(catalogue), {"s": self.schema})
                names = [f'"{self.schema}"."{t}"' for t in tables.scalars()]
            assert names
            for name in names:
                rows = conn.execute(text(f"SELECT * FROM {name}"))  # noqa: S608 - catalogue names
                for row in rows:
                    out += [
                        bytes(v) if isinstance(v, memoryview | bytes) else str(v).encode()
                        for v in row
                        if v is not None
                    ]
        if self.schema is None:
            folder = Path(self.app.config["DEALERROOM_INSTANCE"])
            out += [path.read_bytes() for path in folder.glob("*.sqlite3*")]
        return b"\n".join(out)

    # ------------------------------------------------------------------ the search works

    def assert_disclosed(self) -> None:
        """After the end, the revealed picks are found where a leak would have been."""
        url = f"/api/matches/{self.match_id}/records"
        records = self.app.test_client().get(url).get_data(as_text=True)
        dump = self.database_dump()
        finals = [p for p in self.picks if p.final]
        assert finals
        for pick in finals:
            assert pick.salt in records and pick.canonical in records, pick
            assert pick.salt.encode() in dump, pick
        assert self.seed.hex() in records
        assert "submitted" in self.caplog.text  # the API's own log lines were captured


def test_every_game_has_a_match_to_search() -> None:
    assert set(MATCHES) == set(game_names())


@pytest.mark.parametrize("game", list(MATCHES))
def test_no_sealed_pick_is_readable_anywhere_before_its_disclosure(
    game: str, store_app: tuple[Flask, str | None], caplog: pytest.LogCaptureFixture
) -> None:
    app, schema = store_app
    caplog.set_level(logging.DEBUG)
    name, changes, steps = MATCHES[game]
    scenario = load_scenario(SCENARIOS / name)
    scenario = {**scenario, **changes}
    hunt = Hunt(app, {**scenario, "steps": scenario["steps"][:steps]}, caplog, schema)
    # Check nothing sealed shows when the match is new (the seed is sealed already).
    hunt.create()
    hunt.probe()
    # Check every step: before each disclosure, no sealed pick anywhere.
    hunt.play()
    # Check the end: amended picks are still nowhere; the rest is public and found.
    hunt.probe(every_role=True)
    amended = [p.secret().label for p in hunt.picks if not p.final]
    assert [s.label for s in hunt.sealed() if s.owner] == amended
    hunt.assert_disclosed()
