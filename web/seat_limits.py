"""The per-seat rate limit of picks, openings and decisions, counted with ``limits``.

Flask-Limiter counts the other limits (match creation, QR codes, reviews). These routes are
the hot path (every sealed pick), and its per-request machinery (resolving the route's
limits, exemption scopes, request context, response headers) cost a fifth of a millisecond
per submission, a tenth of all the server's work for one (``bench.http``). The counting
itself is Flask-Limiter's own library, ``limits``: a fixed window per limit, in memory, per
app (so per worker), exactly as Flask-Limiter kept it for these routes before.

The limit is ``DEALERROOM_SUBMIT_RATE`` (default ``30/second;1200/minute``), per match and
player and route; the match id is put in its canonical form first, so spelling it differently does
not reset the count. Past a limit the answer is 429 with a JSON message (or a page) and
``Retry-After``: the seconds until its window ends.
"""

from __future__ import annotations

import functools
import math
import time
from typing import TYPE_CHECKING, Any, TypeVar, cast

from flask import current_app, request
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import TooManyRequests

from domain.commitment import CommitmentError, canonical_match_id

if TYPE_CHECKING:
    from collections.abc import Callable

    from flask import Flask
    from limits import RateLimitItem

F = TypeVar("F", bound="Callable[..., Any]")

SUBMIT_RATE = "30/second;1200/minute"
MESSAGE = "too many submissions from this player; wait a moment and try again"
EXTENSION = "dealerroom.seat_limits"


@functools.lru_cache(maxsize=16)
def _limits(text: str) -> tuple[RateLimitItem, ...]:
    """The limits a rate setting names (parsed once per setting)."""
    return tuple(parse_many(text))


def init_app(app: Flask) -> None:
    """Give ``app`` its own counters (a fresh store per app, as Flask-Limiter's were)."""
    _limits(str(app.config.get("DEALERROOM_SUBMIT_RATE") or SUBMIT_RATE))  # a bad one fails now
    app.extensions[EXTENSION] = FixedWindowRateLimiter(MemoryStorage())


def _seat() -> str:
    """The counted seat: the canonical match id and the player, from the route."""
    args = request.view_args or {}
    raw = str(args.get("match_id"))
    try:
        match_id = canonical_match_id(raw)
    except CommitmentError:
        match_id = raw  # not a match id: the route answers 404 anyway
    return f"{match_id}/{args.get('player')}"


def seat_limit(view: F) -> F:
    """Count a request against its seat's limits before ``view`` runs; refuse it past one.

    Each route counts on its own (a claim does not use up a submission), as Flask-Limiter's
    route limits did.
    """
    route = f"{view.__module__}.{view.__qualname__}"

    @functools.wraps(view)
    def limited(*args: Any, **kwargs: Any) -> Any:
        limiter: FixedWindowRateLimiter = current_app.extensions[EXTENSION]
        rate = str(current_app.config.get("DEALERROOM_SUBMIT_RATE") or SUBMIT_RATE)
        seat = _seat()
        for item in _limits(rate):
            if not limiter.hit(item, route, seat):
                reset = limiter.get_window_stats(item, route, seat).reset_time
                raise TooManyRequests(MESSAGE, retry_after=max(1, math.ceil(reset - time.time())))
        return view(*args, **kwargs)

    return cast("F", limited)
