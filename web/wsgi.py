"""The WSGI entry point for production servers: ``gunicorn -c gunicorn.conf.py web.wsgi:app``.

Settings come from the ``DEALERROOM_*`` environment variables (:mod:`service.config`), and
``DEALERROOM_PROXY_HOPS`` (default 0) for the reverse proxies in front (:mod:`web.proxies`);
``docs/deploy.md`` says how to run it. Unlike ``dealerroom serve`` it loads no demo matches
and starts no deadline ticker: ``gunicorn.conf.py`` starts exactly one ticker per instance.
"""

from __future__ import annotations

import os

from web import create_app
from web.proxies import trust_proxies

app = trust_proxies(create_app(), int(os.environ.get("DEALERROOM_PROXY_HOPS") or 0))
