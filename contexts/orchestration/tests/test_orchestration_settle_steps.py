"""Terminal reconciliation of pipeline steps (ADR 0270) writes only for a closed, not succeeded run,
only for steps that never ended, and only once."""

from __future__ import annotations

import pytest

from jobctrl.activity_contracts.contracts import PipelineStepChange
from jobctrl.domain_types import registry
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration import (
    DISCOVER_WORKFLOW_TYPE,
    record_pipeline_steps,
    record_workflow_outcome,
    record_workflow_started,
    settle_pipeline_steps,
)
from jobctrl.orchestration.events import PipelineStepFailed

AT = "2026-12-01T10:00:00Z"
EX = ExecutionRef("local", "discover-local", "run-1")


@pytest.fixture
def store(database: Database) -> EventStore:
    store = EventStore(database, registry())
    store.create_schema()
    record_workflow_started(
        store, workflow_id=EX.workflow_id, run_id=EX.temporal_run_id, workflow_type=DISCOVER_WORKFLOW_TYPE,
        tenant_id="local", started_at=AT, input_summary={},
    )  # fmt: skip
    record_pipeline_steps(store, EX, [
        PipelineStepChange("source_family", "lever", "queued", AT),
        PipelineStepChange("source_family", "ashby", "queued", AT),
        PipelineStepChange("source_family", "ashby", "started", AT),
        PipelineStepChange("source_planning", "plan", "started", AT),
        PipelineStepChange("source_planning", "plan", "completed", AT, 2),
    ])  # fmt: skip
    return store


def _close(store: EventStore, status: str, code: str | None = None) -> None:
    record_workflow_outcome(
        store, workflow_id=EX.workflow_id, run_id=EX.temporal_run_id, workflow_type=DISCOVER_WORKFLOW_TYPE,
        tenant_id="local", status=status, started_at=AT, finished_at=AT, error_code=code,
    )  # fmt: skip


def _failed(store: EventStore) -> list[PipelineStepFailed]:
    decoded = [store.registry.decode(r) for r in store.read_all(limit=1000, types=["PipelineStepFailed"])]
    return [e for e in decoded if isinstance(e, PipelineStepFailed)]


def test_an_open_run_keeps_its_steps(store: EventStore) -> None:
    assert settle_pipeline_steps(store, EX) == 0
    assert _failed(store) == []


def test_a_succeeded_run_is_never_settled(store: EventStore) -> None:
    _close(store, "succeeded")
    assert settle_pipeline_steps(store, EX) == 0
    assert _failed(store) == []


@pytest.mark.parametrize(("status", "code", "expected"), [
    ("canceled", "canceled", "canceled"),
    ("terminated", "reconciled_terminated", "reconciled_terminated"),
    ("failed", None, "failed"),  # the outcome recorder names a failure without a code "failed"
])  # fmt: skip
def test_a_closed_run_ends_each_unfinished_step_once(
    store: EventStore, status: str, code: str | None, expected: str
) -> None:
    _close(store, status, code)
    assert settle_pipeline_steps(store, EX) == 2
    assert settle_pipeline_steps(store, EX) == 0
    ended = sorted((e.step_kind, e.item_key, e.error_code, e.retryable) for e in _failed(store))
    assert ended == [("source_family", "ashby", expected, False), ("source_family", "lever", expected, False)]
    assert {e.detail.code for e in _failed(store) if e.detail} == {"terminal_reconciliation"}
