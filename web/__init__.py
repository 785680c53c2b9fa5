"""The Flask front end: app factory, blueprints, JSON API.

The web layer stays thin: views call the service's use cases and the replay functions,
and render what they return.
"""

from __future__ import annotations

import os
from typing import Any

from flask import Flask

from service.application import DealerRoom
from service.config import Settings

EXTENSION = "dealerroom"


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Create the app; ``test_config`` overrides settings (keys as the env variables)."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        DEALERROOM_INSTANCE=os.environ.get("DEALERROOM_INSTANCE") or app.instance_path,
        MAX_CONTENT_LENGTH=64 * 1024,
        JSON_SORT_KEYS=False,
    )
    if test_config is None:
        app.config.update({k: v for k, v in os.environ.items() if k.startswith("DEALERROOM_")})
    else:
        app.config.from_mapping(test_config)
    env = {k: str(v) for k, v in app.config.items() if k.startswith("DEALERROOM_")}
    settings = Settings.load(env)
    app.config["SECRET_KEY"] = settings.session_key
    room = DealerRoom(settings)
    app.extensions[EXTENSION] = room
    room.tick()  # deadlines that passed while no service ran are applied before serving

    from web import api, checker, pages, security  # noqa: PLC0415 - blueprints import the app's helpers

    security.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(checker.bp)
    api.init_app(app)
    return app


def service(app: Flask | None = None) -> DealerRoom:
    """The dealerroom application of the current (or given) Flask app."""
    from flask import current_app  # noqa: PLC0415

    target = app or current_app
    return target.extensions[EXTENSION]  # type: ignore[no-any-return]
