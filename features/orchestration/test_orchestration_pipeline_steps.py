"""Steps for features/orchestration/pipeline_steps.feature, on both databases."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.events import ExecutionRef, StepKind
from jobctrl.orchestration.steps.aggregate import PipelineStep, detail, step_id

pytestmark = pytest.mark.both_databases
scenarios("orchestration/pipeline_steps.feature")
AT = "2026-03-01T09:00:00.000Z"


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    return db_kind


class Step:
    def __init__(
        self, store: EventStore, clock: FixedClock, execution: ExecutionRef, kind: StepKind, item: str
    ):
        self.repo = AggregateRepository.for_class(store, PipelineStep, clock=clock)
        self.execution, self.kind, self.item = execution, kind, item
        self.id = step_id(execution, kind, item)

    def do(self, action: str, attempt: int, **kwargs: Any) -> None:
        step = self.repo.load(self.id) or PipelineStep(self.id)
        getattr(step, action)(self.execution, self.kind, self.item, attempt=attempt, at=AT, **kwargs)
        self.repo.save(step)


@given(parsers.parse('step "{kind}" item "{item}" of execution "{wf}" run "{run}"'), target_fixture="step")
def a_step(store: EventStore, clock: FixedClock, kind: StepKind, item: str, wf: str, run: str) -> Step:
    return Step(
        store, clock, ExecutionRef(tenant_id="local", workflow_id=wf, temporal_run_id=run), kind, item
    )


@given(parsers.parse("attempt {a:d} of the step started"))
def started(step: Step, a: int) -> None:
    step.do("start", a)


@given(parsers.parse("attempt {a:d} of the step completes"))
@when(parsers.parse("attempt {a:d} of the step completes"))
def completes(step: Step, a: int) -> None:
    step.do("complete", a, duration_ms=10)


@given(parsers.parse('attempt {a:d} of the step completes with detail "{code}" {n:d}'))
@when(parsers.parse('attempt {a:d} of the step completes with detail "{code}" {n:d}'))
def completes_with(step: Step, ctx: dict[str, Any], a: int, code: str, n: int) -> None:
    try:
        step.do("complete", a, detail=detail(code, n))
    except JobCtrlError as exc:
        ctx["error"] = exc


@when(parsers.parse('attempt {a:d} of the step fails with "{code}"'))
def fails(step: Step, a: int, code: str) -> None:
    step.do("fail", a, error_code=code, retryable=True)


@then(parsers.parse("the step is {phase} at attempt {a:d}"))
def phase_at(step: Step, phase: str, a: int) -> None:
    loaded = step.repo.get(step.id)
    assert (loaded.phase, loaded.attempt) == (phase, a)


@then(parsers.parse('the step is failed at attempt {a:d} with code "{code}"'))
def failed_code(step: Step, a: int, code: str) -> None:
    loaded = step.repo.get(step.id)
    assert (loaded.phase, loaded.attempt, loaded.error_code) == ("failed", a, code)


@then(parsers.parse("the step has events {names}"))
def step_events(step: Step, store: EventStore, names: str) -> None:
    rows = store.read_stream(PipelineStep.stream_id_for(step.id))
    assert [r.event_type for r in rows] == [n.strip() for n in names.split(",")]
