"""Crawl one source family (a set of sources) and record what it found.

Each source is fetched through its adapter and the gateway; a source that fails is isolated (its
typed error is listed) and records nothing, because adapters return whole boards or raise.  The
family is ``failed`` only when every one of its sources failed.  Run start/finish and progress are
separate use cases, so parallel families can share one run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypedDict, Unpack

from jobctrl.discovery.adapters.base import ObservedPosting, SourceConfig
from jobctrl.discovery.adapters.registry import adapter_for
from jobctrl.discovery.domain.dedupe import JobCatalog, Verdict
from jobctrl.discovery.domain.search import SearchFilters
from jobctrl.discovery.domain.source import SourceEntry
from jobctrl.discovery.domain.source_health import SourceRunOutcome
from jobctrl.discovery.events import DiscoveryRunCounts
from jobctrl.discovery.use_cases.load_catalog import load_catalog
from jobctrl.discovery.use_cases.record_observation import record_observation
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.ids import LOCAL_TENANT, new_job_id
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.store.errors import ConcurrencyConflict
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, RequestBudget

EVERYTHING = SearchFilters()  # the default search accepts every posting


@dataclass(frozen=True, slots=True)
class SourceFailure:
    source_id: str
    code: str
    retryable: bool


@dataclass
class FamilyResult:
    counts: DiscoveryRunCounts
    failures: list[SourceFailure] = field(default_factory=list)
    job_ids: list[str] = field(default_factory=list)
    failed: bool = False
    # Per source, for the source-health recommendations (duplicates = merged or held postings).
    source_outcomes: dict[str, SourceRunOutcome] = field(default_factory=dict)

    @property
    def error_classes(self) -> list[str]:
        return sorted({f.code for f in self.failures})


@dataclass
class Tally:
    total: int = 0
    new: int = 0
    existing: int = 0
    observed: int = 0
    duplicate: int = 0
    rejected: int = 0

    def add(self, verdict: Verdict) -> None:
        self.total += 1
        if verdict is Verdict.NEW:
            self.new += 1
        elif verdict is Verdict.SAME_JOB:
            self.existing += 1
        elif verdict is Verdict.CONTENT_DUPLICATE:
            self.duplicate += 1
        else:
            self.rejected += 1
        if verdict is not Verdict.HELD:
            self.observed += 1

    def counts(self) -> DiscoveryRunCounts:
        return DiscoveryRunCounts(
            self.total, self.new, self.existing, self.observed, self.duplicate, self.rejected
        )


class FamilyRunOptions(TypedDict, total=False):
    """What every family run (``run_source_family``, ``run_broad_boards``) may be given besides its
    sources, run id and clock.  ``catalog`` shares one dedupe view between families running
    concurrently in this process (recording is synchronous, so no two families interleave between a
    dedupe decision and its write); without it the run loads its own."""

    policy_override: Callable[[CrawlPolicy], CrawlPolicy] | None
    new_id: Callable[[], str]
    workflow_id: str | None
    catalog: JobCatalog | None
    tenant_id: str
    search: SearchFilters


@dataclass
class _FamilyRecording:
    """How a family run records what it found, the same for every family: the postings the user's
    search accepts, each through ``record_observation``, tallied; then each source's health.  Not a
    command: the recording part of ``run_source_family`` and ``run_broad_boards`` (which imports it)."""

    store: EventStore
    run_id: str
    clock: Clock
    options: FamilyRunOptions
    tally: Tally = field(default_factory=Tally)
    _catalog: JobCatalog | None = None

    @property
    def tenant_id(self) -> str:
        return self.options.get("tenant_id", LOCAL_TENANT)

    def policy(self, policy: CrawlPolicy) -> CrawlPolicy:
        override = self.options.get("policy_override")
        return override(policy) if override is not None else policy

    def catalog(self) -> JobCatalog:
        """The run's dedupe view: the one given, else loaded (once, when first asked for)."""
        if self._catalog is None:
            given = self.options.get("catalog")
            self._catalog = given if given is not None else load_catalog(self.store)
        return self._catalog

    def accepted(self, found: Sequence[ObservedPosting]) -> list[ObservedPosting]:
        search = self.options.get("search", EVERYTHING)
        return [
            p for p in found if search.accepts(title=p.title, location=p.location, description=p.description)
        ]

    def record(self, postings: Sequence[ObservedPosting]) -> tuple[list[str], int]:
        """Record ``postings``: (the jobs they observed, in order, held ones left out; how many were
        duplicates, merged or held)."""
        catalog, options = self.catalog(), self.options
        job_ids: list[str] = []
        duplicates = 0
        for posting in postings:
            outcome = record_observation(
                self.store, catalog, posting, run_id=self.run_id, clock=self.clock,
                new_id=options.get("new_id", new_job_id), workflow_id=options.get("workflow_id"),
                tenant_id=self.tenant_id,
            )  # fmt: skip
            self.tally.add(outcome.verdict)
            duplicates += outcome.verdict in (Verdict.CONTENT_DUPLICATE, Verdict.HELD)
            if outcome.verdict is not Verdict.HELD and outcome.job_id not in job_ids:
                job_ids.append(outcome.job_id)
        return job_ids, duplicates

    def finish(
        self,
        sources: Sequence[SourceConfig],
        failures: list[SourceFailure],
        job_ids: list[str],
        outcomes: dict[str, SourceRunOutcome],
    ) -> FamilyResult:
        """Record each source's health and say what the family run did; it failed only when every
        one of its sources failed."""
        record_health(
            self.store, outcomes, failures, run_id=self.run_id, clock=self.clock, tenant_id=self.tenant_id
        )
        failed = bool(sources) and len(failures) == len(sources)
        return FamilyResult(self.tally.counts(), failures, job_ids, failed, outcomes)


