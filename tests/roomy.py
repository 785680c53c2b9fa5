"""An app for tests that make many requests quickly: rate limits out of the way, SQLite's
fsync relaxed (``NORMAL``: durable across a crash of the process, which is all a test needs).
"""

from __future__ import annotations

from typing import Any, TYPE_CHECKING


from web import create_app

if TYPE_CHECKING:
    from flask import Flask
    from pathlib import Path


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
