"""The real Temporal adapter of the API's WorkflowControl port, against the local dev server."""

from __future__ import annotations

import uuid

import pytest

from jobctrl.runtime.api.workflow_control import (
    TemporalUnavailable,
    TemporalWorkflowControl,
    WorkflowAlreadyRunning,
)


@pytest.mark.asyncio
async def test_start_describe_refuse_duplicate_and_cancel(temporal_address: str) -> None:
    control = TemporalWorkflowControl(temporal_address)
    workflow_id = f"api-port-{uuid.uuid4().hex[:8]}"
    queue = f"api-port-queue-{uuid.uuid4().hex[:8]}"  # no worker polls it: the run simply stays open
    started = await control.start("DiscoverWorkflow", None, workflow_id=workflow_id, task_queue=queue)
    assert started.workflow_id == workflow_id and started.run_id
    assert await control.describe(workflow_id, started.run_id) == "RUNNING"
    with pytest.raises(WorkflowAlreadyRunning):
        await control.start("DiscoverWorkflow", None, workflow_id=workflow_id, task_queue=queue)
    await control.cancel(workflow_id, started.run_id)
    assert await control.describe("api-port-never-started", None) is None


@pytest.mark.asyncio
async def test_an_unreachable_server_is_temporal_unavailable() -> None:
    control = TemporalWorkflowControl("127.0.0.1:1", connect_timeout_s=2)
    with pytest.raises(TemporalUnavailable):
        await control.describe("anything", None)
