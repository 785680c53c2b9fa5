"""The access log (web.access_log): the same lines as gunicorn's own logger writes."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import TYPE_CHECKING

import pytest
from gunicorn.config import Config
from gunicorn.glogging import Logger

from web.access_log import AccessLogger

if TYPE_CHECKING:
    from pathlib import Path

ENVIRON = {
    "REMOTE_ADDR": "203.0.113.7",
    "REQUEST_METHOD": "POST",
    "RAW_URI": "/api/matches/x/players/ana/submissions?x=1",
    "SERVER_PROTOCOL": "HTTP/1.1",
    "PATH_INFO": "/api/matches/x/players/ana/submissions",
    "QUERY_STRING": "x=1",
    "HTTP_USER_AGENT": "curl/8.5",
    "HTTP_AUTHORIZATION": "Bearer not-logged",
}


def _line(logger_class: type[Logger], tmp_path: Path, fmt: str | None, **environ: str) -> str:
    log = tmp_path / f"{logger_class.__name__}-{fmt is None}.log"
    cfg = Config()
    cfg.set("accesslog", str(log))
    if fmt is not None:
        cfg.set("access_log_format", fmt)
    logger = logger_class(cfg)
    resp = SimpleNamespace(status="201 CREATED", sent=998, headers=[("Content-Type", "x")])
    req = SimpleNamespace(headers=[("USER-AGENT", "curl/8.5")])
    logger.access(resp, req, {**ENVIRON, **environ}, dt.timedelta(microseconds=1500))
    for named in (logger.access_log, logger.error_log):
        for handler in list(named.handlers):
            handler.close()
            named.removeHandler(handler)
    return log.read_text()


@pytest.mark.parametrize(
    "environ",
    [{}, {"HTTP_REFERER": "https://example.org/"}, {"HTTP_AUTHORIZATION": "Basic YW5hOnB3"}],
)
def test_the_default_access_line_is_gunicorns_own(tmp_path: Path, environ: dict[str, str]) -> None:
    ours = _line(AccessLogger, tmp_path, None, **environ)
    theirs = _line(Logger, tmp_path, None, **environ)
    assert ours.split("]", 1)[1] == theirs.split("]", 1)[1]  # all but the second it was written
    assert '"POST /api/matches/x/players/ana/submissions?x=1 HTTP/1.1" 201 998' in ours
    assert "not-logged" not in ours  # a bearer token is never written


def test_another_format_is_left_to_gunicorn(tmp_path: Path) -> None:
    fmt = '%(h)s "%({user-agent}i)s" %(L)s'
    assert (
        _line(AccessLogger, tmp_path, fmt)
        == _line(Logger, tmp_path, fmt)
        == ('203.0.113.7 "curl/8.5" 0.001500\n')
    )
