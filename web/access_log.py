"""gunicorn's logger, writing its default access-log line from only the fields it shows.

gunicorn builds every access-log line from a dictionary of all its *atoms*: the fields of
the default format and, for formats that ask for them, one entry per request header, per
response header (the Content Security Policy alone is 300 characters) and per WSGI
environment variable, then copies it into a case-insensitive wrapper. That was a fifth of a
millisecond per request, a tenth of a sealed submission's CPU (``bench.http``). With the
default format (the Apache combined log) this logger computes only its nine fields, with
gunicorn's own code for each, and the line is the same. Any other ``access_log_format`` is
served by gunicorn's logger unchanged. ``gunicorn.conf.py`` selects it (``logger_class``).
"""

from __future__ import annotations

import traceback
from typing import Any

from gunicorn.config import AccessLogFormat
from gunicorn.glogging import Logger

COMBINED = AccessLogFormat.default


class AccessLogger(Logger):  # type: ignore[misc] # gunicorn ships no types
    """gunicorn's :class:`~gunicorn.glogging.Logger`, lean for the default access format."""

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> None:
        """Write the access line; the default format from its own fields only."""
        if not self.access_log_enabled:
            return
        if self.cfg.access_log_format != COMBINED:
            super().access(resp, req, environ, request_time)
            return
        status = resp.status
        if isinstance(status, str):
            status = status.split(None, 1)[0]
        sent = getattr(resp, "sent", None)
        atoms = {
            "h": environ.get("REMOTE_ADDR", "-"),
            "l": "-",
            "u": self._get_user(environ) or "-",
            "t": self.now(),
            "r": (f"{environ['REQUEST_METHOD']} {environ['RAW_URI']} {environ['SERVER_PROTOCOL']}"),
            "s": status,
            "b": str(sent) if sent is not None else "-",
            "f": environ.get("HTTP_REFERER", "-"),
            "a": environ.get("HTTP_USER_AGENT", "-"),
        }
        try:
            self.access_log.info(COMBINED, atoms)
        except Exception:  # noqa: BLE001 - as gunicorn's own logger: the error log says it
            self.error(traceback.format_exc())
