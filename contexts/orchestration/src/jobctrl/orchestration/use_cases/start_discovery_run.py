"""Start a discovery run: ``DiscoveryRunStarted`` and the progress spine at 0 / (families + 2)."""

from __future__ import annotations

from collections.abc import Sequence

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.discovery_run import DiscoveryRun, progress_total


def start_discovery_run(
    store: EventStore,
    *,
    run_id: str,
    source_ids: Sequence[str],
    family_count: int,
    clock: Clock,
    profile_snapshot_id: str | None = None,
    workflow_id: str | None = None,
    tenant_id: str = LOCAL_TENANT,
) -> int:
    """Returns the progress total the families and terminal steps report against."""
    runs = AggregateRepository.for_class(store, DiscoveryRun, clock=clock, tenant_id=tenant_id)
    run = runs.load(run_id) or DiscoveryRun(run_id)
    at = isoformat(clock.now())
    run.start(source_ids=list(source_ids), profile_snapshot_id=profile_snapshot_id, at=at)
    total = progress_total(family_count)
    run.report_progress(completed=0, total=total, at=at)
    runs.save(run, workflow_id=workflow_id)
    return total
