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


class TruthfulnessGate(Protocol):
    """The candidate's profile as evidence for an outreach message (ADR 0275).

    The composition root builds it over the saved profile with the fabrication gate materials uses,
    so a message is held to the same rule as a resume: every claim traces to the profile.
    """

    @property
    def profile_version(self) -> int: ...

    @property
    def candidate_name(self) -> str: ...

    def prompt_facts(self) -> str:
        """The profile's facts as the model is shown them."""
        ...

    def unsupported(self, text: str, *, exempt: list[str]) -> list[str]:
        """Each claim in ``text`` the profile does not support, as ``kind:token`` (``exempt`` skipped)."""
        ...
