"""A local HTTP site for the fetcher tests: routes map a path to (status, content type, body, delay)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler

import pytest

from jobctrl.testing.http_server import serving


@dataclass
class Route:
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    body: bytes = b""
    delay: float = 0.0


@dataclass
class Site:
    base: str = ""
    routes: dict[str, Route] = field(default_factory=dict)
    hits: list[tuple[str, str]] = field(default_factory=list)


@pytest.fixture
def site() -> Iterator[Site]:
    state = Site()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.hits.append((self.path, self.headers.get("user-agent", "")))
            route = state.routes.get(self.path, Route(404, body=b"not found"))
            if route.delay:
                time.sleep(route.delay)
            try:
                self.send_response(route.status)
                self.send_header("content-type", route.content_type)
                self.send_header("content-length", str(len(route.body)))
                self.end_headers()
                self.wfile.write(route.body)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, format: str, *args: object) -> None:
            return

    with serving(Handler) as base:
        state.base = base
        yield state
