"""``BrowserApplyPort`` on Playwright (sync API) driving the system Chromium.

Every session is transport-locked, dry or live: nothing is ever submitted by this adapter.

* Network guard (context-level route, so popups and frames are covered too): the reviewed URL is
  fetched exactly once, with redirects refused; in a dry run only same-origin GET *subresources* pass
  (no other document, so no navigation away and no GET-form "submit"); a live run may also load other
  same-origin documents.  Every non-GET request (form posts, ``fetch``/XHR posts, beacons) is aborted,
  and every WebSocket is closed before it reaches the server.  Service workers are blocked so none can
  answer requests behind the guard's back.
* Page guard (``GUARD_JS``, injected before page scripts in every frame): form submit / requestSubmit,
  the submit event, sendBeacon, WebSocket, EventSource and window.open are disarmed.
* A CAPTCHA or third-party challenge widget stops the run before anything is typed (fail closed).
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urlsplit

from playwright.sync_api import Browser, Error, Page, Playwright, Request, Route, WebSocketRoute

from jobctrl.apply.adapters.guard_script import CHALLENGE_JS, CLASSIFY_JS, GUARD_JS
from jobctrl.apply.domain.facts import answer_values
from jobctrl.apply.ports import (
    BrowserApplyRequest,
    BrowserOutcome,
    ChallengeDetected,
    ChallengeWidget,
    FormFilled,
    FormNotFound,
    PageUnavailable,
)

CHROMIUM_PATH = "/usr/bin/chromium"
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
_WIDGETS: dict[str, ChallengeWidget] = {
    "hcaptcha": "hcaptcha",
    "recaptcha": "recaptcha",
    "turnstile": "turnstile",
}


def launch_chromium(playwright: Playwright, *, executable_path: str = CHROMIUM_PATH) -> Browser:
    return playwright.chromium.launch(executable_path=executable_path, args=list(CHROMIUM_ARGS))


def _origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc


@dataclass
class NetworkGuard:
    """Decides every request of one session and counts what it refused."""

    reviewed_url: str
    dry_run: bool
    served_reviewed: bool = False
    redirected: int | None = None
    blocked: Counter[str] = field(default_factory=Counter)

    def handle(self, route: Route, request: Request) -> None:
        url = urldefrag(request.url).url
        same_origin = _origin(url) == _origin(self.reviewed_url)
        is_document = request.resource_type == "document"
        if request.method != "GET":
            self._refuse(route, "non_get_request", is_document)
        elif is_document and url == self.reviewed_url and not self.served_reviewed:
            self.served_reviewed = True
            response = route.fetch(max_redirects=0)
            if 300 <= response.status < 400:
                self.redirected = response.status
                self._refuse(route, "redirect", is_document=False)
            else:
                route.fulfill(response=response)
        elif same_origin and (not is_document or not self.dry_run):
            route.continue_()
        else:
            self._refuse(route, "navigation" if is_document else "cross_origin_request", is_document)

    def _refuse(self, route: Route, kind: str, is_document: bool) -> None:
        self.blocked[kind] += 1
        if is_document:
            # Answered here with 204 No Content: the request never reaches the server and the browser
            # abandons the navigation, so the filled page stays (an abort would commit an error page).
            route.fulfill(status=204, body="")
        else:
            route.abort("blockedbyclient")

    def refuse_websocket(self, ws: WebSocketRoute) -> None:
        # Not connecting to the server means the upgrade request never leaves the browser.
        self.blocked["websocket"] += 1
        ws.close(code=1008, reason="blocked by JobCtrl apply guard")


class PlaywrightBrowserApply:
    """Fills an application form from profile + materials; never submits."""

    def __init__(self, browser: Browser, *, settle_ms: int = 600, timeout_ms: int = 15_000) -> None:
        self._browser = browser
        self._settle_ms = settle_ms  # lets a hostile page's timers fire against the guard before we leave
        self._timeout_ms = timeout_ms

    def fill_application(self, request: BrowserApplyRequest) -> BrowserOutcome:
        reviewed = urldefrag(request.url).url
        guard = NetworkGuard(reviewed_url=reviewed, dry_run=request.dry_run)
        page_blocked: Counter[str] = Counter()
        context = self._browser.new_context(service_workers="block", accept_downloads=False)
        try:
            context.set_default_timeout(self._timeout_ms)
            context.expose_binding("__jobctrlBlocked", lambda _source, kind: page_blocked.update([str(kind)]))
            context.add_init_script(GUARD_JS)
            context.route(re.compile(r".*"), guard.handle)
            context.route_web_socket(re.compile(r".*"), guard.refuse_websocket)
            page = context.new_page()
            try:
                response = page.goto(reviewed, wait_until="domcontentloaded")
            except Error:
                response = None  # a hostile page's aborted navigation can surface here
            if not guard.served_reviewed or guard.redirected is not None:
                return PageUnavailable(status=guard.redirected)
            if response is not None and not response.ok:
                return PageUnavailable(status=response.status)
            with contextlib.suppress(Error):  # a page whose blocked navigation never "loads" is still filled
                page.wait_for_load_state("load", timeout=self._settle_ms * 4)
            widget = self._challenge(page)
            if widget is not None:
                return ChallengeDetected(widget=widget)
            kinds = [str(k) for k in page.evaluate(CLASSIFY_JS)]
            if not kinds:
                return FormNotFound()
            filled = self._fill(page, kinds, request)
            page.wait_for_timeout(self._settle_ms)
            widget = self._challenge(page)  # a challenge injected while typing also stops the run
            if widget is not None:
                return ChallengeDetected(widget=widget)
            missing = _missing(filled, has_cover_field="cover_letter" in kinds)
            return FormFilled(
                filled=tuple(filled),
                missing=missing,
                blocked_attempts=sum(guard.blocked.values()) + sum(page_blocked.values()),
            )
        finally:
            # Offline first: unload handlers (pagehide beacons, keepalive fetches) fire on close, after
            # the route handlers may be gone; an offline context cannot reach the network at all.
            context.set_offline(True)
            context.close()

    def _challenge(self, page: Page) -> ChallengeWidget | None:
        found: Any = page.evaluate(CHALLENGE_JS)
        return _WIDGETS.get(str(found)) if found else None

    def _fill(self, page: Page, kinds: list[str], request: BrowserApplyRequest) -> list[str]:
        profile, materials = request.profile, request.materials
        values = answer_values(profile, materials)
        filled = []
        for kind in kinds:
            field_ = page.locator(f'[data-jobctrl-field="{kind}"]').first
            try:
                if kind == "resume":
                    field_.set_input_files(Path(materials.resume_pdf_path))
                elif values.get(kind):
                    field_.fill(values[kind])
                else:
                    continue
            except Error:
                continue  # a field the page removed or disabled is simply not filled (coverage drops)
            filled.append(kind)
        return filled


def _missing(filled: list[str], *, has_cover_field: bool) -> tuple[str, ...]:
    have = set(filled)
    missing = []
    if "full_name" not in have and not {"first_name", "last_name"} <= have:
        missing.append("name")
    missing += [k for k in ("email", "phone", "resume") if k not in have]
    if has_cover_field and "cover_letter" not in have:
        missing.append("cover_letter")
    return tuple(missing)
