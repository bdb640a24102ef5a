"""The outline every public JSON job board shares (ADR 0326): one GET, rows, one posting per row.

A vendor module names its board (the path under the source's ``base_url``, with ``{board}``
filled in; where the rows are in the answer) and how one row reads: its parsing facts, the fields
of the vendor's public API.  This skeleton does the rest the same way for every vendor: it fetches,
checks the answer's shape, bounds the count, makes each row an ``ObservedPosting`` (the row's URL is
its posting and canonical URL; an empty employer is the source's) and applies the source's filters.
A row reader raises ``MalformedSourceResponse`` (through ``require``) on a row of the wrong shape
and returns ``None`` for a row that is no posting (unlisted, a draft).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jobctrl.discovery.adapters.base import (
    MAX_POSTINGS_PER_SOURCE,
    ObservedPosting,
    SourceConfig,
    as_str,
    bounded_posting,
    fetch_json,
    matches_filters,
    require,
)
from jobctrl.discovery.events import AtsKind
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, RequestBudget


@dataclass(frozen=True, slots=True)
class BoardRow:
    """What one row of a board says about its posting, in the vendor's own reading."""

    native_id: Any
    url: str
    title: str
    location: str
    description: str
    apply_url: str | None
    employer: str = ""  # empty: the source's employer


#: Reads one row, given the whole answer too (a board may name its employer once, at the top).
RowReader = Callable[[Any, Any], BoardRow | None]


@dataclass(frozen=True, slots=True)
class JsonBoard:
    """One vendor's public JSON board."""

    vendor: str  # as the error messages name it
    ats_kind: AtsKind
    path: str  # under ``base_url``; ``{board}`` is the source's board
    rows: str | None  # the answer's key holding the rows; ``None``: the answer is the array
    noun: str  # what the rows are called ("jobs", "postings", "offers")
    read_row: RowReader

    def parse(self, payload: Any, config: SourceConfig) -> list[ObservedPosting]:
        if self.rows is None:
            require(isinstance(payload, list), f"{self.vendor} {self.noun} array")
            rows: list[Any] = payload
        else:
            shaped = isinstance(payload, dict) and isinstance(payload.get(self.rows), list)
            require(shaped, f"{self.vendor} {self.noun} list")
            rows = payload[self.rows]
        require(len(rows) <= MAX_POSTINGS_PER_SOURCE, f"too many {self.vendor} {self.noun}")
        postings = []
        for raw in rows:
            row = self.read_row(raw, payload)
            if row is not None:
                postings.append(self._posting(row, config))
        return [p for p in postings if matches_filters(p, config)]

    async def fetch(
        self, gateway: PolitenessGateway, config: SourceConfig, policy: CrawlPolicy, budget: RequestBudget
    ) -> list[ObservedPosting]:
        url = config.base_url.rstrip("/") + self.path.format(board=config.board)
        return self.parse(await fetch_json(gateway, url, policy, budget), config)

    def _posting(self, row: BoardRow, config: SourceConfig) -> ObservedPosting:
        return bounded_posting(
            source_id=config.source_id,
            ats_kind=self.ats_kind,
            native_id=as_str(row.native_id),
            posting_url=row.url,
            canonical_url=row.url,
            title=row.title,
            employer=row.employer or config.employer,
            location=row.location,
            description=row.description,
            apply_url=row.apply_url,
        )
