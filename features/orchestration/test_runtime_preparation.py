"""Steps for orchestration/runtime_preparation.feature."""

from __future__ import annotations

import asyncio

import pytest
from pytest_bdd import given, parsers, scenarios, then, when
from temporalio.client import WorkflowFailureError

from jobctrl.kernel.store import Database
from jobctrl.orchestration.workflows import JobPreparationInput, JobPreparationWorkflow
from jobctrl.orchestration.workflows.errors import failure_of
from jobctrl.orchestration.workflows.ids import preparation_idempotency_key, preparation_workflow_id
from jobctrl.testing.runtime.harness import Harness
from jobctrl.testing.runtime.scenario import Scenario
from jobctrl.testing.runtime.server import shared_dev_server

pytestmark = [pytest.mark.temporal, pytest.mark.integration]
scenarios("orchestration/runtime_preparation.feature")


@pytest.fixture
def ctx(pytestconfig: pytest.Config, database: Database) -> Scenario:
    return Scenario(Harness(shared_dev_server(pytestconfig), database))


def _jobs(text: str) -> list[str]:
    return [j.strip().strip('"') for j in text.replace(" and ", ",").split(",") if j.strip()]


@given(parsers.parse('jobs {jobs} where "{job}" fails at "{step}"'))
def _failing(ctx: Scenario, jobs: str, job: str, step: str) -> None:
    ctx.extra["jobs"] = _jobs(jobs)
    ctx.fakes.failing_steps[(job, step)] = 1  # fails once; a rerun gets past it


@given(parsers.parse('jobs {jobs} where "{job}" is "{status}" at "{step}"'))
def _status(ctx: Scenario, jobs: str, job: str, status: str, step: str) -> None:
    ctx.extra["jobs"] = _jobs(jobs)
    ctx.fakes.step_status[(job, step)] = status


def _key(ctx: Scenario, job: str) -> str:
    return preparation_idempotency_key(ctx.tenant, job, "score_job", 1, f"evt-{job}")


async def _prepare(ctx: Scenario, jobs: list[str]) -> None:
    outcomes = ctx.extra.setdefault("outcomes", {})
    async with ctx.harness.worker(ctx.fakes.activities()) as w:

        async def one(job: str) -> None:
            key = _key(ctx, job)
            try:
                outcomes[job] = await w.client.execute_workflow(
                    JobPreparationWorkflow.run,
                    JobPreparationInput(tenant=ctx.tenant, job_id=job, idempotency_key=key, target_version=1),
                    id=preparation_workflow_id(key),
                    task_queue=w.task_queue,
                )
            except WorkflowFailureError as exc:
                outcomes[job] = failure_of(exc.cause)

        await asyncio.gather(*(one(j) for j in jobs))


@when("both jobs are prepared")
def _both(ctx: Scenario) -> None:
    ctx.run(_prepare(ctx, ctx.extra["jobs"]))


@when(parsers.parse('"{job}" is prepared again under the same idempotency key'))
def _again(ctx: Scenario, job: str) -> None:
    ctx.run(_prepare(ctx, [job]))


@then(parsers.parse('"{job}" completed "{steps}"'))
def _completed(ctx: Scenario, job: str, steps: str) -> None:
    expected = [s.strip() for s in steps.split(",")]
    assert ctx.fakes.completed[_key(ctx, job)] == expected
    result = ctx.extra["outcomes"][job]
    assert result.stopped_at is None


@then(parsers.parse('"{job}" failed with code "{code}"'))
def _failed(ctx: Scenario, job: str, code: str) -> None:
    assert ctx.extra["outcomes"][job].code == code
    wid = preparation_workflow_id(_key(ctx, job))
    assert ctx.lifecycle_types(wid) == "WorkflowStarted, WorkflowFailed"


@then(parsers.parse('"{job}" ran "{step}" only once'))
def _once(ctx: Scenario, job: str, step: str) -> None:
    assert ctx.fakes.step_calls.count((job, step)) == 1
    # the rerun resumed: it skipped score and tailor, re-ran the failed cover, then pdf
    calls = [s for (j, s) in ctx.fakes.step_calls if j == job]
    assert calls == ["score", "tailor", "cover", "recover:cover", "cover", "pdf"]
    assert ctx.extra["outcomes"][job].resumed_after == ["score", "tailor"]


@then(parsers.parse('"{job}" stopped at "{step}" as "{status}"'))
def _stopped(ctx: Scenario, job: str, step: str, status: str) -> None:
    result = ctx.extra["outcomes"][job]
    assert (result.stopped_at, result.stop_reason) == (step, status)
    wid = preparation_workflow_id(_key(ctx, job))
    assert ctx.lifecycle_types(wid) == "WorkflowStarted, WorkflowCompleted"


@then(parsers.parse('"{job}" never ran "{step}"'))
def _never(ctx: Scenario, job: str, step: str) -> None:
    assert (job, step) not in ctx.fakes.step_calls


@then(parsers.parse('"{job}" reconciled its owned "{step}" rows before failing'))
def _recovered(ctx: Scenario, job: str, step: str) -> None:
    calls = [s for (j, s) in ctx.fakes.step_calls if j == job]
    assert calls[-2:] == [step, f"recover:{step}"]
