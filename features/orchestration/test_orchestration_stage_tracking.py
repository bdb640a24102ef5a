"""Steps for features/orchestration/stage_tracking.feature, on both databases."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.activity_contracts.stage_tracking import StepOwner
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.errors import SourceUnavailableError
from jobctrl.kernel.stages import Stage
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.adapters.stage_tracker import StageTrackerService
from jobctrl.orchestration.domain.stages.states import Running, kind_of

pytestmark = pytest.mark.both_databases
scenarios("orchestration/stage_tracking.feature")


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    return db_kind


@given(parsers.parse('job "{job}" and workflow "{wf}" run "{run}"'))
def job_and_workflow(
    ctx: dict[str, Any], store: EventStore, clock: FixedClock, job: str, wf: str, run: str
) -> None:
    ctx.update(job=job, wf=wf, run=run, tracker=StageTrackerService(store, clock=clock))


def _owner(ctx: dict[str, Any], attempt: int) -> StepOwner:
    return StepOwner(ctx["wf"], ctx["run"], attempt)


@given(parsers.parse('attempt {a:d} began "{stage}"'))
@when(parsers.parse('attempt {a:d} begins "{stage}"'))
def begins(ctx: dict[str, Any], a: int, stage: Stage) -> None:
    ctx["began"] = ctx["tracker"].begin(ctx["job"], stage, _owner(ctx, a))


@when(parsers.parse('attempt {a:d} succeeds "{stage}"'))
def succeeds(ctx: dict[str, Any], a: int, stage: Stage) -> None:
    ctx["tracker"].succeed(ctx["job"], stage, _owner(ctx, a))


@given(parsers.parse('attempt {a:d} began and succeeded "{stage}"'))
def began_and_succeeded(ctx: dict[str, Any], a: int, stage: Stage) -> None:
    assert ctx["tracker"].begin(ctx["job"], stage, _owner(ctx, a))
    ctx["tracker"].succeed(ctx["job"], stage, _owner(ctx, a))


@given(parsers.parse('attempt {a:d} fails "{stage}" with "{code}"'))
def fails(ctx: dict[str, Any], a: int, stage: Stage, code: str) -> None:
    error = SourceUnavailableError("the page did not answer")
    assert error.code == code
    ctx["tracker"].fail(ctx["job"], stage, _owner(ctx, a), error)


@then(parsers.parse('"{stage}" is {kind:w}'))
def is_kind(ctx: dict[str, Any], stage: Stage, kind: str) -> None:
    assert kind_of(ctx["tracker"].service.load(ctx["job"]).state(stage)) == kind


@then(parsers.parse('"{stage}" is Running at attempt {a:d}'))
def running_at(ctx: dict[str, Any], stage: Stage, a: int) -> None:
    state = ctx["tracker"].service.load(ctx["job"]).state(stage)
    assert isinstance(state, Running) and state.attempt_count == a


@then("the tracker answers that the stage is done")
def answered_done(ctx: dict[str, Any]) -> None:
    assert ctx["began"] is False


@then(parsers.parse("the stage stream has events {names}"))
def stream_events(ctx: dict[str, Any], store: EventStore, names: str) -> None:
    stored = store.read_stream(f"stages-{ctx['job']}")
    assert [e.event_type for e in stored] == [n.strip() for n in names.split(",")]


@then(parsers.parse('every stage event names workflow "{wf}" run "{run}"'))
def owner_metadata(ctx: dict[str, Any], store: EventStore, wf: str, run: str) -> None:
    for stored in store.read_stream(f"stages-{ctx['job']}"):
        meta = msgspec.json.decode(stored.metadata)
        assert (meta.get("workflowId"), meta.get("runId")) == (wf, run), meta
