"""Steps for orchestration/runtime_spend_ceiling.feature."""

from __future__ import annotations

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from jobctrl.kernel.store import Database
from jobctrl.orchestration.workflows import (
    ContactResearchInput,
    ContactResearchWorkflow,
    DiscoverWorkflow,
    DiscoverWorkflowInput,
)
from jobctrl.testing.runtime.harness import CountingSpend, Harness
from jobctrl.testing.runtime.scenario import Scenario
from jobctrl.testing.runtime.server import shared_dev_server

pytestmark = [pytest.mark.temporal, pytest.mark.integration]
scenarios("orchestration/runtime_spend_ceiling.feature")


@pytest.fixture
def ctx(pytestconfig: pytest.Config, database: Database) -> Scenario:
    return Scenario(Harness(shared_dev_server(pytestconfig), database))


@given(parsers.parse("today's LLM spend is {spent:d} dollars against a {budget:d} dollar ceiling"))
def _spend(ctx: Scenario, spent: int, budget: int) -> None:
    ctx.harness.spend = CountingSpend(float(spent), float(budget))


@when("a Discover run starts")
def _discover(ctx: Scenario) -> None:
    async def go() -> None:
        async with ctx.harness.worker(ctx.fakes.activities()) as w:
            ctx.workflow_id = f"discover-{ctx.tenant}"
            await ctx.capture(
                lambda: w.client.execute_workflow(
                    DiscoverWorkflow.run,
                    DiscoverWorkflowInput(tenant=ctx.tenant),
                    id=ctx.workflow_id,
                    task_queue=w.task_queue,
                )
            )

    ctx.run(go())


@when("a contact research run starts")
def _contact(ctx: Scenario) -> None:
    async def go() -> None:
        async with ctx.harness.worker(ctx.fakes.activities()) as w:
            ctx.workflow_id = f"contact-research-{ctx.tenant}-task1"
            await ctx.capture(
                lambda: w.client.execute_workflow(
                    ContactResearchWorkflow.run,
                    ContactResearchInput(task_id="task1", tenant=ctx.tenant),
                    id=ctx.workflow_id,
                    task_queue=w.task_queue,
                )
            )

    ctx.run(go())


@then(parsers.parse('the run fails with code "{code}"'))
def _fails(ctx: Scenario, code: str) -> None:
    assert ctx.failure is not None and ctx.failure.code == code


@then("the run succeeds")
def _succeeds(ctx: Scenario) -> None:
    assert ctx.failure is None and ctx.result is not None


@then("the spend preflight was read exactly once")
def _once(ctx: Scenario) -> None:
    assert ctx.harness.spend.reads == 1


@then("no source was planned or crawled")
def _no_sources(ctx: Scenario) -> None:
    assert ctx.fakes.calls["plan_discovery_sources"] == 0
    assert ctx.fakes.calls["discovery_source_family"] == 0


@then("no contact extraction ran")
def _no_contact(ctx: Scenario) -> None:
    assert ctx.fakes.calls["run_contact_research"] == 0


@then(parsers.parse('the run recorded "{types}"'))
def _recorded(ctx: Scenario, types: str) -> None:
    assert ctx.lifecycle_types() == types
