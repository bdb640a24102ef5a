"""Close a discovery run that ended before its families reported (ADR 0079).

Called by the DiscoverWorkflow on its own failure and cancel paths (through orchestration's
``interrupt_discovery_run`` activity) and by the describe-based reconciler
(``close_orphaned_discovery_run``) for a run Temporal terminated or timed out.  The run's first
terminal fact wins: a finished run, or one that was never started, records nothing, and a writer that
lost a race with another terminal writer reloads and finds the run finished.
"""

from __future__ import annotations

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.store.errors import ConcurrencyConflict
from jobctrl.orchestration.domain.discovery_run import DiscoveryRun

ATTEMPTS = 8


def interrupt_discovery_run(
    store: EventStore,
    *,
    run_id: str,
    reason: str,
    retryable: bool,
    clock: Clock,
    workflow_id: str | None = None,
    tenant_id: str = LOCAL_TENANT,
) -> bool:
    """True when this call recorded the run's terminal fact."""
    runs = AggregateRepository.for_class(store, DiscoveryRun, clock=clock, tenant_id=tenant_id)
    for attempt in range(ATTEMPTS):
        run = runs.load(run_id)
        if run is None or not run.interrupt(reason=reason, retryable=retryable, at=isoformat(clock.now())):
            return False
        try:
            runs.save(run, workflow_id=workflow_id)
        except ConcurrencyConflict:
            if attempt == ATTEMPTS - 1:
                raise
            continue  # another writer appended to the run (a terminal fact, or progress): look again
        return True
    return False  # pragma: no cover - the loop returns or raises
