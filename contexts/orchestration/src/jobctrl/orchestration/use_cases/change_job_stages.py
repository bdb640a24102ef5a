"""Change one job's stages as one unit of work: load, run the transitions, save atomically.

The transitions run against the freshly loaded aggregate and the save appends with the version it
was loaded at, so the compare-and-swap happens inside the write transaction; a refusal
(TransitionRejected, OwnershipLost) raises before anything is appended, so a unit with a rejected
write appends none of its writes.  The owner goes into every event's metadata.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from jobctrl.kernel.clock import Clock
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.stages.aggregate import JobStages
from jobctrl.orchestration.domain.stages.states import StageOwner
from jobctrl.orchestration.use_cases.load_job_stages import stage_repository

T = TypeVar("T")


def change_job_stages(
    store: EventStore,
    job_id: str,
    transitions: Callable[[JobStages], T],
    *,
    owner: StageOwner | None = None,
    clock: Clock | None = None,
    tenant_id: str = LOCAL_TENANT,
) -> T:
    """Returns what ``transitions`` returned, once its events are appended."""
    repo = stage_repository(store, clock=clock, tenant_id=tenant_id)
    stages = repo.load(job_id) or JobStages(job_id)
    result = transitions(stages)
    if owner is None:
        repo.save(stages)
    else:
        repo.save(stages, workflow_id=owner.workflow_id, run_id=owner.temporal_run_id, attempt=owner.attempt)
    return result
