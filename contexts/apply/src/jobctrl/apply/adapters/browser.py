"""``BrowserApplyPort`` on Playwright (sync API) driving the system Chromium.

Every session is transport-locked, dry or live.  The only submission this adapter ever makes is one
click on the form's submit button in a live run whose request carries ``before_submit`` (the site is
on the configured allowlist, ADR 0280), after that callback committed the intent; the network guard
then lets exactly one same-origin POST document request through.  Without it nothing is submitted.

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

from jobctrl.apply.adapters.guard_script import CHALLENGE_JS, CLASSIFY_JS, GUARD_JS, SUBMITTABLE_GUARD_JS
from jobctrl.apply.domain.facts import answer_values
from jobctrl.apply.ports import (
    BrowserApplyRequest,
    BrowserOutcome,
    ChallengeDetected,
    ChallengeWidget,
    FormFilled,
    FormNotFound,
    FormSubmitted,
    PageUnavailable,
    SubmitOutcomeUnknown,
)
from jobctrl.kernel.chromium import CHROMIUM_ARGS, CHROMIUM_PATH

_FORM = "form:has([data-jobctrl-field])"
_SUBMIT_BUTTON = f"{_FORM} button[type=submit], {_FORM} input[type=submit], {_FORM} button:not([type])"
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
    submits_allowed: int = 0  # armed to 1 only after the submit intent is committed
    submitted: int = 0

    def handle(self, route: Route, request: Request) -> None:
        url = urldefrag(request.url).url
        same_origin = _origin(url) == _origin(self.reviewed_url)
        is_document = request.resource_type == "document"
        if request.method == "POST" and is_document and same_origin and self.submits_allowed > 0:
            self.submits_allowed -= 1
            self.submitted += 1
            self._send_once(route)
        elif request.method != "GET":
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

    def _send_once(self, route: Route) -> None:
        # Sent by Playwright's own client, not the browser's network stack: Chromium resends a POST
        # whose connection closed unanswered, and that second send would pass below this guard.
        try:
            response = route.fetch(max_redirects=0)
        except Error:
            route.abort("failed")  # sent, maybe received, never answered: the outcome is unknown
        else:
            route.fulfill(response=response)

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
    """Fills an application form from profile + materials; submits only through ``before_submit``."""

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
            submittable = request.before_submit is not None and not request.dry_run
            context.add_init_script(SUBMITTABLE_GUARD_JS if submittable else GUARD_JS)
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
            form = FormFilled(
                filled=tuple(filled),
                missing=missing,
                blocked_attempts=sum(guard.blocked.values()) + sum(page_blocked.values()),
            )
            if not submittable:
                return form
            return self._submit_once(page, guard, form, request)
        finally:
            # Offline first: unload handlers (pagehide beacons, keepalive fetches) fire on close, after
            # the route handlers may be gone; an offline context cannot reach the network at all.
            context.set_offline(True)
            context.close()

    def _submit_once(
        self, page: Page, guard: NetworkGuard, form: FormFilled, request: BrowserApplyRequest
    ) -> FormFilled | FormSubmitted | SubmitOutcomeUnknown:
        """One click on the POST form's submit button, after ``before_submit`` committed the intent.
        A form without one (or a GET form) is left for the person, as every other site's is."""
        assert request.before_submit is not None
        button, forms = page.locator(_SUBMIT_BUTTON).first, page.locator(_FORM)
        if forms.count() == 0 or button.count() == 0:
            return form
        method = forms.first.evaluate("f => (f.getAttribute('method') || 'get').toLowerCase()")
        if method != "post" or not request.before_submit(form):
            return form
        guard.submits_allowed = 1
        try:
            with page.expect_request(lambda r: r.method == "POST" and r.resource_type == "document") as sent:
                button.click(no_wait_after=True)
            answer = sent.value.response()  # waits for the answer; None when the request failed
        except Error as exc:  # clicked, but no answer seen: the application may have gone
            return SubmitOutcomeUnknown(detail=f"{type(exc).__name__}: {exc}"[:300])
        finally:
            guard.submits_allowed = 0
        if answer is None or guard.submitted != 1:
            return SubmitOutcomeUnknown(detail="the submit request got no answer")
        return FormSubmitted(filled=form.filled, status=answer.status)

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
