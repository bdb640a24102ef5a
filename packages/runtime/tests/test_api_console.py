"""The operations console in headless Chromium against a live server, one screenshot per state checked.

The read models are folded by the real projection runner from seeded events, the coverage checkpoint
is written by the runtime's writer, and the worker's capacity comes from a heartbeat row of this very
database, so the page shows what an operator would see after ``make demo`` with a worker running.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Page

from jobctrl.discovery.events import (
    DiscoveryExecutionMemberLinked,
    DiscoveryExecutionMembershipClosed,
    DiscoveryExecutionWorkPlanRecorded,
    DiscoveryRunProgressRecorded,
    DiscoveryRunStarted,
)
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock, isoformat
from jobctrl.kernel.events import DomainEvent, NewEvent
from jobctrl.kernel.execution import ExecutionRefPayload
from jobctrl.kernel.stages import Stage
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration.events import (
    PipelineStepCompleted,
    StageCanceled,
    StageCompleted,
    StageSkipped,
    StageStarted,
    StepDetail,
    StepKind,
)
from jobctrl.runtime.api.operations import database_identity
from jobctrl.runtime.api.operations.inventory import expected_app_dir
from jobctrl.runtime.reconcile.coverage import reconcile_coverage
from jobctrl.runtime.telemetry.heartbeat import RuntimeIdentity, create_table, write_heartbeat
from jobctrl.runtime.telemetry.interceptor import RuntimeTelemetry
from jobctrl.testing.runtime.api_seed import complete_run, discover_job, project, score_job, start_run

from .conftest import RunningApi, chromium_page

WF, RUN = "discover-local", "0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee"
REF = ExecutionRefPayload(tenant_id="local", workflow_id=WF, temporal_run_id=RUN)
EARLY_STAGES: tuple[Stage, ...] = ("enrich", "score")
LATE_STAGES: tuple[Stage, ...] = ("tailor", "cover")


def _iso(dt: datetime) -> str:
    return isoformat(dt)


def _seed_completed_discover(store: EventStore) -> None:
    """A clean Discover of 3 families: 3 prepared jobs and 2 not eligible (ADR 0071)."""
    now = datetime.now(UTC)
    events: list[DomainEvent] = [
        DiscoveryRunStarted(
            run_id=RUN, source_ids=["a", "b", "c"], profile_snapshot_id=None, started_at=_iso(now)
        ),
    ]
    events += [
        DiscoveryRunProgressRecorded(run_id=RUN, completed=n, total=5, recorded_at=_iso(now))
        for n in range(6)
    ]
    jobs = {"p1": 9.0, "p2": 8.0, "p3": 7.5, "n1": 3.0, "n2": 2.0}
    for job in jobs:
        events.append(
            DiscoveryExecutionMemberLinked(
                execution=REF, job_id=job, cohort="observed_this_run", linked_at=_iso(now)
            )
        )
        events.append(
            DiscoveryExecutionWorkPlanRecorded(
                execution=REF, job_id=job, state="planned", required_steps=["score", "tailor", "cover"],
                child_workflow_id=f"prep-{job}", reason_code=None, recorded_at=_iso(now),
            )
        )  # fmt: skip
    steps: tuple[tuple[StepKind, str], ...] = (
        ("source_family", "a"), ("source_family", "b"), ("source_family", "c"),
        ("enrichment_pass", "terminal"), ("preparation_fanout", "terminal"),
    )  # fmt: skip
    for kind, key in steps:
        events.append(
            PipelineStepCompleted(
                execution=REF, step_kind=kind, item_key=key, attempt=1,
                detail=StepDetail(code="jobs_observed", item_count=1), completed_at=_iso(now),
                duration_ms=100,
            )
        )  # fmt: skip
    events.append(DiscoveryExecutionMembershipClosed(execution=REF, member_count=5, closed_at=_iso(now)))
    for job in jobs:
        for stage in EARLY_STAGES:
            events.append(StageStarted(job_id=job, stage=stage, attempt_number=1, started_at=_iso(now)))
            if stage == "score" and job.startswith("n"):
                events.append(
                    StageCanceled(job_id=job, stage="score", canceled_at=_iso(now), reason="no_requirements")
                )
            else:
                events.append(
                    StageCompleted(job_id=job, stage=stage, finished_at=_iso(now), duration_ms=1500)
                )
        for stage in LATE_STAGES:
            if job.startswith("n"):
                events.append(StageSkipped(job_id=job, stage=stage, reason="no_requirements"))
            else:
                events.append(StageStarted(job_id=job, stage=stage, attempt_number=1, started_at=_iso(now)))
                events.append(
                    StageCompleted(job_id=job, stage=stage, finished_at=_iso(now), duration_ms=2500)
                )
    start_run(store, WF, RUN)
    for i, event in enumerate(events):
        store.append(f"console-{i}", None, [NewEvent.of(event, occurred_at=now)])
    for job, fit in jobs.items():
        discover_job(store, job, title=f"Role {job}", employer=f"Employer {job}")
        score_job(store, job, fit)
    complete_run(store, WF, RUN)


def _heartbeat(db: Database, telemetry: RuntimeTelemetry, slots: int = 4) -> None:
    create_table(db)
    db_path = database_identity(db)
    now = datetime.now(UTC)
    identity = RuntimeIdentity.current(
        app_dir=expected_app_dir(db_path), db_path=db_path, task_queue="jobctrl-default", slots=slots, now=now
    )
    write_heartbeat(db, identity, telemetry, now, {"approximate": True, "backlogCount": 0})


@pytest.fixture
def page(live: RunningApi) -> Iterator[Page]:
    yield from chromium_page({"width": 1280, "height": 1600})


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where each state's screenshot goes (``JOBCTRL_SCREENSHOT_DIR`` to keep them)."""
    where = Path(os.environ.get("JOBCTRL_SCREENSHOT_DIR") or tmp_path)
    where.mkdir(parents=True, exist_ok=True)
    return where


