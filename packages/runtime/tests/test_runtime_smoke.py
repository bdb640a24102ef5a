from __future__ import annotations

import uuid

import pytest

from jobctrl.orchestration.workflows import ContactResearchInput, ContactResearchWorkflow
from jobctrl.testing.runtime.fakes import FakeContexts
from jobctrl.testing.runtime.harness import Harness

pytestmark = [pytest.mark.temporal, pytest.mark.integration]


@pytest.mark.asyncio
async def test_contact_research_records_started_then_completed(harness: Harness) -> None:
    fakes = FakeContexts()
    async with harness.worker(fakes.activities()) as running:
        result = await running.client.execute_workflow(
            ContactResearchWorkflow.run,
            ContactResearchInput(task_id="t1"),
            id=f"contact-research-local-{uuid.uuid4().hex}",
            task_queue=running.task_queue,
        )
    assert result.candidates == 2
    types = [e.event_type for e in running.store.read_all()]
    assert types == ["WorkflowStarted", "WorkflowCompleted"]
