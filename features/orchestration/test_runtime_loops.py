"""Steps for orchestration/runtime_loops.feature (start-up and heartbeat reconcilers)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from pytest_bdd import given, parsers, scenarios, then, when
from temporalio.client import ScheduleOverlapPolicy, WorkflowExecutionStatus
from temporalio.service import RPCError, RPCStatusCode

from jobctrl.kernel.store import Database
from jobctrl.orchestration.workflows.ids import AUTO_APPLY_LOOP_ID, DISCOVERY_SCHEDULE_ID
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.settings import MutableSettings, RuntimeSettings, SavedSettings
from jobctrl.runtime.worker import WorkerRuntime
from jobctrl.testing.runtime.harness import Harness
from jobctrl.testing.runtime.scenario import Live, Scenario, until
from jobctrl.testing.runtime.server import shared_dev_server

pytestmark = [pytest.mark.temporal, pytest.mark.integration]
scenarios("orchestration/runtime_loops.feature")


@pytest.fixture
def ctx(pytestconfig: pytest.Config, database: Database, db_url: str) -> Iterator[Scenario]:
    scenario = Scenario(Harness(shared_dev_server(pytestconfig), database))
    scenario.extra["live"] = live = Live()
    # The configuration's seed, and what the worker obeys: the saved settings document over it.
    scenario.extra["seed"] = MutableSettings(RuntimeSettings())
    scenario.extra["settings"] = SavedSettings(database, scenario.extra["seed"])
    scenario.extra["db_url"] = db_url
    try:
        yield scenario
    finally:
        live.close()


def _settings(ctx: Scenario) -> MutableSettings:
    """The configuration's seed (what the worker reads until settings are saved)."""
    settings: MutableSettings = ctx.extra["seed"]
    return settings


def _save(ctx: Scenario, document: str) -> None:
    """PATCH /v1/settings on the real API over the worker's database."""
    with TestClient(create_app(ApiConfig(database_url=ctx.extra["db_url"]))) as client:
        saved = client.patch("/v1/settings", json=json.loads(document))
    assert saved.status_code == 200, saved.text


@given(parsers.parse("the settings saved through the API say {document}"))
def _saved(ctx: Scenario, document: str) -> None:
    _save(ctx, document)


@when(parsers.parse("the settings saved through the API say {document} and a heartbeat passes"))
def _saved_then_tick(ctx: Scenario, document: str) -> None:
    _save(ctx, document)
    ctx.extra["live"].run(_runtime(ctx).tick())


@when("auto apply is turned off in the configuration and a heartbeat passes")
def _auto_seed_off(ctx: Scenario) -> None:
    _settings(ctx).value = RuntimeSettings(auto_apply=False)
    ctx.extra["live"].run(_runtime(ctx).tick())


@given("auto apply is enabled in the configuration only")
def _auto_seeded(ctx: Scenario) -> None:
    _settings(ctx).value = RuntimeSettings(auto_apply=True)


def _runtime(ctx: Scenario) -> WorkerRuntime:
    runtime: WorkerRuntime | None = ctx.extra.get("runtime")
    if runtime is not None:
        return runtime
    live: Live = ctx.extra["live"]

    async def build() -> WorkerRuntime:
        w = await live.stack.enter_async_context(ctx.harness.worker(ctx.fakes.activities()))
        live.client = w.client
        return WorkerRuntime(
            client=w.client,
            db=ctx.harness.db,
            store=ctx.harness.store,
            settings=ctx.extra["settings"],
            spend=ctx.harness.spend,
            task_queue=w.task_queue,
        )

    ctx.extra["runtime"] = runtime = live.run(build())
    return runtime


@given("auto apply is enabled and today's spend is at the ceiling")
def _auto_broke(ctx: Scenario) -> None:
    # Saving the ceiling saves the settings document, which the worker then obeys over the
    # configuration's seed: auto apply is saved through the API too, as a user would.
    ctx.harness.set_spend(25.0, 25.0)  # the real ledger of the worker's tenant
    _save(ctx, '{"autoApply": true}')


@when("the worker starts up")
def _startup(ctx: Scenario) -> None:
    runtime = _runtime(ctx)
    ctx.extra["live"].run(runtime.startup())


@when("a heartbeat passes")
def _tick(ctx: Scenario) -> None:
    ctx.extra["live"].run(_runtime(ctx).tick())


