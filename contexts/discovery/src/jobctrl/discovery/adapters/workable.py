"""Workable's public job widget API: ``GET {base}/api/v1/widget/accounts/{account}?details=true``.

Shape: ``{"name", "description", "jobs": [{"title", "shortcode", "code", "employment_type",
"telecommuting", "department", "url", "shortlink", "application_url", "published_on", "country",
"city", "state", "locations": [{"country", "countryCode", "city", "region", "hidden"}],
"description" (HTML, with ``details=true``)}]}``.  One request per board.

Identity: the ``shortcode`` (Workable's own, unique per account) with the posting ``url``
(``https://apply.workable.com/j/{shortcode}``).
"""

from __future__ import annotations

from typing import Any

from jobctrl.discovery.adapters.base import (
    MAX_POSTINGS_PER_SOURCE,
    ObservedPosting,
    SourceConfig,
    as_str,
    bounded_posting,
    fetch_json,
    matches_filters,
    require,
)
from jobctrl.kernel.html import DESCRIPTION, html_text
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, RequestBudget


def _location(job: dict[str, Any]) -> str:
    places = [
        ", ".join(as_str(loc.get(k)) for k in ("city", "region", "country") if as_str(loc.get(k)))
        for loc in job.get("locations") or []
        if isinstance(loc, dict) and not loc.get("hidden")
    ]
    if not places:
        places = [", ".join(as_str(job.get(k)) for k in ("city", "state", "country") if as_str(job.get(k)))]
    text = "; ".join(p for p in places if p)
    return f"{text} (Remote)" if job.get("telecommuting") is True else text


def parse_workable(payload: Any, config: SourceConfig) -> list[ObservedPosting]:
    require(isinstance(payload, dict) and isinstance(payload.get("jobs"), list), "workable jobs list")
    jobs: list[Any] = payload["jobs"]
    require(len(jobs) <= MAX_POSTINGS_PER_SOURCE, "too many workable jobs")
    employer = as_str(payload.get("name")) or config.employer
    postings = []
    for job in jobs:
        require(isinstance(job, dict) and as_str(job.get("shortcode")) != "", "workable job shortcode")
        require(isinstance(job.get("url"), str), "workable job url")
        postings.append(
            bounded_posting(
                source_id=config.source_id,
                ats_kind="other",
                native_id=as_str(job["shortcode"]),
                posting_url=as_str(job["url"]),
                canonical_url=as_str(job["url"]),
                title=as_str(job.get("title")),
                employer=employer,
                location=_location(job),
                description=html_text(as_str(job.get("description")), DESCRIPTION),
                apply_url=as_str(job.get("application_url")) or None,
            )
        )
    return [p for p in postings if matches_filters(p, config)]


async def fetch_workable(
    gateway: PolitenessGateway, config: SourceConfig, policy: CrawlPolicy, budget: RequestBudget
) -> list[ObservedPosting]:
    url = f"{config.base_url.rstrip('/')}/api/v1/widget/accounts/{config.board}?details=true"
    return parse_workable(await fetch_json(gateway, url, policy, budget), config)
