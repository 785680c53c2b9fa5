"""A receiver of a match's news on loopback, as apprise's ``json://`` target posts it."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HOOK_PATH = "hook-5ecret-path-0f-the-webhook"


class Receiver:
    """An HTTP server on loopback collecting the JSON posted to it (or failing on purpose)."""

    def __init__(self, status: int = 200, delay: float = 0.0) -> None:
        self.posts: list[dict[str, Any]] = []
        self.paths: list[str] = []
        self.tried = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                time.sleep(delay)
                receiver.tried += 1
                if status == 200:
                    receiver.posts.append(json.loads(body))
                    receiver.paths.append(self.path)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                del format, args  # quiet

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])

    def url(self, path: str = HOOK_PATH) -> str:
        return f"json://127.0.0.1:{self.port}/{path}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
