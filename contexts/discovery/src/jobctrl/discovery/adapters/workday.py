"""Workday career sites through the public CXS JSON API (no browser, no LLM).

* List: ``POST {base}/wday/cxs/{tenant}/{site}/jobs`` with ``{"appliedFacets": {}, "limit": 20,
  "offset": N, "searchText": ""}``; the answer is ``{"total", "jobPostings": [{"title",
  "externalPath", "locationsText", "postedOn", "bulletFields": [requisition id, ...]}], "facets"}``.
  Workday reports ``total`` on the first page (later pages may say 0), answers at most 20 postings a
  page, and answers a page past the end with the first page again.  Paging stops at the first
  page's total, at an empty page, at a page of postings already seen, or after 25 pages.
  A search whose total is more than those 25 pages reach (Workday itself serves at most 2,000
  results of one search) is split by one of its facets (``facets[].values[]``: id and count): one
  search per value with ``appliedFacets = {facetParameter: [id]}``, merged by ``externalPath``; a
  value still over the reach is split by another facet, two facets deep at most (ADR 0222).
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
from dataclasses import dataclass
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
from jobctrl.kernel.html import DESCRIPTION, html_text
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, RequestBudget

PAGE_SIZE = 20
MAX_PAGES = 25
#: Workday serves no offset past the first 2,000 results of one search; we page at most 25 pages.
RESULT_CAP = 2000
REACH = min(RESULT_CAP, PAGE_SIZE * MAX_PAGES)
MAX_SPLIT_DEPTH = 2
MAX_SEARCHES = 60
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
        description=html_text(as_str(info.get("jobDescription")), DESCRIPTION),
        # Workday's application flow for a posting is the posting URL + ``/apply``; a posting that
        # says it takes no applications keeps its own URL (the apply run then finds no form).
        apply_url=f"{public.rstrip('/')}/apply" if info.get("canApply") is True else public,
        extra={"externalPath": as_str(summary["externalPath"]), "timeType": as_str(info.get("timeType"))},
    )


def parse_facets(payload: Any) -> list[tuple[str, list[tuple[str, int]]]]:
    """The search's facets as (parameter, [(value id, count)]); entries of another shape are left out
    (a facet is only a way to split a search, never a posting)."""
    facets = payload.get("facets") if isinstance(payload, dict) else None
    out: list[tuple[str, list[tuple[str, int]]]] = []
    for facet in facets if isinstance(facets, list) else []:
        if not isinstance(facet, dict) or not isinstance(facet.get("facetParameter"), str):
            continue
        values = []
        for value in facet.get("values") or []:
            if (
                isinstance(value, dict)
                and isinstance(value.get("id"), str)
                and isinstance(value.get("count"), int)
            ):
                values.append((value["id"], value["count"]))
        out.append((facet["facetParameter"], values))
    return out


@dataclass
class _Search:
    total: int | None
    facets: list[tuple[str, list[tuple[str, int]]]]
    postings: list[dict[str, Any]]


async def search_once(
    gateway: PolitenessGateway, config: SourceConfig, policy: CrawlPolicy, budget: RequestBudget,
    *, applied: dict[str, list[str]], search_text: str = "",
) -> _Search:  # fmt: skip
    """One search (one set of applied facets), paged: at most ``MAX_PAGES`` pages of ``PAGE_SIZE``."""
    root, _tenant, _site = cxs_root(config)
    seen: dict[str, dict[str, Any]] = {}
    total: int | None = None
    facets: list[tuple[str, list[tuple[str, int]]]] = []
    for page in range(MAX_PAGES):
        body = {
            "appliedFacets": applied,
            "limit": PAGE_SIZE,
            "offset": page * PAGE_SIZE,
            "searchText": search_text,
        }
        response = await gateway.post_json(f"{root}/jobs", body, policy, budget)
        check_status(response)
        payload = _decode(response.content, "jobs page")
        page_total, postings = parse_listing_page(payload)
        if page == 0:
            total, facets = page_total, parse_facets(payload)
        fresh = [p for p in postings if p["externalPath"] not in seen]
        for item in fresh:
            seen[item["externalPath"]] = item
        require(len(seen) <= MAX_POSTINGS_PER_SOURCE, "too many workday postings")
        if not fresh or len(postings) < PAGE_SIZE or (total is not None and len(seen) >= total):
            break
    return _Search(total, facets, list(seen.values()))


def _split_by(search: _Search, applied: dict[str, list[str]]) -> tuple[str, list[str]] | None:
    """The facet to split an over-cap search by: one not applied yet, with two or more values, whose
    largest value is smallest (so the fewest sub-searches are over the cap again)."""
    options = [(p, v) for p, v in search.facets if p not in applied and len(v) >= 2]
    if not options:
        return None
    param, values = min(options, key=lambda o: max(count for _id, count in o[1]))
    return param, [value_id for value_id, count in values if count > 0]


async def list_postings(
    gateway: PolitenessGateway, config: SourceConfig, policy: CrawlPolicy, budget: RequestBudget,
    *, search_text: str = "",
) -> list[dict[str, Any]]:  # fmt: skip
    """Every posting of the site: one search, or, when its total is more than one search can page
    (``REACH``), that search split by a facet's values (recursively, at most ``MAX_SPLIT_DEPTH``
    facets deep and ``MAX_SEARCHES`` searches) and the results merged by ``externalPath``."""
    found: dict[str, dict[str, Any]] = {}
    searches = 0

    async def collect(applied: dict[str, list[str]], depth: int) -> None:
        nonlocal searches
        searches += 1
        search = await search_once(gateway, config, policy, budget, applied=applied, search_text=search_text)
        for item in search.postings:
            found.setdefault(item["externalPath"], item)
        require(len(found) <= MAX_POSTINGS_PER_SOURCE, "too many workday postings")
        if search.total is None or search.total <= REACH or depth >= MAX_SPLIT_DEPTH:
            return
        split = _split_by(search, applied)
        if split is None:
            return  # nothing to split by: the first REACH postings are what this site lets us see
        param, values = split
        for value in values:
            if searches >= MAX_SEARCHES:
                return
            await collect({**applied, param: [value]}, depth + 1)

    await collect({}, 0)
    return list(found.values())


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
