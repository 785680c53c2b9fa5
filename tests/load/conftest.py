"""Fixtures of the load and crash tests: a store on each backend and its server process."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.conftest import PG_URL
from tests.load.server import Server, store_env

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path


@pytest.fixture
def store(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> dict[str, str]:
    """The settings of a fresh store: SQLite in a temporary instance, or a PostgreSQL schema."""
    if backend == "postgres":
        return store_env(tmp_path / "instance", PG_URL, request.getfixturevalue("pg_schema"))
    return store_env(tmp_path / "instance")


@pytest.fixture
def start_server(store: dict[str, str], tmp_path: Path) -> Iterator[Callable[[], Server]]:
    """Start a server on ``store`` (again after a crash); every one is stopped at the end."""
    servers: list[Server] = []

    def start() -> Server:
        servers.append(Server(store, tmp_path / "server.log").start())
        return servers[-1]

    try:
        yield start
    finally:
        for server in servers:
            server.stop()
