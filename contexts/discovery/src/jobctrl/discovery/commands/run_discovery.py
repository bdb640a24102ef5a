"""A whole discovery run in one call (the demo's path; Temporal runs the same steps as activities)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from jobctrl.discovery.adapters.base import SourceConfig
from jobctrl.discovery.commands.finish_discovery_run import finish_discovery_run
from jobctrl.discovery.commands.report_run_progress import report_run_progress
from jobctrl.discovery.commands.run_source_family import FamilyResult, run_source_family
from jobctrl.discovery.commands.start_discovery_run import start_discovery_run
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.store import EventStore
from jobctrl.politeness import CrawlPolicy, PolitenessGateway


async def run_discovery(
    store: EventStore,
    gateway: PolitenessGateway,
    families: Sequence[Sequence[SourceConfig]],
    *,
    run_id: str,
    clock: Clock,
    policy_override: Callable[[CrawlPolicy], CrawlPolicy] | None = None,
) -> list[FamilyResult]:
    """Start, crawl each family (advancing progress 1 per family), finish.  Terminal enrichment and
    preparation steps (the last 2 of the progress total) belong to other contexts."""
    total = start_discovery_run(
        store,
        run_id=run_id,
        source_ids=[s.source_id for family in families for s in family],
        family_count=len(families),
        clock=clock,
    )
    results = []
    for index, family in enumerate(families, start=1):
        results.append(
            await run_source_family(
                store, gateway, family, run_id=run_id, clock=clock, policy_override=policy_override
            )
        )
        report_run_progress(store, run_id=run_id, completed=index, total=total, clock=clock)
    finish_discovery_run(store, results, run_id=run_id, clock=clock)
    return results
