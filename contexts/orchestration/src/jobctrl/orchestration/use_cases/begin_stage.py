"""Begin a worker's step on one job's stage, making the row startable first (ADR 0029, 0045).

In the same transaction: a row still Running under an earlier attempt of the *same* workflow is
settled first (owned stages through ``reconcile_owned_rows``; the others failed as retryable), a
Failed, Exhausted, Stale or Canceled row is reset and a Blocked one unblocked, because the workflow
asking to run the step is the decision to retry it.  A Succeeded (or Skipped) row is never started
again: the answer is False and the step reuses the outcome.  A Running owned row of another workflow
raises ``OwnershipLost``.
"""

from __future__ import annotations

from jobctrl.kernel.clock import Clock, now_iso
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
    Running,
    Skipped,
    StageOwner,
    Stale,
    Succeeded,
)
from jobctrl.orchestration.use_cases.change_job_stages import StagesCache, change_job_stages

STALE_ATTEMPT = "STALE_ATTEMPT"


def begin_stage(
    store: EventStore,
    job_id: str,
    stage: Stage,
    owner: StageOwner,
    *,
    clock: Clock | None = None,
    tenant_id: str = LOCAL_TENANT,
    kept: StagesCache | None = None,
) -> bool:
    """True when the stage was started (False: it already succeeded or was skipped)."""
    at = now_iso(clock)

    def begin(stages: JobStages) -> bool:
        state = stages.state(stage)
        if isinstance(state, Succeeded | Skipped):
            return False  # done (or decided not to do): a rerun reuses the outcome
        if isinstance(state, Running):
            if stage in limits.OWNED_STAGES and state.owner is not None:
                if state.owner.workflow_id != owner.workflow_id:
                    raise OwnershipLost(job_id, stage, owner, state.owner)
                stages.reconcile_owned_rows(owner, {}, at=at)
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
        stages.start(stage, at=at, owner=owner if stage in limits.OWNED_STAGES else None)
        return True

    return change_job_stages(store, job_id, begin, owner=owner, clock=clock, tenant_id=tenant_id, kept=kept)
