"""Steps that record a Discover execution: its run, its members, their stages and its membership."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from pytest_bdd import given, parsers

from jobctrl.discovery.events import (
    DiscoveryExecutionMemberLinked,
    DiscoveryExecutionMembershipClosed,
)
from jobctrl.kernel.execution import ExecutionRefPayload
from jobctrl.kernel.stages import STAGES
from jobctrl.kernel.store.schema import job_events
from jobctrl.orchestration.events import (
    PipelineStepCompleted,
    StageBlocked,
    StageExhausted,
    StageStarted,
    StepDetail,
    WorkflowCompleted,
    WorkflowFailed,
    WorkflowStarted,
)
from jobctrl.testing.vocabulary import one_of

from .world import NOW, REF, RUN, WF, World, _iso, _link, _stage_done

# -- the execution ----------------------------------------------------------------------------------


@given(parsers.parse('a Discover execution that is "{status}"'))
def discover_execution(world: World, status: str) -> None:
    world.append(
        WorkflowStarted(
            workflow_id=WF,
            workflow_type="DiscoverWorkflow",
            status="in_progress",
            input_summary={},
            started_at=_iso(NOW - timedelta(hours=2)),
            temporal_run_id=RUN,
        )
    )
    common: dict[str, Any] = {
        "workflow_id": WF,
        "workflow_type": "DiscoverWorkflow",
        "finished_at": _iso(NOW - timedelta(minutes=30)),
        "duration_ms": 1000,
        "temporal_run_id": RUN,
    }
    if status == "succeeded":
        world.append(WorkflowCompleted(status="succeeded", **common))
    elif status == "failed":
        world.append(
            WorkflowFailed(
                status="failed", error_code="source_failed", error_message="x", retryable=False, **common
            )
        )


@given(parsers.parse('{count:d} {cohort} jobs "{prefix}" that are {plan}'))
def linked_jobs(world: World, count: int, cohort: str, prefix: str, plan: str) -> None:
    for i in range(count):
        _link(world, f"{prefix}{i}", cohort, plan)


@given(parsers.parse('jobs "{prefix}" {first:d} to {last:d} finished "{stage}" in {ms:d} ms'))
def jobs_finished(world: World, prefix: str, first: int, last: int, stage: str, ms: int) -> None:
    for i in range(first, last + 1):
        _stage_done(world, f"{prefix}{i}", stage, ms)


@given(parsers.parse('jobs "{prefix}" {first:d} to {last:d} are running "{stage}"'))
def jobs_running(world: World, prefix: str, first: int, last: int, stage: str) -> None:
    for i in range(first, last + 1):
        at = NOW - timedelta(minutes=5)
        world.append(
            StageStarted(
                job_id=f"{prefix}{i}", stage=one_of(STAGES, stage), attempt_number=1, started_at=_iso(at)
            ),
            at,
        )


@given(parsers.parse('job "{job}" is blocked at "{stage}"'))
def job_blocked(world: World, job: str, stage: str) -> None:
    world.append(
        StageBlocked(
            job_id=job,
            stage=one_of(STAGES, stage),
            blocked_by=["enrich"],
            error_code="upstream_failed",
            error_message="x",
        )
    )


@given(parsers.parse('job "{job}" exhausted "{stage}"'))
def job_exhausted(world: World, job: str, stage: str) -> None:
    world.append(StageExhausted(job_id=job, stage=one_of(STAGES, stage), attempt_count=3, max_attempts=3))


@given("the membership is closed")
def membership_closed(world: World) -> None:
    world.append(
        PipelineStepCompleted(
            execution=REF,
            step_kind="preparation_fanout",
            item_key="fanout",
            attempt=1,
            detail=StepDetail(code="workflows_started", item_count=1),
            completed_at=_iso(NOW - timedelta(minutes=40)),
            duration_ms=100,
        )
    )


@given("the membership closing is recorded")
def membership_closing_recorded(world: World) -> None:
    world.append(DiscoveryExecutionMembershipClosed(execution=REF, member_count=2, closed_at=_iso(NOW)))


@given("an undecodable pipeline-step event of the execution is in the log")
def undecodable_step(world: World) -> None:
    # A row whose payload names the execution but breaks the event's schema (a corrupt import):
    # the projection skips it, and the log is then no exact evidence for this execution.
    row = {
        "event_id": "ev-corrupt",
        "stream_id": "feature-corrupt",
        "stream_version": 1,
        "event_type": "PipelineStepQueued",
        "schema_version": 1,
        "tenant_id": "local",
        "job_id": None,
        "occurred_at": _iso(NOW),
        "payload": json.dumps(
            {"execution": {"tenantId": "local", "workflowId": WF, "temporalRunId": RUN}, "stepKind": 7}
        ),
        "metadata": "{}",
    }
    with world.db.write() as conn:
        conn.execute(sa.insert(job_events).values(**row))
    world.fold()


@given(
    parsers.parse(
        'a Discover execution "{workflow}" that is "failed" with {count:d} observed jobs'
        " and a closed membership"
    )
)
def failed_execution(world: World, workflow: str, count: int) -> None:
    run = f"{workflow}-run"
    ref = ExecutionRefPayload(tenant_id="local", workflow_id=workflow, temporal_run_id=run)
    world.append(
        WorkflowStarted(
            workflow_id=workflow, workflow_type="DiscoverWorkflow", status="in_progress", input_summary={},
            started_at=_iso(NOW - timedelta(hours=2)), temporal_run_id=run,
        )
    )  # fmt: skip
    for i in range(count):
        world.append(
            DiscoveryExecutionMemberLinked(
                execution=ref, job_id=f"f{i}", cohort="observed_this_run", linked_at=_iso(NOW)
            )
        )
    world.append(
        DiscoveryExecutionMembershipClosed(
            execution=ref, member_count=count, closed_at=_iso(NOW), reason_code="interrupted_source_failed"
        )
    )
    world.append(
        WorkflowFailed(
            workflow_id=workflow, workflow_type="DiscoverWorkflow", status="failed",
            error_code="source_failed", error_message="x", retryable=False,
            finished_at=_iso(NOW - timedelta(minutes=30)),
            duration_ms=1000, temporal_run_id=run,
        )
    )  # fmt: skip
