"""The public forms the ``Match`` aggregate (:mod:`domain.match`) gives out.

An event's public record, RFC 3339 times (written and read) and a credential's stored hash;
:mod:`domain.match` re-exports each of them.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from domain.match_errors import MatchError
from domain.sealed import Sealed

if TYPE_CHECKING:
    from domain.match import Match


def token_hash(token: str) -> str:
    """Return the stored form of a credential (SHA-256 hex of the token's UTF-8 bytes)."""
    return hashlib.sha256(token.encode()).hexdigest()


def public_record(event: Match.Event) -> dict[str, Any]:
    """The public record of an event: ``{"seq", "type", "at", "data"}``.

    ``seq`` is the 0-based position in the match log; ``at`` is RFC 3339 UTC with
    microseconds; ``data`` holds every field except the sealed ones and the library's
    bookkeeping (id, version, timestamp, topic).
    """
    data = {
        key: value
        for key, value in event.__dict__.items()
        if key not in _BOOKKEEPING and not isinstance(value, Sealed)
    }
    return {
        "seq": event.originator_version - 1,
        "type": type(event).__name__,
        "at": format_time(event.timestamp),
        "data": data,
    }


_BOOKKEEPING = frozenset({"originator_id", "originator_version", "timestamp", "originator_topic"})


MAX_TIME_TEXT = 64
MIN_YEAR = 1970
MAX_YEAR = 9998


def format_time(moment: datetime) -> str:
    """RFC 3339 UTC text with microseconds, e.g. ``2026-11-21T00:56:30.000000Z``.

    ``isoformat`` writes what ``strftime("%Y-%m-%dT%H:%M:%S.%fZ")`` wrote, in a fifth of the
    time (it runs for every record a save projects and every receipt).
    """
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def _parse_utc(text: str) -> datetime:
    """Parse ``text`` as a time in UTC, raising what :func:`parse_time` turns into its error."""
    if len(text) > MAX_TIME_TEXT:
        raise ValueError
    # Not fromisoformat's own "Z": replacing every "Z" also takes a date with one (2026-11-21Z).
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))  # noqa: FURB162 - see above
    moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)  # out of range near year 1 and 9999: OverflowError


def parse_time(text: str) -> datetime:
    """Parse an RFC 3339 time (deadlines, ``at``); a time without a zone is taken as UTC.

    :raises MatchError: when it is not a time.

    >>> format_time(parse_time("2026-11-21T20:00:00Z"))
    '2026-11-21T20:00:00.000000Z'
    """
    shown = text[:40] if isinstance(text, str) else type(text).__name__
    try:
        moment = _parse_utc(text)
    except (TypeError, ValueError, AttributeError, OverflowError):
        msg = f"{shown} is not an RFC 3339 time such as 2026-11-21T20:00:00Z"
        raise MatchError(msg) from None
    if not MIN_YEAR <= moment.year <= MAX_YEAR:
        msg = f"{shown} is out of range: times are between the years {MIN_YEAR} and {MAX_YEAR}"
        raise MatchError(msg)
    return moment


__all__ = ["format_time", "parse_time", "public_record", "token_hash"]
