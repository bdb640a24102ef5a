"""Read one job's stages as recorded (a job with no stage history is all Pending, version 0)."""

from __future__ import annotations

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.stages.aggregate import JobStages


def stage_repository(
    store: EventStore, *, clock: Clock | None = None, tenant_id: str = LOCAL_TENANT
) -> AggregateRepository[JobStages]:
    return AggregateRepository.for_class(store, JobStages, clock=clock, tenant_id=tenant_id)


def load_job_stages(
    store: EventStore, job_id: str, *, clock: Clock | None = None, tenant_id: str = LOCAL_TENANT
) -> JobStages:
    return stage_repository(store, clock=clock, tenant_id=tenant_id).load(job_id) or JobStages(job_id)
