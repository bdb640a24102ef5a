"""Fail a worker's step on one job's stage with the error's code and retryability (a row that is no
longer Running, e.g. settled by a newer attempt, is left as it is)."""

from __future__ import annotations

from jobctrl.kernel.clock import Clock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.stages import Stage
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.stages.aggregate import JobStages
from jobctrl.orchestration.domain.stages.states import Running, StageOwner
from jobctrl.orchestration.use_cases._runs import settle_step
from jobctrl.orchestration.use_cases.change_job_stages import StagesCache


def fail_stage(
    store: EventStore,
    job_id: str,
    stage: Stage,
    owner: StageOwner,
    error: JobCtrlError,
    *,
    clock: Clock | None = None,
    tenant_id: str = LOCAL_TENANT,
    kept: StagesCache | None = None,
) -> None:
    def fail(stages: JobStages, at: str, fence: StageOwner | None) -> None:
        if isinstance(stages.state(stage), Running):
            stages.fail(
                stage, error_code=error.code, error_message=str(error), retryable=error.retryable,
                at=at, owner=fence,
            )  # fmt: skip

    settle_step(store, job_id, stage, owner, fail, clock=clock, tenant_id=tenant_id, kept=kept)
