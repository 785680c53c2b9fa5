"""Sealed values in the store, on both backends (issue 14, findings 6 and 7).

Finding 7: swapping two players' encrypted picks in the database (no key needed) made the
service reveal, resolve and sign the wrong result. Each test here plays a vote, swaps ana's
and ben's stored openings directly in the events table, and starts the service again on
the same store (as after a restart, or in another worker: a running worker keeps the match it
already holds in memory). Sealing must then fail with an operator's error (not a user's
``ValueError``), and nothing may be recorded: no reveal, no resolution, no new leaf or signed
checkpoint. Two swaps are tried: the whole stored values (each still decrypts, but carries
the binding of its old place, which the aggregate refuses) and the ciphertexts alone (the
binding left in place no longer authenticates them).

Finding 6: the stored sealed values of two picks of one game have the same length.
"""

from __future__ import annotations

import base64
import json
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy import Engine, text

from domain.sealed import SealedBindingError
from service.application import DealerRoom
from service.sealing import SealingError, key_id
from tests.roomy import roomy_app

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from service.config import Settings

OPERATOR_ERRORS = (SealingError, SealedBindingError)


def table(settings: Settings, name: str) -> str:
    return f'"{settings.db_schema}".{name}' if settings.db_schema else name


def engine_of(service: DealerRoom) -> Engine:
    return service.factory.datastore.engine  # type: ignore[attr-defined,no-any-return]


def stored_events(service: DealerRoom, settings: Settings) -> list[dict[str, Any]]:
    """Every stored event row of the store: id, topic and the state as stored (JSON bytes)."""
    events = table(settings, "dealerroom_events")
    query = f"SELECT id, topic, state FROM {events} ORDER BY id"  # noqa: S608 - our own table name
    with engine_of(service).connect() as conn:
        return [
            {"id": row.id, "topic": row.topic, "state": bytes(row.state)}
            for row in conn.execute(text(query))
        ]


def committed(service: DealerRoom, settings: Settings) -> dict[str, dict[str, Any]]:
    """The stored ``SubmissionCommitted`` rows, by player (the latest one of each)."""
    rows = {}
    for row in stored_events(service, settings):
        if row["topic"].endswith("SubmissionCommitted"):
            rows[json.loads(row["state"])["player"]] = row
    return rows


def write_state(service: DealerRoom, settings: Settings, row_id: int, state: dict) -> None:
    encoded = json.dumps(state, separators=(",", ":"), ensure_ascii=False).encode()
    events = table(settings, "dealerroom_events")
    query = f"UPDATE {events} SET state = :state WHERE id = :id"  # noqa: S608 - our own table name
    with engine_of(service).begin() as conn:
        conn.execute(text(query), {"state": encoded, "id": row_id})


def counts(service: DealerRoom, settings: Settings) -> dict[str, int]:
    """How many events, Merkle leaves and signed checkpoints the store holds."""
    out = {}
    with engine_of(service).connect() as conn:
        for name in ("dealerroom_events", "dealerroom_leaves", "dealerroom_checkpoints"):
            query = text(f"SELECT COUNT(*) FROM {table(settings, name)}")  # noqa: S608 - our table
            out[name] = conn.execute(query).scalar_one()
    return out


def swap_openings(service: DealerRoom, settings: Settings, how: str) -> None:
    """Swap ana's and ben's stored openings (``whole`` values, or ``ciphertext`` only)."""
    rows = committed(service, settings)
    ana, ben = (json.loads(rows[p]["state"]) for p in ("ana", "ben"))
    a, b = ana["opening"]["_data_"], ben["opening"]["_data_"]
    assert a["b"] != b["b"]  # each is bound to its own event
    if how == "whole":
        ana["opening"], ben["opening"] = ben["opening"], ana["opening"]
    else:
        for key in ("n", "c"):
            a[key], b[key] = b[key], a[key]
    write_state(service, settings, rows["ana"]["id"], ana)
    write_state(service, settings, rows["ben"]["id"], ben)


def play_to_the_seal(service: DealerRoom, options: dict[str, Any] | None = None) -> dict:
    created = service.create_match("vote", ["ana", "ben"], options or {})
    match_id = created["match_id"]
    service.open_step(match_id)
    service.submit(match_id, "ana", {"vote": "ana"})
    service.submit(match_id, "ben", {"vote": "ben"})
    return created


@contextmanager
def restarted(settings: Settings) -> Iterator[DealerRoom]:
    again = DealerRoom(settings)
    try:
        yield again
    finally:
        again.close()


# ---------------------------------------------------------------------------- finding 7


