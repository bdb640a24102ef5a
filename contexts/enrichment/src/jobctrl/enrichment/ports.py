"""The page-fetching port Enrichment uses for posting detail pages, and its typed failures.

At integration this port is served by the politeness gateway (``jobctrl.politeness``: robots, pacing,
budgets, User-Agent); ``HttpxPageFetcher`` is the stand-alone adapter until then.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from jobctrl.kernel.errors import JobCtrlError


@dataclass(frozen=True)
class FetchedPage:
    url: str
    final_url: str
    status: int
    content_type: str
    body: str


class PageFetcher(Protocol):
    async def fetch(self, url: str) -> FetchedPage:
        """Return the page or raise a typed error (``RobotsDisallowedError``, ``PostingGoneError``,
        ``UnreadablePageError``, ``TransientNetworkError``, ``SourceUnavailableError``)."""
        ...


class RobotsDisallowedError(JobCtrlError):
    """robots.txt (or a fail-closed robots verdict) forbids fetching this URL."""

    code = "robots_disallowed"
    retryable = False


class PostingGoneError(JobCtrlError):
    """The posting page answered 404/410: the job was taken down."""

    code = "posting_gone"
    retryable = False


class UnreadablePageError(JobCtrlError):
    """The response is not an HTML/text page we can read (wrong type, too large, undecodable)."""

    code = "unreadable_page"
    retryable = False
