"""DiscoverWorkflow (``discover-{tenant}``): plan → backlog sweep → source families → terminal
enrichment → terminal preparation fan-out, with a monotonic progress spine of ``families + 2``.

Failure rule (ADR 0041): each source family is isolated; a failed family is listed in the result
and the run still succeeds; only when *every* planned family failed does the run fail, with code
``discovery_source_failed`` and the families' own error codes in its message.

Once the families are done, ``finish_discovery_run`` records the DiscoveryRun's terminal fact
(completed with counts and error classes, or failed when every family failed) before the run goes on
or fails (ADR 0070; patched ``discover-finish-run-v1`` so histories recorded before it replay).
If the run fails or is canceled before that (a cancel while families crawl, a failed backlog sweep),
``interrupt_discovery_run`` closes the DiscoveryRun with the failure code or ``canceled`` before the
lifecycle frame records the workflow's own terminal fact (ADR 0079; patched
``discover-interrupt-run-v1``).  The same activity closes the execution's membership with
``interrupted_<reason>``; a run that fails or is canceled after its finish but before the terminal
fan-out closed the membership (every family failed, a failed enrichment pass or fan-out) calls it
too, for the membership alone (ADR 0083; patched ``discover-close-membership-v1``).  Terminations and
timeouts run no workflow code: the describe-based reconciler closes those runs and memberships.

The spine is counted here, where the order in which parallel families finish is known: each
finished family, the terminal enrichment pass and the terminal fan-out advance it by one, and
``report_discovery_progress`` records the count on the DiscoveryRun after each (ADR 0130; patched
``discover-progress-spine-v1``; earlier histories had each family report ``done + 1`` itself).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from temporalio import workflow
from temporalio.exceptions import ApplicationError, is_cancelled_exception

from jobctrl.activity_contracts.contracts import (
    EnrichmentInput,
    EnrichmentResult,
    FamilyOutcome,
    FanoutInput,
    FanoutResult,
    FinishDiscoveryRunInput,
    InterruptDiscoveryRunInput,
    PipelineStepChange,
    PipelineStepsInput,
    PlanSourcesInput,
    PlanSourcesResult,
    ProgressTick,
    ReportDiscoveryProgressInput,
    SourceFamilyInput,
    SourceFamilyResult,
    StepKind,
)
from jobctrl.kernel.clock import now_iso
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.orchestration.workflows import policies
from jobctrl.orchestration.workflows.errors import failure_of
from jobctrl.orchestration.workflows.lifecycle import WORKFLOW_CLOCK, run_with_lifecycle, spend_preflight

WORKFLOW_TYPE = "DiscoverWorkflow"
SOURCE_FAILED = "discovery_source_failed"
FINISH_RUN_PATCH = "discover-finish-run-v1"
INTERRUPT_RUN_PATCH = "discover-interrupt-run-v1"
CLOSE_MEMBERSHIP_PATCH = "discover-close-membership-v1"
PROGRESS_SPINE_PATCH = "discover-progress-spine-v1"
CANCELED = "canceled"


@dataclass(frozen=True)
class DiscoverWorkflowInput:
    tenant: str = "local"
    source_ids: list[str] = field(default_factory=list)
    limit: int = 0
    min_score: int = 7
    family_batch_size: int = 4
    #: 0 = the default (policies.HEARTBEAT); passed on to the preparations the fan-out starts.
    heartbeat_timeout_s: float = 0.0
    #: Jobs imported from a URL to prepare in this run (ADR 0286); alone, no source is crawled.
    job_ids: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class FailedFamily:
    family: str
    error_code: str


@dataclass(frozen=True)
class DiscoverResult:
    execution: ExecutionRef
    families: list[str]
    failed_families: list[FailedFamily]
    observed_jobs: int
    preparation_workflows_started: int
    progress_done: int
    progress_total: int


@dataclass(frozen=True)
class DiscoverProgress:
    done: int
    total: int


@workflow.defn(name=WORKFLOW_TYPE)
class DiscoverWorkflow:
    def __init__(self) -> None:
        self._done = 0
        self._total = 0
        self._heartbeat = policies.HEARTBEAT
        self._heartbeat_s = 0.0
        self._run_finished = False
        self._membership_closed = False

    @workflow.query
    def progress(self) -> DiscoverProgress:
        return DiscoverProgress(self._done, self._total)

    def _advance(self, to: int) -> None:
        # The spine only moves forward: parallel families finishing out of order cannot shrink it.
        self._done = max(self._done, min(to, self._total))

    def _spine_reported_here(self) -> bool:
        """Whether this workflow records the spine itself (else, in older histories, each family
        activity reported ``done + 1``)."""
        return workflow.patched(PROGRESS_SPINE_PATCH)

    async def _report(self, execution: ExecutionRef) -> None:
        if not self._spine_reported_here():
            return
        await workflow.execute_activity(
            "report_discovery_progress",
            ReportDiscoveryProgressInput(execution, ProgressTick(self._done, self._total)),
            start_to_close_timeout=policies.SHORT,
            retry_policy=policies.LIFECYCLE,
        )

    @workflow.run
    async def run(self, params: DiscoverWorkflowInput) -> DiscoverResult:
        info = workflow.info()
        self._heartbeat_s = params.heartbeat_timeout_s
        self._heartbeat = policies.heartbeat(params.heartbeat_timeout_s)
        # Read the identity once: a deterministic workflow id can be started again, the run id cannot.
        execution = ExecutionRef(params.tenant, info.workflow_id, info.run_id)
        summary = {"tenant": params.tenant, "sources": ",".join(params.source_ids)[:200]}
        return await run_with_lifecycle(
            WORKFLOW_TYPE, params.tenant, summary, lambda: self._discover_closing_run(params, execution)
        )

    async def _discover_closing_run(
        self, params: DiscoverWorkflowInput, execution: ExecutionRef
    ) -> DiscoverResult:
        """Every way out of the body leaves the DiscoveryRun (ADR 0079) and the execution's
        membership (ADR 0083) closed."""
        try:
            return await self._discover(params, execution)
        except (Exception, asyncio.CancelledError) as exc:
            if self._interrupt_needed():
                cancelled = isinstance(exc, asyncio.CancelledError) or is_cancelled_exception(exc)
                failure = failure_of(exc)
                reason, retryable = (CANCELED, False) if cancelled else (failure.code, failure.retryable)
                await workflow.execute_activity(
                    "interrupt_discovery_run",
                    InterruptDiscoveryRunInput(execution, reason, retryable),
                    start_to_close_timeout=policies.SHORT,
                    retry_policy=policies.LIFECYCLE,
                )
            raise

    def _interrupt_needed(self) -> bool:
        """Whether the way out must call ``interrupt_discovery_run``: the run is not finished, or its
        membership is still open.  Each patch is asked only where a run recorded before it would not
        have called the activity, so those histories replay."""
        if not self._run_finished:
            return workflow.patched(INTERRUPT_RUN_PATCH)
        return not self._membership_closed and workflow.patched(CLOSE_MEMBERSHIP_PATCH)

    async def _steps(self, execution: ExecutionRef, *changes: PipelineStepChange) -> None:
        await workflow.execute_activity(
            "record_pipeline_steps",
            PipelineStepsInput(execution, list(changes)),
            start_to_close_timeout=policies.SHORT,
            retry_policy=policies.LIFECYCLE,
        )

    async def _step(self, execution: ExecutionRef, kind: StepKind, key: str, run: object) -> object:
        """Run one execution-scoped step between PipelineStepStarted and Completed/Failed."""
        started = workflow.now()
        await self._steps(execution, PipelineStepChange(kind, key, "started", now_iso(WORKFLOW_CLOCK)))
        try:
            result = await run  # type: ignore[misc]
        except (Exception, asyncio.CancelledError) as exc:
            # A started step never stays "running": a cancel closes it as failed with code canceled.
            cancelled = isinstance(exc, asyncio.CancelledError) or is_cancelled_exception(exc)
            failure = failure_of(exc)
            code, retryable = ("canceled", False) if cancelled else (failure.code, failure.retryable)
            elapsed = int((workflow.now() - started).total_seconds() * 1000)
            await self._steps(
                execution,
                PipelineStepChange(
                    kind, key, "failed", now_iso(WORKFLOW_CLOCK), None, code, retryable, elapsed
                ),
            )
            raise
        elapsed = int((workflow.now() - started).total_seconds() * 1000)
        count = _count_of(result)
        await self._steps(
            execution,
            PipelineStepChange(kind, key, "completed", now_iso(WORKFLOW_CLOCK), count, duration_ms=elapsed),
        )
        return result

    async def _discover(self, params: DiscoverWorkflowInput, execution: ExecutionRef) -> DiscoverResult:
        await spend_preflight(params.tenant, WORKFLOW_TYPE)
        plan = await self._step(
            execution,
            "source_planning",
            "plan",
            workflow.execute_activity(
                "plan_discovery_sources",
                # Replay-safe: an activity's input is not part of the command sequence (ADR 0286).
                PlanSourcesInput(execution, list(params.source_ids), list(params.job_ids)),
                result_type=PlanSourcesResult,
                start_to_close_timeout=policies.HALF_HOUR,
                heartbeat_timeout=self._heartbeat,
                retry_policy=policies.SRC,
            ),
        )
        assert isinstance(plan, PlanSourcesResult)
        families = list(plan.families)
        self._total = len(families) + 2  # fixed at plan time: families + enrichment + preparation
        await self._steps(
            execution,
            *(PipelineStepChange("source_family", f, "queued", now_iso(WORKFLOW_CLOCK)) for f in families),
        )
        task_queue = workflow.info().task_queue
        silent = ProgressTick(0, 0)
        await self._step(
            execution,
            "existing_backlog_sweep",
            "existing_backlog",
            self._fanout(execution, "existing_backlog", silent, task_queue),
        )

        failed: list[FailedFamily] = []
        messages: list[str] = []
        ends: list[FamilyOutcome] = []
        observed = 0
        batch = max(1, params.family_batch_size)
        for offset in range(0, len(families), batch):
            chunk = families[offset : offset + batch]
            outcomes = await asyncio.gather(
                *(self._family(execution, f, params.limit, params.source_ids) for f in chunk),
                return_exceptions=True,
            )
            for family, outcome in zip(chunk, outcomes, strict=True):
                if isinstance(outcome, BaseException):
                    if isinstance(outcome, asyncio.CancelledError) or is_cancelled_exception(outcome):
                        raise outcome  # a cancel is the run's, not one family's
                    failure = failure_of(outcome)
                    failed.append(FailedFamily(family, failure.code))
                    messages.append(f"{family}: {failure.code}: {failure.message}")
                    ends.append(FamilyOutcome(family, None, failure.code, failure.retryable))
                else:
                    observed += outcome.observed_jobs
                    ends.append(FamilyOutcome(family, outcome))
        if workflow.patched(FINISH_RUN_PATCH):
            await workflow.execute_activity(
                "finish_discovery_run",
                FinishDiscoveryRunInput(execution, ends),
                start_to_close_timeout=policies.SHORT,
                retry_policy=policies.LIFECYCLE,
            )
            self._run_finished = True
        if families and len(failed) == len(families):
            # Surface the sources' own errors, not a generic one (ADR 0041).
            raise ApplicationError(
                "every source family failed; " + "; ".join(messages), type=SOURCE_FAILED, non_retryable=True
            )

        n = len(families)
        await self._step(
            execution,
            "enrichment_pass",
            "terminal",
            workflow.execute_activity(
                "discovery_enrichment",
                EnrichmentInput(execution, ProgressTick(n, self._total)),
                result_type=EnrichmentResult,
                start_to_close_timeout=policies.SIX_HOURS,
                heartbeat_timeout=self._heartbeat,
                retry_policy=policies.ENR,
            ),
        )
        self._advance(n + 1)
        await self._report(execution)
        fanout = await self._step(
            execution,
            "preparation_fanout",
            "terminal",
            self._fanout(execution, "observed_this_run", ProgressTick(n + 1, self._total), task_queue),
        )
        assert isinstance(fanout, FanoutResult)
        self._membership_closed = True  # the terminal fan-out closed it
        self._advance(n + 2)
        await self._report(execution)
        return DiscoverResult(
            execution=execution,
            families=families,
            failed_families=failed,
            observed_jobs=observed,
            preparation_workflows_started=fanout.started_workflows,
            progress_done=self._done,
            progress_total=self._total,
        )

    async def _fanout(
        self, execution: ExecutionRef, cohort: str, tick: ProgressTick, task_queue: str
    ) -> FanoutResult:
        result: FanoutResult = await workflow.execute_activity(
            "discovery_preparation_fanout",
            FanoutInput(execution, cohort, tick, task_queue, self._heartbeat_s),  # type: ignore[arg-type]
            result_type=FanoutResult,
            start_to_close_timeout=policies.HALF_HOUR,
            heartbeat_timeout=self._heartbeat,
            retry_policy=policies.SRC,
        )
        return result

    async def _family(
        self, execution: ExecutionRef, family: str, limit: int, source_ids: list[str]
    ) -> SourceFamilyResult:
        # Under the spine patch the family is progress-silent: the workflow reports its count below.
        here = self._spine_reported_here()
        tick = ProgressTick(0, 0) if here else ProgressTick(self._done, self._total)
        try:
            result = await self._step(
                execution,
                "source_family",
                family,
                workflow.execute_activity(
                    "discovery_source_family",
                    # The run's chosen sources go with the family (ADR 0295): only the activity input
                    # changes, not a command, so a recorded history replays unchanged.
                    SourceFamilyInput(execution, family, tick, limit, list(source_ids)),
                    result_type=SourceFamilyResult,
                    start_to_close_timeout=policies.SIX_HOURS,
                    heartbeat_timeout=self._heartbeat,
                    retry_policy=policies.SRC,
                ),
            )
        except (Exception, asyncio.CancelledError) as exc:
            # A family advances the spine whether it succeeded or failed: it is finished either way.
            self._advance(self._done + 1)
            if not (isinstance(exc, asyncio.CancelledError) or is_cancelled_exception(exc)):
                await self._report(execution)
            raise
        self._advance(self._done + 1)
        await self._report(execution)
        assert isinstance(result, SourceFamilyResult)
        return result


def _count_of(result: object) -> int | None:
    if isinstance(result, PlanSourcesResult):
        return len(result.families)
    if isinstance(result, SourceFamilyResult):
        return result.observed_jobs
    if isinstance(result, EnrichmentResult):
        return result.enriched_jobs
    if isinstance(result, FanoutResult):
        return result.started_workflows
    return None
