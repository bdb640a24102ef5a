"""Wiring of orchestration's ``ContinuationActivities`` (ADR 0074, 0262): the targets come from the
preparation-targets port under the ``profile_continuation`` cohort (the composition root answers with
orchestration's decision: every enriched job), and the status is the runtime's one Temporal describe
(``TemporalWorkflowControl``), the same the outbox drain asks.
"""

from __future__ import annotations

from jobctrl.activity_contracts.errors import to_application_error
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.orchestration import PreparationTarget
from jobctrl.orchestration.activities import ContinuationActivities
from jobctrl.runtime.activities.deps import ActivityDeps
from jobctrl.runtime.api.workflow_control import TemporalWorkflowControl


def continuation_activities(deps: ActivityDeps) -> ContinuationActivities:
    async def describe(workflow_id: str) -> str | None:
        client = deps.client
        if client is None:
            raise to_application_error(ConfigurationError("the continuation needs a Temporal client"))
        return await TemporalWorkflowControl.for_client(client).describe(workflow_id, None)

    def targets(tenant: str, execution_run_id: str, cohort: str) -> list[PreparationTarget]:
        return deps.targets.targets(tenant, execution_run_id, cohort)  # read per call: tests rewire it

    return ContinuationActivities(targets, describe)
