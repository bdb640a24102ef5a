"""The HTML → PDF adapter (``ports.PdfRenderer``) on the system Chromium (Playwright, sync API).

``ChromiumPdfRenderer`` launches one browser lazily and reuses it, and one page in it, for every render
(launching costs about a second, a fresh page a new browser context and renderer process); a page
that errors is thrown away and the next render opens a new one.  Close the renderer (or use it as a
context manager) when done.  Pages are rendered offline:
every network request is aborted, so a template can never fetch (or leak to) anything remote.  The
sync API must not run on a thread that has a running asyncio loop; Temporal runs sync activities in
a thread pool, which is fine.
"""

from __future__ import annotations

from contextlib import suppress
from types import TracebackType

from playwright.sync_api import Browser, Page, Playwright, Route, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from jobctrl.kernel.chromium import CHROMIUM_ARGS, CHROMIUM_PATH
from jobctrl.materials.domain.errors import PdfRenderError


class ChromiumPdfRenderer:
    def __init__(self, executable_path: str = CHROMIUM_PATH) -> None:
        self.executable_path = executable_path
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._page: Page | None = None
        self.renders = 0
        self.pages_opened = 0

    def _ensure(self) -> Browser:
        if self._browser is None:
            self._playwright = sync_playwright().start()
            self._browser = self._playwright.chromium.launch(
                executable_path=self.executable_path, args=list(CHROMIUM_ARGS)
            )
        return self._browser

    def _ensure_page(self) -> Page:
        if self._page is None or self._page.is_closed():
            page = self._ensure().new_page()
            page.route("**/*", _abort)
            self._page = page
            self.pages_opened += 1
        return self._page

    def render(self, html: str) -> bytes:
        try:
            page = self._ensure_page()
            page.set_content(html, wait_until="load")
            pdf = page.pdf(prefer_css_page_size=True, print_background=True)
        except PlaywrightError as exc:
            self._discard_page()
            raise PdfRenderError(f"chromium: {str(exc)[:160]}") from None
        if not pdf.startswith(b"%PDF-"):
            raise PdfRenderError("chromium returned something that is not a PDF")
        self.renders += 1
        return pdf

    def _discard_page(self) -> None:
        page, self._page = self._page, None
        if page is not None:
            with suppress(PlaywrightError):  # already gone with its renderer process
                page.close()

    def close(self) -> None:
        self._discard_page()
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
