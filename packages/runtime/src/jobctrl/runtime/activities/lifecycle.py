"""``record_workflow_started`` / ``record_workflow_outcome`` / ``record_pipeline_steps``: the facts a
workflow cannot write itself (workflows never touch a store)."""

from __future__ import annotations

import hashlib

from sqlalchemy import select
from temporalio import activity

from jobctrl.activity_contracts.contracts import (
    PipelineStepChange,
    PipelineStepsInput,
    WorkflowOutcomeInput,
    WorkflowStartedInput,
)
from jobctrl.kernel.clock import parse_instant
from jobctrl.kernel.events import DomainEvent, NewEvent
from jobctrl.kernel.store.schema import job_events
from jobctrl.kernel.text import bound_text, bounded_code
from jobctrl.orchestration.events import (
    ExecutionRef,
    PipelineStepCompleted,
    PipelineStepFailed,
    PipelineStepQueued,
    PipelineStepStarted,
    StepDetail,
    WorkflowCanceled,
    WorkflowCompleted,
    WorkflowFailed,
    WorkflowStarted,
)
from jobctrl.runtime.activities.deps import ActivityDeps
from jobctrl.runtime.workflow_runs import append_lifecycle


def _duration_ms(start: str, end: str) -> int:
    return max(0, int((parse_instant(end) - parse_instant(start)).total_seconds() * 1000))


def outcome_event(params: WorkflowOutcomeInput) -> DomainEvent:
    wid, wtype, rid, finished = (
        params.workflow_id, params.workflow_type, params.temporal_run_id, params.finished_at,
    )  # fmt: skip
    duration = _duration_ms(params.started_at, params.finished_at)
    code = bounded_code(params.error_code or params.status)
    message = bound_text(params.error_message or code, 500)
    if params.status == "succeeded":
        return WorkflowCompleted(
            workflow_id=wid, workflow_type=wtype, status="succeeded", finished_at=finished,
            duration_ms=duration, temporal_run_id=rid,
        )  # fmt: skip
    if params.status == "canceled":
        return WorkflowCanceled(
            workflow_id=wid, workflow_type=wtype, status="canceled", finished_at=finished,
            duration_ms=duration, temporal_run_id=rid, error_code=code, error_message=message,
        )  # fmt: skip
    return WorkflowFailed(
        workflow_id=wid, workflow_type=wtype, status="failed", finished_at=finished,
        duration_ms=duration, temporal_run_id=rid, error_code=code, error_message=message,
        retryable=params.retryable,
    )  # fmt: skip


class LifecycleActivities:
    def __init__(self, deps: ActivityDeps) -> None:
        self.deps = deps

    @activity.defn(name="record_workflow_started")
    def record_workflow_started(self, params: WorkflowStartedInput) -> None:
        event = WorkflowStarted(
            workflow_id=params.workflow_id,
            workflow_type=params.workflow_type,
            status="in_progress",
            input_summary=dict(params.input_summary),
            started_at=params.started_at,
            temporal_run_id=params.temporal_run_id,
        )
        append_lifecycle(
            self.deps.store,
            params.workflow_id,
            params.temporal_run_id,
            params.tenant_id,
            [("started", event)],
            self.deps.clock.now(),
            only_if_open=False,
        )

    @activity.defn(name="record_workflow_outcome")
    def record_workflow_outcome(self, params: WorkflowOutcomeInput) -> None:
        # "outcome" is one fact per run: a retry or a racing reconciler cannot add a second terminal.
        append_lifecycle(
            self.deps.store,
            params.workflow_id,
            params.temporal_run_id,
            params.tenant_id,
            [("outcome", outcome_event(params))],
            self.deps.clock.now(),
            only_if_open=True,
        )

    @activity.defn(name="record_pipeline_steps")
    def record_pipeline_steps(self, params: PipelineStepsInput) -> None:
        ex = params.execution
        ref = ExecutionRef(
            tenant_id=ex.tenant_id, workflow_id=ex.workflow_id, temporal_run_id=ex.temporal_run_id
        )
        attempt = 1
        now = self.deps.clock.now()
        events = [
            NewEvent.of(
                _step_event(ref, change, attempt),
                occurred_at=now,
                tenant_id=ex.tenant_id,
                event_id=_step_event_id(ex.temporal_run_id, change),
                workflow_id=ex.workflow_id,
                run_id=ex.temporal_run_id,
            )
            for change in params.changes
        ]
        if not events:
            return
        stream = f"execution-{ex.temporal_run_id}"
        # Check and append in one write transaction: parallel families and activity retries share
        # this stream, and a half-seen batch must never be appended twice.
        with self.deps.store.transaction() as tx:
            stored = set(
                tx.conn.execute(
                    select(job_events.c.event_id).where(
                        job_events.c.event_id.in_([e.event_id for e in events])
                    )
                ).scalars()
            )
            fresh = [e for e in events if e.event_id not in stored]
            if fresh:
                tx.append(stream, None, fresh)


def _step_event_id(run_id: str, change: PipelineStepChange) -> str:
    raw = f"{run_id}\x00{change.step_kind}\x00{change.item_key}\x00{change.transition}"
    return hashlib.sha256(raw.encode()).hexdigest()[:48]


def _step_event(ref: ExecutionRef, change: PipelineStepChange, attempt: int) -> DomainEvent:
    detail = (
        StepDetail(code=change.step_kind, item_count=change.item_count)
        if change.item_count is not None
        else None
    )
    base = {
        "execution": ref,
        "step_kind": change.step_kind,
        "item_key": bound_text(change.item_key, 200),
        "attempt": attempt,
        "detail": detail,
    }
    if change.transition == "queued":
        return PipelineStepQueued(queued_at=change.at, **base)  # type: ignore[arg-type]
    if change.transition == "started":
        return PipelineStepStarted(started_at=change.at, **base)  # type: ignore[arg-type]
    if change.transition == "completed":
        return PipelineStepCompleted(completed_at=change.at, duration_ms=change.duration_ms, **base)  # type: ignore[arg-type]
    return PipelineStepFailed(
        failed_at=change.at,
        duration_ms=change.duration_ms,
        error_code=bounded_code(change.error_code or "unclassified"),
        retryable=change.retryable,
        **base,  # type: ignore[arg-type]
    )
