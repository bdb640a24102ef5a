"""``discovery_preparation_fanout``: start one JobPreparationWorkflow per eligible job.

Each start uses the deterministic id ``prep-{idempotencyKey}`` with ``USE_EXISTING`` on conflict, so
a retried fan-out (or a second Discover pass over the same facts) attaches to the running workflow
instead of starting a duplicate.  Targets come from a port (the orchestration context's
``derive_preparation_targets`` at integration).
"""

from __future__ import annotations

from temporalio import activity
from temporalio.common import WorkflowIDConflictPolicy, WorkflowIDReusePolicy
from temporalio.exceptions import WorkflowAlreadyStartedError

from jobctrl.kernel.errors import ConfigurationError
from jobctrl.orchestration.workflows.contracts import ExecutionRef, FanoutInput, FanoutResult
from jobctrl.orchestration.workflows.errors import to_application_error
from jobctrl.orchestration.workflows.ids import preparation_idempotency_key, preparation_workflow_id
from jobctrl.orchestration.workflows.preparation import JobPreparationInput, JobPreparationWorkflow
from jobctrl.runtime.activities.deps import ActivityDeps

BATCH = 25


class FanoutActivities:
    def __init__(self, deps: ActivityDeps) -> None:
        self.deps = deps

    @activity.defn(name="discovery_preparation_fanout")
    async def discovery_preparation_fanout(self, params: FanoutInput) -> FanoutResult:
        client = self.deps.client
        if client is None:
            raise to_application_error(ConfigurationError("the fan-out needs a Temporal client"))
        ex = params.execution
        targets = self.deps.targets.targets(ex.tenant_id, ex.temporal_run_id, params.cohort)
        task_queue = params.task_queue or activity.info().task_queue
        started = already = 0
        for n, target in enumerate(targets, start=1):
            key = preparation_idempotency_key(
                ex.tenant_id, target.job_id, target.kind, target.target_version, target.source_event_id
            )
            steps = (
                ["score", "tailor", "cover", "pdf"]
                if target.kind == "score_job"
                else ["tailor", "cover", "pdf"]
            )
            try:
                await client.start_workflow(
                    JobPreparationWorkflow.run,
                    JobPreparationInput(
                        tenant=ex.tenant_id,
                        job_id=target.job_id,
                        idempotency_key=key,
                        steps=steps,  # type: ignore[arg-type]
                        target_version=target.target_version,
                        execution=ExecutionRef(ex.tenant_id, ex.workflow_id, ex.temporal_run_id),
                        cohort=params.cohort,
                        heartbeat_timeout_s=params.heartbeat_timeout_s,
                    ),
                    id=preparation_workflow_id(key),
                    task_queue=task_queue,
                    id_conflict_policy=WorkflowIDConflictPolicy.USE_EXISTING,
                    id_reuse_policy=WorkflowIDReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
                )
            except WorkflowAlreadyStartedError:
                already += 1  # prepared already under this key: never redone; a failed one may rerun
                continue
            started += 1
            if n % BATCH == 0:
                activity.heartbeat(n)
        return FanoutResult(started_workflows=started, not_eligible=0, already_prepared=already)
