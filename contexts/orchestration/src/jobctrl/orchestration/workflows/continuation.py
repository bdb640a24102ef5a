"""ProfileContinuationWorkflow (``profile-continuation-<24 hex>``): after a genuine profile change,
re-prepare the jobs under the new profile version (Score → Tailor → Cover → PDF per job).

One execution per delivered ``ProfileUpdated`` event (the id comes from the outbox intent, ADR 0028,
0074).  It first awaits the older intended continuations it was given (``after``), polling their status
with a short activity and a durable timer so no worker slot is held while they run, then prepares each
target job in a child ``JobPreparationWorkflow`` keyed by (job, profile version, profile event) and
awaits them all, so its own lifetime covers its preparations.  Score is asked, never forced: the
scoring step reuses a score that is still current.  A failed job preparation fails only that job.

Whatever the outcome (success, failure, cancel), its last step records ``ProfileContinuationClosed``
through an activity (ADR 0077), so the outbox never asks Temporal about it again and never restarts it
after retention purged its history.  Runs that ended before that step existed replay without it
(``workflow.patched``).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Literal

from temporalio import workflow
from temporalio.common import WorkflowIDReusePolicy
from temporalio.exceptions import WorkflowAlreadyStartedError, is_cancelled_exception

from jobctrl.activity_contracts.contracts import PreparationStep
from jobctrl.kernel.clock import now_iso
from jobctrl.orchestration.workflows import policies
from jobctrl.orchestration.workflows.ids import preparation_idempotency_key, preparation_workflow_id
from jobctrl.orchestration.workflows.lifecycle import (
    SPEND_PREFLIGHT_PATCH,
    WORKFLOW_CLOCK,
    run_with_lifecycle,
    spend_preflight,
)
from jobctrl.orchestration.workflows.preparation import JobPreparationInput, JobPreparationWorkflow

WORKFLOW_TYPE = "ProfileContinuationWorkflow"
TARGETS_ACTIVITY = "profile_continuation_targets"
STATUS_ACTIVITY = "profile_continuation_status"
CLOSED_ACTIVITY = "record_profile_continuation_closed"
#: The patch id guarding the terminal-fact step (runs that ended without it replay unchanged).
CLOSED_PATCH = "profile-continuation-closed-fact"
COHORT = "profile_continuation"
STEPS: tuple[PreparationStep, ...] = ("score", "tailor", "cover", "pdf")
POLL = timedelta(seconds=2)
#: Temporal execution statuses after which a continuation is done for good.
CLOSED_STATUSES = frozenset({"COMPLETED", "FAILED", "CANCELED", "TERMINATED", "TIMED_OUT"})


@dataclass(frozen=True)
class ProfileContinuationInput:
    tenant: str
    profile_version: int
    profile_event_id: str
    #: older intended continuations (workflow ids) to await before preparing anything
    after: list[str] = field(default_factory=list)
    heartbeat_timeout_s: float = 0.0  # 0: policies.HEARTBEAT


@dataclass(frozen=True)
class ContinuationTargetsInput:
    tenant: str
    profile_version: int


@dataclass(frozen=True)
class ContinuationTargets:
    job_ids: list[str]


@dataclass(frozen=True)
class ContinuationStatusInput:
    workflow_id: str


@dataclass(frozen=True)
class ContinuationStatus:
    status: str | None  # Temporal status name; None when absent


@dataclass(frozen=True)
class ContinuationClosedInput:
    tenant: str
    workflow_id: str
    outcome: Literal["succeeded", "failed", "canceled"]
    closed_at: str


@dataclass(frozen=True)
class ContinuationClosedResult:
    recorded: bool  # False: closed already (or never dispatched through the outbox)


@dataclass(frozen=True)
class ProfileContinuationResult:
    profile_version: int
    prepared: int
    failed: int
    already_running: int


def continuation_key(tenant: str, job_id: str, version: int, profile_event_id: str) -> str:
    return preparation_idempotency_key(tenant, job_id, COHORT, version, profile_event_id)


@workflow.defn(name=WORKFLOW_TYPE)
class ProfileContinuationWorkflow:
    @workflow.run
    async def run(self, params: ProfileContinuationInput) -> ProfileContinuationResult:
        summary = {"profileVersion": str(params.profile_version)}
        try:
            result = await run_with_lifecycle(
                WORKFLOW_TYPE, params.tenant, summary, lambda: self._continue(params)
            )
        except (asyncio.CancelledError, Exception) as exc:
            cancelled = isinstance(exc, asyncio.CancelledError) or is_cancelled_exception(exc)
            await self._closed(params, "canceled" if cancelled else "failed")
            raise
        await self._closed(params, "succeeded")
        return result

    async def _closed(
        self, params: ProfileContinuationInput, outcome: Literal["succeeded", "failed", "canceled"]
    ) -> None:
        """The terminal fact, retried until recorded: the run never closes without it."""
        if not workflow.patched(CLOSED_PATCH):
            return  # replaying a run that ended before this step existed
        await workflow.execute_activity(
            CLOSED_ACTIVITY,
            ContinuationClosedInput(
                params.tenant, workflow.info().workflow_id, outcome, now_iso(WORKFLOW_CLOCK)
            ),
            result_type=ContinuationClosedResult,
            start_to_close_timeout=policies.SHORT,
            retry_policy=policies.RECOVER,
        )

    async def _await_older(self, workflow_id: str) -> None:
        while True:
            found: ContinuationStatus = await workflow.execute_activity(
                STATUS_ACTIVITY,
                ContinuationStatusInput(workflow_id),
                result_type=ContinuationStatus,
                start_to_close_timeout=policies.SHORT,
                retry_policy=policies.LIFECYCLE,
            )
            if found.status is None or found.status in CLOSED_STATUSES:
                return
            await workflow.sleep(POLL)

    async def _continue(self, params: ProfileContinuationInput) -> ProfileContinuationResult:
        for older in params.after:
            await self._await_older(older)
        # The spend gate before anything is re-prepared, after the older continuations spent theirs
        # (one attempt, non-retryable; ADR 0110).
        if workflow.patched(SPEND_PREFLIGHT_PATCH):
            await spend_preflight(params.tenant, WORKFLOW_TYPE)
        targets: ContinuationTargets = await workflow.execute_activity(
            TARGETS_ACTIVITY,
            ContinuationTargetsInput(params.tenant, params.profile_version),
            result_type=ContinuationTargets,
            start_to_close_timeout=policies.HALF_HOUR,
            retry_policy=policies.SRC,
        )
        children = []
        already = 0
        for job_id in targets.job_ids:
            key = continuation_key(params.tenant, job_id, params.profile_version, params.profile_event_id)
            try:
                handle = await workflow.start_child_workflow(
                    JobPreparationWorkflow.run,
                    JobPreparationInput(
                        tenant=params.tenant,
                        job_id=job_id,
                        idempotency_key=key,
                        steps=list(STEPS),
                        target_version=params.profile_version,
                        cohort=COHORT,
                        heartbeat_timeout_s=params.heartbeat_timeout_s,
                    ),
                    id=preparation_workflow_id(key),
                    id_reuse_policy=WorkflowIDReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
                    parent_close_policy=workflow.ParentClosePolicy.ABANDON,
                )
            except WorkflowAlreadyStartedError:
                already += 1  # prepared (or preparing) already under this key: never redone
                continue
            children.append(handle)
        outcomes = await asyncio.gather(*children, return_exceptions=True)
        failed = sum(1 for o in outcomes if isinstance(o, BaseException))
        return ProfileContinuationResult(params.profile_version, len(outcomes) - failed, failed, already)
