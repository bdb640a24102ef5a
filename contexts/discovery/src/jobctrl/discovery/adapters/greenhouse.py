"""Greenhouse job board API: ``GET {base}/v1/boards/{board}/jobs?content=true``.

Shape: ``{"jobs": [{"id", "title", "absolute_url", "location": {"name"}, "content" (HTML-escaped
HTML), "updated_at", "company_name"?, ...}], "meta": {"total"}}``.
"""

from __future__ import annotations

import html
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
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, RequestBudget


def parse_greenhouse(payload: Any, config: SourceConfig) -> list[ObservedPosting]:
    require(isinstance(payload, dict) and isinstance(payload.get("jobs"), list), "greenhouse jobs list")
    jobs = payload["jobs"]
    require(len(jobs) <= MAX_POSTINGS_PER_SOURCE, "too many greenhouse jobs")
    postings = []
    for job in jobs:
        require(isinstance(job, dict) and "id" in job and "absolute_url" in job, "greenhouse job")
        location = job.get("location") or {}
        postings.append(
            bounded_posting(
                source_id=config.source_id,
                ats_kind="greenhouse",
                native_id=as_str(job["id"]),
                posting_url=as_str(job["absolute_url"]),
                canonical_url=as_str(job["absolute_url"]),
                title=as_str(job.get("title")),
                employer=as_str(job.get("company_name")) or config.employer,
                location=as_str(location.get("name") if isinstance(location, dict) else location),
                description=html.unescape(as_str(job.get("content"))),
                apply_url=as_str(job["absolute_url"]),
            )
        )
    return [p for p in postings if matches_filters(p, config)]


async def fetch_greenhouse(
    gateway: PolitenessGateway, config: SourceConfig, policy: CrawlPolicy, budget: RequestBudget
) -> list[ObservedPosting]:
    url = f"{config.base_url.rstrip('/')}/v1/boards/{config.board}/jobs?content=true"
    return parse_greenhouse(await fetch_json(gateway, url, policy, budget), config)
