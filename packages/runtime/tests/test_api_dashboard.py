"""The dashboard in headless Chromium against a live server: live updates from another process, and the
Cancel button shown only where cancel is allowed."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.testing.runtime.api_seed import complete_run, discover_job, project, start_run

from .conftest import RunningApi, chromium_page

APPEND_FROM_ANOTHER_PROCESS = """
import sys
from datetime import UTC, datetime
from jobctrl.discovery.events import JobDiscovered
from jobctrl.domain_types import registry
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.store import EventStore, open_database
db = open_database(sys.argv[1])
store = EventStore(db, registry())
event = JobDiscovered(job_id="from-elsewhere", posting_url="https://jobs.example/x", source="s",
                      employer="Elsewhere Inc", metadata={"title": "Remote role"},
                      discovered_at="2026-03-01T00:00:00.000Z")
store.append("discovery-from-elsewhere", None, [NewEvent.of(event, occurred_at=datetime.now(UTC))])
print(store.head_position())
db.dispose()
"""


@pytest.fixture
def page(live: RunningApi) -> Iterator[Page]:
    yield from chromium_page()


def test_an_event_appended_by_another_process_appears_within_a_second(
    live: RunningApi, page: Page, db_url: str, database: Database
) -> None:
    discover_job(EventStore(database, registry()), "seeded", title="Seeded role")
    project(database)
    page.goto(live.base_url + "/")
    page.wait_for_selector("#status.live", timeout=15_000)
    page.wait_for_selector("#jobs tr", timeout=5_000)  # jobs render without the operations endpoint
    assert "Seeded role" in page.inner_text("#jobs")
    done = subprocess.run(
        [sys.executable, "-c", APPEND_FROM_ANOTHER_PROCESS, db_url],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    appended_at = time.monotonic()
    position = int(done.stdout.strip())
    page.wait_for_selector(f'#live li[data-position="{position}"]', timeout=1_000)
    assert time.monotonic() - appended_at < 1.0
    assert "JobDiscovered" in page.inner_text(f'#live li[data-position="{position}"]')


def test_the_cancel_button_appears_only_where_cancel_is_allowed(
    live: RunningApi, page: Page, database: Database
) -> None:
    store = EventStore(database, registry())
    start_run(store, "discover-open", "r1")
    start_run(store, "discover-done", "r2")
    complete_run(store, "discover-done", "r2")
    project(database)
    page.goto(live.base_url + "/")
    page.wait_for_selector('#runs tr[data-workflow-id="discover-done"]', timeout=15_000)
    assert page.locator('tr[data-workflow-id="discover-open"] button.cancel').count() == 1
    assert page.locator('tr[data-workflow-id="discover-done"] button.cancel').count() == 0
    assert "discovering" in page.inner_text('tr[data-workflow-id="discover-open"]')
