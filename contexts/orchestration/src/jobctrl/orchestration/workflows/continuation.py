"""ProfileContinuationWorkflow (``profile-continuation-<24 hex>``): after a genuine profile change,
re-prepare the jobs under the new profile version (Score → Tailor → Cover → PDF per job).

One execution per delivered ``ProfileUpdated`` event (the id comes from the outbox intent, ADR 0028).
It only fans out: each job runs in its own ``JobPreparationWorkflow`` keyed by (job, profile version,
profile event), so a retried fan-out attaches instead of duplicating.  Score is asked, never forced:
the scoring step reuses a score that is still current for posting, profile version and policy.
"""

from __future__ import annotations

from dataclasses import dataclass

from temporalio import workflow

from jobctrl.orchestration.workflows import policies
from jobctrl.orchestration.workflows.contracts import FanoutResult
from jobctrl.orchestration.workflows.lifecycle import run_with_lifecycle

WORKFLOW_TYPE = "ProfileContinuationWorkflow"
FANOUT_ACTIVITY = "profile_continuation_fanout"


@dataclass(frozen=True)
class ProfileContinuationInput:
    tenant: str
    profile_version: int
    profile_event_id: str
    task_queue: str = ""  # "" = this workflow's own task queue
    heartbeat_timeout_s: float = 0.0  # 0: policies.HEARTBEAT


@workflow.defn(name=WORKFLOW_TYPE)
class ProfileContinuationWorkflow:
    @workflow.run
    async def run(self, params: ProfileContinuationInput) -> FanoutResult:
        summary = {"profileVersion": str(params.profile_version)}
        return await run_with_lifecycle(WORKFLOW_TYPE, params.tenant, summary, lambda: self._fanout(params))

    async def _fanout(self, params: ProfileContinuationInput) -> FanoutResult:
        task_queue = params.task_queue or workflow.info().task_queue
        result: FanoutResult = await workflow.execute_activity(
            FANOUT_ACTIVITY,
            ProfileContinuationInput(
                params.tenant,
                params.profile_version,
                params.profile_event_id,
                task_queue,
                params.heartbeat_timeout_s,
            ),
            result_type=FanoutResult,
            start_to_close_timeout=policies.HALF_HOUR,
            heartbeat_timeout=policies.heartbeat(params.heartbeat_timeout_s),
            retry_policy=policies.SRC,
        )
        return result
