"""What every adapter shares: its configuration, its output and its error mapping.

An adapter returns a complete list of ``ObservedPosting`` or raises a typed error; it never returns
half a board.  Malformed or wrongly shaped JSON, and a 404 board, are ``source_unavailable`` (retrying
will not fix them soon but the source may come back); 5xx, 429 and network trouble are
``transient_network``.  Text is bounded before it leaves the adapter.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx

from jobctrl.discovery.events import AtsKind
from jobctrl.kernel.errors import ConfigurationError, SourceUnavailableError, TransientNetworkError
from jobctrl.kernel.text import bound_text
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, RequestBudget

T = TypeVar("T")
MAX_POSTINGS_PER_SOURCE = 2000
MAX_TITLE = 300
MAX_DESCRIPTION = 16_000


class MalformedSourceResponse(SourceUnavailableError):
    """The source answered, but not in its documented shape."""


# Where the public job-board APIs live; tests and the demo point ``base_url`` at the sample board.
DEFAULT_BASE_URLS: dict[AtsKind, str] = {
    "greenhouse": "https://boards-api.greenhouse.io",
    "lever": "https://api.lever.co",
    "ashby": "https://api.ashbyhq.com",
}


@dataclass(frozen=True, slots=True)
class SourceConfig:
    """One registered source: which board, where its API lives, whose jobs, which filters apply.

    For career pages (``ats_kind="other"``) ``base_url`` is the employer's site and ``board`` the
    path segment under ``/careers/``.
    """

    source_id: str
    ats_kind: AtsKind
    board: str
    employer: str
    base_url: str
    title_filters: tuple[str, ...] = ()
    location_filters: tuple[str, ...] = ()
    #: Which adapter crawls it (``SourceFamily``); empty: derived from ``ats_kind`` (older configs).
    family: str = ""
    #: A broad-board search (``jobspy``: ``board`` is the comma list of sites; ADR 0285).
    keywords: tuple[str, ...] = ()
    locations: tuple[str, ...] = ()
    results_wanted: int | None = None
    hours_old: int | None = None

    @property
    def family_name(self) -> str:
        if self.family:
            return self.family
        return "careers" if self.ats_kind == "other" else self.ats_kind

    @classmethod
    def public_board(
        cls,
        ats_kind: AtsKind,
        board: str,
        employer: str,
        *,
        title_filters: tuple[str, ...] = (),
        location_filters: tuple[str, ...] = (),
    ) -> SourceConfig:
        """A Greenhouse, Lever or Ashby board at the vendor's public API."""
        if ats_kind not in DEFAULT_BASE_URLS:
            raise ConfigurationError(f"{ats_kind!r} has no public job-board API")
        return cls(
            f"{ats_kind}-{board}",
            ats_kind,
            board,
            employer,
            DEFAULT_BASE_URLS[ats_kind],
            title_filters,
            location_filters,
        )


@dataclass(frozen=True, slots=True)
class ObservedPosting:
    source_id: str
    ats_kind: AtsKind
    native_id: str | None
    posting_url: str
    canonical_url: str | None
    title: str
    employer: str
    location: str
    description: str
    apply_url: str | None = None
    extra: dict[str, str] = field(default_factory=dict)


def bounded_posting(**kwargs: Any) -> ObservedPosting:
    kwargs["title"] = bound_text(kwargs["title"], MAX_TITLE)
    kwargs["employer"] = bound_text(kwargs["employer"], 200)
    kwargs["location"] = bound_text(kwargs["location"] or "", 300)
    kwargs["description"] = bound_text(kwargs["description"] or "", MAX_DESCRIPTION, keep_newlines=True)
    return ObservedPosting(**kwargs)


def matches_filters(posting: ObservedPosting, config: SourceConfig) -> bool:
    """Case-insensitive substring filters; an empty filter list accepts everything."""
    title = posting.title.lower()
    location = posting.location.lower()
    title_ok = not config.title_filters or any(t.lower() in title for t in config.title_filters)
    location_ok = not config.location_filters or any(
        loc.lower() in location for loc in config.location_filters
    )
    return title_ok and location_ok


async def fetch_json(gateway: PolitenessGateway, url: str, policy: CrawlPolicy, budget: RequestBudget) -> Any:
    response = await gateway.get(url, policy, budget, headers={"Accept": "application/json"})
    check_status(response)
    return parse_json(response, url[:120])


def parse_json(response: httpx.Response, what: str) -> Any:
    try:
        return json.loads(response.content)
    except (ValueError, UnicodeDecodeError) as exc:
        raise MalformedSourceResponse(f"not JSON: {what}") from exc


async def settle(calls: Sequence[Awaitable[T]]) -> list[T]:
    """Run the calls concurrently (the gateway caps per-host concurrency) and let every one settle
    before the first failure is raised, so no request outlives the source's crawl."""
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            raise outcome
    return list(outcomes)  # type: ignore[arg-type]


def check_status(response: httpx.Response) -> None:
    status = response.status_code
    if status == 429 or status >= 500:
        raise TransientNetworkError(f"HTTP {status}")
    if status >= 400 or not 200 <= status < 300:
        raise SourceUnavailableError(f"HTTP {status}")


def require(condition: bool, what: str) -> None:
    if not condition:
        raise MalformedSourceResponse(f"unexpected response shape: {what}")


def as_str(value: Any) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)
