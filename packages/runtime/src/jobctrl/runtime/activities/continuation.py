"""The activities of ``ProfileContinuationWorkflow``: which jobs to re-prepare after a profile change,
and the status of an older continuation it awaits (ADR 0074).

Targets come from the preparation-targets port under the ``profile_continuation`` cohort (the
composition root answers: every enriched job).
"""

from __future__ import annotations

from temporalio import activity
from temporalio.client import WorkflowExecutionStatus
from temporalio.service import RPCError, RPCStatusCode

from jobctrl.activity_contracts.errors import to_application_error
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.orchestration import (
    COHORT,
    STATUS_ACTIVITY,
    TARGETS_ACTIVITY,
    ContinuationStatus,
    ContinuationStatusInput,
    ContinuationTargets,
    ContinuationTargetsInput,
)
from jobctrl.runtime.activities.deps import ActivityDeps


class ContinuationActivities:
    def __init__(self, deps: ActivityDeps) -> None:
        self.deps = deps

    @activity.defn(name=TARGETS_ACTIVITY)
    def profile_continuation_targets(self, params: ContinuationTargetsInput) -> ContinuationTargets:
        targets = self.deps.targets.targets(params.tenant, "", COHORT)
        return ContinuationTargets([t.job_id for t in targets])

    @activity.defn(name=STATUS_ACTIVITY)
    async def profile_continuation_status(self, params: ContinuationStatusInput) -> ContinuationStatus:
        client = self.deps.client
        if client is None:
            raise to_application_error(ConfigurationError("the continuation needs a Temporal client"))
        try:
            described = await client.get_workflow_handle(params.workflow_id).describe()
        except RPCError as exc:
            if exc.status == RPCStatusCode.NOT_FOUND:
                return ContinuationStatus(None)
            raise
        status = described.status
        return ContinuationStatus(status.name if isinstance(status, WorkflowExecutionStatus) else None)
