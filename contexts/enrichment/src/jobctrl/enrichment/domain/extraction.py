"""The extraction cascade: schema.org JobPosting JSON-LD first, then readable-text extraction.

Each tier carries a confidence level; only text the cascade trusts may feed tailoring.  A tier is
chosen by what the page offers, never by guessing: JSON-LD with a substantial description is
``json_ld`` (high); otherwise trafilatura's main-content text, ``readable_text`` (medium) when it is
long enough to be a real posting, ``readable_text_sparse`` (low) when it is not.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

import trafilatura

from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.html import EXTRACTED, html_text
from jobctrl.kernel.text import bound_text


class ExtractionTier(StrEnum):
    SOURCE_PAYLOAD = "source_payload"  # the ATS API already returned the full description
    JSON_LD = "json_ld"
    READABLE_TEXT = "readable_text"
    READABLE_TEXT_SPARSE = "readable_text_sparse"


class Confidence(StrEnum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


TIER_CONFIDENCE: dict[ExtractionTier, Confidence] = {
    ExtractionTier.SOURCE_PAYLOAD: Confidence.HIGH,
    ExtractionTier.JSON_LD: Confidence.HIGH,
    ExtractionTier.READABLE_TEXT: Confidence.MEDIUM,
    ExtractionTier.READABLE_TEXT_SPARSE: Confidence.LOW,
}

MIN_JSON_LD_CHARS = 200
MIN_READABLE_CHARS = 400
MAX_DESCRIPTION_CHARS = 60_000


def confidence_of(tier: ExtractionTier) -> Confidence:
    return TIER_CONFIDENCE[tier]


class NoPostingContentError(JobCtrlError):
    """The page holds no posting text at all."""

    code = "no_posting_content"
    retryable = False


@dataclass(frozen=True)
class Extraction:
    tier: ExtractionTier
    description: str
    application_url: str | None
    valid_through: datetime | None = None

    @property
    def confidence(self) -> Confidence:
        return confidence_of(self.tier)


class _PageScan(HTMLParser):
    """Collects JSON-LD script bodies and the href of links that read as an apply action."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.json_ld: list[str] = []
        self.apply_links: list[str] = []
        self._in_json_ld = False
        self._href: str | None = None
        self._link_text: list[str] = []
        self._buffer: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "script" and (values.get("type") or "").strip().lower() == "application/ld+json":
            self._in_json_ld, self._buffer = True, []
        elif tag == "a" and values.get("href"):
            self._href, self._link_text = values.get("href"), []
            marker = " ".join(filter(None, (values.get("class"), values.get("id"), values.get("aria-label"))))
            if re.search(r"\bapply\b", marker, re.I):
                self.apply_links.append(values["href"] or "")
                self._href = None

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._in_json_ld:
            self.json_ld.append("".join(self._buffer))
            self._in_json_ld = False
        elif tag == "a" and self._href is not None:
            if re.search(r"\bapply\b", " ".join(self._link_text), re.I):
                self.apply_links.append(self._href)
            self._href = None

    def handle_data(self, data: str) -> None:
        if self._in_json_ld:
            self._buffer.append(data)
        elif self._href is not None:
            self._link_text.append(data)


def _job_postings(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, list):
        return [p for item in node for p in _job_postings(item)]
    if not isinstance(node, dict):
        return []
    kind = node.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    found = [node] if "JobPosting" in kinds else []
    return found + _job_postings(node.get("@graph", []))


def _parse_instant(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _http_url(base: str, href: str | None) -> str | None:
    if not href:
        return None
    absolute = urljoin(base, href.strip())
    return absolute if urlsplit(absolute).scheme in ("http", "https") else None


def _clean(text: str) -> str:
    return bound_text(text, MAX_DESCRIPTION_CHARS, keep_newlines=True).strip()


def extract_posting(html: str, page_url: str) -> Extraction:
    """Run the cascade over one page; raise ``NoPostingContentError`` if no tier finds text."""
    scan = _PageScan()
    scan.feed(html)
    apply_url = next((u for u in (_http_url(page_url, h) for h in scan.apply_links) if u), None)

    best_json_ld: tuple[str, datetime | None] | None = None
    for body in scan.json_ld:
        try:
            data = json.loads(body)
        except ValueError:
            continue  # a broken JSON-LD block is skipped, the cascade carries on
        for posting in _job_postings(data):
            description = posting.get("description")
            if isinstance(description, str):
                text = _clean(html_text(description, EXTRACTED))
                if best_json_ld is None or len(text) > len(best_json_ld[0]):
                    best_json_ld = (text, _parse_instant(posting.get("validThrough")))
            if apply_url is None and posting.get("directApply") is True:
                apply_url = _http_url(
                    page_url, posting.get("url") if isinstance(posting.get("url"), str) else page_url
                )
    if best_json_ld and len(best_json_ld[0]) >= MIN_JSON_LD_CHARS:
        return Extraction(ExtractionTier.JSON_LD, best_json_ld[0], apply_url, best_json_ld[1])

    readable = _clean(trafilatura.extract(html, include_comments=False, include_tables=False) or "")
    candidates = [t for t in (readable, best_json_ld[0] if best_json_ld else "") if t]
    if not candidates:
        raise NoPostingContentError("no JobPosting JSON-LD and no readable text on the page")
    text = max(candidates, key=len)
    valid_through = best_json_ld[1] if best_json_ld else None
    tier = (
        ExtractionTier.READABLE_TEXT
        if len(text) >= MIN_READABLE_CHARS
        else ExtractionTier.READABLE_TEXT_SPARSE
    )
    return Extraction(tier, text, apply_url, valid_through)


def from_source_payload(description: str) -> Extraction | None:
    """A description the source API already delivered (ATS promotion) is trusted when substantial."""
    text = _clean(html_text(description, EXTRACTED) if "<" in description else description)
    if len(text) < MIN_JSON_LD_CHARS:
        return None
    return Extraction(ExtractionTier.SOURCE_PAYLOAD, text, None)
