"""Steps for features/orchestration/stage_tracking.feature, on both databases."""

from __future__ import annotations

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

from .conftest import World

pytestmark = pytest.mark.both_databases
scenarios("orchestration/stage_tracking.feature")


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    return db_kind


@given(parsers.parse('job "{job}" and workflow "{wf}" run "{run}"'))
def job_and_workflow(world: World, store: EventStore, clock: FixedClock, job: str, wf: str, run: str) -> None:
    world.job, world.workflow_id, world.run_id = job, wf, run
    world.tracker = StageTrackerService(store, clock=clock)


def _owner(world: World, attempt: int) -> StepOwner:
    return StepOwner(world.workflow_id, world.run_id, attempt)


@given(parsers.parse('attempt {a:d} began "{stage}"'))
@when(parsers.parse('attempt {a:d} begins "{stage}"'))
def begins(world: World, a: int, stage: Stage) -> None:
    world.began = world.stage_tracker().begin(world.job, stage, _owner(world, a))


@when(parsers.parse('attempt {a:d} succeeds "{stage}"'))
def succeeds(world: World, a: int, stage: Stage) -> None:
    world.stage_tracker().succeed(world.job, stage, _owner(world, a))


@given(parsers.parse('attempt {a:d} began and succeeded "{stage}"'))
def began_and_succeeded(world: World, a: int, stage: Stage) -> None:
    assert world.stage_tracker().begin(world.job, stage, _owner(world, a))
    world.stage_tracker().succeed(world.job, stage, _owner(world, a))


@given(parsers.parse('attempt {a:d} fails "{stage}" with "{code}"'))
def fails(world: World, a: int, stage: Stage, code: str) -> None:
    error = SourceUnavailableError("the page did not answer")
    assert error.code == code
    world.stage_tracker().fail(world.job, stage, _owner(world, a), error)


@then(parsers.parse('"{stage}" is {kind:w}'))
def is_kind(world: World, stage: Stage, kind: str) -> None:
    assert kind_of(world.stage_tracker().load(world.job).state(stage)) == kind


@then(parsers.parse('"{stage}" is Running at attempt {a:d}'))
def running_at(world: World, stage: Stage, a: int) -> None:
    state = world.stage_tracker().load(world.job).state(stage)
    assert isinstance(state, Running) and state.attempt_count == a


@then("the tracker answers that the stage is done")
def answered_done(world: World) -> None:
    assert world.began is False


@then(parsers.parse("the stage stream has events {names}"))
def stream_events(world: World, store: EventStore, names: str) -> None:
    stored = store.read_stream(f"stages-{world.job}")
    assert [e.event_type for e in stored] == [n.strip() for n in names.split(",")]


@then(parsers.parse('every stage event names workflow "{wf}" run "{run}"'))
def owner_metadata(world: World, store: EventStore, wf: str, run: str) -> None:
    for stored in store.read_stream(f"stages-{world.job}"):
        meta = msgspec.json.decode(stored.metadata)
        assert (meta.get("workflowId"), meta.get("runId")) == (wf, run), meta
