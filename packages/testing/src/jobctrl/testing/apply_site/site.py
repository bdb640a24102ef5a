"""A local HTTP job site that counts every request that could carry an application out."""

from __future__ import annotations

import socket
import threading
from collections import Counter
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType

from jobctrl.testing.apply_site.pages import site_pages

_ESCAPE_PATHS = ("/submit", "/elsewhere", "/beacon", "/ws")
DROPPED_PATH = "/submit-dropped"  # a POST here is counted, then the connection closes unanswered


class LocalJobSite:
    """``counts``: ``post`` (any non-GET), ``websocket`` (upgrade attempts), ``escape`` (any hit on a
        submit/navigation/beacon target), ``reviewed_get`` (GETs of application pages).  ``on_post``, when
    set, is called as each non-GET request arrives (before it is answered)."""

    def __init__(self) -> None:
        self.pages = site_pages()
        self.counts: Counter[str] = Counter()
        self.on_post: Callable[[], None] | None = None
        self._lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:  # keep test output clean
                return

            def _count(self, key: str) -> None:
                with site._lock:
                    site.counts[key] += 1

            def _reply(self, status: int, body: bytes = b"", content_type: str = "text/html") -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                if self.headers.get("Upgrade", "").lower() == "websocket":
                    self._count("websocket")
                if path.startswith(_ESCAPE_PATHS):
                    self._count("escape")
                if path in site.pages:
                    self._count("reviewed_get")
                    self._reply(200, site.pages[path].encode())
                elif path == "/jobs/redirect":
                    self.send_response(302)
                    self.send_header("Location", "/elsewhere")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                elif path == "/style.css":
                    self._reply(200, b"body { font-family: serif; }", "text/css")
                else:
                    self._reply(404, b"not found")

            def _send(self) -> None:
                self._count("post")
                if site.on_post is not None:
                    site.on_post()
                if self.path.startswith(_ESCAPE_PATHS):
                    self._count("escape")
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                if self.path.startswith(DROPPED_PATH):
                    self.close_connection = True  # took the application, never answered
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                self._reply(200, b"<p>Application received</p>")

            def do_POST(self) -> None:
                self._send()

            def do_PUT(self) -> None:
                self._send()

            def do_PATCH(self) -> None:
                self._send()

            def do_DELETE(self) -> None:
                self._send()

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="local-job-site", daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def url(self, path: str) -> str:
        return f"{self.base_url}{path}"

    def sends(self) -> int:
        """Everything that could have carried data out: posts, websocket upgrades, escape hits."""
        with self._lock:
            return self.counts["post"] + self.counts["websocket"] + self.counts["escape"]

    def reset(self) -> None:
        with self._lock:
            self.counts.clear()
        self.on_post = None

    def start(self) -> LocalJobSite:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> LocalJobSite:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
