"""A whole discovery run in one call (the demo's path; Temporal runs the same steps as activities)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from jobctrl.discovery.adapters.base import SourceConfig
from jobctrl.discovery.domain.search import SearchFilters
from jobctrl.discovery.ports import DiscoveryRunLog
from jobctrl.discovery.use_cases.load_catalog import load_catalog
from jobctrl.discovery.use_cases.run_source_family import FamilyResult, run_source_family
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.politeness import CrawlPolicy, PolitenessGateway

MAX_PARALLEL_FAMILIES = 4  # runtime reference §2: min(4, configured, worker slots)

EVERYTHING = SearchFilters()  # the default search accepts every posting


async def run_discovery(
    store: EventStore,
    gateway: PolitenessGateway,
    families: Sequence[Sequence[SourceConfig]],
    *,
    runs: DiscoveryRunLog,
    run_id: str,
    clock: Clock,
    policy_override: Callable[[CrawlPolicy], CrawlPolicy] | None = None,
    max_parallel_families: int = 1,
    tenant_id: str = LOCAL_TENANT,
    search: SearchFilters = EVERYTHING,
) -> list[FamilyResult]:
    """Start (through ``runs``: the run is orchestration's, ADR 0180), crawl the families (at most
    ``max_parallel_families`` at once, capped at 4), advance progress by one per finished family,
    finish.  The last 2 steps of the progress total (terminal
    enrichment and preparation) belong to other contexts.  Results keep the families' order."""
    total = runs.start(
        run_id=run_id,
        source_ids=[s.source_id for family in families for s in family],
        family_count=len(families),
        tenant_id=tenant_id,
    )
    catalog = load_catalog(store)  # one dedupe view shared by the families of this process
    gate = asyncio.Semaphore(max(1, min(MAX_PARALLEL_FAMILIES, max_parallel_families)))
    finished = 0

    async def crawl(family: Sequence[SourceConfig]) -> FamilyResult:
        nonlocal finished
        async with gate:
            result = await run_source_family(
                store,
                gateway,
                family,
                run_id=run_id,
                clock=clock,
                policy_override=policy_override,
                catalog=catalog,
                tenant_id=tenant_id,
                search=search,
            )
        finished += 1
        runs.progress(run_id=run_id, completed=finished, total=total, tenant_id=tenant_id)
        return result

    results = list(await asyncio.gather(*(crawl(family) for family in families)))
    runs.finish(results, run_id=run_id, tenant_id=tenant_id)
    return results
