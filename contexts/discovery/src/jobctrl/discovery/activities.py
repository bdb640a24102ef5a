"""Discovery's Temporal activities: plan the source families of a Discover execution and crawl one family.

* ``plan_discovery_sources`` — the runnable registered sources (optionally narrowed to the workflow's
  ``source_ids``), grouped into families by adapter kind; starts the discovery run (id = the Temporal
  run id) with its progress spine, through the ``DiscoveryRunLog`` port (the run is orchestration's,
  ADR 0180).  Retry-safe: starting a started run records nothing.
* ``discovery_source_family`` — crawl one family through the politeness gateway, record what it found,
  link the jobs to the execution as ``observed_this_run`` and advance the run's progress.  A family
  whose every source failed raises the first source's typed error (its code is the family's code).

Both are sync activities (the worker's thread pool): the crawl runs on its own event loop with its own
gateway, so database writes never block the worker's loop.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence

from temporalio import activity
from temporalio.exceptions import ApplicationError

from jobctrl.activity_contracts.contracts import (
    PlanSourcesInput,
    PlanSourcesResult,
    SourceFamilyInput,
    SourceFamilyResult,
)
from jobctrl.activity_contracts.errors import to_application_error
from jobctrl.activity_contracts.threads import heartbeating
from jobctrl.discovery.adapters.base import SourceConfig
from jobctrl.discovery.adapters.broad_board import BroadBoardGateway
from jobctrl.discovery.domain.search import SearchFilters
from jobctrl.discovery.ports import BoardScraper, DiscoveryRunLog
from jobctrl.discovery.use_cases.link_execution_members import link_execution_members
from jobctrl.discovery.use_cases.queued_imports import unprepared_imports
from jobctrl.discovery.use_cases.run_broad_boards import run_broad_boards
from jobctrl.discovery.use_cases.run_source_family import FamilyResult, run_source_family
from jobctrl.discovery.use_cases.select_runnable_sources import select_runnable_sources
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.store.errors import ConcurrencyConflict
from jobctrl.politeness import CrawlPolicy, PolitenessGateway

#: Where the configured sources come from (settings, a file, the demo's sample board).
SourceCatalog = Callable[[], Sequence[SourceConfig]]
GatewayFactory = Callable[[], PolitenessGateway]
BROAD_BOARD_FAMILY = "jobspy"


def family_of(config: SourceConfig) -> str:
    """One family per adapter kind: the sources a family crawls share a crawl policy and its budget."""
    return config.family_name


class FamilyFailedError(JobCtrlError):
    """Every source of a family failed (raised only when the sources' own error is not typed)."""

    code = "source_unavailable"
    retryable = True


class DiscoveryActivities:
    def __init__(
        self,
        store: EventStore,
        *,
        runs: DiscoveryRunLog,
        sources: SourceCatalog,
        gateway: GatewayFactory,
        clock: Clock,
        policy_override: Callable[[CrawlPolicy], CrawlPolicy] | None = None,
        search: Callable[[], SearchFilters] = SearchFilters,
        broad_boards: Callable[[], bool] = lambda: False,
        board_scraper: BoardScraper | None = None,
    ) -> None:
        # Broad boards (the ``jobspy`` family) are off unless the setting says on, read at each plan:
        # off, their sources are not planned, so no run reaches the boards (ADR 0285).
        self.broad_boards = broad_boards
        self.board_scraper = board_scraper  # None: the JobSpy library itself
        self.search = search  # read on every crawl: a changed [search] applies to the next family
        self.store = store
        self.runs = runs
        self.sources = sources
        self.gateway = gateway
        self.clock = clock
        self.policy_override = policy_override

    def _runnable(self, wanted: Sequence[str]) -> list[SourceConfig]:
        configs = [c for c in self.sources() if not wanted or c.source_id in wanted]
        if not self.broad_boards():
            configs = [c for c in configs if c.family_name != BROAD_BOARD_FAMILY]
        return select_runnable_sources(self.store, configs)

    @activity.defn(name="plan_discovery_sources")
    def plan_discovery_sources(self, params: PlanSourcesInput) -> PlanSourcesResult:
        with heartbeating():
            return self._plan(params)

    def _plan(self, params: PlanSourcesInput) -> PlanSourcesResult:
        try:
            # A run started for imported jobs alone crawls no source (ADR 0286).
            imports_only = bool(params.job_ids) and not params.source_ids
            runnable = [] if imports_only else self._runnable(params.source_ids)
            families = sorted({family_of(c) for c in runnable})
            ex = params.execution
            self.runs.start(
                run_id=ex.temporal_run_id,
                source_ids=[c.source_id for c in runnable],
                family_count=len(families),
                workflow_id=ex.workflow_id,
                tenant_id=ex.tenant_id,
            )
            # The jobs imported from a URL and never yet in an execution (queued when no worker ran
            # at import time), and the ones this run was started for, join this execution as
            # observed: enriched and prepared by its terminal passes, like any posting it found.
            imported = list(dict.fromkeys([*params.job_ids, *unprepared_imports(self.store)]))
            if imported:
                _on_conflict_retry(
                    lambda: link_execution_members(
                        self.store, ex, imported, "observed_this_run", clock=self.clock
                    )
                )
        except JobCtrlError as exc:
            raise to_application_error(exc) from exc
        return PlanSourcesResult(families)

    @activity.defn(name="discovery_source_family")
    def discovery_source_family(self, params: SourceFamilyInput) -> SourceFamilyResult:
        with heartbeating():  # a polite crawl of a large board may take many heartbeat timeouts
            return self._crawl_family(params)

    def _crawl_family(self, params: SourceFamilyInput) -> SourceFamilyResult:
        ex = params.execution
        configs = [c for c in self._runnable(params.source_ids) if family_of(c) == params.family]
        try:
            result = asyncio.run(self._crawl(configs, ex.temporal_run_id, ex.workflow_id, ex.tenant_id))
            if result.failed:
                raise _first_failure(result)
            ref = ex
            job_ids = result.job_ids[: params.limit] if params.limit > 0 else result.job_ids
            # Parallel families share the execution's and the run's streams: a lost race reloads and
            # retries (both commands are idempotent), instead of failing the whole family.
            _on_conflict_retry(
                lambda: link_execution_members(
                    self.store, ref, job_ids, "observed_this_run", clock=self.clock
                )
            )
            if params.progress.total > 0:
                _on_conflict_retry(
                    lambda: self.runs.progress(
                        run_id=ex.temporal_run_id,
                        completed=params.progress.done + 1,
                        total=params.progress.total,
                        workflow_id=ex.workflow_id,
                        tenant_id=ex.tenant_id,
                    )
                )
        except JobCtrlError as exc:
            raise to_application_error(exc) from exc
        counts = result.counts
        return SourceFamilyResult(
            params.family,
            observed_jobs=len(job_ids),
            new_jobs=counts.new_jobs,
            total=counts.total,
            existing_jobs=counts.existing_jobs,
            duplicate_jobs=counts.duplicate_jobs,
            rejected_duplicates=counts.rejected_duplicates,
        )

    async def _crawl(
        self, configs: Sequence[SourceConfig], run_id: str, workflow_id: str, tenant_id: str
    ) -> FamilyResult:
        async with self.gateway() as gateway:
            if configs and all(c.family_name == BROAD_BOARD_FAMILY for c in configs):
                boards = BroadBoardGateway(self.board_scraper, user_agent=gateway.user_agent.header())
                return await run_broad_boards(
                    self.store, boards, configs, run_id=run_id, clock=self.clock,
                    policy_override=self.policy_override, workflow_id=workflow_id, tenant_id=tenant_id,
                    search=self.search(),
                )  # fmt: skip
            return await run_source_family(
                self.store,
                gateway,
                configs,
                run_id=run_id,
                clock=self.clock,
                policy_override=self.policy_override,
                workflow_id=workflow_id,
                tenant_id=tenant_id,
                search=self.search(),
            )


def _on_conflict_retry(command: Callable[[], object], attempts: int = 8) -> None:
    for attempt in range(attempts):
        try:
            command()
            return
        except ConcurrencyConflict:
            if attempt == attempts - 1:
                raise
            time.sleep(0.02 * (attempt + 1))


def _first_failure(result: FamilyResult) -> ApplicationError:
    """The family's failure carries the first source's own code (surfaced, not swallowed: ADR 0041)."""
    listed = ", ".join(f"{f.source_id}={f.code}" for f in result.failures)
    first = result.failures[0] if result.failures else None
    if first is None:
        return to_application_error(FamilyFailedError("every source of the family failed"))
    return ApplicationError(
        f"every source of the family failed: {listed}"[:500],
        type=first.code,
        non_retryable=not first.retryable,
    )
