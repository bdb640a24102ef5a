"""``finish_discovery_run``: the DiscoverWorkflow's families are done, so its DiscoveryRun ends (ADR 0070).

The run completes with the families' summed counts and the failed families' error classes, or fails
when every family failed (runtime reference §0.5) -- through the discovery context's
``finish_discovery_run`` command, whose first terminal result wins, so a retried activity records
nothing new.  A run that was never started (a worker whose planning is not the discovery context's)
has nothing to finish.

``report_discovery_progress``: the workflow's own count of finished spine steps (ADR 0130).  Parallel
families finish in an order only the workflow knows, so the workflow counts and this activity records
the count; the run keeps the highest report, so a retried or replayed report cannot move it back.

``interrupt_discovery_run``: the workflow failed or was canceled before its terminal fan-out closed
the execution's membership.  If ``finish_discovery_run`` had not run yet, the run ends as
``DiscoveryRunFailed`` with the reason as its error class and no source (ADR 0079); the same
first-terminal-wins rule makes that a no-op after a finish, a retry or the reconciler.  Then the
execution's membership is closed with ``interrupted_<reason>`` (ADR 0083; a no-op once closed).
"""

from __future__ import annotations

from temporalio import activity

from jobctrl.activity_contracts.contracts import (
    FamilyOutcome,
    FinishDiscoveryRunInput,
    InterruptDiscoveryRunInput,
    ReportDiscoveryProgressInput,
)
from jobctrl.discovery.commands.close_execution_membership import close_interrupted_membership
from jobctrl.discovery.commands.finish_discovery_run import finish_discovery_run
from jobctrl.discovery.commands.interrupt_discovery_run import interrupt_discovery_run
from jobctrl.discovery.commands.report_run_progress import report_run_progress
from jobctrl.discovery.commands.run_source_family import FamilyResult, SourceFailure
from jobctrl.discovery.domain.execution import DiscoveryExecutionRef
from jobctrl.discovery.domain.run import DiscoveryRun
from jobctrl.discovery.events import DiscoveryRunCounts
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store.errors import ConcurrencyConflict
from jobctrl.orchestration.workflows.errors import to_application_error
from jobctrl.runtime.activities.deps import ActivityDeps

_CONFLICT_RETRIES = 8


def family_result(outcome: FamilyOutcome) -> FamilyResult:
    r = outcome.result
    if outcome.error_code is not None or r is None:
        failure = SourceFailure(outcome.family, outcome.error_code or "source_unavailable", outcome.retryable)
        return FamilyResult(DiscoveryRunCounts(0, 0, 0, 0, 0, 0), failures=[failure], failed=True)
    counts = DiscoveryRunCounts(
        r.total, r.new_jobs, r.existing_jobs, r.observed_jobs, r.duplicate_jobs, r.rejected_duplicates
    )
    return FamilyResult(counts)


class DiscoveryRunActivities:
    def __init__(self, deps: ActivityDeps) -> None:
        self.deps = deps

    @activity.defn(name="finish_discovery_run")
    def finish_discovery_run(self, params: FinishDiscoveryRunInput) -> bool:
        """True when this call recorded the run's terminal fact."""
        ex = params.execution
        store, clock = self.deps.store, self.deps.clock
        if AggregateRepository.for_class(store, DiscoveryRun, clock=clock).load(ex.temporal_run_id) is None:
            return False
        try:
            return finish_discovery_run(
                store,
                [family_result(f) for f in params.families],
                run_id=ex.temporal_run_id,
                clock=clock,
                workflow_id=ex.workflow_id,
                tenant_id=ex.tenant_id,
            )
        except JobCtrlError as exc:
            raise to_application_error(exc) from exc

    @activity.defn(name="report_discovery_progress")
    def report_discovery_progress(self, params: ReportDiscoveryProgressInput) -> bool:
        """True when the report moved the run's spine forward (a run never started has none)."""
        ex = params.execution
        store, clock = self.deps.store, self.deps.clock
        runs = AggregateRepository.for_class(store, DiscoveryRun, clock=clock, tenant_id=ex.tenant_id)
        if runs.load(ex.temporal_run_id) is None:
            return False
        for attempt in range(_CONFLICT_RETRIES):
            try:
                return report_run_progress(
                    store,
                    run_id=ex.temporal_run_id,
                    completed=params.progress.done,
                    total=params.progress.total,
                    clock=clock,
                    workflow_id=ex.workflow_id,
                    tenant_id=ex.tenant_id,
                )
            except ConcurrencyConflict as exc:
                # A parallel family's report won the race: reload and report again (the highest
                # report wins either way); a conflict that persists is retried by Temporal.
                if attempt == _CONFLICT_RETRIES - 1:
                    raise to_application_error(exc) from exc
            except JobCtrlError as exc:
                raise to_application_error(exc) from exc
        return False

    @activity.defn(name="interrupt_discovery_run")
    def interrupt_discovery_run(self, params: InterruptDiscoveryRunInput) -> bool:
        """True when this call recorded the run's terminal fact (the membership close is reported by
        its event, not here)."""
        ex = params.execution
        try:
            ended = interrupt_discovery_run(
                self.deps.store,
                run_id=ex.temporal_run_id,
                reason=params.reason,
                retryable=params.retryable,
                clock=self.deps.clock,
                workflow_id=ex.workflow_id,
                tenant_id=ex.tenant_id,
            )
            close_interrupted_membership(
                self.deps.store,
                DiscoveryExecutionRef(ex.tenant_id, ex.workflow_id, ex.temporal_run_id),
                why=params.reason,
                clock=self.deps.clock,
            )
        except JobCtrlError as exc:
            raise to_application_error(exc) from exc
        return ended
