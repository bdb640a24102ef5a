"""The discovery schedule ``jobctrl-discovery-local``: reconciled from settings only at worker
start-up (a setting change needs a worker restart, as in the reference)."""

from __future__ import annotations

from enum import Enum

from temporalio.client import (
    Client,
    Schedule,
    ScheduleActionStartWorkflow,
    ScheduleAlreadyRunningError,
    ScheduleOverlapPolicy,
    SchedulePolicy,
    ScheduleSpec,
    ScheduleUpdate,
    ScheduleUpdateInput,
)
from temporalio.service import RPCError, RPCStatusCode

from jobctrl.orchestration import (
    DISCOVERY_SCHEDULE_ID,
    DiscoverWorkflow,
    DiscoverWorkflowInput,
    discover_workflow_id,
)
from jobctrl.runtime.settings import RuntimeSettings


class ScheduleAction(Enum):
    CREATED = "created"
    UPDATED = "updated"
    DELETED = "deleted"
    ABSENT = "absent"


def _schedule(settings: RuntimeSettings, task_queue: str, tenant: str) -> Schedule:
    return Schedule(
        action=ScheduleActionStartWorkflow(
            DiscoverWorkflow.run,
            DiscoverWorkflowInput(tenant=tenant),
            id=discover_workflow_id(tenant),
            task_queue=task_queue,
        ),
        spec=ScheduleSpec(cron_expressions=[settings.schedule_cron]),
        policy=SchedulePolicy(overlap=ScheduleOverlapPolicy.SKIP),
    )


async def reconcile_discovery_schedule(
    client: Client, settings: RuntimeSettings, task_queue: str, tenant: str = "local"
) -> ScheduleAction:
    handle = client.get_schedule_handle(DISCOVERY_SCHEDULE_ID)
    if not settings.scheduling_enabled:
        try:
            await handle.delete()
        except RPCError as exc:
            if exc.status == RPCStatusCode.NOT_FOUND:
                return ScheduleAction.ABSENT
            raise
        return ScheduleAction.DELETED
    schedule = _schedule(settings, task_queue, tenant)
    try:
        await client.create_schedule(DISCOVERY_SCHEDULE_ID, schedule)
        return ScheduleAction.CREATED
    except ScheduleAlreadyRunningError:

        def _replace(_: ScheduleUpdateInput) -> ScheduleUpdate:
            return ScheduleUpdate(schedule=schedule)

        await handle.update(_replace)
        return ScheduleAction.UPDATED
