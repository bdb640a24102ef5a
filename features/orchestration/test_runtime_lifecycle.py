"""Steps for orchestration/runtime_lifecycle.feature.

A live workflow keeps one event loop (``Live``) so the worker started in a ``Given`` keeps running
across steps; the fixture closes it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import msgspec
import pytest
from pytest_bdd import given, parsers, scenarios, then, when
from temporalio.client import Client, WorkflowExecutionStatus

from jobctrl.domain_types import registry
from jobctrl.kernel.clock import SystemClock
from jobctrl.kernel.store import Database
from jobctrl.orchestration.workflows import (
    ApplyWorkflow,
    ApplyWorkflowInput,
    DiscoverWorkflow,
    DiscoverWorkflowInput,
)
from jobctrl.orchestration.workflows.ids import apply_workflow_id
from jobctrl.projections import ProjectionRunner
from jobctrl.runtime.reconcile.runs import reconcile_runs
from jobctrl.testing.runtime.harness import Harness
from jobctrl.testing.runtime.scenario import Live, Scenario, until
from jobctrl.testing.runtime.server import OTHER_NAMESPACE, shared_dev_server

pytestmark = [pytest.mark.temporal, pytest.mark.integration]
scenarios("orchestration/runtime_lifecycle.feature")


@pytest.fixture
def ctx(pytestconfig: pytest.Config, database: Database) -> Iterator[Scenario]:
    scenario = Scenario(Harness(shared_dev_server(pytestconfig), database))
    live = Live()
    scenario.extra["live"] = live
    try:
        yield scenario
    finally:
        scenario.fakes.hold.clear()
        live.close()


def _start_apply(ctx: Scenario, harness: Harness) -> None:
    live: Live = ctx.extra["live"]
    ctx.fakes.hold.set()

    async def go() -> None:
        w = await live.stack.enter_async_context(harness.worker(ctx.fakes.activities()))
        live.client = w.client
        ctx.workflow_id = apply_workflow_id(ctx.tenant, "job-1")
        live.handle = await w.client.start_workflow(
            ApplyWorkflow.run,
            ApplyWorkflowInput(tenant=ctx.tenant, job_id="job-1", dry_run=True),
            id=ctx.workflow_id,
            task_queue=w.task_queue,
        )

    live.run(go())
    live.run(until(lambda: ctx.fakes.calls["apply"] >= 1))


@given("a single-job apply that is still working")
def _working(ctx: Scenario) -> None:
    _start_apply(ctx, ctx.harness)


@given("a Discover run whose source families are still crawling")
def _crawling(ctx: Scenario) -> None:
    live: Live = ctx.extra["live"]
    ctx.fakes.hold.set()

    async def go() -> None:
        w = await live.stack.enter_async_context(ctx.harness.worker(ctx.fakes.activities()))
        ctx.workflow_id = f"discover-{ctx.tenant}"
        live.handle = await w.client.start_workflow(
            DiscoverWorkflow.run, DiscoverWorkflowInput(tenant=ctx.tenant), id=ctx.workflow_id,
            task_queue=w.task_queue,
        )  # fmt: skip
        await until(lambda: ctx.fakes.calls["discovery_source_family"] >= 2)

    live.run(go())


@given("a single-job apply running where the reconciler cannot see it")
def _elsewhere(ctx: Scenario) -> None:
    # The run lives in another namespace: a client on the default one cannot find its history.
    _start_apply(ctx, Harness(ctx.harness.address, ctx.harness.db, namespace=OTHER_NAMESPACE))


@when("the user cancels it")
def _cancel(ctx: Scenario) -> None:
    live: Live = ctx.extra["live"]
    assert live.handle is not None
    live.run(live.handle.cancel())
    live.run(until(lambda: "WorkflowCanceled" in ctx.lifecycle_types()))


@when("the run is killed without recording its outcome")
def _kill(ctx: Scenario) -> None:
    live: Live = ctx.extra["live"]
    assert live.handle is not None
    live.run(live.handle.terminate("killed by the test"))


def _reconcile(ctx: Scenario, namespace: str) -> None:
    live: Live = ctx.extra["live"]

    async def go() -> None:
        client = await Client.connect(ctx.harness.address, namespace=namespace)
        ProjectionRunner(ctx.harness.db, registry()).catch_up()  # the read model the reconciler reads
        await reconcile_runs(client, ctx.harness.store, SystemClock())

    live.run(go())


@when("the reconciler runs twice")
def _twice(ctx: Scenario) -> None:
    _reconcile(ctx, "default")
    _reconcile(ctx, "default")


@when("the reconciler runs against the wrong history")
def _wrong(ctx: Scenario) -> None:
    _reconcile(ctx, "default")
    _reconcile(ctx, "default")  # still missing: probing again adds nothing


@when("the reconciler runs against the right history")
def _right(ctx: Scenario) -> None:
    _reconcile(ctx, OTHER_NAMESPACE)


@when("the apply finishes")
def _finish(ctx: Scenario) -> None:
    live: Live = ctx.extra["live"]
    assert live.handle is not None
    ctx.fakes.hold.clear()
    live.run(live.handle.result())


@then(parsers.parse('the run recorded "{types}"'))
def _recorded(ctx: Scenario, types: str) -> None:
    assert ctx.lifecycle_types() == types


@then(parsers.parse('the terminal code is "{code}"'))
def _code(ctx: Scenario, code: str) -> None:
    assert ctx.lifecycle()[-1]["errorCode"] == code


@then(parsers.parse('the run is provisionally settled as "{code}"'))
def _provisional(ctx: Scenario, code: str) -> None:
    events = ctx.lifecycle()
    assert [e["eventType"] for e in events] == ["WorkflowStarted", "WorkflowTerminated"]
    assert events[-1]["errorCode"] == code


@then("the second WorkflowStarted is marked as recovered from missing history")
def _marked(ctx: Scenario) -> None:
    starts = [e for e in ctx.lifecycle() if e["eventType"] == "WorkflowStarted"]
    assert starts[0].get("recoveredFromMissingHistory") is None
    assert starts[1]["recoveredFromMissingHistory"] is True


@then("Temporal closed the run as canceled")
def _closed_canceled(ctx: Scenario) -> None:
    live: Live = ctx.extra["live"]
    assert live.handle is not None
    handle = live.handle

    async def status() -> WorkflowExecutionStatus | None:
        await until(lambda: True)
        for _ in range(100):
            desc = await handle.describe()
            if desc.status != WorkflowExecutionStatus.RUNNING:
                return desc.status
            await asyncio.sleep(0.05)
        return None

    assert live.run(status()) == WorkflowExecutionStatus.CANCELED


@then(parsers.parse('every started family step was closed as "{code}"'))
def _steps_closed(ctx: Scenario, code: str) -> None:
    rows = ctx.harness.store.read_all(types=["PipelineStepStarted", "PipelineStepFailed"])
    families = [msgspec.json.decode(r.payload) for r in rows if b'"source_family"' in r.payload]
    started = {f["itemKey"] for f in families if "startedAt" in f}
    failed = {f["itemKey"]: f["errorCode"] for f in families if "failedAt" in f}
    assert started and set(failed) == started
    assert set(failed.values()) == {code}
