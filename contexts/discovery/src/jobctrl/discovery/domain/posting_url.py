"""Which family a pasted posting URL belongs to, and which posting of that family's board it names.

Each ATS family recognises its own public posting URLs by host (the same host patterns a source URL
is parsed with, ``source_spec``); the board is parsed by ``parse_source`` so a posting URL names the
same source id, board and API host as ``jobctrl sources add`` would.  Anything else is a page for the
smart extractor (JSON-LD ``JobPosting`` on the page itself).  Only http(s) URLs are accepted:
``UnsupportedPostingUrl`` (not retryable) before any request is made.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from jobctrl.discovery.domain.source_spec import (
    BOARD_URL_PATTERNS,
    SUBDOMAIN_HOSTS,
    WORKDAY_HOST,
    InvalidSourceSpec,
    SourceSpec,
    parse_source,
)
from jobctrl.discovery.domain.urls import normalize_url
from jobctrl.kernel.errors import JobCtrlError

MAX_URL = 2000
_LEADING_ID = re.compile(r"^([0-9]+)(?:-|$)")


class UnsupportedPostingUrl(JobCtrlError):
    """The URL cannot be imported (not http(s), too long, or a family URL that names no posting)."""

    code = "unsupported_url"
    retryable = False


@dataclass(frozen=True, slots=True)
class PostingLocator:
    """A pasted URL resolved: its family's source (``smartextract`` for any other page) and the path
    segment that names the posting (``key``)."""

    url: str
    spec: SourceSpec
    key: str
    path: str  # the URL's path, e.g. Workday's ``/job/...`` below the site

    @property
    def family(self) -> str:
        return self.spec.family

    def names(self, *, native_id: str | None, posting_url: str) -> bool:
        """Whether a posting of the board is the one the URL names: its native id is the URL's last
        segment (or that segment's leading number, as in ``744000-senior-engineer``), or its public
        URL ends in the same segment, or is the same URL."""
        key = self.key.lower()
        native = (native_id or "").lower()
        leading = _LEADING_ID.match(key)
        if native and (native == key or (leading is not None and leading.group(1) == native)):
            return True
        tail = [s for s in urlsplit(posting_url).path.split("/") if s]
        if tail and tail[-1].lower() == key:
            return True
        return normalize_url(posting_url) == normalize_url(self.url)


def _family_of(host: str) -> str:
    if WORKDAY_HOST.fullmatch(host):
        return "workday"
    for family, pattern in BOARD_URL_PATTERNS.items():
        if pattern.fullmatch(host):
            return family
    for family, pattern in SUBDOMAIN_HOSTS.items():
        if pattern.fullmatch(host):
            return family
    return "smartextract"


def locate_posting(url: str, *, api_base: str | None = None) -> PostingLocator:
    """Resolve a pasted posting URL; ``api_base`` points the recognised family's API elsewhere (a
    local server standing in for the vendor), exactly as for ``sources add``."""
    url = (url or "").strip()
    parts = urlsplit(url)
    if len(url) > MAX_URL or parts.scheme not in ("http", "https") or not parts.hostname:
        raise UnsupportedPostingUrl(f"not an http(s) posting URL: {url[:120]!r}")
    if parts.username or parts.password:
        raise UnsupportedPostingUrl("a posting URL carries no credentials")
    family = _family_of(parts.hostname.lower())
    segments = [s for s in parts.path.split("/") if s]
    try:
        spec = parse_source(family, url, api_base=api_base if family != "smartextract" else None)
    except InvalidSourceSpec as exc:
        raise UnsupportedPostingUrl(exc.message) from None
    if family == "smartextract":
        return PostingLocator(url, spec, segments[-1] if segments else "", parts.path)
    if family == "workday":
        # https://{tenant}.wdN.myworkdayjobs.com/[{locale}/]{site}/job/{location}/{title}_{reqid}
        site = spec.board.split("/", 1)[1]
        path = parts.path.split(f"/{site}", 1)[1] if f"/{site}/" in parts.path else ""
        if not path.startswith("/job/") or ".." in path:
            raise UnsupportedPostingUrl("a Workday posting URL is {site}/job/{location}/{title}_{id}")
        return PostingLocator(url, spec, segments[-1], path)
    if len(segments) < 2 and family not in SUBDOMAIN_HOSTS:
        raise UnsupportedPostingUrl(f"{url[:120]!r} names a {family} board, not one of its postings")
    if family in SUBDOMAIN_HOSTS and not segments:
        raise UnsupportedPostingUrl(f"{url[:120]!r} names a {family} board, not one of its postings")
    return PostingLocator(url, spec, segments[-1], parts.path)
