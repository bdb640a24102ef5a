"""Orchestration's own activities: the preparation checkpoint and the owner-scoped recovery step.

* ``load_preparation_checkpoint`` — the steps whose stage row already succeeded (Score, Tailor, Cover)
  plus ``pdf`` when the PDFs exist (``pdf_ready``), so a rerun resumes after them.
* ``recover_preparation_state`` — the mandatory step before a failed preparation's terminal outcome:
  rows still running under this workflow are settled (completed if their result committed, else made
  explicitly retryable), so nothing stays "running" after the workflow ends.
* ``record_profile_continuation_closed`` — the terminal fact of a profile continuation, recorded by
  the workflow on its success, failure and cancel paths (ADR 0077): the outbox never restarts it.
"""

from __future__ import annotations

from collections.abc import Callable

from temporalio import activity

from jobctrl.activity_contracts.contracts import (
    PreparationCheckpoint,
    PreparationCheckpointInput,
    PreparationStep,
    PreparationStepInput,
)
from jobctrl.activity_contracts.stage_tracking import owner_from_activity
from jobctrl.kernel.clock import Clock, SystemClock, isoformat
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.events import Stage
from jobctrl.orchestration.profile.service import ProfileService
from jobctrl.orchestration.stages.states import StageOwner, Succeeded
from jobctrl.orchestration.stages.tracker import StageTrackerService
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
