"""An app for tests that make many requests quickly.

Rate limits are out of the way and SQLite's fsync relaxed (``NORMAL``: durable across a crash
of the process, which is all a test needs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from web import create_app

if TYPE_CHECKING:
    from pathlib import Path

    from flask import Flask


def roomy_app(instance: Path, **config: Any) -> Flask:
    """``create_app`` on ``instance`` with generous limits; ``config`` adds or overrides."""
    return create_app(
        {
            "DEALERROOM_INSTANCE": str(instance),
            "DEALERROOM_SUBMIT_RATE": "100000/second",
            "DEALERROOM_CREATE_RATE": "100000/second",
            "DEALERROOM_SQLITE_SYNCHRONOUS": "NORMAL",
            "TESTING": True,
            **config,
        }
    )
