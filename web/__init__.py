"""The Flask front end: app factory, blueprints, JSON API.

The web layer stays thin: views call the service's use cases and the replay functions,
and render what they return. The service is assembled by the composition root
(:func:`service.bootstrap.bootstrap`); blueprints reach it through :mod:`web.extension`.
"""

from __future__ import annotations

import os
from typing import Any

from flask import Flask

from service.bootstrap import bootstrap
from service.config import Settings
from web import api, checker, extension, fairness, news, pages, qr, review, security


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
    # Deadlines that passed while no service ran are applied before serving.
    services = bootstrap(settings, bundles=extension.replay_bundles(), catch_up=True)
    extension.init_app(app, services)
    news.init_app(app, services)  # a match's news to its host's chat (web.news)

    security.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(checker.bp)
    app.register_blueprint(fairness.bp)
    app.register_blueprint(qr.bp)
    app.register_blueprint(review.bp)
    api.init_app(app)
    return app


__all__ = ["create_app"]
