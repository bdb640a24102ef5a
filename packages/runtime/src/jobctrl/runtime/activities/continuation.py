"""``profile_continuation_fanout``: start one JobPreparationWorkflow per job after a profile change.

Targets come from the preparation-targets port under the ``profile_continuation`` cohort.  Each job's
key covers (tenant, job, ``profile_continuation``, profile version, profile event id): a retried
fan-out, or a re-attached continuation, finds the same ``prep-{key}`` ids and attaches
(``USE_EXISTING``); a succeeded one is never redone, a failed one may rerun from its failed step.
"""

from __future__ import annotations

from temporalio import activity
from temporalio.common import WorkflowIDConflictPolicy, WorkflowIDReusePolicy
from temporalio.exceptions import WorkflowAlreadyStartedError

from jobctrl.kernel.errors import ConfigurationError
from jobctrl.orchestration.workflows.continuation import FANOUT_ACTIVITY, ProfileContinuationInput
from jobctrl.orchestration.workflows.contracts import FanoutResult, PreparationStep
from jobctrl.orchestration.workflows.errors import to_application_error
from jobctrl.orchestration.workflows.ids import preparation_idempotency_key, preparation_workflow_id
from jobctrl.orchestration.workflows.preparation import JobPreparationInput, JobPreparationWorkflow
from jobctrl.runtime.activities.deps import ActivityDeps

COHORT = "profile_continuation"
KIND = "profile_continuation"
#: Score is asked, not forced: the scoring step reuses a score still current for the new version.
STEPS: list[PreparationStep] = ["score", "tailor", "cover", "pdf"]
BATCH = 25


class ContinuationActivities:
    def __init__(self, deps: ActivityDeps) -> None:
        self.deps = deps

    @activity.defn(name=FANOUT_ACTIVITY)
    async def profile_continuation_fanout(self, params: ProfileContinuationInput) -> FanoutResult:
        client = self.deps.client
        if client is None:
            raise to_application_error(ConfigurationError("the continuation needs a Temporal client"))
        targets = self.deps.targets.targets(params.tenant, "", COHORT)
        task_queue = params.task_queue or activity.info().task_queue
        started = already = 0
        for n, target in enumerate(targets, start=1):
            key = preparation_idempotency_key(
                params.tenant, target.job_id, KIND, params.profile_version, params.profile_event_id
            )
            try:
                await client.start_workflow(
                    JobPreparationWorkflow.run,
                    JobPreparationInput(
                        tenant=params.tenant,
                        job_id=target.job_id,
                        idempotency_key=key,
                        steps=list(STEPS),
                        target_version=params.profile_version,
                        cohort=COHORT,
                        heartbeat_timeout_s=params.heartbeat_timeout_s,
                    ),
                    id=preparation_workflow_id(key),
                    task_queue=task_queue,
                    id_conflict_policy=WorkflowIDConflictPolicy.USE_EXISTING,
                    id_reuse_policy=WorkflowIDReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
                )
            except WorkflowAlreadyStartedError:
                already += 1
                continue
            started += 1
            if n % BATCH == 0:
                activity.heartbeat(n)
        return FanoutResult(started_workflows=started, not_eligible=0, already_prepared=already)
