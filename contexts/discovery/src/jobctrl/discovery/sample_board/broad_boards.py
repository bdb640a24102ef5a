"""A stand-in for JobSpy's ``scrape_jobs`` at the vendor edge (tests only; ADR 0285).

JobSpy owns its HTTP (fixed vendor hosts, a browser TLS fingerprint), so no local server can stand in
for Indeed or LinkedIn without intercepting TLS.  This stand-in answers the call the broad-board
gateway makes exactly as the library does: it validates the arguments with the library's own
``ScraperInput`` (a bad argument raises the library's ``ValueError``), builds each row with the
library's ``JobPost`` model and ``model_dump()``, assembles the DataFrame with the library's columns,
and keeps a failing site's message in ``frame.attrs["errors"]``, as ``scrape_jobs`` does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from jobspy.model import JobPost, Location, ScraperInput
from pydantic import ValidationError

from jobctrl.discovery.sample_board.postings import SamplePosting


class WorkerKilled(BaseException):
    """What a worker dying mid-search looks like to the activity (not an ``Exception``: nothing in
    the crawl may swallow it)."""


@dataclass
class BoardPosting:
    site: str
    keyword: str
    location: str  # the search location it answers ("" = any)
    posting: SamplePosting
    url: str


@dataclass
class StandInBoards:
    postings: list[BoardPosting] = field(default_factory=list)
    #: site → what ``frame.attrs["errors"]`` says for it (the library's own message)
    failing: dict[str, str] = field(default_factory=dict)
    malformed: set[str] = field(default_factory=set)  # sites whose rows lack a job URL
    wrong_columns: set[str] = field(default_factory=set)  # sites answered with an unrelated frame
    crashing: set[str] = field(default_factory=set)  # sites whose scraper raises out of the library
    kill_at_call: int | None = None  # the n-th call (1-based) dies like a killed worker
    calls: list[dict[str, Any]] = field(default_factory=list)

    def __call__(self, **kwargs: Any) -> pd.DataFrame:
        self.calls.append(kwargs)
        if self.kill_at_call is not None and len(self.calls) == self.kill_at_call:
            raise WorkerKilled(f"worker killed during search {len(self.calls)}")
        try:
            asked = ScraperInput.model_validate({k: v for k, v in kwargs.items() if v is not None})
        except ValidationError as exc:
            raise ValueError(str(exc).splitlines()[0]) from None
        sites = [s.value for s in asked.site_name]
        if any(s in self.crashing for s in sites):
            raise KeyError("jobKey")  # what an unguarded parse inside the library raises
        errors = {s: self.failing[s] for s in sites if s in self.failing}
        if any(s in self.wrong_columns for s in sites):
            frame = pd.DataFrame([{"name": "x", "link": "https://example.org/1"}])
            frame.attrs = {"errors": {}, "warnings": {}}
            return frame
        rows = [
            self._row(p, asked.site_name[0].value).model_dump()
            for p in self.postings
            if p.site in sites
            and p.site not in errors
            and p.keyword == (asked.search_term or "")
            and p.location == (asked.location or "")
        ][: asked.results_wanted]
        if any(s in self.malformed for s in sites):
            for row in rows:
                row["job_url"] = None
        frame = pd.DataFrame(rows, columns=list(JobPost.model_fields))
        frame.attrs = {"errors": errors, "warnings": {}}
        return frame

    @staticmethod
    def _row(p: BoardPosting, site: str) -> JobPost:
        city, _, rest = p.posting.location.partition(", ")
        return JobPost(
            id=f"{site[:2]}-{p.posting.native_id.lower()}",
            site=site,
            job_url=p.url,
            title=p.posting.title,
            company=p.posting.employer,
            location=Location(city=city, state=rest or None),
            description=p.posting.description,
        )