async def run_source_family(
    store: EventStore,
    gateway: PolitenessGateway,
    sources: Sequence[SourceConfig],
    *,
    run_id: str,
    clock: Clock,
    **options: Unpack[FamilyRunOptions],
) -> FamilyResult:
    """Fetch every source, then record the postings the user's ``search`` accepts (re-applied to every
    family after fetching)."""
    recording = _FamilyRecording(store, run_id, clock, options)
    budgets: dict[str, RequestBudget] = {}  # one budget per policy for this run
    fetched: list[tuple[str, list[ObservedPosting]]] = []
    failures: list[SourceFailure] = []
    for source in sources:
        fetch, policy = adapter_for(source.family_name)
        policy = recording.policy(policy)
        budget = budgets.setdefault(policy.name, RequestBudget.for_policy(policy))
        try:
            postings = await fetch(gateway, source, policy, budget)
            fetched.append((source.source_id, recording.accepted(postings)))
        except JobCtrlError as exc:
            failures.append(SourceFailure(source.source_id, exc.code, exc.retryable))

    recording.catalog()
    job_ids: list[str] = []
    outcomes = {f.source_id: SourceRunOutcome(succeeded=False) for f in failures}
    for source_id, postings in fetched:
        observed, duplicates = recording.record(postings)
        job_ids.extend(j for j in observed if j not in job_ids)
        outcomes[source_id] = SourceRunOutcome(True, len(postings), duplicates)
    return recording.finish(sources, failures, job_ids, outcomes)


def record_health(
    store: EventStore,
    outcomes: dict[str, SourceRunOutcome],
    failures: Sequence[SourceFailure],
    *,
    run_id: str,
    clock: Clock,
    tenant_id: str,
) -> None:
    """Each registered source's outcome of this run on its own stream (ADR 0152); a source whose
    history says so is quarantined or disabled in the same save.  Unregistered sources have no
    registry stream to write to and are skipped."""
    codes = {f.source_id: f.code for f in failures}
    repo = AggregateRepository.for_class(store, SourceEntry, clock=clock, tenant_id=tenant_id)
    at = isoformat(clock.now())
    for source_id, outcome in outcomes.items():
        try:
            entry = repo.load(source_id)
        except JobCtrlError:
            continue  # an id that is not a stream id was never registered
        if entry is None:
            continue
        if entry.record_crawl(run_id=run_id, outcome=outcome, error_class=codes.get(source_id), at=at):
            try:
                repo.save(entry)
            except ConcurrencyConflict:
                continue  # another attempt of this run recorded it first