def _shot(page: Page, shots: Path, name: str) -> None:
    path = shots / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 0


def test_a_completed_discover_reads_total_over_total_ready_completed_and_real_stages(
    live: RunningApi, page: Page, database: Database, shots: Path
) -> None:
    store = EventStore(database, registry())
    _seed_completed_discover(store)
    project(database)
    assert reconcile_coverage(store, FixedClock(datetime.now(UTC))).published == {RUN: "ready"}
    telemetry = RuntimeTelemetry()
    _heartbeat(database, telemetry)
    page.goto(live.base_url + "/")
    page.wait_for_selector("#discover-progress", timeout=15_000)
    page.wait_for_selector('#jobs tr[data-job-id="n1"]', timeout=5_000)
    bar = page.locator("#discover-progress")
    assert (bar.get_attribute("value"), bar.get_attribute("max")) == ("5", "5")
    steps = page.inner_text("#discover-steps")
    assert "5 / 5 steps" in steps and "source families 3/3" in steps and "fan-out 1/1" in steps
    assert "Discover completed" in page.inner_text("#discover")
    assert page.inner_text("#slots b") == "0 / 4"  # capacity from slotsActive / slotsConfigured
    assert page.inner_text("#coverage b") == "verified"
    # No samples for five finished stages of each kind yet: withheld, in words, not a code.
    assert "No ETA" in page.inner_text("#overall-eta b") or "done" in page.inner_text("#overall-eta b")
    # Real stages: a not-eligible job stops at its canceled Score, a prepared one at Cover.
    assert page.inner_text('#jobs tr[data-job-id="n1"] td:nth-child(3)') == "score · canceled"
    assert page.inner_text('#jobs tr[data-job-id="p1"] td:nth-child(3)') == "cover · succeeded"
    # Jobs sorted by fit, both ways.
    fits = page.locator("#jobs tr td:nth-child(4)").all_inner_texts()
    assert fits == ["9", "8", "7.5", "3", "2"]
    page.click("#sort-fit")
    page.wait_for_function("document.querySelector('#jobs tr td:nth-child(4)').textContent === '2'")
    # Runs: by type and humane time; the technical ids stay in a collapsed disclosure.
    row = page.locator(f'#runs tr[data-workflow-id="{WF}"]')
    assert row.locator("td").first.inner_text().startswith("Discover")
    assert row.locator("details").get_attribute("open") is None
    assert not row.locator("details code").first.is_visible()
    assert (
        "ago" in row.locator("td").nth(3).inner_text() or "just now" in row.locator("td").nth(3).inner_text()
    )
    assert "completed" in row.inner_text()
    # Per-stage counts of this run's scope.
    score = page.locator('#stages tr[data-stage="score"][data-scope="current_execution"] td')
    assert score.nth(4).inner_text() == "3" and score.nth(8).inner_text() == "2"  # 3 succeeded, 2 canceled
    assert score.nth(7).inner_text() == "0"  # a not-eligible job's canceled Score is no failure
    # Nothing runs: a new Discover may be set up; the action only reveals the launch controls.
    page.wait_for_selector("#setup-discover", timeout=5_000)
    _shot(page, shots, "console-completed")
    page.click("#setup-discover")
    assert page.is_visible("#launch") and page.evaluate("document.activeElement.id") == "launch-limit"
    _shot(page, shots, "console-setup-discover")


