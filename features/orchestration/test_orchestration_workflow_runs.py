"""Steps for features/orchestration/workflow_runs.feature, on both databases: the production lifecycle
activities, reconcile and cancel use cases write; the projection runner's read model is what is read."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import timedelta

import msgspec
import pytest
import sqlalchemy as sa
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.activity_contracts.contracts import WorkflowOutcomeInput, WorkflowStartedInput
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock, isoformat
from jobctrl.kernel.events import StoredEvent
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration import (
    DescribedStatus,
    WorkflowRun,
    reconcile_workflow_run,
    request_workflow_cancellation,
)
from jobctrl.orchestration.activities import LifecycleActivities
from jobctrl.orchestration.domain.workflow_run import run_key
from jobctrl.orchestration.events import WorkflowStarted
from jobctrl.projections.read_models.workflow_runs import workflow_run_projections
from jobctrl.projections.runner import ProjectionRunner

pytestmark = pytest.mark.both_databases
scenarios("orchestration/workflow_runs.feature")
STARTED_AT = "2026-03-01T09:00:00.000Z"


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    return db_kind


@dataclass
class Runs:
    store: EventStore
    clock: FixedClock
    types: dict[str, str] = field(default_factory=dict)
    current: dict[str, str] = field(default_factory=dict)  # workflow id -> its latest run id

    @property
    def activities(self) -> LifecycleActivities:
        return LifecycleActivities(self.store, clock=self.clock)

    def tick(self) -> str:
        self.clock.advance(timedelta(seconds=1))
        return isoformat(self.clock.now())

    def start(self, wf: str, run: str, wtype: str, summary: dict[str, str]) -> None:
        self.types[wf], self.current[wf] = wtype, run
        self.activities.record_workflow_started(
            WorkflowStartedInput(wf, run, wtype, "local", self.tick(), summary)
        )

    def outcome(self, wf: str, run: str, status: str, code: str | None = None) -> None:
        params = WorkflowOutcomeInput(wf, run, self.types[wf], "local", status, STARTED_AT, self.tick(), code)  # type: ignore[arg-type]
        self.activities.record_workflow_outcome(params)

    def events(self, wf: str, run: str) -> list[StoredEvent]:
        return self.store.read_stream(WorkflowRun.stream_id_for(run_key(wf, run)))

    def row(self, wf: str) -> sa.Row[tuple[object, ...]]:
        ProjectionRunner(self.store.db, registry()).catch_up()
        t = workflow_run_projections
        with self.store.db.read() as conn:
            return conn.execute(sa.select(t).where(t.c.tenant_id == "local", t.c.workflow_id == wf)).one()


@pytest.fixture
def runs(store: EventStore, clock: FixedClock) -> Runs:
    return Runs(store, clock)


@given(parsers.parse('workflow "{wf}" run "{run}" was started'))
@when(parsers.parse('workflow "{wf}" run "{run}" is started again'))
def started(runs: Runs, wf: str, run: str) -> None:
    runs.start(wf, run, "JobPreparationWorkflow", {"jobId": "job-1", "steps": "score,tailor"})


@when(parsers.parse('workflow "{wf}" run "{run}" is started with input {summary}'))
def started_with(runs: Runs, wf: str, run: str, summary: str) -> None:
    runs.start(wf, run, "DiscoverWorkflow", json.loads(summary))


@given(parsers.parse('workflow "{wf}" run "{run}" succeeded'))
def succeeded(runs: Runs, wf: str, run: str) -> None:
    runs.outcome(wf, run, "succeeded")


@when(parsers.parse('workflow "{wf}" run "{run}" reports failure "{code}"'))
def reports_failure(runs: Runs, wf: str, run: str, code: str) -> None:
    runs.outcome(wf, run, "failed", code)


@when(parsers.parse('a cancel for workflow "{wf}" run "{run}" is requested'))
def cancel(runs: Runs, wf: str, run: str) -> None:
    assert request_workflow_cancellation(
        runs.store, workflow_id=wf, run_id=run, workflow_type=runs.types[wf], tenant_id="local",
        now=runs.clock.now(),
    )  # fmt: skip


@given(parsers.parse('the reconciler found workflow "{wf}" {described}'))
@when(parsers.parse('the reconciler finds workflow "{wf}" {described}'))
def reconciler(runs: Runs, wf: str, described: str) -> None:
    runs.tick()
    reconcile_workflow_run(
        runs.store, workflow_id=wf, run_id=runs.current[wf], tenant_id="local",
        described=DescribedStatus(described), clock=runs.clock,
    )  # fmt: skip


@then(parsers.parse('run "{run}" of workflow "{wf}" has events {names}'))
def has_events(runs: Runs, wf: str, run: str, names: str) -> None:
    assert [r.event_type for r in runs.events(wf, run)] == [n.strip() for n in names.split(",")]


@then(parsers.re(r'workflow "(?P<wf>[^"]+)" is (?P<status>[a-z_]+)$'))
def is_status(runs: Runs, wf: str, status: str) -> None:
    assert runs.row(wf).status == status


@then(parsers.parse('workflow "{wf}" is {status} with code "{code}"'))
def status_code(runs: Runs, wf: str, status: str, code: str) -> None:
    row = runs.row(wf)
    assert (row.status, row.error_code or "none") == (status, code)


@then(parsers.parse('workflow "{wf}" shows run "{run}" with no cancel requested'))
def no_cancel(runs: Runs, wf: str, run: str) -> None:
    row = runs.row(wf)
    assert (row.run_id, row.cancel_requested_at) == (run, None)


@then(parsers.parse('no event of run "{run}" of workflow "{wf}" mentions "{text}"'))
def no_mention(runs: Runs, wf: str, run: str, text: str) -> None:
    assert all(text not in r.payload.decode() for r in runs.events(wf, run))


@then(parsers.parse('the start of run "{run}" of workflow "{wf}" summarizes {summary}'))
def summarizes(runs: Runs, wf: str, run: str, summary: str) -> None:
    first = msgspec.json.decode(runs.events(wf, run)[0].payload)
    assert first["inputSummary"] == json.loads(summary)


@then(
    parsers.parse('the last start of run "{run}" of workflow "{wf}" is marked recovered from missing history')
)
def recovered(runs: Runs, wf: str, run: str) -> None:
    starts = [r for r in runs.events(wf, run) if r.event_type == "WorkflowStarted"]
    event = runs.store.registry.decode(starts[-1])
    assert isinstance(event, WorkflowStarted) and event.recovered_from_missing_history is True
    assert starts[-1].meta().run_id == run
