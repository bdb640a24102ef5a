"""Recruitee's public careers API: ``GET {base}/api/offers/`` (``base`` is ``https://{company}.recruitee.com``).

Shape: ``{"offers": [{"id" (int), "slug", "title", "description" (HTML), "requirements" (HTML),
"location", "city", "country", "remote", "careers_url", "careers_apply_url", "company_name",
"department", "status", "published_at"}]}``; only ``published`` offers are postings.

Identity: the offer ``id`` (unique within the company) with its ``careers_url``.
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


def parse_recruitee(payload: Any, config: SourceConfig) -> list[ObservedPosting]:
    require(isinstance(payload, dict) and isinstance(payload.get("offers"), list), "recruitee offers list")
    offers: list[Any] = payload["offers"]
    require(len(offers) <= MAX_POSTINGS_PER_SOURCE, "too many recruitee offers")
    postings = []
    for offer in offers:
        require(isinstance(offer, dict) and isinstance(offer.get("id"), int | str), "recruitee offer id")
        require(isinstance(offer.get("careers_url"), str), "recruitee offer careers_url")
        if as_str(offer.get("status")) not in ("", "published"):
            continue  # drafts and closed offers are not postings
        location = as_str(offer.get("location")) or ", ".join(
            as_str(offer.get(k)) for k in ("city", "country") if as_str(offer.get(k))
        )
        if offer.get("remote") is True and "remote" not in location.lower():
            location = f"{location} (Remote)" if location else "Remote"
        description = "\n\n".join(
            html_text(as_str(offer.get(k)), DESCRIPTION)
            for k in ("description", "requirements")
            if as_str(offer.get(k))
        )
        postings.append(
            bounded_posting(
                source_id=config.source_id,
                ats_kind="other",
                native_id=as_str(offer["id"]),
                posting_url=as_str(offer["careers_url"]),
                canonical_url=as_str(offer["careers_url"]),
                title=as_str(offer.get("title")),
                employer=as_str(offer.get("company_name")) or config.employer,
                location=location,
                description=description,
                apply_url=as_str(offer.get("careers_apply_url")) or None,
            )
        )
    return [p for p in postings if matches_filters(p, config)]


async def fetch_recruitee(
    gateway: PolitenessGateway, config: SourceConfig, policy: CrawlPolicy, budget: RequestBudget
) -> list[ObservedPosting]:
    url = f"{config.base_url.rstrip('/')}/api/offers/"
    return parse_recruitee(await fetch_json(gateway, url, policy, budget), config)
