"""The API's front door (ADR 0100) on a live uvicorn server: the token only in a header (or the
stream's HttpOnly cookie), never in a URL or the access log; Host, Origin and Content-Type checked on
every route; bodies capped before parsing.  Issue #18, rows 3, 5, 6 (body size) and 7."""

from __future__ import annotations

import hmac
import logging
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from playwright.sync_api import Page, sync_playwright
from typer.testing import CliRunner

from jobctrl.domain_types import registry
from jobctrl.kernel.chromium import CHROMIUM_ARGS, CHROMIUM_PATH
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.kernel.store import Database, EventStore
from jobctrl.runtime.api import guard, pages
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.cli import app as cli
from jobctrl.testing.runtime.api_seed import discover_job, project

from .conftest import RunningApi, run_api

TOKEN = secrets.token_urlsafe(32)
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def guarded(db_url: str) -> Iterator[RunningApi]:
    yield from run_api(ApiConfig(database_url=db_url, sse_poll_s=0.05, api_token=TOKEN))


@pytest.fixture
def open_api(db_url: str) -> Iterator[RunningApi]:
    yield from run_api(ApiConfig(database_url=db_url, sse_poll_s=0.05, max_body_bytes=4096))


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:  # called under the handler's own lock
        self.lines.append(record.getMessage())


# -- row 7: the token itself ----------------------------------------------------------------------
@pytest.mark.parametrize("weak", ["None", "x", "a" * 31, " None "])
def test_a_weak_or_placeholder_token_refuses_to_start(weak: str) -> None:
    with pytest.raises(ConfigurationError):
        create_app(ApiConfig(api_token=weak))


@pytest.mark.parametrize("weak", ["None", "x"])
def test_serve_exits_2_on_a_weak_token(weak: str) -> None:
    result = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0"], env={"JOBCTRL_API_TOKEN": weak})
    assert result.exit_code == 2, result.output
    assert "JOBCTRL_API_TOKEN" in result.output


