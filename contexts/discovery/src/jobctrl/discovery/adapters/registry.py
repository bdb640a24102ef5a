"""Which adapter fetches which ATS kind (one table, no string comparisons scattered around)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from jobctrl.discovery.adapters.ashby import fetch_ashby
from jobctrl.discovery.adapters.base import ObservedPosting, SourceConfig
from jobctrl.discovery.adapters.greenhouse import fetch_greenhouse
from jobctrl.discovery.adapters.jsonld import fetch_career_page
from jobctrl.discovery.adapters.lever import fetch_lever
from jobctrl.discovery.events import AtsKind
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.politeness import ATS_POLICY, CAREER_PAGE_POLICY, CrawlPolicy, PolitenessGateway, RequestBudget

Fetcher = Callable[
    [PolitenessGateway, SourceConfig, CrawlPolicy, RequestBudget], Awaitable[list[ObservedPosting]]
]

ADAPTERS: dict[AtsKind, tuple[Fetcher, CrawlPolicy]] = {
    "greenhouse": (fetch_greenhouse, ATS_POLICY),
    "lever": (fetch_lever, ATS_POLICY),
    "ashby": (fetch_ashby, ATS_POLICY),
    "other": (fetch_career_page, CAREER_PAGE_POLICY),
}


def adapter_for(kind: AtsKind) -> tuple[Fetcher, CrawlPolicy]:
    try:
        return ADAPTERS[kind]
    except KeyError:
        raise ConfigurationError(f"no adapter for ATS kind {kind!r}") from None
