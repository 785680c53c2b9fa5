"""Trusting reverse proxies' ``X-Forwarded-*`` headers (``DEALERROOM_PROXY_HOPS``).

Behind nginx or a load balancer every request comes from the proxy's address, so the rate
limits counted per client address (:mod:`web.security`) would count everyone together.
With ``hops`` trusted proxies the client address and scheme are read from their
``X-Forwarded-For`` / ``X-Forwarded-Proto`` headers instead. Leave it 0 when clients reach
the server directly, or anyone could choose the address they are counted under.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from werkzeug.middleware.proxy_fix import ProxyFix

if TYPE_CHECKING:
    from flask import Flask


def trust_proxies(app: Flask, hops: int) -> Flask:
    """Read the client address and scheme from ``hops`` trusted proxies' headers.

    :raises ValueError: for a negative number of hops.
    """
    if hops < 0:
        msg = "DEALERROOM_PROXY_HOPS is a number of proxies, 0 or more"
        raise ValueError(msg)
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]
    return app
