"""Lever postings API: ``GET {base}/v0/postings/{site}?mode=json``.

Shape: a JSON array of ``{"id", "text", "hostedUrl", "applyUrl", "categories": {"location", "team",
"commitment", ...}, "description", "descriptionPlain", "lists": [{"text", "content"}], ...}``.
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


def _description(job: dict[str, Any]) -> str:
    parts = [as_str(job.get("descriptionPlain")) or as_str(job.get("description"))]
    for item in job.get("lists") or []:
        if isinstance(item, dict):
            parts.append(f"{as_str(item.get('text'))}\n{as_str(item.get('content'))}")
    parts.append(as_str(job.get("additionalPlain")))
    return "\n".join(p for p in parts if p)


def parse_lever(payload: Any, config: SourceConfig) -> list[ObservedPosting]:
    require(isinstance(payload, list), "lever postings array")
    require(len(payload) <= MAX_POSTINGS_PER_SOURCE, "too many lever postings")
    postings = []
    for job in payload:
        require(isinstance(job, dict) and "id" in job and "hostedUrl" in job, "lever posting")
        categories = job.get("categories") or {}
        require(isinstance(categories, dict), "lever categories")
        postings.append(
            bounded_posting(
                source_id=config.source_id,
                ats_kind="lever",
                native_id=as_str(job["id"]),
                posting_url=as_str(job["hostedUrl"]),
                canonical_url=as_str(job["hostedUrl"]),
                title=as_str(job.get("text")),
                employer=config.employer,
                location=as_str(categories.get("location")),
                description=_description(job),
                apply_url=as_str(job.get("applyUrl")) or None,
            )
        )
    return [p for p in postings if matches_filters(p, config)]


async def fetch_lever(
    gateway: PolitenessGateway, config: SourceConfig, policy: CrawlPolicy, budget: RequestBudget
) -> list[ObservedPosting]:
    url = f"{config.base_url.rstrip('/')}/v0/postings/{config.board}?mode=json"
    return parse_lever(await fetch_json(gateway, url, policy, budget), config)
