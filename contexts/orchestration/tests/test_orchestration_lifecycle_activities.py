"""The lifecycle activities against the store, on SQLite and PostgreSQL: idempotent retries and
never a second terminal."""

from __future__ import annotations

import pytest

from jobctrl.activity_contracts.contracts import (
    PipelineStepChange,
    PipelineStepsInput,
    WorkflowOutcomeInput,
    WorkflowStartedInput,
)
from jobctrl.domain_types import registry
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration import load_run
from jobctrl.orchestration.activities import LifecycleActivities

pytestmark = pytest.mark.both_databases
T0, T1 = "2026-03-01T00:00:00.000Z", "2026-03-01T00:00:02.500Z"


def _activities(database: Database) -> tuple[LifecycleActivities, EventStore]:
    store = EventStore(database, registry())
    store.create_schema()
    return LifecycleActivities(store), store


def _outcome(status: str, code: str | None = None) -> WorkflowOutcomeInput:
    return WorkflowOutcomeInput(
        workflow_id="apply-local-j1", temporal_run_id="r1", workflow_type="ApplyWorkflow", tenant_id="local",
        status=status, started_at=T0, finished_at=T1, error_code=code, error_message=code,  # type: ignore[arg-type]
    )  # fmt: skip


def test_retries_append_nothing_and_a_second_terminal_is_refused(database: Database) -> None:
    acts, store = _activities(database)
    started = WorkflowStartedInput("apply-local-j1", "r1", "ApplyWorkflow", "local", T0, {"jobId": "j1"})
    acts.record_workflow_started(started)
    acts.record_workflow_started(started)  # activity retry
    acts.record_workflow_outcome(_outcome("succeeded"))
    acts.record_workflow_outcome(_outcome("succeeded"))  # activity retry
    acts.record_workflow_outcome(_outcome("failed", "late_writer"))  # a different terminal: refused
    assert [e.event_type for e in store.read_all()] == ["WorkflowStarted", "WorkflowCompleted"]
    run = load_run(store, "apply-local-j1", "r1")
    assert run is not None
    assert (run.status, run.open) == ("succeeded", False)


def test_pipeline_steps_are_idempotent_per_transition(database: Database) -> None:
    acts, store = _activities(database)
    ex = ExecutionRef("local", "discover-local", "r1")
    changes = [
        PipelineStepChange("source_family", "lever", "started", T0),
        PipelineStepChange("source_family", "lever", "failed", T1, None, "source_unavailable", True, 2500),
    ]
    acts.record_pipeline_steps(PipelineStepsInput(ex, changes[:1]))
    acts.record_pipeline_steps(PipelineStepsInput(ex, changes))  # a retry that overlaps the first
    types = [e.event_type for e in store.read_all()]
    assert types == ["PipelineStepStarted", "PipelineStepFailed"]
