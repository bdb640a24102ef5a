"""Step definitions for features/contact/dashboard.feature: the Contacts and Outreach pages in headless
Chromium (/usr/bin/chromium) against the API served by uvicorn on a free port, over the log the
research use case wrote."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Page, expect, sync_playwright
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.apply.adapters.browser import launch_chromium
from jobctrl.contact import ContactServices
from jobctrl.contact.domain.policy import SourceAccessPolicy, allowlist_from
from jobctrl.contact.use_cases.run_research import run_research
from jobctrl.kernel.store import Database
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.testing.runtime.api_seed import project

from .conftest import CareersSite, World, readable_candidates

pytestmark = pytest.mark.usefixtures("same_keys")
scenarios("contact/dashboard.feature")
WAIT_MS = 20_000


@pytest.fixture
def browser_page() -> Iterator[Page]:
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            yield browser.new_page(viewport={"width": 1200, "height": 1400})
        finally:
            browser.close()


@given("the research read the team page")
def research(svc: ContactServices, site: CareersSite, world: World, database: Database) -> None:
    urls = [f"{site.base}/team"]
    policy = SourceAccessPolicy(allowlist_from(urls), allow_loopback_for_tests=True)
    asyncio.run(run_research(svc, "t1", urls, policy))
    world.candidates = readable_candidates(svc, "t1")
    project(database)


@given("the API serving the dashboard")
def api(db_url: str, world: World) -> None:
    app = create_app(ApiConfig(database_url=db_url))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)  # polling the server's own flag, bounded by the deadline
    assert server.started, "the API did not start within 30 s"
    world.api = f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"

    def stop() -> None:
        server.should_exit = True
        thread.join(timeout=20)

    world.stop_api = stop


@pytest.fixture(autouse=True)
def _stop_api(world: World) -> Iterator[None]:
    yield
    if world.stop_api is not None:
        world.stop_api()


def _row(page: Page, world: World, name: str) -> Any:
    return page.locator(f'[data-candidate="{world.candidates[name]}"]')


@when("the user opens the contacts page in Chromium")
def open_contacts(browser_page: Page, world: World) -> None:
    browser_page.goto(f"{world.api}/contacts")
    browser_page.wait_for_selector('[data-task="t1"] [data-status="needs_review"]', timeout=WAIT_MS)


@when(parsers.parse('the user clicks "{a}" for "{x}" and "{b}" for "{y}"'))
def decide(browser_page: Page, world: World, a: str, x: str, b: str, y: str) -> None:
    _row(browser_page, world, x).get_by_role("button", name=a).click()
    expect(_row(browser_page, world, x)).to_have_attribute("data-status", "confirmed", timeout=WAIT_MS)
    _row(browser_page, world, y).get_by_role("button", name=b).click()
    expect(_row(browser_page, world, y)).to_have_attribute("data-status", "rejected", timeout=WAIT_MS)


@then(parsers.parse('the page shows "{name}" confirmed and a rejected candidate whose name is forgotten'))
def decided(browser_page: Page, world: World, name: str) -> None:
    kept = _row(browser_page, world, name)
    expect(kept.locator('[data-role="status"]')).to_have_text("confirmed")
    assert name in kept.inner_text()
    dropped = _row(browser_page, world, "Bob Smith")
    assert "Bob Smith" not in dropped.inner_text() and "(forgotten)" in dropped.inner_text()


@when(parsers.parse('the user clicks "Draft outreach" for "{name}"'))
def draft(browser_page: Page, world: World, name: str) -> None:
    _row(browser_page, world, name).get_by_role("button", name="Draft outreach").click()
    browser_page.wait_for_url("**/outreach?thread=*", timeout=WAIT_MS)
    browser_page.wait_for_selector('[data-role="state"]', timeout=WAIT_MS)
    world.thread = browser_page.url.split("thread=", 1)[1].split("#", 1)[0]


def _state(page: Page) -> Any:
    return page.locator('[data-role="state"]')


@then(parsers.parse('the outreach page shows a draft greeting "{first}" in review as generation {gen:d}'))
def shows_draft(browser_page: Page, first: str, gen: int) -> None:
    expect(_state(browser_page)).to_have_attribute("data-status", "needs_review", timeout=WAIT_MS)
    assert _state(browser_page).get_attribute("data-generation") == str(gen)
    assert browser_page.locator('[data-role="body"]').inner_text().startswith(f"Hi {first},")


@when(parsers.parse('the user adds "{sentence}" to the message and saves the edit'))
def edit(browser_page: Page, sentence: str) -> None:
    box = browser_page.locator("#body")
    box.fill(box.input_value() + "\n" + sentence)
    browser_page.get_by_role("button", name="Save edit").click()


@then(parsers.parse('the page shows the refusal naming "{word}" and the draft is still generation {gen:d}'))
def refused(browser_page: Page, word: str, gen: int) -> None:
    outcome = browser_page.locator('[data-role="outcome"]')
    expect(outcome).to_have_attribute("data-state", "refused", timeout=WAIT_MS)
    assert "unsupported claims" in outcome.inner_text() and word in outcome.inner_text()
    assert _state(browser_page).get_attribute("data-generation") == str(gen)


@when(parsers.parse('the user clicks "{label}" on the outreach page'))
def click(browser_page: Page, label: str) -> None:
    browser_page.locator('[data-role="outcome"]').evaluate("e => { e.dataset.state = '' }")
    browser_page.get_by_role("button", name=label, exact=True).click()
    expect(browser_page.locator('[data-role="outcome"]')).to_have_attribute(
        "data-state", "ok", timeout=WAIT_MS
    )


@then(parsers.parse('the outreach page shows the draft "{status}"'))
def shows_status(browser_page: Page, status: str) -> None:
    expect(_state(browser_page)).to_have_attribute("data-status", status, timeout=WAIT_MS)


@when(parsers.parse('the user notes "{note}" and clicks "Record reply"'))
def reply(browser_page: Page, note: str) -> None:
    browser_page.locator("#note").fill(note)
    click(browser_page, "Record reply")


@then(parsers.parse('the outreach page lists the reply "{note}"'))
def lists_reply(browser_page: Page, note: str) -> None:
    expect(browser_page.locator('[data-role="replies"] li')).to_have_count(1, timeout=WAIT_MS)
    assert note in browser_page.locator('[data-role="replies"] li').inner_text()


@then("the log holds one approval, one send and one reply for the thread, and the contacts page lists it")
def logged(browser_page: Page, svc: ContactServices, database: Database, world: World) -> None:
    for kind in ("OutreachDraftApproved", "OutreachSendLogged", "OutreachReplyRecorded"):
        found = [e for e in svc.store.read_all(types=[kind])]
        assert len(found) == 1, kind
        assert svc.store.registry.decode(found[0]).thread_id == world.thread  # type: ignore[attr-defined]
    assert svc.store.read_all(types=["OutreachDraftRevised"]) == []  # the refused edit wrote nothing
    project(database)
    browser_page.goto(f"{world.api}/contacts")
    row = browser_page.locator(f'[data-thread="{world.thread}"]')
    expect(row).to_be_visible(timeout=WAIT_MS)
    assert "sent" in row.inner_text()
