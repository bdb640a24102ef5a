"""Steps of the pipeline-step and workflow-run read models (and the dashboard's running stages)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from pytest_bdd import given, parsers, then, when

from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.stages import STAGES
from jobctrl.orchestration.events import (
    PipelineStepCompleted,
    PipelineStepFailed,
    PipelineStepQueued,
    PipelineStepStarted,
    StageStarted,
    StepDetail,
    WorkflowCompleted,
    WorkflowFailed,
    WorkflowStarted,
    WorkflowStatus,
    WorkflowTerminated,
)
from jobctrl.projections.read_models.dashboard import read_dashboard
from jobctrl.projections.read_models.pipeline_steps import pipeline_step_projections
from jobctrl.projections.read_models.workflow_runs import workflow_run_projections
from jobctrl.testing.vocabulary import one_of

from .world import AT, EXECUTION, World


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
Closing = type[WorkflowCompleted] | type[WorkflowFailed] | type[WorkflowTerminated]
CLOSED_AS: dict[Closing, WorkflowStatus] = {
    WorkflowCompleted: "succeeded",
    WorkflowFailed: "failed",
    WorkflowTerminated: "terminated",
}


def _closed(cls: Closing, wf: str, run: str, **extra: Any) -> DomainEvent:
    status = CLOSED_AS[cls]
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
        StageStarted(job_id=job, stage=one_of(STAGES, stage), attempt_number=1, started_at=AT),
        workflow_id=wf,
        run_id=run,
    )


@then(parsers.parse("the dashboard shows {running:d} running stages and {stale:d} stale stage"))
def dashboard_running(world: World, running: int, stale: int) -> None:
    with world.fold().read() as conn:
        summary = read_dashboard(conn)
    assert sum(summary.stages_running.values()) == running
    assert summary.stale_running_stages == stale
    assert summary.workflows_running == 0
