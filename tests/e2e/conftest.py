"""Fixtures of the end-to-end tests: a Flask app on a fresh instance and its test client."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from web import create_app

if TYPE_CHECKING:
    from pathlib import Path

    from flask import Flask
    from flask.testing import FlaskClient


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    """The app on the embedded SQLite default, in a fresh instance folder."""
    return create_app({"DEALERROOM_INSTANCE": str(tmp_path / "instance"), "TESTING": True})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """Flask's test client of ``app``."""
    return app.test_client()
