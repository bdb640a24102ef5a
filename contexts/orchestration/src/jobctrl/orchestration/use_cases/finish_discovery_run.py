"""Finish a discovery run from its family results.

The run fails only when every family failed (runtime reference §0.5); otherwise it completes with the
summed counts and the failed families' error classes.  First terminal result wins.
"""

from __future__ import annotations

from collections.abc import Sequence

from jobctrl.discovery.events import DiscoveryRunCounts
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.discovery_run import DiscoveryRun, FamilyEnd


def summed(results: Sequence[FamilyEnd]) -> DiscoveryRunCounts:
    def total(field: str) -> int:
        return sum(int(getattr(r.counts, field)) for r in results)

    return DiscoveryRunCounts(
        total("total"),
        total("new_jobs"),
        total("existing_jobs"),
        total("observed_jobs"),
        total("duplicate_jobs"),
        total("rejected_duplicates"),
    )


def finish_discovery_run(
    store: EventStore,
    results: Sequence[FamilyEnd],
    *,
    run_id: str,
    clock: Clock,
    workflow_id: str | None = None,
    tenant_id: str = LOCAL_TENANT,
) -> bool:
    """True when this call recorded the terminal fact (False: the run had already finished)."""
    runs = AggregateRepository.for_class(store, DiscoveryRun, clock=clock, tenant_id=tenant_id)
    run = runs.get(run_id)
    at = isoformat(clock.now())
    failures = [f for r in results for f in r.failures]
    if results and all(r.failed for r in results):
        first = failures[0]
        recorded = run.fail(
            source_id=first.source_id, error_class=first.code, retryable=first.retryable, at=at
        )
    else:
        recorded = run.complete(counts=summed(results), error_classes=[f.code for f in failures], at=at)
    if recorded:
        runs.save(run, workflow_id=workflow_id)
    return recorded
