"""Skip one job's stage: a Pending row is skipped, a Running one (a step that started and then found
nothing to do) is canceled so it does not stay running; any other row is left as it is."""

from __future__ import annotations

from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.stages import Stage
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.stages.aggregate import JobStages
from jobctrl.orchestration.domain.stages.states import Pending, Running
from jobctrl.orchestration.use_cases.change_job_stages import StagesCache, change_job_stages


def skip_stage(
    store: EventStore,
    job_id: str,
    stage: Stage,
    reason: str,
    *,
    clock: Clock | None = None,
    tenant_id: str = LOCAL_TENANT,
    kept: StagesCache | None = None,
) -> None:
    def skip(stages: JobStages) -> None:
        state = stages.state(stage)
        if isinstance(state, Running):
            stages.cancel(stage, at=now_iso(clock), reason=reason)
        elif isinstance(state, Pending):
            stages.skip(stage, reason=reason)

    change_job_stages(store, job_id, skip, clock=clock, tenant_id=tenant_id, kept=kept)
