"""Steps for orchestration/runtime_discovery.feature."""

from __future__ import annotations

import asyncio
import re

import msgspec
import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.kernel.store import Database
from jobctrl.orchestration.workflows import DiscoverWorkflow, DiscoverWorkflowInput
from jobctrl.orchestration.workflows.ids import preparation_idempotency_key, preparation_workflow_id
from jobctrl.runtime.activities.ports import PreparationTarget
from jobctrl.testing.runtime.harness import Harness
from jobctrl.testing.runtime.scenario import Scenario, until
from jobctrl.testing.runtime.server import shared_dev_server

pytestmark = [pytest.mark.temporal, pytest.mark.integration]
scenarios("orchestration/runtime_discovery.feature")


class StaticTargets:
    def __init__(self, targets: list[PreparationTarget]) -> None:
        self.list = targets

    def targets(self, tenant: str, execution_run_id: str, cohort: str) -> list[PreparationTarget]:
        return list(self.list) if cohort == "observed_this_run" else []


@pytest.fixture
def ctx(pytestconfig: pytest.Config, database: Database) -> Scenario:
    return Scenario(Harness(shared_dev_server(pytestconfig), database))


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


@given(parsers.parse('source families "{families}" where "{family}" fails with "{code}"'))
def _one_fails(ctx: Scenario, families: str, family: str, code: str) -> None:
    ctx.fakes.families = _names(families)
    ctx.fakes.failing_families[family] = (code, f"{family} answered 503")


@given(parsers.parse('source families "{families}" where every family fails with "{code}"'))
def _all_fail(ctx: Scenario, families: str, code: str) -> None:
    ctx.fakes.families = _names(families)
    for family in ctx.fakes.families:
        ctx.fakes.failing_families[family] = (code, f"{family} answered 503")


@given(parsers.parse('source families "{families}" and {count:d} eligible jobs'))
def _eligible(ctx: Scenario, families: str, count: int) -> None:
    ctx.fakes.families = _names(families)
    ctx.extra["targets"] = StaticTargets(
        [PreparationTarget(f"job-{n}", "score_job", 1, f"evt-{n}") for n in range(count)]
    )


async def _run_discover(ctx: Scenario) -> None:
    async with ctx.harness.worker(ctx.fakes.activities(), targets=ctx.extra.get("targets")) as w:
        ctx.workflow_id = f"discover-{ctx.tenant}"
        await ctx.capture(
            lambda: w.client.execute_workflow(
                DiscoverWorkflow.run,
                DiscoverWorkflowInput(tenant=ctx.tenant, family_batch_size=2),
                id=ctx.workflow_id,
                task_queue=w.task_queue,
            )
        )
        targets = ctx.extra.get("targets")
        if targets is not None:  # wait for the independent preparation roots while the worker runs
            for t in targets.list:
                key = preparation_idempotency_key(
                    ctx.tenant, t.job_id, t.kind, t.target_version, t.source_event_id
                )
                await w.client.get_workflow_handle(preparation_workflow_id(key)).result()


@when("a Discover run starts")
def _discover(ctx: Scenario) -> None:
    ctx.run(_run_discover(ctx))


@when("the same Discover facts are fanned out again")
def _again(ctx: Scenario) -> None:
    ctx.extra["first"] = ctx.result
    ctx.run(_run_discover(ctx))


@then(parsers.parse('the run succeeds listing failed family "{family}" with code "{code}"'))
def _partial(ctx: Scenario, family: str, code: str) -> None:
    assert ctx.failure is None
    assert [(f.family, f.error_code) for f in ctx.result.failed_families] == [(family, code)]


@then(parsers.parse("the progress spine ended at {done:d} of {total:d}"))
def _spine(ctx: Scenario, done: int, total: int) -> None:
    assert (ctx.result.progress_done, ctx.result.progress_total) == (done, total)


@then(parsers.parse('the pipeline steps recorded family "{bad}" as failed and "{good}" as completed'))
def _steps(ctx: Scenario, bad: str, good: str) -> None:
    rows = ctx.harness.store.read_all(types=["PipelineStepCompleted", "PipelineStepFailed"])
    seen = {(msgspec.json.decode(r.payload)["itemKey"], r.event_type) for r in rows}
    assert (bad, "PipelineStepFailed") in seen and (bad, "PipelineStepCompleted") not in seen
    assert (good, "PipelineStepCompleted") in seen
    failed = msgspec.json.decode(next(r for r in rows if r.event_type == "PipelineStepFailed").payload)
    # Exception text ("lever answered 503") never enters the step event: only the bounded code.  The
    # timestamps are left out of the search: a failedAt of ….503Z is a millisecond, not the status.
    texts = [value for key, value in failed.items() if isinstance(value, str) and not key.endswith("At")]
    assert failed["errorCode"] == "source_unavailable"
    assert not any("503" in text or "answered" in text for text in texts), texts


