"""Ashby job board API: ``GET {base}/posting-api/job-board/{name}``.

Shape: ``{"apiVersion": "1", "jobs": [{"id", "title", "location", "secondaryLocations", "department",
"isListed", "isRemote", "descriptionHtml", "descriptionPlain", "publishedAt", "employmentType",
"jobUrl", "applyUrl", ...}]}``.  Unlisted jobs are skipped.
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
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, RequestBudget


def parse_ashby(payload: Any, config: SourceConfig) -> list[ObservedPosting]:
    require(isinstance(payload, dict) and isinstance(payload.get("jobs"), list), "ashby jobs list")
    jobs = payload["jobs"]
    require(len(jobs) <= MAX_POSTINGS_PER_SOURCE, "too many ashby jobs")
    postings = []
    for job in jobs:
        require(isinstance(job, dict) and "id" in job and "jobUrl" in job, "ashby job")
        if job.get("isListed") is False:
            continue
        postings.append(
            bounded_posting(
                source_id=config.source_id,
                ats_kind="ashby",
                native_id=as_str(job["id"]),
                posting_url=as_str(job["jobUrl"]),
                canonical_url=as_str(job["jobUrl"]),
                title=as_str(job.get("title")),
                employer=config.employer,
                location=as_str(job.get("location")),
                description=as_str(job.get("descriptionPlain")) or as_str(job.get("descriptionHtml")),
                apply_url=as_str(job.get("applyUrl")) or None,
            )
        )
    return [p for p in postings if matches_filters(p, config)]


async def fetch_ashby(
    gateway: PolitenessGateway, config: SourceConfig, policy: CrawlPolicy, budget: RequestBudget
) -> list[ObservedPosting]:
    url = f"{config.base_url.rstrip('/')}/posting-api/job-board/{config.board}"
    return parse_ashby(await fetch_json(gateway, url, policy, budget), config)
