"""The activities of ``ProfileContinuationWorkflow``: which jobs to re-prepare after a profile change,
and the status of an older continuation it awaits (ADR 0074).

Wiring only (ADR 0262): the targets come from the preparation-targets port under the
``profile_continuation`` cohort (the composition root answers with orchestration's decision: every
enriched job), and the status is the runtime's one Temporal describe (``TemporalWorkflowControl``),
the same the outbox drain asks.
"""

from __future__ import annotations

from temporalio import activity

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
from jobctrl.runtime.api.workflow_control import TemporalWorkflowControl


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
        return ContinuationStatus(
            await TemporalWorkflowControl.for_client(client).describe(params.workflow_id, None)
        )