def test_the_token_is_compared_in_constant_time(guarded: RunningApi, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest  # the guard compares with the standard library's, looked up per call

    def spy(a: bytes, b: bytes) -> bool:
        seen.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    assert httpx.get(f"{guarded.base_url}/v1/jobs", headers=AUTH, timeout=5).status_code == 200
    assert seen and seen[-1][1] == f"Bearer {TOKEN}".encode()


# -- row 3: never in a URL or a log ---------------------------------------------------------------
def test_a_token_in_the_query_string_is_not_accepted(guarded: RunningApi) -> None:
    for path in ("/v1/jobs", "/v1/events/stream"):
        response = httpx.get(f"{guarded.base_url}{path}", params={"access_token": TOKEN}, timeout=5)
        assert response.status_code == 401, path
        assert response.json()["error"]["code"] == "unauthorized"
    assert httpx.get(f"{guarded.base_url}/v1/jobs", headers=AUTH, timeout=5).status_code == 200
    assert httpx.get(f"{guarded.base_url}/v1/health", timeout=5).status_code == 200


def test_the_access_log_carries_no_query_values(db_url: str) -> None:
    lines = Lines()
    access = logging.getLogger("uvicorn.access")  # configured by uvicorn at start: listen after that
    for api in run_api(ApiConfig(database_url=db_url, api_token=TOKEN), log_level="info"):
        access.addHandler(lines)
        try:
            httpx.get(f"{api.base_url}/v1/jobs", params={"access_token": TOKEN, "q": "Jane"}, timeout=5)
            httpx.get(f"{api.base_url}/v1/jobs", params={"q": "Jane"}, headers=AUTH, timeout=5)
        finally:
            access.removeHandler(lines)
    logged = [line for line in lines.lines if "/v1/jobs" in line]
    assert len(logged) == 2, lines.lines
    assert all(TOKEN not in line and "Jane" not in line for line in logged), logged
    assert "access_token=[redacted]" in logged[0]


def test_the_stream_accepts_the_session_cookie_and_nothing_else_does(guarded: RunningApi) -> None:
    base = guarded.base_url
    assert httpx.post(f"{base}/v1/session", timeout=5).status_code == 401  # the token buys the session
    opened = httpx.post(f"{base}/v1/session", headers=AUTH, timeout=5)
    assert opened.status_code == 204
    cookie = opened.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/v1/events/stream" in cookie
    session = opened.cookies[guard.SESSION_COOKIE]
    jar = {guard.SESSION_COOKIE: session}
    with httpx.stream("GET", f"{base}/v1/events/stream", cookies=jar, timeout=5) as stream:
        assert stream.status_code == 200
        assert next(stream.iter_lines()).startswith("retry:")
    assert httpx.get(f"{base}/v1/jobs", cookies=jar, timeout=5).status_code == 401  # stream only
    bogus = {guard.SESSION_COOKIE: secrets.token_urlsafe(32)}
    assert httpx.get(f"{base}/v1/events/stream", cookies=bogus, timeout=5).status_code == 401


@contextmanager
def _chromium_page(urls: list[str]) -> Iterator[Page]:
    """A fresh Chromium page that records the URL of every request it makes into ``urls``."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=list(CHROMIUM_ARGS))
        try:
            page = browser.new_page()
            page.on("request", lambda request: urls.append(request.url))
            yield page
        finally:
            browser.close()


def test_the_dashboard_streams_with_the_cookie_and_no_url_holds_the_token(
    guarded: RunningApi, database: Database
) -> None:
    discover_job(EventStore(database, registry()), "seeded", title="Seeded role")
    project(database)
    urls: list[str] = []
    with _chromium_page(urls) as page:
        page.goto(f"{guarded.base_url}/#token={TOKEN}")
        page.wait_for_selector("#status.live", timeout=15_000)
        page.wait_for_selector("#jobs tr", timeout=5_000)
        address = page.url
        cookies = page.context.cookies()
    assert TOKEN not in address
    assert any(u.endswith("/v1/events/stream") for u in urls)
    assert not any(TOKEN in u for u in urls[1:])  # only the first navigation's fragment, never sent
    [session] = [c for c in cookies if c["name"] == guard.SESSION_COOKIE]
    assert session["httpOnly"] and session["sameSite"] == "Strict"


def test_the_pages_and_their_shared_assets_are_public_and_their_data_takes_the_header(
    guarded: RunningApi,
) -> None:
    base = guarded.base_url
    media = {"html": "text/html", "css": "text/css", "js": "text/javascript"}
    for path, (name, media_type) in pages.FILES.items():
        answer = httpx.get(f"{base}{path}", timeout=5)  # no token: a page or an asset holds no data
        assert answer.status_code == 200, path
        assert answer.headers["content-type"] == f"{media_type}; charset=utf-8"
        assert media[name.rsplit(".", 1)[1]] == media_type
    for page_name in ("review.html", "contacts.html", "outreach.html", "dashboard.html"):
        assert '<link rel="stylesheet" href="/static/jobctrl.css">' in (pages.STATIC / page_name).read_text()
    assert httpx.get(f"{base}/v1/outreach/threads", timeout=5).status_code == 401
    urls: list[str] = []
    with _chromium_page(urls) as page:
        page.goto(f"{base}/contacts#token={TOKEN}")  # the shared script sends it as a header
        page.wait_for_selector("body[data-loaded]", timeout=15_000)
        assert page.text_content("#tasks") == "No research results yet."
        size = page.eval_on_selector("h1", "h => getComputedStyle(h).fontSize")
    assert size == "22.4px"  # 1.4rem: the shared stylesheet applied
    assert any(u.endswith("/static/jobctrl.js") for u in urls)
    assert not any(TOKEN in u for u in urls[1:])


# -- row 5: DNS rebinding and cross-site requests -------------------------------------------------
def test_a_foreign_host_is_misdirected(open_api: RunningApi) -> None:
    port = open_api.base_url.rsplit(":", 1)[1]
    for host in ("attacker.example", f"attacker.example:{port}", "127.0.0.1.attacker.example", ""):
        response = httpx.get(f"{open_api.base_url}/v1/profile", headers={"Host": host}, timeout=5)
        assert response.status_code == 421, host
        assert response.json()["error"]["code"] == "misdirected_request"
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", "localhost"):
        assert (
            httpx.get(f"{open_api.base_url}/v1/profile", headers={"Host": host}, timeout=5).status_code == 200
        )


def test_the_bind_name_and_configured_names_are_allowed() -> None:
    hosts = guard.allowed_hosts("jobs.internal", ["Box.LAN", " "])
    assert {"jobs.internal", "box.lan", "localhost", "127.0.0.1", "::1"} <= hosts
    assert "0.0.0.0" not in guard.allowed_hosts("0.0.0.0")


def test_cross_site_posts_are_refused_and_write_nothing(open_api: RunningApi, database: Database) -> None:
    store = EventStore(database, registry())
    before = store.head_position()
    url = f"{open_api.base_url}/v1/discovery/runs"
    text_plain = httpx.post(url, headers={"Content-Type": "text/plain"}, timeout=5)
    assert text_plain.status_code == 415 and text_plain.json()["error"]["code"] == "unsupported_media_type"
    form = httpx.post(url, data={"limit": "1"}, timeout=5)
    assert form.status_code == 415
    foreign = httpx.post(url, json={}, headers={"Origin": "http://attacker.example"}, timeout=5)
    assert foreign.status_code == 403 and foreign.json()["error"]["code"] == "cross_origin_refused"
    fetch_site = httpx.post(url, json={}, headers={"Sec-Fetch-Site": "cross-site"}, timeout=5)
    assert fetch_site.status_code == 403
    patch = httpx.patch(
        f"{open_api.base_url}/v1/settings",
        content=b'{"autoApply": true}',
        headers={"Content-Type": "text/plain"},
    )
    assert patch.status_code == 415
    assert store.head_position() == before
    own = httpx.patch(
        f"{open_api.base_url}/v1/settings", json={"minFitScore": 6}, headers={"Origin": open_api.base_url}
    )
    assert own.status_code == 200, own.text  # the server's own origin, and JSON, pass


# -- row 6 (size): bodies are capped before parsing -----------------------------------------------
def test_an_oversized_body_is_413_before_parsing(open_api: RunningApi, database: Database) -> None:
    store = EventStore(database, registry())
    before = store.head_position()
    big = b'{"summary": "' + b"x" * 5000 + b'"}'
    declared = httpx.patch(f"{open_api.base_url}/v1/profile", content=big,
                           headers={"Content-Type": "application/json"}, timeout=5)  # fmt: skip
    assert declared.status_code == 413 and declared.json()["error"]["code"] == "payload_too_large"

    def chunks() -> Iterator[bytes]:
        yield big[:3000]
        yield big[3000:]

    streamed = httpx.patch(f"{open_api.base_url}/v1/profile", content=chunks(),
                           headers={"Content-Type": "application/json"}, timeout=5)  # fmt: skip
    assert streamed.status_code == 413
    assert store.head_position() == before
    small = httpx.patch(
        f"{open_api.base_url}/v1/profile", json={"summary": [{"id": "s1", "text": "ok"}]}, timeout=5
    )
    assert small.status_code == 200, small.text


def test_the_default_cap_is_one_mebibyte() -> None:
    assert ApiConfig().max_body_bytes == 1024 * 1024
