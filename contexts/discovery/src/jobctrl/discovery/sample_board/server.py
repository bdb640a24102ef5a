"""A small local HTTP server (stdlib, own thread, free port) serving a table of routes.

Used by the sample job board, by the adapter and gateway tests (which add misbehaving routes: slow,
huge, malformed, 5xx) and by the demo.  Routes are exact paths (query strings ignored); every request
is recorded with its headers, arrival time and how many requests were in flight when it arrived.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

#: A held answer is released at the latest after this long, so a forgotten hold cannot wedge a thread.
HOLD_LIMIT_S = 120.0
#: ``stop()`` waits this long at most for the serving loop to end (it never hangs a test's teardown).
STOP_LIMIT_S = 5.0


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        return  # a client hanging up mid-response is expected (timeout tests)


@dataclass(frozen=True, slots=True)
class Route:
    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    delay_s: float = 0.0
    headers: tuple[tuple[str, str], ...] = ()
    #: Hold the answer until this event is set (a source that blocks until a test releases it).
    hold: threading.Event | None = None


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    path: str
    query: str
    user_agent: str
    arrived_at: float
    in_flight: int
    method: str = "GET"
    body: bytes = b""


#: Answers a POST from its body (a search API whose page depends on the offset it was asked for).
PostResponder = Callable[[bytes], Route]


@dataclass
class _State:
    routes: dict[str, Route] = field(default_factory=dict)
    post_routes: dict[str, PostResponder] = field(default_factory=dict)
    requests: list[RecordedRequest] = field(default_factory=list)
    in_flight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: set by ``stop()``: every held or delayed answer ends at once
    closing: threading.Event = field(default_factory=threading.Event)


class LocalHttpServer:
    """``start()`` binds 127.0.0.1 on a free port; ``stop()`` shuts it down.  Also a context manager."""

    def __init__(self, routes: dict[str, Route] | None = None, *, port: int = 0) -> None:
        self._state = _State(routes=dict(routes or {}))
        self._port = port  # 0: a free port; a fixed one keeps posting URLs stable across demo runs
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("server not started")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._state.lock:
            return list(self._state.requests)

    @property
    def posts(self) -> list[RecordedRequest]:
        """Every POST received (a dry-run apply must leave this empty)."""
        return [r for r in self.requests if r.method == "POST"]

    def requests_to(self, path: str) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path == path]

    def set_route(self, path: str, route: Route) -> None:
        with self._state.lock:
            self._state.routes[path] = route

    def set_post_route(self, path: str, responder: PostResponder) -> None:
        """Answer POSTs to ``path`` with ``responder(body)`` (any other POST is refused with 405)."""
        with self._state.lock:
            self._state.post_routes[path] = responder

    def hold_route(self, path: str, until: threading.Event) -> None:
        """Keep answering ``path`` as before, but only once ``until`` is set."""
        with self._state.lock:
            route = self._state.routes.get(path, Route(404, b'{"error":"not found"}'))
            self._state.routes[path] = replace(route, hold=until)

    def start(self) -> LocalHttpServer:
        state = self._state
        state.closing.clear()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _record(self, in_flight: int, method: str = "GET", body: bytes = b"") -> str:
                """Record this request (the caller holds the lock); returns its path."""
                parts = urlsplit(self.path)
                agent = self.headers.get("User-Agent", "")
                arrived = time.monotonic()
                request = RecordedRequest(parts.path, parts.query, agent, arrived, in_flight, method, body)
                state.requests.append(request)
                return parts.path

            def do_GET(self) -> None:
                with state.lock:
                    state.in_flight += 1
                    route = state.routes.get(self._record(state.in_flight))
                try:
                    self._answer(route or Route(404, b'{"error":"not found"}'))
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeouts are part of the tests)
                finally:
                    with state.lock:
                        state.in_flight -= 1

            def do_POST(self) -> None:
                # Recorded (a dry run must never send one).  Only search APIs (``set_post_route``)
                # answer; anything else is refused: the board accepts no submissions.
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(min(length, 1_000_000)) if length > 0 else b""
                with state.lock:
                    path = self._record(0, method="POST", body=body)
                    responder = state.post_routes.get(path)
                if responder is None:
                    self.send_response(405)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self._answer(responder(body))

            def _answer(self, route: Route) -> None:
                if route.hold is not None:
                    deadline = time.monotonic() + HOLD_LIMIT_S
                    while not route.hold.wait(0.05) and not state.closing.is_set():
                        if time.monotonic() > deadline:
                            break
                if route.delay_s and state.closing.wait(route.delay_s):
                    return  # stopping: the client gave up long ago
                self.send_response(route.status)
                self.send_header("Content-Type", route.content_type)
                self.send_header("Content-Length", str(len(route.body)))
                for name, value in route.headers:
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(route.body)

            def log_message(self, format: str, *args: object) -> None:  # quiet
                return

        self._server = _QuietServer(("127.0.0.1", self._port), Handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, name="local-http", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """End held and delayed answers, then the serving loop, each within ``STOP_LIMIT_S``."""
        self._state.closing.set()
        stuck = False
        if self._server is not None:
            server, self._server = self._server, None
            # ``shutdown()`` waits for ``serve_forever`` without a bound: wait for it on the side.
            closer = threading.Thread(target=server.shutdown, name="local-http-stop", daemon=True)
            closer.start()
            closer.join(STOP_LIMIT_S)
            stuck = closer.is_alive()
            server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=STOP_LIMIT_S)
            stuck = stuck or self._thread.is_alive()
            self._thread = None
        if stuck:
            raise TimeoutError(f"the local HTTP server did not stop within {STOP_LIMIT_S} s")

    def __enter__(self) -> LocalHttpServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
