"""The Chromium adapter renders offline: a template can never reach the network."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from jobctrl.materials.adapters.rendering.pdf import ChromiumPdfRenderer
from jobctrl.materials.adapters.rendering.pdf_text import pdf_text

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


def test_one_page_serves_every_render_and_nothing_carries_over() -> None:
    first = "<html><body><p>Alpha document only</p></body></html>"
    second = "<html><body><p>Bravo document only</p></body></html>"
    with ChromiumPdfRenderer() as renderer:
        a, b = renderer.render(first), renderer.render(second)
        assert renderer.renders == 2 and renderer.pages_opened == 1
    assert "Alpha" in pdf_text(a) and "Bravo" not in pdf_text(a)
    assert "Bravo" in pdf_text(b) and "Alpha" not in pdf_text(b)


def test_a_page_that_broke_is_replaced_by_the_next_render() -> None:
    with ChromiumPdfRenderer() as renderer:
        renderer.render("<p>one</p>")
        page = renderer._page
        assert page is not None
        page.close()  # e.g. its renderer process crashed
        pdf = renderer.render("<p>Charlie after a crash</p>")
        assert renderer.pages_opened == 2
    assert "Charlie" in pdf_text(pdf)
