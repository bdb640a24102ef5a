"""One job from a URL, composed (ADR 0220): the gateway, the crawl policy, then Discovery's import.

Loopback is crawled only when the request's target is itself loopback (the pasted URL, or the
``api_base`` standing in for the vendor), the same rule the worker applies to sources; private and
metadata addresses stay refused by the gateway's SSRF guard.  The fetch runs before any write.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from jobctrl.discovery import ImportedPosting, fetch_posting, import_posting
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration import (
    DISCOVER_WORKFLOW_TYPE,
    DiscoverWorkflowInput,
    SettingsStore,
    discover_workflow_id,
)
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, UserAgent
from jobctrl.runtime.api.readiness import require_ready_worker
from jobctrl.runtime.api.workflow_control import WorkflowControl
from jobctrl.runtime.composition.root import LOOPBACK, local_policy


def loopback_policy_for(url: str, api_base: str | None) -> Callable[[CrawlPolicy], CrawlPolicy]:
    """The policy override for one import: loopback allowed only when the target is loopback."""
    local = urlsplit(api_base or url).hostname in LOOPBACK

    def override(policy: CrawlPolicy) -> CrawlPolicy:
        return local_policy(policy) if local else policy

    return override


async def import_job_from_url(
    store: EventStore,
    url: str,
    *,
    clock: Clock,
    user_agent: UserAgent,
    api_base: str | None = None,
    tenant_id: str = LOCAL_TENANT,
) -> ImportedPosting:
    async with PolitenessGateway(user_agent) as gateway:
        fetched = await fetch_posting(
            gateway, url, api_base=api_base, policy_override=loopback_policy_for(url, api_base)
        )
    return import_posting(store, fetched, url=url, clock=clock, tenant_id=tenant_id)


@dataclass(frozen=True, slots=True)
class PreparationStart:
    """``started`` (the Discover run's ids) or ``queued`` (why: the next Discover run prepares it)."""

    state: str
    reason: str | None = None
    workflow_id: str | None = None
    run_id: str | None = None


async def start_preparation(
    db: Database, control: WorkflowControl | None, job_id: str, *, clock: Clock, tenant_id: str = LOCAL_TENANT
) -> PreparationStart:
    """Start a Discover run for the imported job alone (no source is crawled): its plan links the job,
    its terminal enrichment and preparation fan-out start the job's ``JobPreparationWorkflow`` with the
    spend preflight, the path every discovered job takes (ADR 0286).  With no ready worker, no Temporal
    server, or a Discover run already open, the job stays queued: the next run's plan links it."""
    if control is None:
        return PreparationStart("queued", "temporal_unavailable")
    try:
        require_ready_worker(db, clock.now())
        task_queue = SettingsStore(db, clock=clock).load().task_queue
        started = await control.start(
            DISCOVER_WORKFLOW_TYPE,
            DiscoverWorkflowInput(tenant=tenant_id, job_ids=[job_id]),
            workflow_id=discover_workflow_id(tenant_id),
            task_queue=task_queue,
        )
    except JobCtrlError as exc:
        if exc.code == "storage_unavailable":
            raise
        return PreparationStart("queued", exc.code)
    return PreparationStart("started", None, started.workflow_id, started.run_id)
