"""On PostgreSQL the runner is woken by the store's NOTIFY, not by its polling fallback."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from jobctrl.domain_types import registry
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration.events import StageStarted
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.projections.waiting import ListenWaiter, waiter_for
from jobctrl.projections.watermarks import read_watermark
from jobctrl.testing.plugin import fresh_url, opened

pytestmark = pytest.mark.postgres
POLL_FALLBACK = 30.0  # far longer than the test waits: only a notification can wake the runner


@pytest.fixture
def pg(tmp_path: Path) -> Iterator[Database]:
    with fresh_url("postgres", tmp_path) as url, opened(url) as db:
        yield db


def test_a_notification_wakes_the_following_runner(pg: Database) -> None:
    store = EventStore(pg, registry())
    store.create_schema()
    waiter = waiter_for(pg)
    assert isinstance(waiter, ListenWaiter)
    waiter.close()
    runner = ProjectionRunner(pg, registry(), poll_interval=POLL_FALLBACK)
    runner.prepare()
    stop = threading.Event()
    thread = threading.Thread(target=runner.run, args=(stop,))
    thread.start()
    try:
        assert runner.waiting.wait(10), "the runner never caught up"  # caught up, now waiting
        started = time.monotonic()
        event = StageStarted(
            job_id="j1", stage="enrich", attempt_number=1, started_at="2026-03-01T09:00:00.000Z"
        )
        store.append("job-j1", None, [NewEvent.of(event, occurred_at=datetime.now(UTC))])
        while time.monotonic() - started < 10:
            with pg.read() as conn:
                if read_watermark(conn, "operations") == 1:
                    break
            time.sleep(0.05)
        waited = time.monotonic() - started
    finally:
        stop.set()
        # The runner exits after its current wait; a last notification ends that wait at once.
        store.append("job-j2", None, [NewEvent.of(event, occurred_at=datetime.now(UTC))])
        thread.join(timeout=POLL_FALLBACK + 5)
    assert waited < 10 and not thread.is_alive()
