"""The Chromium adapter renders offline: a template can never reach the network."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from jobctrl.materials.rendering.pdf import ChromiumPdfRenderer

pytestmark = [pytest.mark.integration, pytest.mark.browser]


class _Counting(BaseHTTPRequestHandler):
    hits = 0

    def do_GET(self) -> None:
        type(self).hits += 1
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[ThreadingHTTPServer]:
    _Counting.hits = 0
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Counting)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def test_rendering_fetches_nothing_and_returns_a_pdf(server: ThreadingHTTPServer) -> None:
    url = f"http://127.0.0.1:{server.server_address[1]}"
    html = (
        f'<html><head><link rel="stylesheet" href="{url}/style.css"></head><body>'
        f'<img src="{url}/pixel.png"><p>Offline only</p>'
        f"<script>fetch('{url}/beacon')</script></body></html>"
    )
    with ChromiumPdfRenderer() as renderer:
        pdf = renderer.render(html)
        assert renderer.renders == 1
    assert pdf.startswith(b"%PDF-")
    assert _Counting.hits == 0