@then(parsers.parse('the run fails with code "{code}"'))
def _fails(ctx: Scenario, code: str) -> None:
    assert ctx.failure is not None and ctx.failure.code == code


@then(parsers.parse('the failure message names "{text}"'))
def _message(ctx: Scenario, text: str) -> None:
    assert text in ctx.failure_message


@then(parsers.parse('the run recorded "{types}"'))
def _recorded(ctx: Scenario, types: str) -> None:
    assert ctx.lifecycle_types() == types


@then(parsers.parse('the execution\'s membership was closed once, for "{reason}"'))
def _membership_closed(ctx: Scenario, reason: str) -> None:
    # The run had finished (failed) before the terminal fan-out, so only the interrupt closed it.
    rows = ctx.harness.store.read_all(types=["DiscoveryExecutionMembershipClosed"])
    closes = [(r.tenant_id, msgspec.json.decode(r.payload)) for r in rows]
    mine = [(t, p) for t, p in closes if p["execution"]["workflowId"] == ctx.workflow_id]
    assert [(t, p.get("reasonCode")) for t, p in mine] == [(ctx.tenant, reason)]


@then(parsers.parse('{count:d} preparation workflows exist with ids "prep-preparation:<sha256>"'))
def _prep_ids(ctx: Scenario, count: int) -> None:
    rows = ctx.harness.store.read_all(types=["WorkflowStarted"])
    prep = [msgspec.json.decode(r.payload) for r in rows]
    prep = [p for p in prep if p["workflowType"] == "JobPreparationWorkflow"]
    assert len(prep) == count  # the second fan-out started nothing new
    assert all(re.fullmatch(r"prep-preparation:[0-9a-f]{64}", p["workflowId"]) for p in prep)
    assert ctx.extra["first"].preparation_workflows_started == count
    assert ctx.result.preparation_workflows_started == 0


@then("every preparation workflow completed score, tailor, cover and pdf")
def _prep_done(ctx: Scenario) -> None:
    for n in range(3):
        steps = [s for (job, s) in ctx.fakes.step_calls if job == f"job-{n}"]
        assert steps == ["score", "tailor", "cover", "pdf"]


@given(parsers.parse('source families "{families}" that crawl until released'))
def _held(ctx: Scenario, families: str) -> None:
    ctx.fakes.families = _names(families)
    ctx.fakes.hold.set()


@when("a Discover run is watched while its families are released")
def _watch(ctx: Scenario) -> None:
    seen: list[tuple[int, int]] = []

    async def go() -> None:
        async with ctx.harness.worker(ctx.fakes.activities()) as w:
            handle = await w.client.start_workflow(
                DiscoverWorkflow.run,
                DiscoverWorkflowInput(tenant=ctx.tenant, family_batch_size=2),
                id=f"discover-{ctx.tenant}",
                task_queue=w.task_queue,
            )
            await until(lambda: ctx.fakes.calls["discovery_source_family"] >= 2)
            for _ in range(3):
                p = await handle.query(DiscoverWorkflow.progress)
                seen.append((p.done, p.total))
            ctx.fakes.hold.clear()
            while True:
                p = await handle.query(DiscoverWorkflow.progress)
                seen.append((p.done, p.total))
                if (await handle.describe()).close_time is not None:
                    break
                await asyncio.sleep(0.02)
            ctx.result = await handle.result()
            final = await handle.query(DiscoverWorkflow.progress)
            seen.append((final.done, final.total))

    ctx.run(go())
    ctx.extra["seen"] = seen


@then(parsers.parse("every observed progress total was {total:d}"))
def _totals(ctx: Scenario, total: int) -> None:
    assert {t for _, t in ctx.extra["seen"]} == {total}


@then(parsers.parse("the observed progress never moved backwards and ended at {done:d}"))
def _forward(ctx: Scenario, done: int) -> None:
    values = [d for d, _ in ctx.extra["seen"]]
    assert values == sorted(values) and values[-1] == done and values[0] < done
