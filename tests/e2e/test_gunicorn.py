"""gunicorn serves ``web.wsgi:app`` with ``gunicorn.conf.py``.

The API answers, and exactly one worker runs the deadline ticker (another takes over when it
dies). Real processes on a free loopback port, each wait bounded.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from typing import TYPE_CHECKING, Any

import pytest
from flask import request

from tests.conftest import REPO
from web import create_app
from web.proxies import trust_proxies

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

WAIT = 60.0  # seconds any one thing may take on a busy machine
TICKING = re.compile(r"deadline ticker running in worker (\d+)")
WAITING = re.compile(r"worker (\d+) waits to run the deadline ticker")


class Gunicorn:
    """A gunicorn master started on port 0; its log lines are collected as they come."""

    def __init__(self, instance: Path, **env: str) -> None:
        clean = {k: v for k, v in os.environ.items() if not k.startswith("DEALERROOM_")}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "web.wsgi:app"],
            cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            env={**clean, "DEALERROOM_INSTANCE": str(instance),
                 "DEALERROOM_BIND": "127.0.0.1:0", **env},
        )  # fmt: skip
        self.lines: list[str] = []
        self._changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        self.url = "http://" + self.wait_for(re.compile(r"Listening at: http://(\S+)"))[0][1]

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            with self._changed:
                self.lines.append(line)
                self._changed.notify_all()

    def wait_for(self, *patterns: re.Pattern[str], count: int = 1) -> list[re.Match[str]]:
        """The first ``count`` log matches of any of ``patterns``, waiting for them."""
        deadline = time.monotonic() + WAIT
        with self._changed:
            while True:
                found = [m for line in self.lines for p in patterns if (m := p.search(line))]
                if len(found) >= count:
                    return found[:count]
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    pytest.fail(f"gunicorn did not log {patterns}:\n{''.join(self.lines)}")
                self._changed.wait(min(left, 1.0))

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=WAIT) as answer:  # noqa: S310
            assert answer.status == 200
            return json.load(answer)

    def post(self, path: str, body: dict[str, Any], token: str | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        ask = urllib.request.Request(  # noqa: S310 - loopback
            self.url + path, data=json.dumps(body).encode(), headers=headers, method="POST"
        )
        with urllib.request.urlopen(ask, timeout=WAIT) as answer:  # noqa: S310
            return json.load(answer)

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        assert self.proc.stderr is not None
        self.proc.stderr.close()


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Any]:
    servers: list[Gunicorn] = []

    def starter(**env: str) -> Gunicorn:
        servers.append(Gunicorn(tmp_path / "instance", **env))
        return servers[-1]

    try:
        yield starter
    finally:
        for server in servers:
            server.stop()


def test_gunicorn_serves_the_api_and_one_worker_ticks_until_another_takes_over(start: Any) -> None:
    server = start(DEALERROOM_WORKERS="2", DEALERROOM_THREADS="2")
    # 1. Both workers start; one holds the ticker lock, the other waits for it.
    found = server.wait_for(TICKING, WAITING, count=2)
    ticking = [m[1] for m in found if m.re is TICKING]
    waiting = [m[1] for m in found if m.re is WAITING]
    assert len(ticking) == len(waiting) == 1
    # 2. The API answers.
    assert server.get("/api/matches") == []
    assert server.get("/api/key")["public_key"].startswith("dealerroom.localhost+")
    # 3. Kill the ticking worker: the waiting one runs the ticker now, and the API still answers.
    os.kill(int(ticking[0]), signal.SIGKILL)
    taken = server.wait_for(TICKING, count=2)[1]
    assert taken[1] == waiting[0]
    assert server.get("/api/matches") == []


def test_the_ticker_under_gunicorn_seals_a_step_whose_deadline_passed(start: Any) -> None:
    server = start()  # the SQLite defaults: one worker, eight threads
    server.wait_for(TICKING)
    created = server.post("/api/matches", {"game": "vote", "players": ["ana", "ben"]})
    match_id, host = created["match_id"], created["host_token"]
    server.post(f"/api/matches/{match_id}/steps", {"seconds": 1}, token=host)
    deadline = time.monotonic() + WAIT
    while (status := server.get("/api/matches")[0]["status"]) != "finished":
        assert time.monotonic() < deadline, f"still {status}"
        time.sleep(0.2)


def test_behind_one_proxy_the_client_address_comes_from_x_forwarded_for(tmp_path: Path) -> None:
    app = create_app({"DEALERROOM_INSTANCE": str(tmp_path / "instance")})
    app.add_url_rule("/_remote", "remote", lambda: request.remote_addr or "")
    direct = app.test_client().get("/_remote", headers={"X-Forwarded-For": "203.0.113.9"})
    assert direct.text == "127.0.0.1"  # nobody is trusted by default
    trust_proxies(app, 1)
    proxied = app.test_client().get("/_remote", headers={"X-Forwarded-For": "203.0.113.9"})
    assert proxied.text == "203.0.113.9"
    with pytest.raises(ValueError, match="0 or more"):
        trust_proxies(app, -1)
    from web.extension import service

    service(app).close()
