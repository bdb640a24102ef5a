"""The apply browser the worker owns: one Chromium started on first use, on the apply thread."""

from __future__ import annotations

from playwright.sync_api import Browser, Playwright, sync_playwright

from jobctrl.apply import PlaywrightBrowserApply, launch_chromium
from jobctrl.apply.ports import BrowserApplyRequest, BrowserOutcome


class ManagedBrowserApply:
    """``PlaywrightBrowserApply`` plus the Playwright/Chromium it runs on, closed with ``close``."""

    def __init__(self) -> None:
        self._playwright: Playwright = sync_playwright().start()
        self._browser: Browser = launch_chromium(self._playwright)
        self._apply = PlaywrightBrowserApply(self._browser, settle_ms=200)

    def fill_application(self, request: BrowserApplyRequest) -> BrowserOutcome:
        return self._apply.fill_application(request)

    def close(self) -> None:
        self._browser.close()
        self._playwright.stop()
