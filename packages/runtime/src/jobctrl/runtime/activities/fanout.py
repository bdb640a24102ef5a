"""``discovery_preparation_fanout``: start one JobPreparationWorkflow per eligible job.

Wiring only (ADR 0261): the targets come from the preparation-targets port; orchestration's
``fan_out_preparation`` plans each child (``prep-{idempotencyKey}``), starts them through the
Temporal client below (``USE_EXISTING`` on conflict, so a retried fan-out attaches to the running
workflow) and records the plans on discovery's execution through ``record_fanout_plans``.
"""

from __future__ import annotations

from collections.abc import Sequence

from temporalio import activity
from temporalio.client import Client
from temporalio.common import WorkflowIDConflictPolicy, WorkflowIDReusePolicy
from temporalio.exceptions import WorkflowAlreadyStartedError

from jobctrl.activity_contracts.contracts import Cohort, FanoutInput, FanoutResult
from jobctrl.activity_contracts.errors import to_application_error
from jobctrl.discovery import record_fanout_plans
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.orchestration import JobPreparationInput, JobPreparationWorkflow, WorkPlan, fan_out_preparation
from jobctrl.runtime.activities.deps import ActivityDeps


class FanoutActivities:
    def __init__(self, deps: ActivityDeps) -> None:
        self.deps = deps

    @activity.defn(name="discovery_preparation_fanout")
    async def discovery_preparation_fanout(self, params: FanoutInput) -> FanoutResult:
        client = self.deps.client
        if client is None:
            raise to_application_error(ConfigurationError("the fan-out needs a Temporal client"))
        ex = params.execution
        task_queue = params.task_queue or activity.info().task_queue

        async def start(workflow_id: str, payload: JobPreparationInput) -> bool:
            return await start_preparation(client, workflow_id, payload, task_queue=task_queue)

        return await fan_out_preparation(
            self.deps.targets.targets(ex.tenant_id, ex.temporal_run_id, params.cohort),
            execution=ex,
            cohort=params.cohort,
            start=start,
            record=self._record,
            heartbeat_timeout_s=params.heartbeat_timeout_s,
            progress=activity.heartbeat,
        )

    def _record(self, execution: ExecutionRef, cohort: Cohort, plans: Sequence[WorkPlan]) -> int:
        return record_fanout_plans(self.deps.store, execution, cohort, plans, clock=self.deps.clock)


async def start_preparation(
    client: Client, workflow_id: str, payload: JobPreparationInput, *, task_queue: str
) -> bool:
    try:
        await client.start_workflow(
            JobPreparationWorkflow.run,
            payload,
            id=workflow_id,
            task_queue=task_queue,
            id_conflict_policy=WorkflowIDConflictPolicy.USE_EXISTING,
            id_reuse_policy=WorkflowIDReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
        )
    except WorkflowAlreadyStartedError:
        return False  # prepared already under this key: never redone; a failed one may rerun
    return True
