"""Retry one job's stage by hand (``POST …/actions/retry-stage``): a Blocked row is unblocked, a
Failed, Exhausted, Canceled or Stale one reset; an exhausted stage gets a fresh attempt budget, or
the retry would exhaust at once.  Any other state is refused (``TransitionRejected``) before
anything is appended; the caller checks ``is_retryable`` first to answer without writing."""

from __future__ import annotations

from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.stages import Stage
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.stages.aggregate import JobStages
from jobctrl.orchestration.domain.stages.states import (
    Blocked,
    Canceled,
    Exhausted,
    Failed,
    StageState,
    Stale,
)
from jobctrl.orchestration.use_cases.change_job_stages import change_job_stages

RETRYABLE_STATES: tuple[type, ...] = (Failed, Exhausted, Blocked, Canceled, Stale)


def is_retryable(state: StageState) -> bool:
    return isinstance(state, RETRYABLE_STATES)


def retry_stage(
    store: EventStore, job_id: str, stage: Stage, *, clock: Clock | None = None, tenant_id: str = LOCAL_TENANT
) -> JobStages:
    """The job's stages after the retry was appended (``.version`` is the stream's new version)."""
    at = now_iso(clock)

    def retry(stages: JobStages) -> JobStages:
        current = stages.state(stage)
        if isinstance(current, Blocked):
            stages.unblock(stage, at=at)
        else:
            stages.reset(stage, at=at, reset_attempts=isinstance(current, Exhausted))
        return stages

    return change_job_stages(store, job_id, retry, clock=clock, tenant_id=tenant_id)
