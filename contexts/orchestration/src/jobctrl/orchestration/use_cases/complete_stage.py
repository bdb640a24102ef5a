"""Complete a worker's step on one job's stage (owned stages fenced by the owner, ADR 0029)."""

from __future__ import annotations

from jobctrl.kernel.clock import Clock
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.stages import Stage
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.stages.states import StageOwner
from jobctrl.orchestration.use_cases._runs import settle_step
from jobctrl.orchestration.use_cases.change_job_stages import StagesCache


def complete_stage(
    store: EventStore,
    job_id: str,
    stage: Stage,
    owner: StageOwner,
    *,
    duration_ms: int,
    clock: Clock | None = None,
    tenant_id: str = LOCAL_TENANT,
    kept: StagesCache | None = None,
) -> None:
    settle_step(
        store, job_id, stage, owner,
        lambda stages, at, fence: stages.complete(stage, at=at, duration_ms=duration_ms, owner=fence),
        clock=clock, tenant_id=tenant_id, kept=kept,
    )  # fmt: skip
