"""ApplyWorkflow: one job (``apply-{tenant}-{jobId}``) or the continuous poll mode used by the
standing auto-apply loop (``apply-auto-local``).

The spend preflight runs before any apply work.  Continuous mode handles batches, sleeps when a batch
processed nothing, and continues-as-new after a bounded number of polls so history stays small; the
chain records one ``WorkflowStarted`` and one terminal event (under its first run id).  Cancellation
is cooperative: the awaited activity or timer is cancelled and the run ends as ``WorkflowCanceled``.

A live single-job apply has one attempt.  When it fails (a killed worker's attempt times out on its
heartbeat, or it raised), the workflow runs ``recover_apply`` before it fails: the job's run of this
workflow run has no live owner any more, so a run with a submit intent becomes needs_verification and
one without provably sent nothing (ADR 0164).  Patched: older histories replay without the step.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta

from temporalio import workflow
from temporalio.exceptions import ActivityError, is_cancelled_exception

from jobctrl.activity_contracts.contracts import ApplyActivityInput, ApplyActivityResult
from jobctrl.orchestration.workflows import policies
from jobctrl.orchestration.workflows.lifecycle import run_with_lifecycle, spend_preflight

WORKFLOW_TYPE = "ApplyWorkflow"
BATCH_LIMIT = 25
LIVE_RECOVERY_PATCH = "apply-live-recovery-v1"


@dataclass(frozen=True)
class ApplyWorkflowInput:
    tenant: str = "local"
    job_id: str | None = None
    dry_run: bool = True
    continuous: bool = False
    auto_apply_loop: bool = False
    idle_sleep_seconds: float = 30.0
    polls_per_run: int = 20
    #: Set on continue-as-new: the chain's lifecycle marker is already recorded.
    continued: bool = False
    processed_so_far: int = 0


@dataclass(frozen=True)
class ApplyWorkflowResult:
    processed: int


@workflow.defn(name=WORKFLOW_TYPE)
class ApplyWorkflow:
    @workflow.run
    async def run(self, params: ApplyWorkflowInput) -> ApplyWorkflowResult:
        summary = {
            "jobId": params.job_id or "",
            "dryRun": str(params.dry_run).lower(),
            "continuous": str(params.continuous).lower(),
            "autoApplyLoop": str(params.auto_apply_loop).lower(),
        }
        return await run_with_lifecycle(
            WORKFLOW_TYPE,
            params.tenant,
            summary,
            lambda: self._apply(params),
            record_started=not params.continued,
        )

    async def _batch(self, params: ApplyActivityInput) -> ApplyActivityResult:
        try:
            result: ApplyActivityResult = await workflow.execute_activity(
                "apply",
                params,
                result_type=ApplyActivityResult,
                start_to_close_timeout=timedelta(hours=1 if params.continuous else 2),
                heartbeat_timeout=policies.APPLY_HEARTBEAT,
                retry_policy=policies.APPLY_DRY_RUN if params.dry_run else policies.APPLY_LIVE,
            )
        except ActivityError as exc:
            live_one = not params.dry_run and not params.continuous and params.job_id is not None
            if live_one and not is_cancelled_exception(exc) and workflow.patched(LIVE_RECOVERY_PATCH):
                await workflow.execute_activity(
                    "recover_apply",
                    params,
                    start_to_close_timeout=policies.SHORT,
                    retry_policy=policies.APPLY_RECOVER,
                )
            raise
        return result

    async def _apply(self, params: ApplyWorkflowInput) -> ApplyWorkflowResult:
        if not params.continued:
            await spend_preflight(params.tenant, WORKFLOW_TYPE)
        request = ApplyActivityInput(
            tenant_id=params.tenant,
            job_id=params.job_id,
            dry_run=params.dry_run,
            continuous=params.continuous,
            auto_apply_loop=params.auto_apply_loop,
            batch_limit=BATCH_LIMIT if params.continuous else 1,
        )
        if not params.continuous:
            return ApplyWorkflowResult((await self._batch(request)).processed)
        processed = params.processed_so_far
        for _ in range(max(1, params.polls_per_run)):
            batch = await self._batch(request)
            processed += batch.processed
            if batch.processed == 0:
                await workflow.sleep(params.idle_sleep_seconds)
        workflow.continue_as_new(replace(params, continued=True, processed_so_far=processed))
