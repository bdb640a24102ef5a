"""Logs written before issue 11 (one writer per fact, ADR 0120) fold the same, and the new writers write
what the old ones wrote.

Two fixtures, both produced by the code on main before the change:
* ``lifecycle_before_issue_11.json`` — ``lifecycle_calls.json`` driven through the old runtime
  lifecycle activities and describe reconciler (starts, retries, every outcome, a provisional
  NOT_FOUND verdict and its recovery, a late outcome after it, pipeline steps with overlapping
  batches), with the ``workflow_run_projections`` and ``pipeline_step_projections`` rows the runner
  folded from it;
* ``demo_lifecycle_before_issue_11.json`` — the ``Workflow*`` / ``PipelineStep*`` rows of one
  ``make demo`` log (59 runs, one Discover execution's steps) with the demo's read-model rows.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from jobctrl.activity_contracts.contracts import (
    PipelineStepChange,
    PipelineStepsInput,
    WorkflowOutcomeInput,
    WorkflowStartedInput,
)
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock, isoformat
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import Database, EventStore
from jobctrl.kernel.store.schema import job_events
from jobctrl.orchestration import DescribedStatus, reconcile_workflow_run
from jobctrl.orchestration.activities import LifecycleActivities
from jobctrl.projections.read_models.pipeline_steps import (
    STEP_DETAIL_CODES,
    UNLISTED_CODE,
    pipeline_step_projections,
)
from jobctrl.projections.read_models.workflow_runs import workflow_run_projections
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.testing import recorded_logs as recorded

pytestmark = pytest.mark.both_databases
FIXTURES = Path(__file__).parent / "fixtures"
TABLES = (workflow_run_projections, pipeline_step_projections)


def _fixture(name: str) -> dict[str, Any]:
    return recorded.load_fixture(FIXTURES / name)


def _same_rows(actual: list[dict[str, Any]], expected: list[dict[str, Any]], table: sa.Table) -> None:
    """Equal row for row and column for column, with two deliberate changes (issue #12): a step detail
    code the old fold hid as ``unlisted`` may now be kept, if it is on the allowlist (item 9); a run
    with a cancel request now names its requester in the new ``cancel_requested_by`` column."""
    assert len(actual) == len(expected), table.name
    for row, old in zip(actual, expected, strict=True):
        got, want = row, old
        if table is pipeline_step_projections and old["detail_code"] == UNLISTED_CODE:
            assert row["detail_code"] in STEP_DETAIL_CODES | {UNLISTED_CODE}, row
            got, want = {**row, "detail_code": None}, {**old, "detail_code": None}
        if table is workflow_run_projections and "cancel_requested_by" not in old:
            assert (row["cancel_requested_by"] is None) == (row["cancel_requested_at"] is None), row
            got = {k: v for k, v in got.items() if k != "cancel_requested_by"}
        assert got == want, table.name


def _comparable(row: dict[str, Any]) -> dict[str, Any]:
    """A log row without its event id (the new writers derive ids from stream and version)."""
    meta = {k: v for k, v in json.loads(row["metadata"]).items() if k != "eventId"}
    return {**{c: row[c] for c in recorded.LOG_COLUMNS}, "metadata": meta}


@pytest.mark.parametrize("name", ["lifecycle_before_issue_11.json", "demo_lifecycle_before_issue_11.json"])
def test_a_rebuild_of_a_log_written_before_the_change_equals_its_read_models(
    database: Database, name: str
) -> None:
    fixture = _fixture(name)
    recorded.open_store(database)
    with database.write() as conn:
        conn.execute(job_events.insert(), fixture["log"])
    ProjectionRunner(database, registry(), batch_size=7).catch_up()
    for table in TABLES:
        _same_rows(recorded.table_rows(database, table), recorded.recorded_rows(fixture, table), table)


def _drive(store: EventStore, clock: FixedClock) -> None:
    """``lifecycle_calls.json`` through the production activities and the reconcile use case."""
    acts = LifecycleActivities(store, clock=clock)
    for c in json.loads((FIXTURES / "lifecycle_calls.json").read_text()):
        clock.advance(timedelta(seconds=1))
        at = isoformat(clock.now())
        if c["call"] == "started":
            acts.record_workflow_started(
                WorkflowStartedInput(c["wf"], c["run"], c["type"], "local", at, c["summary"])
            )
        elif c["call"] == "outcome":
            acts.record_workflow_outcome(
                WorkflowOutcomeInput(
                    c["wf"], c["run"], c["type"], "local", c["status"], "2026-03-01T09:00:00.000Z", at,
                    c.get("code"), c.get("message"), c.get("retryable", False),
                )
            )  # fmt: skip
        elif c["call"] == "steps":
            changes = [PipelineStepChange(k, i, t, at, n, e, r, d) for k, i, t, n, e, r, d in c["changes"]]
            acts.record_pipeline_steps(PipelineStepsInput(ExecutionRef("local", c["wf"], c["run"]), changes))
        else:
            runs = {wf: run for wf, run in _started_runs()}
            for wf, described in c["described"].items():
                reconcile_workflow_run(
                    store, workflow_id=wf, run_id=runs[wf], tenant_id="local",
                    described=DescribedStatus(described), clock=clock,
                )  # fmt: skip


def _started_runs() -> list[tuple[str, str]]:
    calls = json.loads((FIXTURES / "lifecycle_calls.json").read_text())
    return [(c["wf"], c["run"]) for c in calls if c["call"] == "started"]


def test_the_production_writers_append_what_the_old_ones_did_and_it_folds_the_same(
    database: Database,
) -> None:
    fixture = _fixture("lifecycle_before_issue_11.json")
    store = recorded.open_store(database)
    _drive(store, FixedClock(datetime(2026, 3, 1, 9, tzinfo=UTC)))
    assert [_comparable(r) for r in recorded.log_rows(database)] == [_comparable(r) for r in fixture["log"]]
    ProjectionRunner(database, registry()).catch_up()
    for table in TABLES:
        _same_rows(recorded.table_rows(database, table), recorded.recorded_rows(fixture, table), table)
