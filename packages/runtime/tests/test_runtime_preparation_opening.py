"""A preparation opens with one local activity (ADR 0391), on the real dev server with the real
generic activities (the started record and the spend gate over the test's database) and the fakes'
checkpoint: its first workflow task records the patch and one ``open_preparation`` marker and
schedules the first step, and what the three parts did is what they did as three local activities."""

from __future__ import annotations

import json

import msgspec
import pytest
from temporalio.api.enums.v1 import EventType
from temporalio.api.history.v1 import HistoryEvent

from jobctrl.activity_contracts.contracts import PreparationCheckpoint, SpendCheckInput, WorkflowStartedInput
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.orchestration import LIFECYCLE_TYPES
from jobctrl.orchestration.workflows import JobPreparationInput, JobPreparationWorkflow
from jobctrl.orchestration.workflows.preparation import OPEN_ONCE_PATCH
from jobctrl.runtime.activities.opening import OPEN_PREPARATION, open_preparation_activity
from jobctrl.testing.runtime.fakes import FakeContexts
from jobctrl.testing.runtime.harness import Harness

pytestmark = [pytest.mark.temporal, pytest.mark.integration]


def _first_task_commands(events: list[HistoryEvent]) -> list[str]:
    """What the first workflow task's completion wrote: each marker's name (a patch's id, a local
    activity's type) and each scheduled activity's type, up to the next server event."""
    first = next(
        i for i, e in enumerate(events) if e.event_type == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED
    )
    out: list[str] = []
    for event in events[first + 1 :]:
        if event.HasField("marker_recorded_event_attributes"):
            details = event.marker_recorded_event_attributes.details
            key = "patch-data" if "patch-data" in details else "data"
            data = json.loads(details[key].payloads[0].data)
            out.append(data.get("id") or data["activity_type"])
        elif event.HasField("activity_task_scheduled_event_attributes"):
            out.append(event.activity_task_scheduled_event_attributes.activity_type.name)
            break
        elif event.event_type != EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES:
            break
    return out


def _lifecycle(harness: Harness, workflow_id: str) -> list[str]:
    rows = harness.store.read_all(types=LIFECYCLE_TYPES, limit=10_000)
    return [r.event_type for r in rows if msgspec.json.decode(r.payload)["workflowId"] == workflow_id]


@pytest.mark.asyncio
async def test_the_first_task_opens_with_one_local_activity_and_schedules_the_first_step(
    harness: Harness,
) -> None:
    fakes = FakeContexts()
    async with harness.worker(fakes.activities()) as w:
        handle = await w.client.start_workflow(
            JobPreparationWorkflow.run,
            JobPreparationInput(tenant="local", job_id="job-o", idempotency_key="k-open"),
            id="prep-k-open",
            task_queue=w.task_queue,
        )
        result = await handle.result()
        events = list((await handle.fetch_history()).events)
    assert _first_task_commands(events) == [OPEN_ONCE_PATCH, OPEN_PREPARATION, "score_job"]
    assert result.completed_steps == ["score", "tailor", "cover", "pdf"]
    # The started record ran (first) and the outcome after the steps: the facts of three local activities.
    assert _lifecycle(harness, "prep-k-open") == ["WorkflowStarted", "WorkflowCompleted"]
    tasks = sum(1 for e in events if e.event_type == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)
    assert tasks == 5  # one per step's completion and the first: as many as a no-op workflow's


@pytest.mark.asyncio
async def test_the_opening_returns_the_checkpoint_a_rerun_resumes_from(harness: Harness) -> None:
    fakes = FakeContexts()
    fakes.completed["k-resume"] = ["score", "tailor"]
    async with harness.worker(fakes.activities()) as w:
        result = await w.client.execute_workflow(
            JobPreparationWorkflow.run,
            JobPreparationInput(tenant="local", job_id="job-s", idempotency_key="k-resume"),
            id="prep-k-resume",
            task_queue=w.task_queue,
        )
    assert result.resumed_after == ["score", "tailor"] and result.completed_steps == ["cover", "pdf"]
    assert [step for _job, step in fakes.step_calls] == ["cover", "pdf"]


def _checkpoint(_params: object) -> PreparationCheckpoint:
    return PreparationCheckpoint([])


def test_an_opening_without_its_parts_is_refused_at_build() -> None:
    with pytest.raises(ConfigurationError, match="check_spend_budget, load_preparation_checkpoint"):
        open_preparation_activity({"record_workflow_started": _checkpoint})


def test_an_async_part_is_refused_at_build() -> None:
    async def gate(_params: SpendCheckInput) -> None:
        return None

    def started(_params: WorkflowStartedInput) -> None:
        return None

    with pytest.raises(ConfigurationError, match="async: check_spend_budget"):
        open_preparation_activity(
            {
                "record_workflow_started": started,
                "check_spend_budget": gate,
                "load_preparation_checkpoint": _checkpoint,
            }
        )
