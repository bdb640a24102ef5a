"""Draining the candidate-profile outbox into Temporal (ADR 0074, 0077, 0262).

``drain_profile_outbox`` runs at worker start-up and after every profile save through the API.  The
decisions -- which continuations to describe, close, start or attach to, and in which order -- are
orchestration's ``drain_profile_outbox`` use case; this module only wires its ``ContinuationControl``
port to the runtime's ``WorkflowControl`` (the continuation's workflow type, the task queue, and a
start that never reuses an id).
"""

from __future__ import annotations

from jobctrl.kernel.clock import Clock
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration import CONTINUATION_WORKFLOW_TYPE, DrainReport, ProfileContinuationInput
from jobctrl.orchestration import drain_profile_outbox as drain_outbox
from jobctrl.runtime.api.workflow_control import WorkflowAlreadyRunning, WorkflowControl

__all__ = ["DrainReport", "TemporalContinuations", "drain_profile_outbox"]


class TemporalContinuations:
    """Orchestration's ``ContinuationControl`` over a ``WorkflowControl``."""

    def __init__(self, control: WorkflowControl, *, task_queue: str) -> None:
        self.control = control
        self.task_queue = task_queue

    async def describe(self, workflow_id: str) -> str | None:
        return await self.control.describe(workflow_id, None)

    async def start(self, workflow_id: str, arg: ProfileContinuationInput) -> bool:
        try:
            await self.control.start(
                CONTINUATION_WORKFLOW_TYPE,
                arg,
                workflow_id=workflow_id,
                task_queue=self.task_queue,
                once=True,
            )
        except WorkflowAlreadyRunning:
            return False
        return True


async def drain_profile_outbox(
    store: EventStore,
    control: WorkflowControl,
    *,
    task_queue: str,
    clock: Clock | None = None,
    tenant_id: str = LOCAL_TENANT,
) -> DrainReport:
    continuations = TemporalContinuations(control, task_queue=task_queue)
    return await drain_outbox(store, continuations, clock=clock, tenant_id=tenant_id)
