"""Smart extract: the postings of any careers page (ADR 0221).

From the source's careers URL (``base_url`` + ``board``, the page's path):

1. the page itself: every schema.org ``JobPosting`` in its JSON-LD is a posting;
2. its candidate posting pages, in order: the page's own links that look like postings (same host,
   a path under ``job``/``jobs``/``career(s)``/``position(s)``/``opening(s)``/``vacanc…``, not the page
   itself), then the site's ``/sitemap.xml`` entries on the same host that look the same way;
3. each candidate page read for its JSON-LD ``JobPosting``; a candidate with none, whose main text
   (trafilatura) is long enough to be a posting and which has a title, is a posting marked
   ``extraction=readable_text``: Discovery does not trust that text, so enrichment reads the page
   again with its own cascade and a low-confidence result blocks Tailor as it does for any page.

Robots are honoured (the smart-extract policy): a disallowed careers page fails the source with
``robots_disallowed``, a disallowed candidate is skipped.  At most ``MAX_PAGES`` pages (careers page,
sitemap and candidates together) are read a run; candidates beyond it are left for the next run.
The careers page failing (HTTP error, timeout, a huge body) fails the source with its typed error;
a candidate gone (404/410) is skipped, any other candidate failure fails the source (a whole answer
or a typed error, like every adapter).
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote, urljoin, urlsplit
from xml.etree import ElementTree

import trafilatura

from jobctrl.discovery.adapters.base import (
    ObservedPosting,
    SourceConfig,
    as_str,
    bounded_posting,
    check_status,
    matches_filters,
)
from jobctrl.discovery.adapters.jsonld import _job_postings, _location, _parse_page
from jobctrl.kernel.html import DESCRIPTION, html_text
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, RequestBudget, RobotsDisallowed

MAX_PAGES = 50
MIN_READABLE_CHARS = 120  # shorter main text is no posting at all (enrichment judges the rest)
_GONE = frozenset({404, 410})
_POSTING_PATH = re.compile(r"/(?:jobs?|careers?|positions?|openings?|vacanc\w*|stellen\w*)(?:/|$)", re.I)
_SKIP_SUFFIX = (".pdf", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".css", ".js", ".zip", ".xml")
_TITLE = re.compile(r"<(h1|title)[^>]*>(.*?)</\1>", re.I | re.S)


def careers_url(config: SourceConfig) -> str:
    return config.base_url.rstrip("/") + (
        config.board if config.board.startswith("/") else "/" + config.board
    )


def _text(content: bytes) -> str:
    return content.decode("utf-8", errors="replace")


def postings_on_page(
    html: str, page_url: str, config: SourceConfig, *, readable: bool
) -> list[ObservedPosting]:
    """The page's JSON-LD JobPostings; with ``readable``, a page without any becomes one posting
    from its main text (marked), when it has a title and enough text."""
    found: list[ObservedPosting] = []
    for script in _parse_page(html).scripts:
        try:
            data = json.loads(script)
        except ValueError:
            continue  # one broken block does not hide a valid one
        for n, posting in enumerate(_job_postings(data)):
            found.append(_from_json_ld(posting, page_url, config, n))
    if found or not readable:
        return found
    text = trafilatura.extract(html, include_comments=False, include_tables=False) or ""
    title = _title(html)
    if len(text.strip()) < MIN_READABLE_CHARS or not title:
        return []
    return [
        bounded_posting(
            source_id=config.source_id,
            ats_kind="other",
            native_id=None,
            posting_url=page_url,
            canonical_url=page_url,
            title=title,
            employer=config.employer,
            location="",
            description=text,
            apply_url=None,
            extra={"extraction": "readable_text"},
        )
    ]


def _from_json_ld(posting: dict[str, Any], page_url: str, config: SourceConfig, n: int) -> ObservedPosting:
    org = posting.get("hiringOrganization")
    identifier = posting.get("identifier")
    native = as_str(identifier.get("value")) if isinstance(identifier, dict) else as_str(identifier)
    canonical = as_str(posting.get("url"))
    if not canonical and n > 0:
        # Several postings on one page without URLs of their own: each is named by its identifier
        # (or its place on the page) in the query, since a fragment is not part of a URL's identity.
        sep = "&" if "?" in page_url else "?"
        canonical = f"{page_url}{sep}jobPosting={quote(native or str(n), safe='')}"
    return bounded_posting(
        source_id=config.source_id, ats_kind="other", native_id=native or None,
        posting_url=urljoin(page_url, canonical) if canonical else page_url,
        canonical_url=urljoin(page_url, canonical) if canonical else page_url,
        title=html_text(as_str(posting.get("title")), DESCRIPTION),
        employer=as_str(org.get("name")) if isinstance(org, dict) and org.get("name") else config.employer,
        location=_location(posting), description=html_text(as_str(posting.get("description")), DESCRIPTION),
        apply_url=as_str(posting.get("directApplyUrl")) or None, extra={"extraction": "json_ld"},
    )  # fmt: skip


def _title(html: str) -> str:
    for match in _TITLE.finditer(html):
        text = html_text(match.group(2), DESCRIPTION).strip()
        if text:
            return text
    return ""


def _looks_like_posting(url: str, host: str, start: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or parts.hostname != host:
        return False
    path = parts.path.rstrip("/")
    if not path or path == urlsplit(start).path.rstrip("/") or path.lower().endswith(_SKIP_SUFFIX):
        return False
    return bool(_POSTING_PATH.search(path)) and path.count("/") >= 2


def sitemap_urls(content: bytes) -> list[str]:
    """``<loc>`` entries of a sitemap; a DOCTYPE (entities) or a malformed sitemap yields none."""
    if b"<!DOCTYPE" in content[:2048].upper() or b"<!ENTITY" in content.upper():
        return []
    try:
        root = ElementTree.fromstring(content)
    except ElementTree.ParseError:
        return []
    return [el.text.strip() for el in root.iter() if el.tag.endswith("loc") and el.text]


class _Pages:
    """The run's page allowance: at most ``MAX_PAGES`` reads, whatever the budget still allows."""

    def __init__(self, gateway: PolitenessGateway, policy: CrawlPolicy, budget: RequestBudget) -> None:
        self.gateway, self.policy, self.budget, self.read = gateway, policy, budget, 0

    @property
    def left(self) -> bool:
        return self.read < MAX_PAGES and self.budget.remaining > 0

    async def get(self, url: str) -> Any:
        self.read += 1
        return await self.gateway.get(url, self.policy, self.budget, headers={"Accept": "text/html"})


