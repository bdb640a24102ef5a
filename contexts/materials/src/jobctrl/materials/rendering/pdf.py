"""The HTML → PDF port and its adapter on the system Chromium (Playwright, sync API).

``ChromiumPdfRenderer`` launches one browser lazily and reuses it for every render (launching costs
about a second); close it (or use it as a context manager) when done.  Pages are rendered offline:
every network request is aborted, so a template can never fetch (or leak to) anything remote.  The
sync API must not run on a thread that has a running asyncio loop; Temporal runs sync activities in
a thread pool, which is fine.
"""

from __future__ import annotations

from types import TracebackType
from typing import Protocol

from playwright.sync_api import Browser, Playwright, Route, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from jobctrl.materials.errors import PdfRenderError

CHROMIUM_PATH = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class PdfRenderer(Protocol):
    def render(self, html: str) -> bytes:
        """Return PDF bytes for ``html``, page size taken from the CSS ``@page`` rule."""
        ...


class ChromiumPdfRenderer:
    def __init__(self, executable_path: str = CHROMIUM_PATH) -> None:
        self.executable_path = executable_path
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self.renders = 0

    def _ensure(self) -> Browser:
        if self._browser is None:
            self._playwright = sync_playwright().start()
            self._browser = self._playwright.chromium.launch(
                executable_path=self.executable_path, args=CHROMIUM_ARGS
            )
        return self._browser

    def render(self, html: str) -> bytes:
        try:
            page = self._ensure().new_page()
            try:
                page.route("**/*", _abort)
                page.set_content(html, wait_until="load")
                pdf = page.pdf(prefer_css_page_size=True, print_background=True)
            finally:
                page.close()
        except PlaywrightError as exc:
            raise PdfRenderError(f"chromium: {str(exc)[:160]}") from None
        if not pdf.startswith(b"%PDF-"):
            raise PdfRenderError("chromium returned something that is not a PDF")
        self.renders += 1
        return pdf

    def close(self) -> None:
        if self._browser is not None:
            self._browser.close()
            self._browser = None
        if self._playwright is not None:
            self._playwright.stop()
            self._playwright = None

    def __enter__(self) -> ChromiumPdfRenderer:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def _abort(route: Route) -> None:
    route.abort()
