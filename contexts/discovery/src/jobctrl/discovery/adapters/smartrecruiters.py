"""SmartRecruiters public Posting API.

* List: ``GET {base}/v1/companies/{company}/postings?limit=100&offset=N`` → ``{"offset", "limit",
  "totalFound", "content": [{"id", "name", "refNumber", "company": {"identifier", "name"},
  "location": {"city", "region", "country", "remote", "fullLocation"?}, "department": {"label"},
  "typeOfEmployment": {"label"}, "releasedDate", "ref"}]}``; pages until ``totalFound`` or a short
  page (at most 20 pages).
* Detail: ``GET {base}/v1/companies/{company}/postings/{id}`` → the summary plus ``"jobAd":
  {"sections": {"companyDescription", "jobDescription", "qualifications", "additionalInformation":
  {"title", "text" (HTML)}}}``, ``"postingUrl"``, ``"applyUrl"``.  A detail gone (404/410) is skipped.

Identity: the posting ``id`` (SmartRecruiters' own, unique within the company) with its public
``postingUrl`` (``https://jobs.smartrecruiters.com/{company}/{id}-{slug}``).
"""

from __future__ import annotations

from typing import Any

from jobctrl.discovery.adapters.base import (
    MAX_POSTINGS_PER_SOURCE,
    ObservedPosting,
    SourceConfig,
    as_str,
    bounded_posting,
    check_status,
    fetch_json,
    matches_filters,
    parse_json,
    require,
    settle,
)
from jobctrl.kernel.html import DESCRIPTION, html_text
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, RequestBudget

PAGE_SIZE = 100
MAX_PAGES = 20
SECTIONS = ("companyDescription", "jobDescription", "qualifications", "additionalInformation")
_GONE = frozenset({404, 410})


def parse_page(payload: Any) -> tuple[int | None, list[dict[str, Any]]]:
    require(isinstance(payload, dict) and isinstance(payload.get("content"), list), "smartrecruiters page")
    content: list[Any] = payload["content"]
    for item in content:
        require(isinstance(item, dict) and isinstance(item.get("id"), str | int), "smartrecruiters posting")
        require(isinstance(item.get("name"), str), "smartrecruiters posting name")
    total = payload.get("totalFound")
    return (total if isinstance(total, int) and not isinstance(total, bool) else None), content


def _location(loc: Any) -> str:
    if not isinstance(loc, dict):
        return ""
    if as_str(loc.get("fullLocation")):
        text = as_str(loc.get("fullLocation"))
    else:
        text = ", ".join(as_str(loc.get(k)) for k in ("city", "region", "country") if as_str(loc.get(k)))
    return f"{text} (Remote)" if loc.get("remote") is True and "remote" not in text.lower() else text


def parse_detail(payload: Any, summary: dict[str, Any], config: SourceConfig) -> ObservedPosting:
    require(isinstance(payload, dict), "smartrecruiters detail")
    job_ad = payload.get("jobAd")
    sections: Any = job_ad.get("sections") if isinstance(job_ad, dict) else {}
    require(isinstance(sections, dict), "smartrecruiters jobAd sections")
    parts = []
    for key in SECTIONS:
        section = sections.get(key)
        if isinstance(section, dict) and as_str(section.get("text")):
            title = as_str(section.get("title"))
            parts.append(
                (title + "\n" if title else "") + html_text(as_str(section.get("text")), DESCRIPTION)
            )
    company = payload.get("company") or summary.get("company")
    native = as_str(summary["id"])
    url = as_str(payload.get("postingUrl")) or f"https://jobs.smartrecruiters.com/{config.board}/{native}"
    return bounded_posting(
        source_id=config.source_id,
        ats_kind="other",
        native_id=native,
        posting_url=url,
        canonical_url=url,
        title=as_str(payload.get("name")) or as_str(summary.get("name")),
        employer=(as_str(company.get("name")) if isinstance(company, dict) else "") or config.employer,
        location=_location(payload.get("location") or summary.get("location")),
        description="\n\n".join(parts),
        apply_url=as_str(payload.get("applyUrl")) or url,
        extra={"refNumber": as_str(summary.get("refNumber"))},
    )


async def fetch_smartrecruiters(
    gateway: PolitenessGateway, config: SourceConfig, policy: CrawlPolicy, budget: RequestBudget
) -> list[ObservedPosting]:
    root = f"{config.base_url.rstrip('/')}/v1/companies/{config.board}/postings"
    summaries: dict[str, dict[str, Any]] = {}
    for page in range(MAX_PAGES):
        total, content = parse_page(
            await fetch_json(gateway, f"{root}?limit={PAGE_SIZE}&offset={page * PAGE_SIZE}", policy, budget)
        )
        for item in content:
            summaries.setdefault(as_str(item["id"]), item)
        require(len(summaries) <= MAX_POSTINGS_PER_SOURCE, "too many smartrecruiters postings")
        if len(content) < PAGE_SIZE or (total is not None and len(summaries) >= total):
            break

    async def detail(summary: dict[str, Any]) -> ObservedPosting | None:
        response = await gateway.get(f"{root}/{as_str(summary['id'])}", policy, budget)
        if response.status_code in _GONE:
            return None
        check_status(response)
        return parse_detail(parse_json(response, "smartrecruiters detail"), summary, config)

    found = await settle([detail(s) for s in summaries.values()])
    return [p for p in found if p is not None and matches_filters(p, config)]
