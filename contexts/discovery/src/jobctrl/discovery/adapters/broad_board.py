"""The anti-corruption gateway to broad job boards through JobSpy (``python-jobspy``, ADR 0285).

JobSpy scrapes Indeed, LinkedIn, ZipRecruiter, Glassdoor and others with its own HTTP client, so the
politeness gateway's robots check cannot gate it.  What the project controls is where it invokes the
library, and that is where the broad-board policy applies: one budget unit per search unit (one site
x keyword x location), at least ``min_interval_s`` between two searches of one site, one search at a
time, the honest user agent passed down.

The library answers with a pandas DataFrame (one row per ``jobspy.model.JobPost``) and keeps a site's
failure in ``frame.attrs["errors"]`` instead of raising.  This module is the only one that knows that
shape: a site's error becomes a typed error (429/403, 5xx and timeouts are ``transient_network``,
anything else ``source_unavailable``), a frame without the columns the mapping needs, or a row
without a usable URL or title, is ``source_unavailable`` for the whole unit (nothing of it is
recorded), and every good row becomes an ``ObservedPosting`` with the site as its source and
JobSpy's id (else its job URL) as the native id.
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from jobctrl.discovery.adapters.base import (
    MalformedSourceResponse,
    ObservedPosting,
    SourceConfig,
    bounded_posting,
)
from jobctrl.discovery.domain.broad_search import BroadBoardSearchSpec, SearchUnit
from jobctrl.discovery.ports import BoardScraper
from jobctrl.kernel.errors import JobCtrlError, SourceUnavailableError, TransientNetworkError
from jobctrl.politeness import CrawlPolicy, RequestBudget

REQUIRED_COLUMNS = ("job_url", "title")
_TRANSIENT = re.compile(r"status code (?:403|429|5\d\d)|timed? ?out|timeout|connection", re.IGNORECASE)


class BroadBoardRefused(JobCtrlError):
    """The library refused the search's arguments (an unknown site, a bad value): not retryable."""

    code = "source_unavailable"
    retryable = False


def jobspy_scraper() -> BoardScraper:
    """The real library (imported on first use: pandas is slow to import and most runs never need it)."""
    from jobspy import scrape_jobs  # noqa: PLC0415

    return scrape_jobs


class BroadBoardGateway:
    """Invoke the board scraper for one search unit at a time, paced per site, within the run's budget."""

    def __init__(
        self,
        scrape: BoardScraper | None = None,
        *,
        user_agent: str | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._scrape = scrape
        self.user_agent = user_agent
        self._monotonic = monotonic
        self._sleep = sleep
        self._next_start: dict[str, float] = {}
        self._lock = asyncio.Lock()

    async def search(
        self,
        source: SourceConfig,
        unit: SearchUnit,
        search: BroadBoardSearchSpec,
        policy: CrawlPolicy,
        budget: RequestBudget,
    ) -> list[ObservedPosting]:
        budget.spend()
        async with self._lock:  # one library invocation at a time (it runs its own threads)
            await self._pace(unit.site, policy)
            frame = await asyncio.to_thread(self._invoke, unit, search)
        return map_frame(frame, source, unit)

    def _invoke(self, unit: SearchUnit, search: BroadBoardSearchSpec) -> Any:
        scrape = self._scrape or jobspy_scraper()
        try:
            return scrape(
                site_name=[unit.site],
                search_term=unit.keyword,
                location=unit.location or None,
                results_wanted=search.results_wanted,
                hours_old=search.hours_old,
                description_format="markdown",
                user_agent=self.user_agent,
                verbose=0,
            )
        except ValueError as exc:  # the library's own argument validation
            raise BroadBoardRefused(f"{unit.site}: {str(exc)[:300]}") from None
        except Exception as exc:  # a bug or an unforeseen failure inside the library
            raise SourceUnavailableError(
                f"{unit.site}: the board scraper failed ({type(exc).__name__})"
            ) from None

    async def _pace(self, site: str, policy: CrawlPolicy) -> None:
        now = self._monotonic()
        wait = self._next_start.get(site, 0.0) - now
        self._next_start[site] = max(now, self._next_start.get(site, 0.0)) + policy.min_interval_s
        if wait > 0:
            await self._sleep(wait)


def _text(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return value if isinstance(value, str) else str(value)


def map_frame(frame: Any, source: SourceConfig, unit: SearchUnit) -> list[ObservedPosting]:
    """The library's DataFrame → postings, all or nothing (see the module docstring)."""
    errors = (getattr(frame, "attrs", None) or {}).get("errors") or {}
    if unit.site in errors:
        message = f"{unit.site}: {_text(errors[unit.site])[:300]}"
        raise (
            TransientNetworkError(message) if _TRANSIENT.search(message) else SourceUnavailableError(message)
        )
    columns = set(getattr(frame, "columns", ()))
    missing = [c for c in REQUIRED_COLUMNS if c not in columns]
    if missing:
        raise MalformedSourceResponse(f"{unit.site}: the board scraper's rows lack {', '.join(missing)}")
    postings: list[ObservedPosting] = []
    for n, row in enumerate(frame.to_dict("records")):
        url, title = _text(row.get("job_url")).strip(), _text(row.get("title")).strip()
        if not re.match(r"^https?://[^\s/]+", url) or not title:
            raise MalformedSourceResponse(f"{unit.site}: row {n} has no usable job_url or title")
        site = _text(row.get("site")).strip() or unit.site
        postings.append(
            bounded_posting(
                source_id=site,
                ats_kind="other",
                native_id=_text(row.get("id")).strip() or url,
                posting_url=url,
                canonical_url=url,
                title=title,
                employer=_text(row.get("company")).strip(),
                location=_text(row.get("location")),
                description=_text(row.get("description")),
                apply_url=_text(row.get("job_url_direct")).strip() or None,
                extra={"site": site, "registeredSource": source.source_id},
            )
        )
    return postings