def test_active_work_withholds_a_new_discover_and_is_listed_oldest_first(
    live: RunningApi, page: Page, database: Database, shots: Path
) -> None:
    store = EventStore(database, registry())
    _seed_completed_discover(store)
    project(database)
    reconcile_coverage(store, FixedClock(datetime.now(UTC)))
    telemetry = RuntimeTelemetry()
    telemetry.begin("render_pdf", "prep-preparation:" + "a" * 64, "run", 1)
    telemetry.begin("score_job", "prep-preparation:" + "b" * 64, "run", 2)
    _heartbeat(database, telemetry)
    page.goto(live.base_url + "/")
    page.wait_for_selector("#setup-withheld", timeout=15_000)
    assert page.locator("#setup-discover").count() == 0
    assert "2 activities are still running" in page.inner_text("#setup-withheld")
    assert page.inner_text("#slots b") == "2 / 4"
    items = page.locator("#active li").all_inner_texts()
    assert [i.split(" ·")[0] for i in items] == ["render pdf", "score job (attempt 2)"]
    assert "Showing 2 of 2 running activities, oldest first" in page.inner_text("#active-total")
    _shot(page, shots, "console-active-work")
    # The API refuses the submission too, with a typed 409.
    refused = page.evaluate(
        "fetch('/v1/discovery/runs', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: '{}'}).then(async r => [r.status, (await r.json()).error.code])"
    )
    assert refused == [409, "active_work_remaining"]


def test_the_stream_resumes_from_the_last_event_id_after_a_reconnect(
    live: RunningApi, page: Page, database: Database, shots: Path
) -> None:
    store = EventStore(database, registry())
    discover_job(store, "first", title="First role")
    project(database)
    page.goto(live.base_url + "/")
    page.wait_for_selector("#status.live", timeout=15_000)
    discover_job(store, "second", title="Second role")
    head = store.head_position()
    page.wait_for_selector(f'#live li[data-position="{head}"]', timeout=5_000)
    # Leave the page (the stream closes), miss two events, come back: they arrive, from the last id.
    page.goto("about:blank")
    discover_job(store, "third", title="Third role")
    missed = [store.head_position()]
    discover_job(store, "fourth", title="Fourth role")
    missed.append(store.head_position())
    page.goto(live.base_url + "/")
    for position in missed:
        page.wait_for_selector(f'#live li[data-position="{position}"]', timeout=5_000)
    assert page.locator(f'#live li[data-position="{head}"]').count() == 0  # not replayed: resumed after it
    _shot(page, shots, "console-resumed-stream")
    assert json.loads(page.evaluate("JSON.stringify(sessionStorage.getItem('jobctrl.lastEventId'))")) == str(
        missed[-1]
    )
