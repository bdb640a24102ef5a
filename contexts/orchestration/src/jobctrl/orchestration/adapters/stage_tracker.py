"""``StageTrackerService``: orchestration's implementation of the ``StageTracker`` port the context
activities record their stage transitions through (owner metadata = workflow id, run id, attempt).

``begin`` makes a row startable before starting it, in the same transaction: a row still Running under
an earlier attempt of the *same* workflow is settled first (owned stages through
``reconcile_owned_rows``; the others failed as retryable), a Failed or Exhausted row is reset and a
Blocked one unblocked, because the workflow asking to run the step is the decision to retry it.  A
Succeeded row is never started again: ``begin`` answers False and the activity reuses the result.
"""

from __future__ import annotations

import copy
import time

from jobctrl.activity_contracts.stage_tracking import StepOwner
from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.stages import Stage
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.stages import limits
from jobctrl.orchestration.domain.stages.aggregate import JobStages
from jobctrl.orchestration.domain.stages.errors import OwnershipLost
from jobctrl.orchestration.domain.stages.states import (
    Blocked,
    Canceled,
    Exhausted,
    Failed,
    Pending,
    Running,
    Skipped,
    StageOwner,
    Stale,
    Succeeded,
)
from jobctrl.orchestration.use_cases.stage_service import StageService

STALE_ATTEMPT = "STALE_ATTEMPT"


def _owner(owner: StepOwner) -> StageOwner:
    return StageOwner(owner.workflow_id, owner.run_id, owner.attempt)


class StageTrackerService:
    def __init__(
        self, store: EventStore, *, clock: Clock | None = None, tenant_id: str = LOCAL_TENANT
    ) -> None:
        self.service = StageService(store, clock=clock, tenant_id=tenant_id)
        self._started: dict[tuple[str, str], float] = {}

    def for_tenant(self, tenant_id: str) -> StageTrackerService:
        """Stage events of ``tenant_id``'s workflow go under that tenant (the step durations are shared)."""
        if tenant_id == self.service.tenant_id:
            return self
        other = copy.copy(self)
        other.service = StageService(self.service.store, clock=self.service.clock, tenant_id=tenant_id)
        return other

    def succeeded(self, job_id: str, stage: Stage) -> bool:
        return isinstance(self.service.load(job_id).state(stage), Succeeded)

    def begin(self, job_id: str, stage: Stage, owner: StepOwner) -> bool:
        holder = _owner(owner)
        at = now_iso(self.service.clock)

        def command(stages: JobStages) -> bool:
            state = stages.state(stage)
            if isinstance(state, Succeeded | Skipped):
                return False  # done (or decided not to do): a rerun reuses the outcome
            if isinstance(state, Running):
                if stage in limits.OWNED_STAGES and state.owner is not None:
                    if state.owner.workflow_id != holder.workflow_id:
                        raise OwnershipLost(job_id, stage, holder, state.owner)
                    stages.reconcile_owned_rows(holder, {}, at=at)
                else:
                    stages.fail(
                        stage, error_code=STALE_ATTEMPT, error_message="an earlier attempt did not finish",
                        retryable=True, at=at, owner=state.owner,
                    )  # fmt: skip
                state = stages.state(stage)
            if isinstance(state, Failed | Exhausted | Stale | Canceled):
                stages.reset(stage, at=at)
            elif isinstance(state, Blocked):
                stages.unblock(stage, at=at)
            stages.start(stage, at=at, owner=holder if stage in limits.OWNED_STAGES else None)
            return True

        started = self.service.run(job_id, command, owner=holder)
        if started:
            self._started[(job_id, stage)] = time.monotonic()
        return started

    def _elapsed_ms(self, job_id: str, stage: str) -> int:
        began = self._started.pop((job_id, stage), None)
        return 0 if began is None else int((time.monotonic() - began) * 1000)

    def succeed(self, job_id: str, stage: Stage, owner: StepOwner) -> None:
        holder = _owner(owner)
        at, ms = now_iso(self.service.clock), self._elapsed_ms(job_id, stage)
        fence = holder if stage in limits.OWNED_STAGES else None
        self.service.run(
            job_id, lambda s: s.complete(stage, at=at, duration_ms=ms, owner=fence), owner=holder
        )

    def fail(self, job_id: str, stage: Stage, owner: StepOwner, error: JobCtrlError) -> None:
        holder = _owner(owner)
        at = now_iso(self.service.clock)
        self._elapsed_ms(job_id, stage)
        fence = holder if stage in limits.OWNED_STAGES else None

        def command(stages: JobStages) -> None:
            if isinstance(stages.state(stage), Running):
                stages.fail(
                    stage, error_code=error.code, error_message=str(error), retryable=error.retryable,
                    at=at, owner=fence,
                )  # fmt: skip

        self.service.run(job_id, command, owner=holder)

    def skip(self, job_id: str, stage: Stage, reason: str) -> None:
        def command(stages: JobStages) -> None:
            state = stages.state(stage)
            if isinstance(state, Running):
                # A step that started and then found nothing to do must not stay running.
                stages.cancel(stage, at=now_iso(self.service.clock), reason=reason)
            elif isinstance(state, Pending):
                stages.skip(stage, reason=reason)

        self.service.run(job_id, command)
