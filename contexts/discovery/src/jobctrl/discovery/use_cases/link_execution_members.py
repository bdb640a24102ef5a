"""Link jobs to a Discover execution in a cohort (observation promotes backlog; never demotes)."""

from __future__ import annotations

from collections.abc import Sequence

from jobctrl.discovery.domain.execution import DiscoveryExecution, execution_key
from jobctrl.discovery.events import CohortKind
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import EventStore


def load_execution(store: EventStore, ref: ExecutionRef, clock: Clock) -> DiscoveryExecution:
    repo = AggregateRepository.for_class(store, DiscoveryExecution, clock=clock, tenant_id=ref.tenant_id)
    execution = repo.load(execution_key(ref)) or DiscoveryExecution.for_ref(ref)
    execution.ref = ref
    return execution


def save_execution(store: EventStore, execution: DiscoveryExecution, clock: Clock) -> None:
    assert execution.ref is not None
    repo = AggregateRepository.for_class(
        store, DiscoveryExecution, clock=clock, tenant_id=execution.ref.tenant_id
    )
    if execution.pending_events:
        repo.save(execution, workflow_id=execution.ref.workflow_id, run_id=execution.ref.temporal_run_id)


def link_execution_members(
    store: EventStore, ref: ExecutionRef, job_ids: Sequence[str], cohort: CohortKind, *, clock: Clock
) -> int:
    """Returns how many memberships were created or promoted."""
    execution = load_execution(store, ref, clock)
    at = isoformat(clock.now())
    changed = sum(execution.link(job_id, cohort, at=at) for job_id in job_ids)
    save_execution(store, execution, clock)
    return changed
