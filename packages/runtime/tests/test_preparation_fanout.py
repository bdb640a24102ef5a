"""Orchestration's preparation fan-out (ADR 0261), driven directly: the real store on SQLite and
PostgreSQL, the real dev server through the runtime's start adapter (no worker: a started child
waits on its task queue, which is all the fan-out promises)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest
from temporalio.client import Client, WorkflowExecutionStatus

from jobctrl.activity_contracts.contracts import Cohort
from jobctrl.discovery import (
    link_execution_members,
    load_execution,
    record_fanout_plans,
)
from jobctrl.discovery.events import DiscoveryExecutionWorkPlanRecorded
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration import (
    JobPreparationInput,
    PreparationTarget,
    WorkPlan,
    fan_out_preparation,
    preparation_idempotency_key,
    preparation_workflow_id,
)
from jobctrl.runtime.activities.fanout import start_preparation

pytestmark = pytest.mark.both_databases
CLOCK = FixedClock(datetime(2026, 12, 1, 9, 0, tzinfo=UTC))


@pytest.mark.asyncio
async def test_each_target_gets_its_plan_and_child_once_and_the_rest_are_not_eligible(
    temporal_address: str, database: Database
) -> None:
    store = EventStore(database, registry())
    store.create_schema()
    client = await Client.connect(temporal_address)
    queue = f"fanout-{uuid.uuid4().hex[:10]}"
    ex = ExecutionRef("local", "discover-local", f"run-{uuid.uuid4().hex[:8]}")
    ref = ex
    a, b, c = (f"job-{n}-{uuid.uuid4().hex[:8]}" for n in "abc")  # child ids unique on the shared server
    link_execution_members(store, ref, [a, b, c], "observed_this_run", clock=CLOCK)
    targets = [
        PreparationTarget(a, "score_job", 3, "profile-3"),
        PreparationTarget(c, "tailor_resume", 3, "profile-3"),
    ]
    ticks: list[int] = []

    async def start(workflow_id: str, payload: JobPreparationInput) -> bool:
        return await start_preparation(client, workflow_id, payload, task_queue=queue)

    def record(execution: ExecutionRef, cohort: Cohort, plans: Sequence[WorkPlan]) -> int:
        return record_fanout_plans(store, ref, cohort, plans, clock=CLOCK)

    async def fan_out() -> tuple[int, int, int]:
        result = await fan_out_preparation(
            targets, execution=ex, cohort="observed_this_run", start=start, record=record,
            heartbeat_timeout_s=7.0, progress=ticks.append,
        )  # fmt: skip
        return result.started_workflows, result.not_eligible, result.already_prepared

    ids = {
        t.job_id: preparation_workflow_id(
            preparation_idempotency_key("local", t.job_id, t.kind, t.target_version, t.source_event_id)
        )
        for t in targets
    }
    try:
        assert await fan_out() == (2, 1, 0)  # b: a member, not a target
        runs = {}
        for job_id, workflow_id in ids.items():
            described = await client.get_workflow_handle(workflow_id).describe()
            assert described.status == WorkflowExecutionStatus.RUNNING
            assert (described.workflow_type, described.task_queue) == ("JobPreparationWorkflow", queue)
            runs[job_id] = described.run_id
        history = await client.get_workflow_handle(ids[a]).fetch_history()
        started = history.events[0].workflow_execution_started_event_attributes
        [given] = await client.data_converter.decode(started.input.payloads, [JobPreparationInput])
        key = preparation_idempotency_key("local", a, "score_job", 3, "profile-3")
        assert given == JobPreparationInput(
            tenant="local", job_id=a, idempotency_key=key, steps=["score", "tailor", "cover", "pdf"],
            target_version=3, execution=ex, cohort="observed_this_run", heartbeat_timeout_s=7.0,
        )  # fmt: skip
        recorded = {
            e.job_id: (e.state, tuple(e.required_steps), e.child_workflow_id, e.reason_code)
            for e in (store.registry.decode(s) for s in store.read_all(limit=1000))
            if isinstance(e, DiscoveryExecutionWorkPlanRecorded)
        }
        assert recorded == {
            a: ("planned", ("score", "tailor", "cover", "pdf"), ids[a], None),
            c: ("planned", ("tailor", "cover", "pdf"), ids[c], None),
            b: ("not_eligible", (), None, "not_a_preparation_target"),
        }
        assert load_execution(store, ref, CLOCK).closed
        log_size = store.head_position()

        # A retried fan-out attaches to the same runs (USE_EXISTING) and records nothing new.
        assert await fan_out() == (2, 0, 0)
        for job_id, workflow_id in ids.items():
            assert (await client.get_workflow_handle(workflow_id).describe()).run_id == runs[job_id]
        assert store.head_position() == log_size
        assert ticks == [2, 2]
    finally:
        for workflow_id in ids.values():
            await client.get_workflow_handle(workflow_id).terminate("test over")
