"""Shared steps for features/projections: past events go into the log; the runner folds them when a
Then step reads a read model."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from pytest_bdd import given, parsers, then, when

from jobctrl.domain_types import registry
from jobctrl.kernel.events import DomainEvent, NewEvent
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration.events import (
    ExecutionRef,
    PipelineStepCompleted,
    PipelineStepFailed,
    PipelineStepQueued,
    PipelineStepStarted,
    StageStarted,
    StepDetail,
    WorkflowCompleted,
    WorkflowFailed,
    WorkflowStarted,
    WorkflowTerminated,
)
from jobctrl.projections.digest import table_digests
from jobctrl.projections.read_models.dashboard import read_dashboard
from jobctrl.projections.read_models.pipeline_steps import pipeline_step_projections
from jobctrl.projections.read_models.workflow_runs import workflow_run_projections
from jobctrl.projections.rebuild import rebuild
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.projections.synthetic import generate, write_log

AT = "2026-03-01T09:00:00.000Z"
EXECUTION = ExecutionRef(tenant_id="local", workflow_id="discover-local", temporal_run_id="r1")


@dataclass
class World:
    store: EventStore
    digests: dict[str, str] = field(default_factory=dict)
    healed: list[str] = field(default_factory=list)

    def append(self, event: DomainEvent, workflow_id: str | None = None, run_id: str | None = None) -> None:
        new = NewEvent.of(
            event, occurred_at=datetime(2026, 3, 1, 9, tzinfo=UTC), workflow_id=workflow_id, run_id=run_id
        )
        self.store.append("feature", None, [new])

    def fold(self) -> Database:
        ProjectionRunner(self.store.db, self.store.registry, batch_size=3).catch_up()
        return self.store.db


@pytest.fixture
def world(database: Database) -> World:
    store = EventStore(database, registry())
    store.create_schema()
    return World(store)


# -- pipeline steps -------------------------------------------------------------------------------
def _step(item: str, attempt: int, what: str, detail: StepDetail | None = None) -> DomainEvent:
    common: dict[str, Any] = {
        "execution": EXECUTION,
        "step_kind": "source_family",
        "item_key": item,
        "attempt": attempt,
        "detail": detail,
    }
    if what == "queued":
        return PipelineStepQueued(**common, queued_at=AT)
    if what == "started":
        return PipelineStepStarted(**common, started_at=AT)
    if what == "completed":
        return PipelineStepCompleted(**common, completed_at=AT, duration_ms=10)
    return PipelineStepFailed(
        **common, failed_at=AT, duration_ms=10, error_code="source_unavailable", retryable=True
    )


@given(parsers.parse('step "{item}" attempt {attempt:d} {what:w}'))
@when(parsers.parse('step "{item}" attempt {attempt:d} {what:w}'))
def step_event(world: World, item: str, attempt: int, what: str) -> None:
    world.append(_step(item, attempt, what))


@given(parsers.parse('step "{item}" attempt {attempt:d} completed with detail "{code}" and count {count:d}'))
def step_with_detail(world: World, item: str, attempt: int, code: str, count: int) -> None:
    world.append(_step(item, attempt, "completed", StepDetail(code=code, item_count=count)))


def _step_row(world: World, item: str) -> Any:
    t = pipeline_step_projections
    with world.fold().read() as conn:
        return conn.execute(sa.select(t).where(t.c.item_key == item)).one()


@then(parsers.parse('step "{item}" shows attempt {attempt:d} as "{status}"'))
def step_shows(world: World, item: str, attempt: int, status: str) -> None:
    row = _step_row(world, item)
    assert (row.attempt, row.status) == (attempt, status)


@then(parsers.parse('step "{item}" shows detail "{code}" with count {count:d}'))
def step_detail(world: World, item: str, code: str, count: int) -> None:
    row = _step_row(world, item)
    assert (row.detail_code, row.detail_item_count) == (code, count)


# -- workflow runs --------------------------------------------------------------------------------
def _closed(cls: Any, wf: str, run: str, **extra: Any) -> DomainEvent:
    status = {WorkflowCompleted: "succeeded", WorkflowFailed: "failed", WorkflowTerminated: "terminated"}[cls]
    return cls(
        workflow_id=wf,
        workflow_type="DiscoverWorkflow",
        status=status,
        finished_at=AT,
        duration_ms=5,
        temporal_run_id=run,
        **extra,
    )


def _started(wf: str, run: str, recovered: bool | None = None) -> DomainEvent:
    return WorkflowStarted(
        workflow_id=wf,
        workflow_type="DiscoverWorkflow",
        status="in_progress",
        input_summary={},
        started_at=AT,
        temporal_run_id=run,
        recovered_from_missing_history=recovered,
    )


@given(parsers.parse('workflow "{wf}" run "{run}" started'))
@when(parsers.parse('workflow "{wf}" run "{run}" started'))
def wf_started(world: World, wf: str, run: str) -> None:
    world.append(_started(wf, run))


@given(parsers.parse('workflow "{wf}" run "{run}" completed'))
def wf_completed(world: World, wf: str, run: str) -> None:
    world.append(_closed(WorkflowCompleted, wf, run))


@given(parsers.parse('workflow "{wf}" run "{run}" failed'))
@when(parsers.parse('workflow "{wf}" run "{run}" failed'))
def wf_failed(world: World, wf: str, run: str) -> None:
    world.append(
        _closed(
            WorkflowFailed, wf, run, error_code="activity_failed", error_message="failed", retryable=False
        )
    )


@given(parsers.parse('workflow "{wf}" run "{run}" was reconciled as not found'))
def wf_not_found(world: World, wf: str, run: str) -> None:
    world.append(
        _closed(
            WorkflowTerminated,
            wf,
            run,
            error_code="reconciled_not_found",
            error_message="run not found in history",
        )
    )


@when(parsers.parse('workflow "{wf}" run "{run}" was started again by recovery'))
def wf_recovered(world: World, wf: str, run: str) -> None:
    world.append(_started(wf, run, recovered=True))


@then(parsers.parse('workflow "{wf}" shows run "{run}" as "{status}"'))
def wf_shows(world: World, wf: str, run: str, status: str) -> None:
    t = workflow_run_projections
    with world.fold().read() as conn:
        row = conn.execute(sa.select(t).where(t.c.workflow_id == wf)).one()
    assert (row.run_id, row.status) == (run, status)


@then(parsers.parse('the timeline of "{wf}" has {count:d} entries'))
def wf_timeline(world: World, wf: str, count: int) -> None:
    t = workflow_run_projections
    with world.fold().read() as conn:
        row = conn.execute(sa.select(t).where(t.c.workflow_id == wf)).one()
    assert row.timeline_total == count


@given(parsers.parse('job "{job}" stage "{stage}" was started by run "{run}" of "{wf}"'))
def stage_started(world: World, job: str, stage: str, run: str, wf: str) -> None:
    world.append(
        StageStarted(job_id=job, stage=stage, attempt_number=1, started_at=AT),
        workflow_id=wf,  # type: ignore[arg-type]
        run_id=run,
    )


@then(parsers.parse("the dashboard shows {running:d} running stages and {stale:d} stale stage"))
def dashboard_running(world: World, running: int, stale: int) -> None:
    with world.fold().read() as conn:
        summary = read_dashboard(conn)
    assert sum(summary.stages_running.values()) == running
    assert summary.stale_running_stages == stale
    assert summary.workflows_running == 0


# -- rebuilding -----------------------------------------------------------------------------------
@given(parsers.parse("a generated log of {jobs:d} jobs"))
def generated(world: World, jobs: int) -> None:
    write_log(world.store.db, generate(jobs, seed=5))


@given("the read models are up to date")
def up_to_date(world: World) -> None:
    world.digests = table_digests(world.fold())


@when("the workflow run rows are lost and the runner starts")
def rows_lost(world: World) -> None:
    with world.store.db.write() as conn:
        conn.execute(sa.delete(workflow_run_projections))
    world.healed = ProjectionRunner(world.store.db, world.store.registry).prepare()
    assert world.healed == ["workflow_runs"]


@when("the read models are rebuilt")
def rebuilt(world: World) -> None:
    rebuild(world.store.db, world.store.registry, batch_size=7)


@then("every read-model table is identical to before")
def identical(world: World) -> None:
    assert table_digests(world.store.db) == world.digests
