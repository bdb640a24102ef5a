"""One job from a URL, composed (ADR 0220): the gateway, the crawl policy, then Discovery's import.

Loopback is crawled only when the request's target is itself loopback (the pasted URL, or the
``api_base`` standing in for the vendor), the same rule the worker applies to sources; private and
metadata addresses stay refused by the gateway's SSRF guard.  The fetch runs before any write.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from jobctrl.discovery import ImportedPosting, fetch_posting, import_posting
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, UserAgent
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
