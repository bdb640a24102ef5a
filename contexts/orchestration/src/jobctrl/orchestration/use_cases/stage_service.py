"""Application service for stage writes: load the job's stages, run one command, save atomically.

The command runs against the freshly loaded aggregate and the save appends with the version it was
loaded at, so the compare-and-swap happens inside the write transaction; a refusal (TransitionRejected,
OwnershipLost) raises before anything is appended.  The owner goes into every event's metadata.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, SystemClock, isoformat
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.stages.aggregate import JobStages, ReconciledRow
from jobctrl.orchestration.domain.stages.states import StageOwner
from jobctrl.orchestration.events import Stage

T = TypeVar("T")


class StageService:
    def __init__(
        self, store: EventStore, *, clock: Clock | None = None, tenant_id: str = LOCAL_TENANT
    ) -> None:
        self.store = store
        self.clock = clock or SystemClock()
        self.tenant_id = tenant_id
        self.repo = AggregateRepository.for_class(store, JobStages, clock=self.clock, tenant_id=tenant_id)

    def load(self, job_id: str) -> JobStages:
        return self.repo.load(job_id) or JobStages(job_id)

    def run(self, job_id: str, command: Callable[[JobStages], T], *, owner: StageOwner | None = None) -> T:
        stages = self.load(job_id)
        result = command(stages)
        if owner is None:
            self.repo.save(stages)
        else:
            self.repo.save(
                stages, workflow_id=owner.workflow_id, run_id=owner.temporal_run_id, attempt=owner.attempt
            )
        return result

    def reconcile_owned_rows(
        self, job_id: str, owner: StageOwner, committed_versions: Mapping[Stage, int | None]
    ) -> list[ReconciledRow]:
        """Run by a retrying activity before any selector-based work (see JobStages)."""
        at = isoformat(self.clock.now())
        return self.run(
            job_id, lambda s: s.reconcile_owned_rows(owner, committed_versions, at=at), owner=owner
        )
