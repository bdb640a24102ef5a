"""Workday career sites through the public CXS JSON API (no browser, no LLM).

* List: ``POST {base}/wday/cxs/{tenant}/{site}/jobs`` with ``{"appliedFacets": {}, "limit": 20,
  "offset": N, "searchText": ""}``; the answer is ``{"total", "jobPostings": [{"title",
  "externalPath", "locationsText", "postedOn", "bulletFields": [requisition id, ...]}], "facets"}``.
  Workday reports ``total`` on the first page (later pages may say 0), answers at most 20 postings a
  page, and answers a page past the end with the first page again.  Paging stops at the first
  page's total, at an empty page, at a page of postings already seen, or after 25 pages.
* Detail: ``GET {base}/wday/cxs/{tenant}/{site}{externalPath}`` → ``{"jobPostingInfo": {"id",
  "title", "jobDescription" (HTML), "location", "jobReqId", "externalUrl", "timeType", ...},
  "hiringOrganization": {"name"}}``.  A detail that is gone (404/410) is skipped: listings lag.

The source's ``board`` is ``tenant/site`` (parsed from ``https://{tenant}.wd{N}.myworkdayjobs.com/
{site}``); ``base_url`` is the site's host or a stand-in.  Identity: the requisition id (``jobReqId``,
else the first bullet field) with the posting's public URL; Workday ids are unique per site, so the
identity key carries the host.  Like every adapter: a whole board or a typed error.
"""

from __future__ import annotations

import json
from typing import Any

from jobctrl.discovery.adapters.base import (
    MAX_POSTINGS_PER_SOURCE,
    MalformedSourceResponse,
    ObservedPosting,
    SourceConfig,
    as_str,
    bounded_posting,
    check_status,
    matches_filters,
    require,
    settle,
)
from jobctrl.discovery.adapters.text import html_to_text
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, RequestBudget

PAGE_SIZE = 20
MAX_PAGES = 25
_GONE = frozenset({404, 410})


def cxs_root(config: SourceConfig) -> tuple[str, str, str]:
    """(``{base}/wday/cxs/{tenant}/{site}``, tenant, site)."""
    tenant, _, site = config.board.partition("/")
    require(bool(tenant and site), "workday board is tenant/site")
    return f"{config.base_url.rstrip('/')}/wday/cxs/{tenant}/{site}", tenant, site


def _decode(content: bytes, what: str) -> Any:
    try:
        return json.loads(content)
    except (ValueError, UnicodeDecodeError) as exc:
        raise MalformedSourceResponse(f"workday {what} is not JSON") from exc


def parse_listing_page(payload: Any) -> tuple[int | None, list[dict[str, Any]]]:
    """(the page's ``total`` when it reports one, its postings); a wrong shape raises."""
    require(isinstance(payload, dict), "workday jobs page")
    postings = payload.get("jobPostings")
    if postings is None:
        postings = []
    require(isinstance(postings, list), "workday jobPostings list")
    for item in postings:
        require(isinstance(item, dict), "workday job posting")
        path = item.get("externalPath")
        require(isinstance(path, str) and path.startswith("/") and ".." not in path, "workday externalPath")
        require(isinstance(item.get("title"), str), "workday posting title")
    total = payload.get("total")
    return (total if isinstance(total, int) and not isinstance(total, bool) and total > 0 else None), postings


def parse_detail(
    payload: Any, summary: dict[str, Any], config: SourceConfig, site_url: str
) -> ObservedPosting:
    require(isinstance(payload, dict) and isinstance(payload.get("jobPostingInfo"), dict), "workday detail")
    info: dict[str, Any] = payload["jobPostingInfo"]
    org = payload.get("hiringOrganization")
    bullets = summary.get("bulletFields")
    first_bullet = as_str(bullets[0]) if isinstance(bullets, list) and bullets else ""
    native = as_str(info.get("jobReqId")) or first_bullet or as_str(info.get("id"))
    public = as_str(info.get("externalUrl")) or f"{site_url}{summary['externalPath']}"
    employer = as_str(org.get("name")) if isinstance(org, dict) else ""
    return bounded_posting(
        source_id=config.source_id,
        ats_kind="workday",
        native_id=native or None,
        posting_url=public,
        canonical_url=public,
        title=as_str(info.get("title")) or as_str(summary.get("title")),
        employer=employer or config.employer,
        location=as_str(info.get("location")) or as_str(summary.get("locationsText")),
        description=html_to_text(as_str(info.get("jobDescription"))),
        apply_url=public,
        extra={"externalPath": as_str(summary["externalPath"]), "timeType": as_str(info.get("timeType"))},
    )


async def list_postings(
    gateway: PolitenessGateway, config: SourceConfig, policy: CrawlPolicy, budget: RequestBudget,
    *, search_text: str = "",
) -> list[dict[str, Any]]:  # fmt: skip
    root, _tenant, _site = cxs_root(config)
    seen: dict[str, dict[str, Any]] = {}
    total: int | None = None
    for page in range(MAX_PAGES):
        body = {
            "appliedFacets": {},
            "limit": PAGE_SIZE,
            "offset": page * PAGE_SIZE,
            "searchText": search_text,
        }
        response = await gateway.post_json(f"{root}/jobs", body, policy, budget)
        check_status(response)
        page_total, postings = parse_listing_page(_decode(response.content, "jobs page"))
        if page == 0:
            total = page_total
        fresh = [p for p in postings if p["externalPath"] not in seen]
        for item in fresh:
            seen[item["externalPath"]] = item
        require(len(seen) <= MAX_POSTINGS_PER_SOURCE, "too many workday postings")
        if not fresh or len(postings) < PAGE_SIZE or (total is not None and len(seen) >= total):
            break
    return list(seen.values())


async def fetch_workday(
    gateway: PolitenessGateway, config: SourceConfig, policy: CrawlPolicy, budget: RequestBudget
) -> list[ObservedPosting]:
    root, _tenant, site = cxs_root(config)
    site_url = f"{config.base_url.rstrip('/')}/{site}"
    summaries = await list_postings(gateway, config, policy, budget)

    async def detail(summary: dict[str, Any]) -> ObservedPosting | None:
        response = await gateway.get(
            f"{root}{summary['externalPath']}", policy, budget, headers={"Accept": "application/json"}
        )
        if response.status_code in _GONE:
            return None  # closed since the listing was built; the others are still good
        check_status(response)
        return parse_detail(_decode(response.content, "detail"), summary, config, site_url)

    found = await settle([detail(s) for s in summaries])
    return [p for p in found if p is not None and matches_filters(p, config)]
