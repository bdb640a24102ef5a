"""Which adapter fetches which source family (one table, no string comparisons scattered around)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from jobctrl.discovery.adapters.ashby import fetch_ashby
from jobctrl.discovery.adapters.base import ObservedPosting, SourceConfig
from jobctrl.discovery.adapters.greenhouse import fetch_greenhouse
from jobctrl.discovery.adapters.jsonld import fetch_career_page
from jobctrl.discovery.adapters.lever import fetch_lever
from jobctrl.discovery.adapters.personio import fetch_personio
from jobctrl.discovery.adapters.recruitee import fetch_recruitee
from jobctrl.discovery.adapters.smartextract import fetch_smart_extract
from jobctrl.discovery.adapters.smartrecruiters import fetch_smartrecruiters
from jobctrl.discovery.adapters.workable import fetch_workable
from jobctrl.discovery.adapters.workday import fetch_workday
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.politeness import (
    ATS_POLICY,
    BROAD_BOARD_POLICY,
    CAREER_PAGE_POLICY,
    SMART_EXTRACT_POLICY,
    CrawlPolicy,
    PolitenessGateway,
    RequestBudget,
)

Fetcher = Callable[
    [PolitenessGateway, SourceConfig, CrawlPolicy, RequestBudget], Awaitable[list[ObservedPosting]]
]


async def _unit_by_unit(
    gateway: PolitenessGateway, source: SourceConfig, policy: CrawlPolicy, budget: RequestBudget
) -> list[ObservedPosting]:
    """Broad boards are searched unit by unit, resumably, by ``run_broad_boards`` (ADR 0285)."""
    raise ConfigurationError("broad-board sources are crawled by run_broad_boards, unit by unit")


ADAPTERS: dict[str, tuple[Fetcher, CrawlPolicy]] = {
    "greenhouse": (fetch_greenhouse, ATS_POLICY),
    "lever": (fetch_lever, ATS_POLICY),
    "ashby": (fetch_ashby, ATS_POLICY),
    "careers": (fetch_career_page, CAREER_PAGE_POLICY),
    "workday": (fetch_workday, ATS_POLICY),
    "smartrecruiters": (fetch_smartrecruiters, ATS_POLICY),
    "workable": (fetch_workable, ATS_POLICY),
    "recruitee": (fetch_recruitee, ATS_POLICY),
    "personio": (fetch_personio, ATS_POLICY),
    "smartextract": (fetch_smart_extract, SMART_EXTRACT_POLICY),
    "jobspy": (_unit_by_unit, BROAD_BOARD_POLICY),
}
_ALIASES = {"other": "careers"}  # configs that name only their ATS kind


def adapter_for(family: str) -> tuple[Fetcher, CrawlPolicy]:
    try:
        return ADAPTERS[_ALIASES.get(family, family)]
    except KeyError:
        raise ConfigurationError(f"no adapter for source family {family!r}") from None


def supported_families() -> tuple[str, ...]:
    return tuple(ADAPTERS)
