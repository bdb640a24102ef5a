"""schema.org ``JobPosting`` JSON-LD on employer career pages.

The listing page ``{base}/careers/{board}`` links to detail pages under ``/careers/{board}/jobs/``;
each detail page carries ``<script type="application/ld+json">`` with a ``JobPosting`` (possibly inside
an ``@graph`` or a list).  Detail pages robots.txt disallows are skipped, not fetched; detail pages
that are gone (404/410) are skipped; any other failure fails the whole source.  A page without a
JobPosting is skipped; a listing that is not HTML with such links yields an empty list.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

from jobctrl.discovery.adapters.base import (
    MAX_POSTINGS_PER_SOURCE,
    MalformedSourceResponse,
    ObservedPosting,
    SourceConfig,
    as_str,
    bounded_posting,
    check_status,
    matches_filters,
)
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, RequestBudget, RobotsDisallowed

_GONE = frozenset({404, 410})


class _PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.scripts: list[str] = []
        self._in_ld = False
        self._buffer: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "a" and values.get("href"):
            self.links.append(values["href"] or "")
        elif tag == "script" and (values.get("type") or "").lower() == "application/ld+json":
            self._in_ld, self._buffer = True, []

    def handle_data(self, data: str) -> None:
        if self._in_ld:
            self._buffer.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._in_ld:
            self._in_ld = False
            self.scripts.append("".join(self._buffer))


def _parse_page(text: str) -> _PageParser:
    parser = _PageParser()
    parser.feed(text)
    parser.close()
    return parser


def _job_postings(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, list):
        return [p for item in node for p in _job_postings(item)]
    if not isinstance(node, dict):
        return []
    kind = node.get("@type")
    if kind == "JobPosting" or (isinstance(kind, list) and "JobPosting" in kind):
        return [node]
    return _job_postings(node.get("@graph", []))


def _location(posting: dict[str, Any]) -> str:
    locations = posting.get("jobLocation")
    items = locations if isinstance(locations, list) else [locations]
    names = []
    for item in items:
        address = item.get("address") if isinstance(item, dict) else None
        if isinstance(address, dict):
            parts = [as_str(address.get(k)) for k in ("addressLocality", "addressRegion", "addressCountry")]
            names.append(", ".join(p for p in parts if p))
    if posting.get("jobLocationType") == "TELECOMMUTE":
        names.append("Remote")
    return "; ".join(n for n in names if n)


def parse_job_posting_page(text: str, page_url: str, config: SourceConfig) -> ObservedPosting | None:
    for script in _parse_page(text).scripts:
        try:
            data = json.loads(script)
        except ValueError:
            continue  # one broken block does not hide a valid one elsewhere on the page
        for posting in _job_postings(data):
            org = posting.get("hiringOrganization")
            identifier = posting.get("identifier")
            native = as_str(identifier.get("value")) if isinstance(identifier, dict) else as_str(identifier)
            canonical = as_str(posting.get("url")) or page_url
            return bounded_posting(
                source_id=config.source_id,
                ats_kind="other",
                native_id=native or None,
                posting_url=page_url,
                canonical_url=urljoin(page_url, canonical),
                title=as_str(posting.get("title")),
                employer=as_str(org.get("name")) if isinstance(org, dict) else config.employer,
                location=_location(posting),
                description=as_str(posting.get("description")),
                apply_url=as_str(posting.get("directApplyUrl")) or None,
            )
    return None


async def fetch_career_page(
    gateway: PolitenessGateway, config: SourceConfig, policy: CrawlPolicy, budget: RequestBudget
) -> list[ObservedPosting]:
    listing_url = f"{config.base_url.rstrip('/')}/careers/{config.board}"
    response = await gateway.get(listing_url, policy, budget)
    check_status(response)
    try:
        listing = _parse_page(response.content.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise MalformedSourceResponse("career page is not UTF-8") from exc
    prefix = urlsplit(listing_url).path + "/jobs/"
    detail_urls = list(dict.fromkeys(urljoin(listing_url, href) for href in listing.links))
    detail_urls = [u for u in detail_urls if urlsplit(u).path.startswith(prefix)][:MAX_POSTINGS_PER_SOURCE]
    postings = []
    for url in detail_urls:
        try:
            page = await gateway.get(url, policy, budget)
        except RobotsDisallowed:
            continue
        if page.status_code in _GONE:
            continue  # a listing can lag behind a closed posting; the others are still good
        check_status(page)
        found = parse_job_posting_page(page.content.decode("utf-8", errors="replace"), url, config)
        if found is not None:
            postings.append(found)
    return [p for p in postings if matches_filters(p, config)]
