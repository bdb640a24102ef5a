"""Steps for features/orchestration/pipeline_steps.feature, on both databases: the production
``record_pipeline_steps`` activity writes, the projection runner's read model is what is read."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import pytest
import sqlalchemy as sa
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.activity_contracts.contracts import PipelineStepChange, PipelineStepsInput, StepKind
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock, isoformat
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.activities import LifecycleActivities
from jobctrl.orchestration.domain.execution_steps import ExecutionSteps
from jobctrl.projections.read_models.pipeline_steps import pipeline_step_projections
from jobctrl.projections.runner import ProjectionRunner

pytestmark = pytest.mark.both_databases
scenarios("orchestration/pipeline_steps.feature")


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    return db_kind


@dataclass
class Step:
    store: EventStore
    clock: FixedClock
    execution: ExecutionRef
    kind: StepKind
    item: str

    def report(self, transition: str, **details: object) -> None:
        self.clock.advance(timedelta(seconds=1))
        change = PipelineStepChange(self.kind, self.item, transition, isoformat(self.clock.now()), **details)  # type: ignore[arg-type]
        LifecycleActivities(self.store, clock=self.clock).record_pipeline_steps(
            PipelineStepsInput(self.execution, [change])
        )

    def batch(self, transitions: list[str]) -> None:
        at = isoformat(self.clock.now())
        changes = [PipelineStepChange(self.kind, self.item, t, at) for t in transitions]  # type: ignore[arg-type]
        LifecycleActivities(self.store, clock=self.clock).record_pipeline_steps(
            PipelineStepsInput(self.execution, changes)
        )

    def row(self) -> sa.Row[tuple[object, ...]]:
        ProjectionRunner(self.store.db, registry()).catch_up()
        t = pipeline_step_projections
        with self.store.db.read() as conn:
            return conn.execute(
                sa.select(t).where(t.c.step_kind == self.kind, t.c.item_key == self.item)
            ).one()


@given(parsers.parse('step "{kind}" item "{item}" of execution "{wf}" run "{run}"'), target_fixture="step")
def a_step(store: EventStore, clock: FixedClock, kind: StepKind, item: str, wf: str, run: str) -> Step:
    return Step(
        store, clock, ExecutionRef(tenant_id="local", workflow_id=wf, temporal_run_id=run), kind, item
    )


@given("the step started")
def started(step: Step) -> None:
    step.report("started")


@given(parsers.parse("the step completed with {n:d} items"))
def completed_with(step: Step, n: int) -> None:
    step.report("completed", item_count=n, duration_ms=10)


@when(parsers.parse('the batch "{transitions}" is reported'))
def batch(step: Step, transitions: str) -> None:
    step.batch([t.strip() for t in transitions.split(",")])


@when(parsers.parse('the step fails with "{code}"'))
def fails(step: Step, code: str) -> None:
    step.report("failed", error_code=code, retryable=True, duration_ms=10)


@then(parsers.parse("the execution has events {names}"))
def execution_events(step: Step, names: str) -> None:
    rows = step.store.read_stream(ExecutionSteps.stream_id_for(step.execution.temporal_run_id))
    assert [r.event_type for r in rows] == [n.strip() for n in names.split(",")]


@then(parsers.re(r"the step shows (?P<status>[a-z]+)$"))
def shows(step: Step, status: str) -> None:
    assert step.row().status == status


@then(parsers.parse("the step shows succeeded with {n:d} items"))
def shows_items(step: Step, n: int) -> None:
    row = step.row()
    assert (row.status, row.detail_item_count, row.error_code) == ("succeeded", n, None)


@then("the step shows running with its queued and started times")
def shows_times(step: Step) -> None:
    row = step.row()
    assert row.status == "running" and row.queued_at is not None and row.started_at is not None


@then(parsers.parse('the step shows failed with code "{code}"'))
def shows_code(step: Step, code: str) -> None:
    row = step.row()
    assert (row.status, row.error_code) == ("failed", code)