async def fetch_smart_extract(
    gateway: PolitenessGateway, config: SourceConfig, policy: CrawlPolicy, budget: RequestBudget
) -> list[ObservedPosting]:
    start = careers_url(config)
    pages = _Pages(gateway, policy, budget)
    response = await pages.get(start)
    check_status(response)
    html = _text(response.content)
    postings = postings_on_page(html, start, config, readable=False)
    host = urlsplit(start).hostname or ""
    links = [urljoin(start, href) for href in _parse_page(html).links]
    candidates = list(dict.fromkeys(u.split("#")[0] for u in links if _looks_like_posting(u, host, start)))
    if pages.left:
        sitemap = await _sitemap(pages, start)
        candidates += [u for u in sitemap if _looks_like_posting(u, host, start) and u not in candidates]
    for url in candidates:
        if not pages.left:
            break  # the run's allowance is spent; the rest waits for the next run
        try:
            page = await pages.get(url)
        except RobotsDisallowed:
            continue
        if page.status_code in _GONE:
            continue
        check_status(page)
        postings += postings_on_page(_text(page.content), url, config, readable=True)
    unique = {p.canonical_url or p.posting_url: p for p in postings}
    return [p for p in unique.values() if matches_filters(p, config)]


async def _sitemap(pages: _Pages, start: str) -> list[str]:
    parts = urlsplit(start)
    try:
        response = await pages.get(f"{parts.scheme}://{parts.netloc}/sitemap.xml")
    except RobotsDisallowed:
        return []
    if response.status_code != 200:
        return []  # no sitemap is an ordinary site
    return sitemap_urls(response.content)
