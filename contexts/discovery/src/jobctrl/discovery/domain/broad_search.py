"""A broad-board search (ADR 0285): keywords x locations x sites, split into resumable search units.

* ``BroadSearch`` — what the user asked for: keywords (at least one), locations (none: anywhere),
  results wanted per unit, and how many hours old a posting may be.  Bad values raise
  ``InvalidBroadSearch`` before anything is written.
* ``SearchUnit`` — one site x keyword x location: the library is invoked once per unit.
* ``BroadBoardSearch`` — stream ``broadsearch-<id of (run, source)>``: one ``BroadBoardUnitCompleted``
  per unit done in that run, written after the unit's postings were recorded; a retried or resumed run
  skips the units done and keeps their jobs.
"""

from __future__ import annotations

from dataclasses import dataclass

from jobctrl.discovery.events import BroadBoardUnitCompleted
from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.ids import deterministic_id

MAX_TERMS = 20
MAX_TERM = 100
MAX_RESULTS_WANTED = 200
DEFAULT_RESULTS_WANTED = 20
MAX_HOURS_OLD = 24 * 365
MAX_UNITS = 200
MAX_JOB_IDS = 1000  # per unit: results_wanted is at most 200, so never reached by a sane unit


class InvalidBroadSearch(JobCtrlError):
    code = "invalid_source"
    retryable = False


def _terms(values: tuple[str, ...], what: str) -> tuple[str, ...]:
    cleaned = tuple(dict.fromkeys(v.strip() for v in values if v.strip()))
    if len(cleaned) > MAX_TERMS or any(len(v) > MAX_TERM for v in cleaned):
        raise InvalidBroadSearch(f"at most {MAX_TERMS} {what}, each at most {MAX_TERM} characters")
    return cleaned


@dataclass(frozen=True, slots=True)
class BroadBoardSearchSpec:
    keywords: tuple[str, ...]
    locations: tuple[str, ...] = ()
    results_wanted: int = DEFAULT_RESULTS_WANTED
    hours_old: int | None = None

    @classmethod
    def parse(
        cls,
        keywords: tuple[str, ...] | list[str],
        locations: tuple[str, ...] | list[str] = (),
        results_wanted: int | None = None,
        hours_old: int | None = None,
    ) -> BroadBoardSearchSpec:
        kw = _terms(tuple(keywords), "keywords")
        if not kw:
            raise InvalidBroadSearch("a broad-board source needs at least one --keyword")
        wanted = DEFAULT_RESULTS_WANTED if results_wanted is None else results_wanted
        if not 1 <= wanted <= MAX_RESULTS_WANTED:
            raise InvalidBroadSearch(f"--results must be 1 to {MAX_RESULTS_WANTED}, got {wanted}")
        if hours_old is not None and not 1 <= hours_old <= MAX_HOURS_OLD:
            raise InvalidBroadSearch(f"--hours-old must be 1 to {MAX_HOURS_OLD}, got {hours_old}")
        return cls(kw, _terms(tuple(locations), "locations"), wanted, hours_old)


@dataclass(frozen=True, slots=True)
class SearchUnit:
    site: str
    keyword: str
    location: str  # "" = anywhere

    @property
    def unit_id(self) -> str:
        return deterministic_id("broad-board-unit", self.site, self.keyword, self.location)


def search_units(sites: tuple[str, ...], search: BroadBoardSearchSpec) -> list[SearchUnit]:
    """Every site x keyword x location, in a stable order (site first, so one site's units are paced
    together); at most ``MAX_UNITS``."""
    locations = search.locations or ("",)
    units = [SearchUnit(s, k, loc) for s in sites for k in search.keywords for loc in locations]
    if len(units) > MAX_UNITS:
        raise InvalidBroadSearch(
            f"{len(units)} search units (sites x keywords x locations); at most {MAX_UNITS}"
        )
    return units


def search_id_for(run_id: str, source_id: str) -> str:
    return deterministic_id("broad-board-search", run_id, source_id)


class BroadBoardSearch(Aggregate):
    stream_prefix = "broadsearch"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.done: dict[str, list[str]] = {}  # unit id → the jobs its postings were recorded on
        self.seen: dict[str, int] = {}  # unit id → postings the unit returned and the search kept

    def complete(
        self,
        *,
        source_id: str,
        run_id: str,
        unit: SearchUnit,
        postings_seen: int,
        job_ids: list[str],
        at: str,
    ) -> bool:
        if unit.unit_id in self.done:
            return False
        self._record(
            BroadBoardUnitCompleted(
                source_id=source_id, run_id=run_id, unit_id=unit.unit_id, site=unit.site,
                keyword=unit.keyword, location=unit.location, postings_seen=postings_seen,
                job_ids=list(dict.fromkeys(job_ids))[:MAX_JOB_IDS], completed_at=at,
            )
        )  # fmt: skip
        return True

    @applies(BroadBoardUnitCompleted)
    def _completed(self, event: BroadBoardUnitCompleted) -> None:
        self.done[event.unit_id] = list(event.job_ids)
        self.seen[event.unit_id] = event.postings_seen
