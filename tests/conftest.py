"""Shared fixtures: one service suite, two backends (embedded SQLite and PostgreSQL).

PostgreSQL tests use ``DEALERROOM_TEST_POSTGRES_URL`` (``.ci/run`` sets it to the machine's
server); each test gets a schema of its own, dropped afterwards. Without the variable the
PostgreSQL cases are skipped, except under CI, where that is an error.
"""

from __future__ import annotations

import logging
import os
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy import create_engine, text

from service.archive import Archive
from service.bootstrap import Services, bootstrap
from service.config import Settings
from web.errors import UNEXPECTED
from web.extension import replay_bundles

if TYPE_CHECKING:
    from collections.abc import Iterator

    from flask import Flask
    from flask.testing import FlaskClient

    from service.application import DealerRoom
    from tests.news_receiver import Receiver

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = REPO / "fixtures" / "scenarios"
PG_URL = os.environ.get("DEALERROOM_TEST_POSTGRES_URL")
collect_ignore = ["plugins"]  # a sixth game's files, dropped into a copy of the tree by a test


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("CI") and not PG_URL:
        raise pytest.UsageError("CI must set DEALERROOM_TEST_POSTGRES_URL (see .ci/run)")
    config.addinivalue_line(
        "markers", "unexpected_errors: the test provokes logged 500s on purpose (web.errors)"
    )


class _Unexpected(logging.Handler):
    """Collects the web's ``unexpected error`` log records (a 500: a bug, never a user's)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.msg == UNEXPECTED:
            self.seen.append(record.getMessage())


@pytest.fixture(autouse=True)
def no_unexpected_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test during which the web answered a logged 500 (an error no user caused).

    A test that provokes one on purpose is marked ``unexpected_errors``.
    """
    handler = _Unexpected()
    logger = logging.getLogger("dealerroom.web")
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)
    if handler.seen and request.node.get_closest_marker("unexpected_errors") is None:
        pytest.fail("the web answered 500 (logged as unexpected): " + "; ".join(handler.seen))


@pytest.fixture
def pg_schema() -> Iterator[str]:
    """A fresh PostgreSQL schema, dropped after the test."""
    if not PG_URL:
        pytest.skip("DEALERROOM_TEST_POSTGRES_URL is not set")
    name = "t_" + uuid.uuid4().hex[:16]
    engine = create_engine(PG_URL)
    with engine.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{name}"'))
    try:
        yield name
    finally:
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{name}" CASCADE'))
        engine.dispose()


def settings_for(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Settings:
    env = {"DEALERROOM_INSTANCE": str(tmp_path / "instance")}
    if backend == "postgres":
        env["DEALERROOM_DATABASE_URL"] = PG_URL or ""
        env["DEALERROOM_DB_SCHEMA"] = request.getfixturevalue("pg_schema")
    return Settings.load(env)


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    """Each service test runs on both stores."""
    return str(request.param)


@pytest.fixture
def settings(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Settings:
    return settings_for(backend, tmp_path, request)


@pytest.fixture
def services(settings: Settings) -> Iterator[Services]:
    """The service as the composition root builds it (with replay's bundle format)."""
    built = bootstrap(settings, bundles=replay_bundles())
    try:
        yield built
    finally:
        built.close()


@pytest.fixture
def service(services: Services) -> DealerRoom:
    return services.room


@pytest.fixture
def sqlite_service(tmp_path: Path) -> Iterator[DealerRoom]:
    settings = Settings.load({"DEALERROOM_INSTANCE": str(tmp_path / "instance")})
    built = bootstrap(settings, bundles=replay_bundles())
    try:
        yield built.room
    finally:
        built.close()


def archive_of(room: DealerRoom) -> Archive:
    """Bundles in and out of ``room``, with replay's bundle format (as the root wires them)."""
    return Archive(room, replay_bundles())


def expected_lines(path: Path) -> list[dict[str, Any]]:
    import json

    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def seat_all(service: DealerRoom, created: dict[str, Any]) -> dict[str, str]:
    """Claim every seat of a freshly created match with its invite; return player -> token."""
    return {
        player: service.claim(created["match_id"], player, invite)["token"]
        for player, invite in created["invites"].items()
    }


@pytest.fixture
def store_app(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[tuple[Flask, str | None]]:
    """The app on each store (and its PostgreSQL schema), limits out of the way, closed after."""
    from tests.roomy import roomy_app
    from web.extension import services as services_of

    config: dict[str, Any] = {}
    schema = None
    if backend == "postgres":
        schema = request.getfixturevalue("pg_schema")
        config = {"DEALERROOM_DATABASE_URL": PG_URL, "DEALERROOM_DB_SCHEMA": schema}
    app = roomy_app(tmp_path / "instance", **config)
    try:
        yield app, schema
    finally:
        services_of(app).close()


@pytest.fixture
def store_client(store_app: tuple[Flask, str | None]) -> FlaskClient:
    """A client of the app on each store."""
    return store_app[0].test_client()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A receiver of news on loopback (apprise's ``json://`` target), closed after."""
    from tests.news_receiver import Receiver

    found = Receiver()
    try:
        yield found
    finally:
        found.close()
