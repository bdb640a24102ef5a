"""Run one discovery pass over a set of sources and record what it found.

Each source is fetched through its adapter and the gateway; a source that fails is isolated (its
error class is listed) and records nothing, because adapters return whole boards or raise.  The run
fails only when every source failed (runtime reference §0.5), otherwise it completes with counts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from jobctrl.discovery.adapters.base import ObservedPosting, SourceConfig
from jobctrl.discovery.adapters.registry import adapter_for
from jobctrl.discovery.commands.load_catalog import load_catalog
from jobctrl.discovery.commands.record_observation import record_observation
from jobctrl.discovery.domain.dedupe import Verdict
from jobctrl.discovery.domain.run import DiscoveryRun
from jobctrl.discovery.events import DiscoveryRunCounts
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.errors import JobCtrlError, classify
from jobctrl.kernel.ids import new_job_id
from jobctrl.kernel.store import EventStore
from jobctrl.politeness import CrawlPolicy, PolitenessGateway, RequestBudget


@dataclass
class FamilyResult:
    counts: DiscoveryRunCounts
    error_classes: list[str]
    job_ids: list[str] = field(default_factory=list)
    failed: bool = False


@dataclass
class _Tally:
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


async def run_source_family(
    store: EventStore,
    gateway: PolitenessGateway,
    sources: Sequence[SourceConfig],
    *,
    run_id: str,
    clock: Clock,
    policy_override: Callable[[CrawlPolicy], CrawlPolicy] | None = None,
    new_id: Callable[[], str] = new_job_id,
    workflow_id: str | None = None,
) -> FamilyResult:
    runs = AggregateRepository.for_class(store, DiscoveryRun, clock=clock)
    run = runs.load(run_id) or DiscoveryRun(run_id)
    run.start(source_ids=[s.source_id for s in sources], profile_snapshot_id=None, at=isoformat(clock.now()))
    runs.save(run, workflow_id=workflow_id)

    budgets: dict[str, RequestBudget] = {}
    fetched: list[tuple[SourceConfig, list[ObservedPosting]]] = []
    errors: list[tuple[SourceConfig, JobCtrlError | Exception]] = []
    for source in sources:
        fetch, policy = adapter_for(source.ats_kind)
        if policy_override is not None:
            policy = policy_override(policy)
        budget = budgets.setdefault(policy.name, RequestBudget.for_policy(policy))
        try:
            fetched.append((source, await fetch(gateway, source, policy, budget)))
        except JobCtrlError as exc:
            errors.append((source, exc))

    catalog = load_catalog(store)
    tally = _Tally()
    job_ids: list[str] = []
    for _source, postings in fetched:
        for posting in postings:
            outcome = record_observation(
                store, catalog, posting, run_id=run_id, clock=clock, new_id=new_id, workflow_id=workflow_id
            )
            tally.add(outcome.verdict)
            if outcome.verdict is not Verdict.HELD and outcome.job_id not in job_ids:
                job_ids.append(outcome.job_id)

    error_classes = [classify(exc)[0] for _s, exc in errors]
    run = runs.get(run_id)
    at = isoformat(clock.now())
    if sources and len(errors) == len(sources):
        first_source, first_error = errors[0]
        code, retryable = classify(first_error)
        run.fail(source_id=first_source.source_id, error_class=code, retryable=retryable, at=at)
        runs.save(run, workflow_id=workflow_id)
        return FamilyResult(tally.counts(), error_classes, job_ids, failed=True)
    run.complete(counts=tally.counts(), error_classes=error_classes, at=at)
    runs.save(run, workflow_id=workflow_id)
    return FamilyResult(tally.counts(), error_classes, job_ids)
