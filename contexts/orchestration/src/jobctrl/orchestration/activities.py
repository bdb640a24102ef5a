"""Orchestration's own activities: the preparation checkpoint and the owner-scoped recovery step.

* ``load_preparation_checkpoint`` — the steps whose stage row already succeeded (Score, Tailor, Cover)
  plus ``pdf`` when the PDFs exist (``pdf_ready``), so a rerun resumes after them.
* ``recover_preparation_state`` — the mandatory step before a failed preparation's terminal outcome:
  rows still running under this workflow are settled (completed if their result committed, else made
  explicitly retryable), so nothing stays "running" after the workflow ends.
* ``record_profile_continuation_closed`` — the terminal fact of a profile continuation, recorded by
  the workflow on its success, failure and cancel paths (ADR 0077): the outbox never restarts it.
* ``record_workflow_started`` / ``record_workflow_outcome`` / ``record_pipeline_steps`` — the
  lifecycle facts a workflow cannot write itself (workflows never touch a store), through the
  ``WorkflowRun`` and ``ExecutionSteps`` use cases, their only writers.
"""

from __future__ import annotations

from collections.abc import Callable

from temporalio import activity

from jobctrl.activity_contracts.contracts import (
    PipelineStepsInput,
    PreparationCheckpoint,
    PreparationCheckpointInput,
    PreparationStep,
    PreparationStepInput,
    WorkflowOutcomeInput,
    WorkflowStartedInput,
)
from jobctrl.activity_contracts.stage_tracking import owner_from_activity
from jobctrl.kernel.clock import Clock, SystemClock, isoformat
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.events import ExecutionRef, Stage
from jobctrl.orchestration.profile.service import ProfileService
from jobctrl.orchestration.stages.states import StageOwner, Succeeded
from jobctrl.orchestration.stages.tracker import StageTrackerService
from jobctrl.orchestration.use_cases.record_pipeline_steps import record_pipeline_steps
from jobctrl.orchestration.use_cases.record_workflow_outcome import record_workflow_outcome
from jobctrl.orchestration.use_cases.record_workflow_started import record_workflow_started
from jobctrl.orchestration.workflows.continuation import (
    CLOSED_ACTIVITY,
    ContinuationClosedInput,
    ContinuationClosedResult,
)

_STAGE_STEPS: tuple[tuple[PreparationStep, Stage], ...] = (
    ("score", "score"),
    ("tailor", "tailor"),
    ("cover", "cover"),
)


class PreparationStateActivities:
    def __init__(self, tracker: StageTrackerService, pdf_ready: Callable[[str], bool]) -> None:
        self.tracker = tracker
        self.pdf_ready = pdf_ready

    @activity.defn(name="load_preparation_checkpoint")
    def load_preparation_checkpoint(self, params: PreparationCheckpointInput) -> PreparationCheckpoint:
        stages = self.tracker.service.load(params.job_id)
        done = [step for step, stage in _STAGE_STEPS if isinstance(stages.state(stage), Succeeded)]
        if "cover" in done and self.pdf_ready(params.job_id):
            done.append("pdf")
        return PreparationCheckpoint(done)

    @activity.defn(name="recover_preparation_state")
    def recover_preparation_state(self, params: PreparationStepInput) -> None:
        owner = owner_from_activity()
        holder = StageOwner(owner.workflow_id, owner.run_id, owner.attempt)
        service = self.tracker.for_tenant(params.tenant_id).service
        at = isoformat(service.clock.now())
        service.run(params.job_id, lambda s: s.reconcile_owned_rows(holder, {}, at=at), owner=holder)


class ContinuationClosingActivities:
    def __init__(self, store: EventStore, *, clock: Clock | None = None) -> None:
        self.store = store
        self.clock = clock or SystemClock()

    @activity.defn(name=CLOSED_ACTIVITY)
    def record_profile_continuation_closed(self, params: ContinuationClosedInput) -> ContinuationClosedResult:
        service = ProfileService(self.store, clock=self.clock, tenant_id=params.tenant)
        recorded = service.close_continuation(
            params.workflow_id, params.outcome, at=params.closed_at, recorded_by="workflow"
        )
        return ContinuationClosedResult(recorded)


class LifecycleActivities:
    def __init__(self, store: EventStore, *, clock: Clock | None = None) -> None:
        self.store = store
        self.clock = clock or SystemClock()

    @activity.defn(name="record_workflow_started")
    def record_workflow_started(self, params: WorkflowStartedInput) -> None:
        record_workflow_started(
            self.store, workflow_id=params.workflow_id, run_id=params.temporal_run_id,
            workflow_type=params.workflow_type, tenant_id=params.tenant_id, started_at=params.started_at,
            input_summary=params.input_summary, clock=self.clock,
        )  # fmt: skip

    @activity.defn(name="record_workflow_outcome")
    def record_workflow_outcome(self, params: WorkflowOutcomeInput) -> None:
        record_workflow_outcome(
            self.store, workflow_id=params.workflow_id, run_id=params.temporal_run_id,
            workflow_type=params.workflow_type, tenant_id=params.tenant_id, status=params.status,
            started_at=params.started_at, finished_at=params.finished_at, error_code=params.error_code,
            error_message=params.error_message, retryable=params.retryable, clock=self.clock,
        )  # fmt: skip

    @activity.defn(name="record_pipeline_steps")
    def record_pipeline_steps(self, params: PipelineStepsInput) -> None:
        ex = params.execution
        ref = ExecutionRef(
            tenant_id=ex.tenant_id, workflow_id=ex.workflow_id, temporal_run_id=ex.temporal_run_id
        )
        record_pipeline_steps(self.store, ref, params.changes, clock=self.clock)
