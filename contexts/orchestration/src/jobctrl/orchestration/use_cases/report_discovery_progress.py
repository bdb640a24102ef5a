"""Report progress on a discovery run (monotonic; total 0 is progress-silent)."""

from __future__ import annotations

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.discovery_run import DiscoveryRun


def report_discovery_progress(
    store: EventStore,
    *,
    run_id: str,
    completed: int,
    total: int,
    clock: Clock,
    workflow_id: str | None = None,
    tenant_id: str = LOCAL_TENANT,
) -> bool:
    """True when the report moved progress forward and was recorded."""
    if total <= 0:
        return False  # progress-silent callers write nothing, not even a read
    runs = AggregateRepository.for_class(store, DiscoveryRun, clock=clock, tenant_id=tenant_id)
    run = runs.get(run_id)
    if not run.report_progress(completed=completed, total=total, at=isoformat(clock.now())):
        return False
    runs.save(run, workflow_id=workflow_id)
    return True
