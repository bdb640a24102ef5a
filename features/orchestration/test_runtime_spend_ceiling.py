"""Steps for orchestration/runtime_spend_ceiling.feature: the real ``check_spend_budget`` activity over
the real ledger (``Harness.spend``), on the dev server; only the context activities are fakes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when
from temporalio.client import Client

from jobctrl.kernel.store import Database
from jobctrl.orchestration.workflows import (
    ApplyWorkflow,
    ApplyWorkflowInput,
    ContactResearchInput,
    ContactResearchWorkflow,
    DiscoverWorkflow,
    DiscoverWorkflowInput,
    JobPreparationInput,
    JobPreparationWorkflow,
    ProfileContinuationInput,
    ProfileContinuationWorkflow,
)
from jobctrl.runtime.activities.ports import PreparationTarget
from jobctrl.testing.runtime.harness import Harness, activity_attempts
from jobctrl.testing.runtime.scenario import Scenario
from jobctrl.testing.runtime.server import shared_dev_server

pytestmark = [pytest.mark.temporal, pytest.mark.integration]
scenarios("orchestration/runtime_spend_ceiling.feature")

#: the activities that spend (an LLM call, a crawl, a browser), by workflow type
PAID = {
    "Discover": ("plan_discovery_sources", "discovery_source_family"),
    "JobPreparation": ("score_job", "tailor_job", "cover_letter", "render_pdf"),
    "ProfileContinuation": ("score_job", "tailor_job", "cover_letter", "render_pdf"),
    "Apply": ("apply",),
    "ContactResearch": ("run_contact_research",),
}
ALL_PAID = sorted({name for names in PAID.values() for name in names})


class OneJob:
    """The targets port of a profile continuation: one enriched job to re-prepare."""

    def targets(self, tenant: str, execution_run_id: str, cohort: str) -> list[PreparationTarget]:
        return (
            [PreparationTarget("job-1", "score_job", None, "e1")] if cohort == "profile_continuation" else []
        )


@pytest.fixture
def ctx(pytestconfig: pytest.Config, database: Database) -> Scenario:
    return Scenario(Harness(shared_dev_server(pytestconfig), database))


@given(parsers.parse("today's LLM spend is {spent:d} dollars against a {budget:d} dollar ceiling"))
def _spend(ctx: Scenario, spent: int, budget: int) -> None:
    ctx.harness.set_spend(float(spent), float(budget), ctx.tenant)


@given(parsers.parse('tenant "{other}" spent {spent:d} dollars today against a {budget:d} dollar ceiling'))
def _other_tenant(ctx: Scenario, other: str, spent: int, budget: int) -> None:
    ctx.harness.set_spend(float(spent), float(budget), other)


def _start(ctx: Scenario, kind: str, client: Client, queue: str) -> Callable[[], Awaitable[Any]]:
    tenant = ctx.tenant
    if kind == "Discover":
        ctx.workflow_id = f"discover-{tenant}"
        return lambda: client.execute_workflow(
            DiscoverWorkflow.run, DiscoverWorkflowInput(tenant=tenant), id=ctx.workflow_id, task_queue=queue
        )
    if kind == "JobPreparation":
        ctx.workflow_id = f"prep-{tenant}-job-1"
        return lambda: client.execute_workflow(
            JobPreparationWorkflow.run,
            JobPreparationInput(tenant=tenant, job_id="job-1", idempotency_key=f"k-{tenant}"),
            id=ctx.workflow_id,
            task_queue=queue,
        )
    if kind == "ProfileContinuation":
        ctx.workflow_id = f"profile-continuation-{tenant}"
        return lambda: client.execute_workflow(
            ProfileContinuationWorkflow.run,
            ProfileContinuationInput(tenant=tenant, profile_version=2, profile_event_id=f"ev-{tenant}"),
            id=ctx.workflow_id,
            task_queue=queue,
        )
    if kind == "Apply":
        ctx.workflow_id = f"apply-{tenant}-job-1"
        return lambda: client.execute_workflow(
            ApplyWorkflow.run, ApplyWorkflowInput(tenant=tenant, job_id="job-1"), id=ctx.workflow_id,
            task_queue=queue,
        )  # fmt: skip
    assert kind == "ContactResearch", kind
    ctx.workflow_id = f"contact-research-{tenant}-task1"
    return lambda: client.execute_workflow(
        ContactResearchWorkflow.run,
        ContactResearchInput(task_id="task1", tenant=tenant),
        id=ctx.workflow_id,
        task_queue=queue,
    )


@when(parsers.parse("a {kind} run starts"))
def _run(ctx: Scenario, kind: str) -> None:
    ctx.extra["kind"] = kind

    async def go() -> None:
        async with ctx.harness.worker(ctx.fakes.activities(), targets=OneJob()) as w:
            await ctx.capture(_start(ctx, kind, w.client, w.task_queue))
            ctx.extra["preflights"] = await activity_attempts(w.client, ctx.workflow_id, "check_spend_budget")

    ctx.run(go())


@then(parsers.parse('the run fails with code "{code}"'))
def _fails(ctx: Scenario, code: str) -> None:
    assert ctx.failure is not None and ctx.failure.code == code, (ctx.failure, ctx.failure_message)


@then("the run succeeds")
def _succeeds(ctx: Scenario) -> None:
    assert ctx.failure is None and ctx.result is not None, (ctx.failure, ctx.failure_message)


@then("the spend preflight ran exactly once")
def _once(ctx: Scenario) -> None:
    assert ctx.extra["preflights"] == 1


@then("no paid work started")
def _no_paid_work(ctx: Scenario) -> None:
    assert {name: ctx.fakes.calls[name] for name in ALL_PAID} == dict.fromkeys(ALL_PAID, 0)


@then("its paid work ran")
def _paid_work(ctx: Scenario) -> None:
    for name in PAID[ctx.extra["kind"]]:
        assert ctx.fakes.calls[name] >= 1, name


@then(parsers.parse('the run recorded "{types}"'))
def _recorded(ctx: Scenario, types: str) -> None:
    assert ctx.lifecycle_types() == types