@pytest.mark.parametrize("how", ["whole", "ciphertext"])
def test_swapped_sealed_picks_stop_the_seal_and_nothing_is_recorded(
    service: DealerRoom, settings: Settings, how: str
) -> None:
    # 1. A vote: ana votes for herself, ben for himself.
    match_id = play_to_the_seal(service)["match_id"]
    # 2. Someone with access to the database (no key) swaps their sealed picks.
    swap_openings(service, settings, how)
    # 3. The service starts again on that store, and the host seals.
    with restarted(settings) as again:
        before = counts(again, settings)
        with pytest.raises(OPERATOR_ERRORS) as raised:
            again.seal(match_id)
        # Check: an operator's error, never a user's (which the API would answer with 400)
        assert not isinstance(raised.value, ValueError)
        # Check: nothing was recorded, revealed, resolved or signed after the swap
        assert counts(again, settings) == before
    topics = [row["topic"] for row in stored_events(service, settings)]
    assert not any(t.endswith(("StepSealed", "SubmissionRevealed", "StepResolved")) for t in topics)


def test_a_worker_holding_the_match_in_memory_never_records_the_swapped_picks(
    service: DealerRoom, settings: Settings
) -> None:
    # A worker that already holds the match (its aggregate cache) does not read the old
    # events again; whatever it does, it must not reveal the swapped picks.
    match_id = play_to_the_seal(service)["match_id"]
    swap_openings(service, settings, "whole")
    before = counts(service, settings)
    try:
        service.seal(match_id)
    except OPERATOR_ERRORS:
        assert counts(service, settings) == before
        return
    revealed = {
        r["data"]["player"]: r["data"]["payload"]
        for r in service.records(match_id)
        if r["type"] == "SubmissionRevealed"
    }
    assert revealed == {"ana": {"vote": "ana"}, "ben": {"vote": "ben"}}


@pytest.mark.parametrize("how", ["whole", "ciphertext"])
def test_swapped_sealed_picks_answer_a_generic_server_error_over_http(
    service: DealerRoom, settings: Settings, tmp_path: Path, how: str
) -> None:
    created = play_to_the_seal(service)
    match_id = created["match_id"]
    swap_openings(service, settings, how)
    config = {"DEALERROOM_DATABASE_URL": settings.database_url}
    if settings.db_schema:
        config["DEALERROOM_DB_SCHEMA"] = settings.db_schema
    app = roomy_app(tmp_path / "instance", **config)
    try:
        client = app.test_client()
        before = counts(service, settings)
        answer = client.post(
            f"/api/matches/{match_id}/seal",
            headers={"Authorization": f"Bearer {created['host_token']}"},
        )
        assert answer.status_code in (500, 503), answer.get_data(as_text=True)
        body = answer.get_data(as_text=True)
        assert set(answer.get_json()) == {"error"}
        # Check: no internal detail in the answer (key ids, event topics, the binding)
        secret = key_id(settings.sealing_keys[0])
        for detail in (secret, "domain.", "Submission", "opening", "bound"):
            assert detail not in body, body
        assert counts(service, settings) == before
    finally:
        app.extensions["dealerroom"].close()


# ---------------------------------------------------------------------------- finding 6


@pytest.mark.parametrize(
    ("game", "players", "options", "deal", "picks"),
    [
        (
            "vote",
            ["ana", "ben"],
            {"candidates": ["al", "bartholomew"]},
            None,
            {"ana": {"vote": "al"}, "ben": {"vote": "bartholomew"}},
        ),
        (
            "six-nimmt",
            ["ana", "ben"],
            {},
            {
                "rows": [50, 51, 52, 53],
                "hands": {
                    "ana": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
                    "ben": [95, 96, 97, 98, 99, 100, 101, 102, 103, 104],
                    "virtual": [21, 22, 23, 24, 25, 26, 27, 28, 29, 30],
                },
            },
            {"ana": {"card": 1}, "ben": {"card": 104}},
        ),
    ],
)
def test_two_picks_of_a_game_are_stored_at_the_same_length(
    service: DealerRoom,
    settings: Settings,
    game: str,
    players: list[str],
    options: dict[str, Any],
    deal: dict[str, Any] | None,
    picks: dict[str, Any],
) -> None:
    match_id = service.create_match(game, players, options)["match_id"]
    service.open_step(match_id, deal=deal)
    for player, pick in picks.items():
        service.submit(match_id, player, pick)
    rows = committed(service, settings)
    stored = {p: json.loads(rows[p]["state"])["opening"]["_data_"] for p in ("ana", "ben")}
    ciphertexts = {p: len(base64.b64decode(s["c"])) for p, s in stored.items()}
    assert ciphertexts["ana"] == ciphertexts["ben"]
    # ana and ben are names of one length, so even the whole stored value is the same size
    assert len(json.dumps(stored["ana"])) == len(json.dumps(stored["ben"]))
    for pick in picks.values():  # and no pick is readable there
        for value in pick.values():
            assert f'"{value}"'.encode() not in rows["ana"]["state"] + rows["ben"]["state"]
