"""Enrichment's Temporal activity: ``discovery_enrichment``, the terminal enrichment pass of a Discover
execution.

The jobs to enrich come from a port (``EnrichmentTargets``: the execution's members, with the source's
own description when it delivered one) the composition root implements over Discovery's facts.  Each
job's Enrich stage goes through the ``StageTracker``: an already enriched job is not enriched again (a
second Discover over the same board reuses the snapshot).  One job's failure is recorded on its row
and does not stop the pass; the pass heartbeats per job.  A sync activity: the fetches run on a private
event loop with their own gateway.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager

from temporalio import activity

from jobctrl.activity_contracts.contracts import EnrichmentInput, EnrichmentResult
from jobctrl.activity_contracts.stage_tracking import StageTracker, StepOwner, owner_from_activity
from jobctrl.enrichment.domain.readiness import EnrichStatus
from jobctrl.enrichment.ports import PageFetcher
from jobctrl.enrichment.use_cases.enrich_job import EnrichJob, enrich_job
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore


class EnrichmentNotUsable(JobCtrlError):
    """The pass could not make the posting's description trusted (the row records why)."""

    code = "enrichment_not_usable"
    retryable = False


#: (tenant, execution workflow id, execution run id) → the jobs to enrich.
EnrichmentTargets = Callable[[str, str, str], Sequence[EnrichJob]]
FetcherSession = Callable[[], AbstractAsyncContextManager[PageFetcher]]


class EnrichmentActivities:
    def __init__(
        self,
        store: EventStore,
        *,
        targets: EnrichmentTargets,
        fetcher: FetcherSession,
        tracker: StageTracker,
        clock: Clock,
    ) -> None:
        self.store = store
        self.targets = targets
        self.fetcher = fetcher
        self.tracker = tracker
        self.clock = clock

    @activity.defn(name="discovery_enrichment")
    def discovery_enrichment(self, params: EnrichmentInput) -> EnrichmentResult:
        ex = params.execution
        owner = owner_from_activity()
        jobs = list(self.targets(ex.tenant_id, ex.workflow_id, ex.temporal_run_id))
        return EnrichmentResult(asyncio.run(self._enrich_all(jobs, owner, ex.tenant_id)))

    async def _enrich_all(self, jobs: Sequence[EnrichJob], owner: StepOwner, tenant_id: str) -> int:
        """Every fact of the pass (enrichment and stage events) is written under the workflow's tenant."""
        enriched = 0
        tracker = self.tracker.for_tenant(tenant_id)
        async with self.fetcher() as fetcher:
            for n, job in enumerate(jobs, start=1):
                activity.heartbeat(n)
                if not tracker.begin(job.job_id, "enrich", owner):
                    continue  # enriched already: the snapshot is reused
                try:
                    outcome = await enrich_job(
                        job, store=self.store, fetcher=fetcher, clock=self.clock, tenant_id=tenant_id
                    )
                except JobCtrlError as exc:
                    tracker.fail(job.job_id, "enrich", owner, exc)
                    continue
                if outcome.status is EnrichStatus.ENRICHED:
                    tracker.succeed(job.job_id, "enrich", owner)
                    enriched += 1
                else:
                    reason = ",".join(b.value for b in outcome.blocked_by) or outcome.status.value
                    tracker.fail(job.job_id, "enrich", owner, EnrichmentNotUsable(reason))
        return enriched
