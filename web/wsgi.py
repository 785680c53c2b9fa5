"""The WSGI entry point for production servers: ``gunicorn -c gunicorn.conf.py web.wsgi:app``.

Settings come from the ``DEALERROOM_*`` environment variables (:mod:`service.config`), and
``DEALERROOM_PROXY_HOPS`` (default 0) for the reverse proxies in front (:mod:`web.proxies`);
``docs/deploy.md`` says how to run it. The app is the factory's (:func:`web.create_app`,
which assembles the service with :func:`service.bootstrap.bootstrap`). Unlike ``dealerroom
serve`` it loads no demo matches and starts no deadline ticker: ``gunicorn.conf.py`` starts
the service's ticker in exactly one worker per instance.
A bad setting, or keys that are not the store's (:mod:`service.keys`), stops the worker
with one line (gunicorn then stops: "App failed to load").
"""

from __future__ import annotations

import os

from gunicorn.errors import AppImportError

from service.config import ConfigError
from web import create_app
from web.proxies import trust_proxies

try:
    app = trust_proxies(create_app(), int(os.environ.get("DEALERROOM_PROXY_HOPS") or 0))
except ConfigError as exc:  # a bad setting, keys that are not the store's: one line, no boot
    raise AppImportError(f"dealerroom: error: {exc}") from None
