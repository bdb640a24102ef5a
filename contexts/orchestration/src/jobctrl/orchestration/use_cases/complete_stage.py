"""Complete a worker's step on one job's stage (owned stages fenced by the owner, ADR 0029)."""

from __future__ import annotations

from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.stages import Stage
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.stages import limits
from jobctrl.orchestration.domain.stages.states import StageOwner
from jobctrl.orchestration.use_cases.change_job_stages import StagesCache, change_job_stages


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
    at = now_iso(clock)
    fence = owner if stage in limits.OWNED_STAGES else None
    change_job_stages(
        store, job_id, lambda s: s.complete(stage, at=at, duration_ms=duration_ms, owner=fence),
        owner=owner, clock=clock, tenant_id=tenant_id, kept=kept,
    )  # fmt: skip
