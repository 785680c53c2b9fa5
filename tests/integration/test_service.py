"""The service on the embedded SQLite store and on PostgreSQL (the same tests, both backends)."""

from __future__ import annotations

import json
import threading
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import create_engine, text

from domain.match import MatchError, NotAPlayer
from domain.rules.base import IllegalPick
from service.application import DealerRoom, NotFound
from tests.conftest import seat_all

if TYPE_CHECKING:
    from service.config import Settings

PLAYERS = ["ana", "ben", "cai"]


def test_a_match_is_created_played_and_read_back_from_the_store(service: DealerRoom) -> None:
    created = service.create_match("vote", PLAYERS)
    mid = created["match_id"]
    assert service.open_step(mid) == 1
    service.submit(mid, "ana", {"vote": "ben"})
    service.submit(mid, "ben", {"vote": "ben"})
    assert service.seal(mid) == "finished"
    records = service.records(mid)
    assert [r["seq"] for r in records] == list(range(len(records)))
    assert records[-1]["type"] == "SeedRevealed"
    assert service.public_state(mid)["winners"] == ["ben"]
    # a second application on the same store sees the same log (workers are stateless)
    other = DealerRoom(service.settings)
    assert other.records(mid) == records
    other.close()


def test_tokens_are_random_hashed_and_name_their_role(service: DealerRoom) -> None:
    created = service.create_match("vote", PLAYERS)
    mid = created["match_id"]
    tokens = seat_all(service, created)
    assert service.role_of(mid, created["host_token"]) == "host"
    assert service.role_of(mid, tokens["cai"]) == "cai"
    assert service.role_of(mid, "guess") is None
    assert len(set(tokens.values()) | {created["host_token"]}) == 4
    dump = json.dumps(service.records(mid))
    assert created["host_token"] not in dump
    assert not any(t in dump for t in tokens.values())


def test_an_unknown_match_is_not_found(service: DealerRoom) -> None:
    with pytest.raises(NotFound):
        service.records("00000000-0000-4000-8000-000000000000")
    with pytest.raises(NotFound):
        service.records("not-a-uuid")


def test_a_rejected_submission_writes_nothing(service: DealerRoom) -> None:
    mid = service.create_match("vote", PLAYERS)["match_id"]
    service.open_step(mid)
    before = len(service.records(mid))
    with pytest.raises(IllegalPick):
        service.submit(mid, "ana", {"vote": "zed"})
    with pytest.raises(NotAPlayer):
        service.submit(mid, "zed", {"vote": "ana"})
    assert len(service.records(mid)) == before


def test_a_repeated_identical_submission_returns_the_original_receipt(service: DealerRoom) -> None:
    mid = service.create_match("vote", PLAYERS)["match_id"]
    service.open_step(mid)
    first = service.submit(mid, "ana", {"vote": "ben"})
    count = len(service.records(mid))
    again = service.submit(mid, "ana", {"vote": "ben"})
    assert (first["unchanged"], again["unchanged"]) == (False, True)
    assert {**again, "unchanged": False} == first
    assert len(service.records(mid)) == count


def test_twenty_threads_submitting_to_one_match_lose_nothing_and_duplicate_nothing(
    settings: Settings,
) -> None:
    players = [f"p{i:02d}" for i in range(20)]
    setup = DealerRoom(settings)
    mid = setup.create_match("vote", players)["match_id"]
    setup.open_step(mid)
    results: dict[str, str] = {}
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(players))

    def worker(player: str) -> None:
        app = DealerRoom(settings)  # one worker process each, as behind a load balancer
        try:
            barrier.wait()
            receipt = app.submit(mid, player, {"vote": "p00"})
            app.submit(mid, player, {"vote": "p00"})  # a retried request changes nothing
            results[player] = receipt["commitment"]
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            app.close()

    threads = [threading.Thread(target=worker, args=(p,)) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    commits = [r for r in setup.records(mid) if r["type"] == "SubmissionCommitted"]
    assert Counter(r["data"]["player"] for r in commits) == Counter(players)
    assert {r["data"]["player"]: r["data"]["commitment"] for r in commits} == results
    assert setup.seal(mid) == "finished"
    assert setup.public_state(mid)["tally"]["p00"] == 20
    setup.close()


def test_the_match_list_is_projected_from_the_log(service: DealerRoom) -> None:
    a = service.create_match("vote", PLAYERS)["match_id"]
    b = service.create_match("vote", ["x", "y"])["match_id"]
    service.open_step(a)
    rows = {m["match_id"]: m for m in service.matches()}
    assert rows[a]["status"] == "open" and rows[a]["game"] == "vote"
    assert rows[b]["status"] == "created" and rows[b]["players"] == ["x", "y"]


def test_a_passed_deadline_seals_the_step_without_anyone_clicking(settings: Settings) -> None:
    now = [datetime(2026, 11, 21, 20, 0, tzinfo=UTC)]
    app = DealerRoom(settings, clock=lambda: now[0])
    mid = app.create_match("vote", PLAYERS)["match_id"]
    app.open_step(mid, seconds=60)
    app.submit(mid, "ana", {"vote": "cai"})
    assert app.tick() == []
    now[0] += timedelta(seconds=61)
    assert app.tick() == [(mid, "finished")]
    assert app.public_state(mid)["tally"]["cai"] == 1
    assert app.tick() == []
    app.close()


def test_a_bad_seed_or_custody_is_refused_before_anything_is_written(service: DealerRoom) -> None:
    with pytest.raises(MatchError, match="64 hex"):
        service.create_match("vote", PLAYERS, seed="abc")
    with pytest.raises(MatchError, match="custody"):
        service.create_match("vote", PLAYERS, custody={"ana": "vault"})
    assert service.matches() == []


def _database_bytes(settings: Settings) -> bytes:
    if settings.database_url.startswith("sqlite"):
        path = Path(settings.database_url.removeprefix("sqlite:///"))
        return b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*"))
    engine = create_engine(settings.database_url)
    out = []
    with engine.connect() as conn:
        conn.execute(text(f'SET search_path TO "{settings.db_schema}"'))
        tables = conn.execute(
            text("SELECT tablename FROM pg_tables WHERE schemaname = :s"), {"s": settings.db_schema}
        ).scalars()
        for table in list(tables):
            query = f'SELECT * FROM "{table}"'  # noqa: S608 - a table of the test's own schema
            out.extend(
                repr(tuple(bytes(v) if isinstance(v, memoryview) else v for v in row))
                for row in conn.execute(text(query))
            )
    engine.dispose()
    return "\n".join(out).encode()


def test_a_sealed_pick_is_not_in_the_database_before_its_reveal(service: DealerRoom) -> None:
    mid = service.create_match("vote", ["ana", "ben"], {"candidates": ["Zanzibar-Quokka", "ben"]})[
        "match_id"
    ]
    service.open_step(mid)
    service.submit(mid, "ana", {"vote": "Zanzibar-Quokka"})
    service.close()
    dump = _database_bytes(service.settings)
    assert b"Quokka" in dump  # the candidate list is public: the dump is readable
    assert b'"vote":"Zanzibar-Quokka"' not in dump
    assert b'"vote": "Zanzibar-Quokka"' not in dump
    assert b"vote" in dump
