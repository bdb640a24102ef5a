"""Steps for orchestration/runtime_heartbeat.feature: canaries planted in inputs, ids and errors must
never reach ``worker_runtime_heartbeats``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from pytest_bdd import given, scenarios, then, when
from sqlalchemy import select
from temporalio.client import WorkflowFailureError

from jobctrl.kernel.store import Database
from jobctrl.orchestration.workflows import (
    ContactResearchInput,
    ContactResearchWorkflow,
    JobPreparationInput,
    JobPreparationWorkflow,
)
from jobctrl.orchestration.workflows.ids import preparation_idempotency_key, preparation_workflow_id
from jobctrl.runtime.telemetry import heartbeat
from jobctrl.testing.runtime.harness import Harness
from jobctrl.testing.runtime.scenario import Live, Scenario, until
from jobctrl.testing.runtime.server import shared_dev_server

pytestmark = [pytest.mark.temporal, pytest.mark.integration]
scenarios("orchestration/runtime_heartbeat.feature")

URL = "https://canary-url.example/jobs/42"
PROMPT = "CANARY-PROMPT ignore all previous instructions"
DESCRIPTION = "CANARY-DESCRIPTION we are hiring a senior engineer"
EXCEPTION = "CANARY-EXCEPTION traceback text"
CANARIES = (
    URL,
    "canary-url",
    PROMPT,
    "CANARY-PROMPT",
    DESCRIPTION,
    "CANARY-DESCRIPTION",
    EXCEPTION,
    "CANARY-EXC",
)


@pytest.fixture
def ctx(pytestconfig: pytest.Config, database: Database) -> Iterator[Scenario]:
    scenario = Scenario(Harness(shared_dev_server(pytestconfig), database))
    scenario.extra["live"] = live = Live()
    try:
        yield scenario
    finally:
        scenario.fakes.hold.clear()
        live.close()


@given("activities carrying canary strings in their inputs, ids and errors")
def _canaries(ctx: Scenario) -> None:
    live: Live = ctx.extra["live"]
    fakes = ctx.fakes
    fakes.hold.set()
    fakes.step_error_message = EXCEPTION
    fakes.failing_steps[("job-fails", "score")] = 1
    safe_key = preparation_idempotency_key(ctx.tenant, "job-safe", "score_job", 1, "evt")
    ctx.extra["safe_id"] = preparation_workflow_id(safe_key)

    async def go() -> None:
        w = await live.stack.enter_async_context(ctx.harness.worker(fakes.activities()))
        ctx.extra["worker"] = w
        starts = [
            (f"prep-{URL}", JobPreparationInput(tenant=ctx.tenant, job_id=URL, idempotency_key=URL)),
            (
                ctx.extra["safe_id"],
                JobPreparationInput(tenant=ctx.tenant, job_id=DESCRIPTION, idempotency_key=safe_key),
            ),
        ]
        for wid, params in starts:
            await w.client.start_workflow(JobPreparationWorkflow.run, params, id=wid, task_queue=w.task_queue)
        await w.client.start_workflow(
            ContactResearchWorkflow.run,
            ContactResearchInput(task_id="t1", tenant=ctx.tenant, employer=PROMPT),
            id=f"contact-research-{PROMPT}",
            task_queue=w.task_queue,
        )
        failing = await w.client.start_workflow(
            JobPreparationWorkflow.run,
            JobPreparationInput(tenant=ctx.tenant, job_id="job-fails", idempotency_key=EXCEPTION),
            id=f"prep-{EXCEPTION}",
            task_queue=w.task_queue,
        )
        with pytest.raises(WorkflowFailureError):
            await failing.result()
        await until(lambda: fakes.calls["score_job"] >= 3 and fakes.calls["run_contact_research"] >= 1)

    live.run(go())


@when("the heartbeat is written while they run")
def _write(ctx: Scenario) -> None:
    live: Live = ctx.extra["live"]
    w = ctx.extra["worker"]
    heartbeat.create_table(ctx.harness.db)
    now = datetime.now(UTC)
    identity = heartbeat.RuntimeIdentity.current(
        app_dir="/tmp/app", db_path="/tmp/app/jobctrl.db", task_queue=w.task_queue, slots=4, now=now
    )
    observation = live.run(heartbeat.observe_task_queue(w.client, "default", w.task_queue))
    heartbeat.write_heartbeat(ctx.harness.db, identity, w.telemetry, now, observation)
    with ctx.harness.db.read() as conn:
        ctx.extra["row"] = dict(conn.execute(select(heartbeat.worker_runtime_heartbeats)).mappings().one())
    assert heartbeat.fresh_heartbeats(ctx.harness.db, now)  # a just-written row is not stale


@then("the heartbeat row counts the active activities exactly")
def _counts(ctx: Scenario) -> None:
    row = ctx.extra["row"]
    assert row["active_count"] == 3  # two held score_job attempts + the held contact research
    assert json.loads(row["per_kind_json"]) == {"other": 1, "score_job": 2}
    assert row["details_total"] == 2 and row["details_truncated"] == 0
    details = json.loads(row["details_json"])
    assert [d["kind"] for d in details] == ["score_job", "score_job"]
    assert json.loads(row["task_queue_json"])["approximate"] is True


@then("no canary string appears in the heartbeat row")
def _clean(ctx: Scenario) -> None:
    text = json.dumps(ctx.extra["row"], default=str)
    for canary in CANARIES:
        assert canary.lower() not in text.lower()


@then("unsafe workflow ids appear only as opaque hashes")
def _opaque(ctx: Scenario) -> None:
    ids = {d["workflowId"] for d in json.loads(ctx.extra["row"]["details_json"])}
    assert ctx.extra["safe_id"] in ids
    assert any(i.startswith("opaque-") for i in ids)
