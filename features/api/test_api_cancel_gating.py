"""Steps for features/api/api_cancel_gating.feature (shared steps in conftest.py)."""

from __future__ import annotations

import uuid

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.testing.runtime.api_seed import complete_run, project, start_run, step

from .conftest import World

pytestmark = pytest.mark.both_databases
scenarios("api/api_cancel_gating.feature")


@given(parsers.parse('an in-progress Discover run "{wid}"'))
def in_progress(world: World, wid: str) -> None:
    run_id = world.temporal.start_idle("DiscoverWorkflow", wid, f"nobody-{uuid.uuid4().hex[:8]}")
    world.notes["run_id"] = run_id
    start_run(world.store, wid, run_id)
    project(world.db)


@given(parsers.parse('a Discover run "{wid}" that completed with an enrichment pass still running'))
def closed_draining(world: World, wid: str) -> None:
    start_run(world.store, wid, "r1")
    step(world.store, wid, "r1", "enrichment_pass", done=False)
    complete_run(world.store, wid, "r1")
    project(world.db)


@given(parsers.parse('a Discover run "{wid}" that completed'))
def completed(world: World, wid: str) -> None:
    start_run(world.store, wid, "r1")
    complete_run(world.store, wid, "r1")
    project(world.db)


@when(parsers.parse('the operator cancels "{wid}"'))
def cancel(world: World, wid: str) -> None:
    world.call("POST", f"/v1/workflow-runs/{wid}/actions/cancel")


@then("WorkflowCancellationRequested was recorded once")
def recorded_once(world: World) -> None:
    rows = [r for r in world.store.read_all(after=0) if r.event_type == "WorkflowCancellationRequested"]
    assert len(rows) == 1


@then(parsers.parse('Temporal was asked to cancel that run of "{wid}"'))
def temporal_cancel_requested(world: World, wid: str) -> None:
    execution = world.temporal.find(wid, world.notes["run_id"])
    assert execution is not None and execution.cancel_requested, execution