async def _schedule_exists(ctx: Scenario) -> bool:
    live: Live = ctx.extra["live"]
    assert live.client is not None
    try:
        await live.client.get_schedule_handle(DISCOVERY_SCHEDULE_ID).describe()
    except RPCError as exc:
        if exc.status == RPCStatusCode.NOT_FOUND:
            return False
        raise
    return True


@then(parsers.parse('schedule "jobctrl-discovery-local" exists on cron "{cron}" skipping overlaps'))
def _schedule_ok(ctx: Scenario, cron: str) -> None:
    live: Live = ctx.extra["live"]
    assert live.client is not None
    client = live.client
    desc = live.run(client.get_schedule_handle(DISCOVERY_SCHEDULE_ID).describe())
    assert desc.schedule.policy.overlap == ScheduleOverlapPolicy.SKIP
    spec = desc.schedule.spec
    hours = [r.start for c in spec.calendars for r in c.hour]
    assert spec.cron_expressions == [cron] or hours == [int(cron.split()[1])]
    assert desc.schedule.action.id == "discover-local"


@then('schedule "jobctrl-discovery-local" still exists')
def _schedule_still(ctx: Scenario) -> None:
    assert ctx.extra["live"].run(_schedule_exists(ctx)) is True


@then('schedule "jobctrl-discovery-local" does not exist')
def _schedule_gone(ctx: Scenario) -> None:
    assert ctx.extra["live"].run(_schedule_exists(ctx)) is False


async def _loop_status(ctx: Scenario) -> tuple[WorkflowExecutionStatus | None, str]:
    live: Live = ctx.extra["live"]
    assert live.client is not None
    desc = await live.client.get_workflow_handle(AUTO_APPLY_LOOP_ID).describe()
    return desc.status, desc.run_id


@then(parsers.parse('the loop "{loop_id}" is running'))
def _running(ctx: Scenario, loop_id: str) -> None:
    status, run_id = ctx.extra["live"].run(_loop_status(ctx))
    assert status == WorkflowExecutionStatus.RUNNING
    ctx.extra["live"].run(until(lambda: ctx.fakes.calls["apply"] >= 1))
    ctx.extra["loop_run"] = run_id


@then(parsers.parse('the loop "{loop_id}" is running again'))
def _running_again(ctx: Scenario, loop_id: str) -> None:
    status, run_id = ctx.extra["live"].run(_loop_status(ctx))
    assert status == WorkflowExecutionStatus.RUNNING and run_id != ctx.extra["loop_run"]


@then(parsers.parse('the loop "{loop_id}" is canceled'))
def _canceled(ctx: Scenario, loop_id: str) -> None:
    live: Live = ctx.extra["live"]

    async def settled() -> WorkflowExecutionStatus | None:
        for _ in range(200):
            status, _ = await _loop_status(ctx)
            if status != WorkflowExecutionStatus.RUNNING:
                return status
            await asyncio.sleep(0.05)
        return None

    assert live.run(settled()) == WorkflowExecutionStatus.CANCELED
    live.run(until(lambda: "WorkflowCanceled" in ctx.lifecycle_types(AUTO_APPLY_LOOP_ID)))


@then(parsers.parse('the loop "{loop_id}" failed with "{code}"'))
def _failed(ctx: Scenario, loop_id: str, code: str) -> None:
    live: Live = ctx.extra["live"]
    live.run(until(lambda: "WorkflowFailed" in ctx.lifecycle_types(AUTO_APPLY_LOOP_ID)))
    assert ctx.lifecycle(AUTO_APPLY_LOOP_ID)[-1]["errorCode"] == code
    assert ctx.fakes.calls["apply"] == 0

    async def closed() -> tuple[WorkflowExecutionStatus | None, str]:
        # The terminal fact is written just before Temporal closes the run: wait for the close.
        for _ in range(200):
            status, run_id = await _loop_status(ctx)
            if status != WorkflowExecutionStatus.RUNNING:
                return status, run_id
            await asyncio.sleep(0.05)
        return None, ""

    status, ctx.extra["failed_run"] = live.run(closed())
    assert status == WorkflowExecutionStatus.FAILED


@then("the loop was not restarted")
def _not_restarted(ctx: Scenario) -> None:
    status, run_id = ctx.extra["live"].run(_loop_status(ctx))
    assert status == WorkflowExecutionStatus.FAILED
    assert run_id == ctx.extra["failed_run"]
