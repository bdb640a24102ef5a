"""Orchestration's own activities: the preparation checkpoint and the owner-scoped recovery step.

* ``load_preparation_checkpoint`` — the steps whose stage row already succeeded (Score, Tailor, Cover)
  plus ``pdf`` when the PDFs exist (``pdf_ready``), so a rerun resumes after them.
* ``recover_preparation_state`` — the mandatory step before a failed preparation's terminal outcome:
  rows still running under this workflow are settled (completed if their result committed, else made
  explicitly retryable), so nothing stays "running" after the workflow ends.
* ``record_profile_continuation_closed`` — the terminal fact of a profile continuation, recorded by
  the workflow on its success, failure and cancel paths (ADR 0077): the outbox never restarts it.
* ``profile_continuation_targets`` / ``profile_continuation_status`` — which jobs a profile
  continuation re-prepares (the ``profile_continuation`` cohort's targets, orchestration's decision
  behind the composition root's port) and Temporal's status of an older one it awaits (the
  ``describe`` the outbox drain asks too; ADR 0074, 0262).
* ``record_workflow_started`` / ``record_workflow_outcome`` / ``record_pipeline_steps`` — the
  lifecycle facts a workflow cannot write itself (workflows never touch a store), through the
  ``WorkflowRun`` and ``ExecutionSteps`` use cases, their only writers.
* ``finish_discovery_run`` / ``report_discovery_progress`` / ``interrupt_discovery_run`` — the
  Discover workflow's run (``DiscoveryRunActivities``, moved here from the runtime: ADR 0180).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from temporalio import activity

from jobctrl.activity_contracts.contracts import (
    FamilyOutcome,
    FinishDiscoveryRunInput,
    InterruptDiscoveryRunInput,
    PipelineStepsInput,
    PreparationCheckpoint,
    PreparationCheckpointInput,
    PreparationStep,
    PreparationStepInput,
    ReportDiscoveryProgressInput,
    WorkflowOutcomeInput,
    WorkflowStartedInput,
)
from jobctrl.activity_contracts.errors import to_application_error
from jobctrl.activity_contracts.stage_tracking import owner_from_activity
from jobctrl.discovery.events import DiscoveryRunCounts
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, SystemClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.store.errors import ConcurrencyConflict
from jobctrl.orchestration.adapters.stage_tracker import StageTrackerService
from jobctrl.orchestration.domain.discovery_run import DiscoveryRun
from jobctrl.orchestration.domain.preparation_plan import PreparationTarget
from jobctrl.orchestration.domain.stages.states import StageOwner, Succeeded
from jobctrl.orchestration.events import Stage
from jobctrl.orchestration.ports import CloseInterruptedMembership
from jobctrl.orchestration.use_cases.close_profile_continuation import close_profile_continuation
from jobctrl.orchestration.use_cases.finish_discovery_run import finish_discovery_run
from jobctrl.orchestration.use_cases.interrupt_discovery_run import interrupt_discovery_run
from jobctrl.orchestration.use_cases.reconcile_owned_stages import reconcile_owned_stages
from jobctrl.orchestration.use_cases.record_pipeline_steps import record_pipeline_steps
from jobctrl.orchestration.use_cases.record_workflow_outcome import record_workflow_outcome
from jobctrl.orchestration.use_cases.record_workflow_started import record_workflow_started
from jobctrl.orchestration.use_cases.report_discovery_progress import report_discovery_progress
from jobctrl.orchestration.workflows.continuation import (
    CLOSED_ACTIVITY,
    COHORT,
    STATUS_ACTIVITY,
    TARGETS_ACTIVITY,
    ContinuationClosedInput,
    ContinuationClosedResult,
    ContinuationStatus,
    ContinuationStatusInput,
    ContinuationTargets,
    ContinuationTargetsInput,
)

_CONFLICT_RETRIES = 8

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
        stages = self.tracker.load(params.job_id)
        done = [step for step, stage in _STAGE_STEPS if isinstance(stages.state(stage), Succeeded)]
        if "cover" in done and self.pdf_ready(params.job_id):
            done.append("pdf")
        return PreparationCheckpoint(done)

    @activity.defn(name="recover_preparation_state")
    def recover_preparation_state(self, params: PreparationStepInput) -> None:
        owner = owner_from_activity()
        holder = StageOwner(owner.workflow_id, owner.run_id, owner.attempt)
        tracker = self.tracker.for_tenant(params.tenant_id)
        reconcile_owned_stages(
            tracker.store, params.job_id, holder, clock=tracker.clock, tenant_id=tracker.tenant_id
        )


class ContinuationClosingActivities:
    def __init__(self, store: EventStore, *, clock: Clock | None = None) -> None:
        self.store = store
        self.clock = clock or SystemClock()

    @activity.defn(name=CLOSED_ACTIVITY)
    def record_profile_continuation_closed(self, params: ContinuationClosedInput) -> ContinuationClosedResult:
        recorded = close_profile_continuation(
            self.store, params.workflow_id, params.outcome, at=params.closed_at, recorded_by="workflow",
            clock=self.clock, tenant_id=params.tenant,
        )  # fmt: skip
        return ContinuationClosedResult(recorded)


#: (tenant, execution run id, cohort) → the cohort's preparation targets (the composition root's port)
CohortTargets = Callable[[str, str, str], Sequence[PreparationTarget]]
#: a workflow id → Temporal's status name of it (``None``: absent)
DescribeWorkflow = Callable[[str], Awaitable[str | None]]


class ContinuationActivities:
    def __init__(self, targets: CohortTargets, describe: DescribeWorkflow) -> None:
        self.targets = targets
        self.describe = describe

    @activity.defn(name=TARGETS_ACTIVITY)
    def profile_continuation_targets(self, params: ContinuationTargetsInput) -> ContinuationTargets:
        return ContinuationTargets([t.job_id for t in self.targets(params.tenant, "", COHORT)])

    @activity.defn(name=STATUS_ACTIVITY)
    async def profile_continuation_status(self, params: ContinuationStatusInput) -> ContinuationStatus:
        return ContinuationStatus(await self.describe(params.workflow_id))


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
        record_pipeline_steps(self.store, params.execution, params.changes, clock=self.clock)


@dataclass(frozen=True)
class _SourceFailed:
    source_id: str
    code: str
    retryable: bool


@dataclass(frozen=True)
class _FamilyEnd:
    counts: DiscoveryRunCounts
    failures: Sequence[_SourceFailed] = field(default_factory=tuple)
    failed: bool = False


def family_end(outcome: FamilyOutcome) -> _FamilyEnd:
    """A family's end as the workflow reports it: its counts, or its code as the family's failure."""
    r = outcome.result
    if outcome.error_code is not None or r is None:
        failure = _SourceFailed(outcome.family, outcome.error_code or "source_unavailable", outcome.retryable)
        return _FamilyEnd(DiscoveryRunCounts(0, 0, 0, 0, 0, 0), failures=(failure,), failed=True)
    counts = DiscoveryRunCounts(
        r.total, r.new_jobs, r.existing_jobs, r.observed_jobs, r.duplicate_jobs, r.rejected_duplicates
    )
    return _FamilyEnd(counts)


class DiscoveryRunActivities:
    """The Discover workflow's run (ADR 0070, 0079, 0130).

    * ``finish_discovery_run`` — the families are done: the run completes with their summed counts
      and the failed families' error classes, or fails when every family failed; first terminal
      result wins, so a retried activity records nothing new.
    * ``report_discovery_progress`` — the workflow's own count of finished spine steps; the run keeps
      the highest report, so a retried or replayed report cannot move it back.
    * ``interrupt_discovery_run`` — the workflow failed or was canceled before its terminal fan-out:
      the run ends as ``DiscoveryRunFailed`` with the reason and no source (a no-op once finished),
      then the execution's membership is closed with ``interrupted_<reason>`` (ADR 0083).

    A run that was never started (a worker whose planning is not discovery's) has nothing to finish
    and no spine to advance.
    """

    def __init__(
        self, store: EventStore, *, close_membership: CloseInterruptedMembership, clock: Clock | None = None
    ) -> None:
        self.store = store
        self.close_membership = close_membership
        self.clock = clock or SystemClock()

    def _started(self, run_id: str, tenant_id: str) -> bool:
        runs = AggregateRepository.for_class(self.store, DiscoveryRun, clock=self.clock, tenant_id=tenant_id)
        return runs.load(run_id) is not None

    @activity.defn(name="finish_discovery_run")
    def finish_discovery_run(self, params: FinishDiscoveryRunInput) -> bool:
        """True when this call recorded the run's terminal fact."""
        ex = params.execution
        if not self._started(ex.temporal_run_id, ex.tenant_id):
            return False
        try:
            return finish_discovery_run(
                self.store, [family_end(f) for f in params.families], run_id=ex.temporal_run_id,
                clock=self.clock, workflow_id=ex.workflow_id, tenant_id=ex.tenant_id,
            )  # fmt: skip
        except JobCtrlError as exc:
            raise to_application_error(exc) from exc

    @activity.defn(name="report_discovery_progress")
    def report_discovery_progress(self, params: ReportDiscoveryProgressInput) -> bool:
        """True when the report moved the run's spine forward (a run never started has none)."""
        ex = params.execution
        if not self._started(ex.temporal_run_id, ex.tenant_id):
            return False
        for attempt in range(_CONFLICT_RETRIES):
            try:
                return report_discovery_progress(
                    self.store, run_id=ex.temporal_run_id, completed=params.progress.done,
                    total=params.progress.total, clock=self.clock, workflow_id=ex.workflow_id,
                    tenant_id=ex.tenant_id,
                )  # fmt: skip
            except ConcurrencyConflict as exc:
                # A parallel family's report won the race: reload and report again (the highest
                # report wins either way); a conflict that persists is retried by Temporal.
                if attempt == _CONFLICT_RETRIES - 1:
                    raise to_application_error(exc) from exc
            except JobCtrlError as exc:
                raise to_application_error(exc) from exc
        return False

    @activity.defn(name="interrupt_discovery_run")
    def interrupt_discovery_run(self, params: InterruptDiscoveryRunInput) -> bool:
        """True when this call recorded the run's terminal fact (the membership close is reported by
        its event, not here)."""
        ex = params.execution
        try:
            ended = interrupt_discovery_run(
                self.store, run_id=ex.temporal_run_id, reason=params.reason, retryable=params.retryable,
                clock=self.clock, workflow_id=ex.workflow_id, tenant_id=ex.tenant_id,
            )  # fmt: skip
            self.close_membership(ex.tenant_id, ex.workflow_id, ex.temporal_run_id, params.reason)
        except JobCtrlError as exc:
            raise to_application_error(exc) from exc
        return ended
