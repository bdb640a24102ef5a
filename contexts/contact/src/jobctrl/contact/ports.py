"""What contact research needs from the outside world."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class FetchedPage:
    url: str
    status: int
    text: str  # visible text, already bounded by the fetcher


class RobotsDisallowedError(Exception):
    """robots.txt forbids the fetch (the politeness gateway's verdict)."""


class RateLimitedError(Exception):
    """The host answered 429 or the gateway's pacing refused the request."""


class PageFetcher(Protocol):
    async def fetch(self, url: str) -> FetchedPage:
        """Fetch one allowed public page through the politeness gateway (robots honoured, ≤ 5 redirects)."""
        ...
