"""JobPreparationWorkflow (``prep-{idempotencyKey}``): score → tailor → cover → pdf for one job.

A failed step fails only this job's run (with ``{step}_failed`` / ``pdf_render_failed``) after the
mandatory owner-scoped ``recover_preparation_state`` reconciliation; a rerun
under the same key loads the checkpoint and resumes at the failed step.  ``skipped`` or
``not_eligible`` ends the chain without failing it.  The spend preflight runs first (ADR 0110); under
``LOCAL_GATE_PATCH`` it runs as a local activity next to the checkpoint read (ADR 0383), and under
``OPEN_ONCE_PATCH`` the started record, the gate and the checkpoint read are one local activity,
``open_preparation`` (ADR 0391).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from temporalio import workflow
from temporalio.common import RetryPolicy
from temporalio.exceptions import ApplicationError, is_cancelled_exception

from jobctrl.activity_contracts.contracts import (
    PreparationCheckpoint,
    PreparationCheckpointInput,
    PreparationOpened,
    PreparationOpenInput,
    PreparationStep,
    PreparationStepInput,
    PreparationStepResult,
    SpendCheckInput,
    WorkflowStartedInput,
)
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.orchestration.workflows import policies
from jobctrl.orchestration.workflows.errors import failure_of
from jobctrl.orchestration.workflows.lifecycle import (
    SPEND_PREFLIGHT_PATCH,
    record_quickly,
    run_opened_with_lifecycle,
    run_with_lifecycle,
    spend_preflight,
    spend_preflight_locally,
)

WORKFLOW_TYPE = "JobPreparationWorkflow"
OWNER_RECOVERY_PATCH = "preparation-owner-recovery-v1"
#: The spend gate and the checkpoint read as two local activities of one workflow task (ADR 0383);
#: runs recorded before it replay with the queued gate, then the checkpoint.
LOCAL_GATE_PATCH = "preparation-local-gate-v1"
#: The started record, the gate and the checkpoint read as one local activity (ADR 0391): one executor
#: hand-off and one activation where there were three, so a fan-out's first tasks stop queueing for
#: the local-activity slots (ADR 0384).  Runs recorded before it replay as ADR 0383's.
OPEN_ONCE_PATCH = "preparation-open-once-v1"
ORDER: tuple[PreparationStep, ...] = ("score", "tailor", "cover", "pdf")
_ACTIVITY: dict[str, tuple[str, RetryPolicy, str]] = {
    "score": ("score_job", policies.SCORE, "score_failed"),
    "tailor": ("tailor_job", policies.TAIL, "tailor_failed"),
    "cover": ("cover_letter", policies.COVER, "cover_failed"),
    "pdf": ("render_pdf", policies.COVER, "pdf_render_failed"),
}


@dataclass(frozen=True)
class JobPreparationInput:
    tenant: str
    job_id: str
    idempotency_key: str
    steps: list[PreparationStep] = field(default_factory=lambda: list(ORDER))
    target_version: int | None = None
    execution: ExecutionRef | None = None
    cohort: str | None = None
    heartbeat_timeout_s: float = 0.0  # 0: policies.HEARTBEAT


@dataclass(frozen=True)
class JobPreparationResult:
    job_id: str
    completed_steps: list[PreparationStep]
    resumed_after: list[PreparationStep]
    stopped_at: PreparationStep | None
    stop_reason: str | None


@workflow.defn(name=WORKFLOW_TYPE)
class JobPreparationWorkflow:
    @workflow.run
    async def run(self, params: JobPreparationInput) -> JobPreparationResult:
        summary = {"jobId": params.job_id, "steps": ",".join(params.steps)}
        if workflow.patched(OPEN_ONCE_PATCH):

            async def opened(started: WorkflowStartedInput) -> JobPreparationResult:
                return await self._prepare(params, await self._open_once(params, started))

            return await run_opened_with_lifecycle(WORKFLOW_TYPE, params.tenant, summary, opened)
        return await run_with_lifecycle(
            WORKFLOW_TYPE, params.tenant, summary, lambda: self._prepare(params, None)
        )

    async def _open_once(
        self, params: JobPreparationInput, started: WorkflowStartedInput
    ) -> PreparationCheckpoint:
        """The started record, the gate (its ``budget_exceeded`` non-retryable: no step starts) and
        the checkpoint, in that order, in one local activity."""
        opened: PreparationOpened = await workflow.execute_local_activity(
            "open_preparation",
            PreparationOpenInput(
                started,
                SpendCheckInput(params.tenant, workflow.info().workflow_id, WORKFLOW_TYPE),
                PreparationCheckpointInput(params.tenant, params.job_id, params.idempotency_key),
            ),
            result_type=PreparationOpened,
            start_to_close_timeout=policies.SHORT,
            retry_policy=policies.OPEN,
        )
        return opened.checkpoint

    async def _open(self, params: JobPreparationInput) -> PreparationCheckpoint:
        """The spend gate before any paid step (``budget_exceeded`` non-retryable), then the
        checkpoint this run resumes from; both read-only."""
        checkpoint_input = PreparationCheckpointInput(params.tenant, params.job_id, params.idempotency_key)
        if workflow.patched(LOCAL_GATE_PATCH):
            # Both local, together: one workflow task, no activity-queue round trip.  Both are
            # awaited whatever happens, so no local activity outlives the gate's failure; the gate's
            # error wins, since no step may start without it.
            outcomes: list[object] = await asyncio.gather(
                spend_preflight_locally(params.tenant, WORKFLOW_TYPE),
                workflow.execute_local_activity(
                    "load_preparation_checkpoint",
                    checkpoint_input,
                    result_type=PreparationCheckpoint,
                    start_to_close_timeout=policies.SHORT,
                    retry_policy=policies.LIFECYCLE,
                ),
                return_exceptions=True,
            )
            for outcome in outcomes:
                if isinstance(outcome, BaseException):
                    raise outcome
            checkpoint = outcomes[1]
            assert isinstance(checkpoint, PreparationCheckpoint)
            return checkpoint
        if workflow.patched(SPEND_PREFLIGHT_PATCH):
            await spend_preflight(params.tenant, WORKFLOW_TYPE)
        loaded = await record_quickly(  # a local read under the lifecycle patch (ADR 0236)
            "load_preparation_checkpoint", checkpoint_input, result_type=PreparationCheckpoint
        )
        assert isinstance(loaded, PreparationCheckpoint)
        return loaded

    async def _prepare(
        self, params: JobPreparationInput, checkpoint: PreparationCheckpoint | None
    ) -> JobPreparationResult:
        if checkpoint is None:  # recorded before OPEN_ONCE_PATCH
            checkpoint = await self._open(params)
        already = set(checkpoint.completed_steps)
        wanted = [s for s in ORDER if s in params.steps]
        done: list[PreparationStep] = []
        for step in wanted:
            if step in already:
                continue  # resume: a completed step under this key is never redone
            name, retry, failed_code = _ACTIVITY[step]
            try:
                result: PreparationStepResult = await workflow.execute_activity(
                    name,
                    PreparationStepInput(
                        params.tenant, params.job_id, step, params.target_version, params.idempotency_key
                    ),
                    result_type=PreparationStepResult,
                    start_to_close_timeout=policies.HALF_HOUR,
                    heartbeat_timeout=policies.heartbeat(params.heartbeat_timeout_s),
                    retry_policy=retry,
                )
            except Exception as exc:
                if is_cancelled_exception(exc):
                    raise
                failure = failure_of(exc)
                # Mandatory before any terminal outcome: rows this run still owns are reconciled
                # (a committed result is kept, an uncommitted one becomes retryable).
                # (Patched: histories recorded before this step replay without it.)
                if workflow.patched(OWNER_RECOVERY_PATCH):
                    await workflow.execute_activity(
                        "recover_preparation_state",
                        PreparationStepInput(
                            params.tenant, params.job_id, step, params.target_version, params.idempotency_key
                        ),
                        start_to_close_timeout=policies.SHORT,
                        retry_policy=policies.RECOVER,
                    )
                raise ApplicationError(
                    f"{step}: {failure.code}: {failure.message}", type=failed_code, non_retryable=True
                ) from exc
            if result.status != "done":
                return JobPreparationResult(
                    params.job_id, done, sorted(already, key=ORDER.index), step, result.status
                )
            done.append(step)
        return JobPreparationResult(params.job_id, done, sorted(already, key=ORDER.index), None, None)
