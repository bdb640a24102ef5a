"""The continuous apply mode: batches, idle sleep, continue-as-new as one lifecycle chain, and a
cancel that ends the chain with exactly one WorkflowCanceled under its first run id."""

from __future__ import annotations

import asyncio
import uuid

import msgspec
import pytest
from temporalio.client import WorkflowExecutionStatus

from jobctrl.domain_types import registry
from jobctrl.kernel.clock import SystemClock
from jobctrl.orchestration import LIFECYCLE_TYPES
from jobctrl.orchestration.workflows import ApplyWorkflow, ApplyWorkflowInput
from jobctrl.projections import ProjectionRunner
from jobctrl.runtime.reconcile.runs import reconcile_runs
from jobctrl.testing.runtime.fakes import FakeContexts
from jobctrl.testing.runtime.harness import Harness, activity_attempts

pytestmark = [pytest.mark.temporal, pytest.mark.integration]


@pytest.mark.asyncio
async def test_continuous_apply_continues_as_new_as_one_chain_and_cancels_cleanly(harness: Harness) -> None:
    fakes = FakeContexts(apply_batches=[2, 0, 1, 0, 0, 0])
    workflow_id = f"apply-loop-{uuid.uuid4().hex[:8]}"
    async with harness.worker(fakes.activities()) as w:
        handle = await w.client.start_workflow(
            ApplyWorkflow.run,
            ApplyWorkflowInput(continuous=True, idle_sleep_seconds=0.05, polls_per_run=2),
            id=workflow_id,
            task_queue=w.task_queue,
        )
        first_run = handle.first_execution_run_id or handle.result_run_id
        for _ in range(200):  # at least two continue-as-new hops
            if fakes.calls["apply"] >= 5:
                break
            await asyncio.sleep(0.05)
        latest = await w.client.get_workflow_handle(workflow_id).describe()
        assert latest.run_id != first_run and latest.status == WorkflowExecutionStatus.RUNNING
        # The reconciler follows the chain: the first run is CONTINUED_AS_NEW, the chain still runs.
        ProjectionRunner(harness.db, registry()).catch_up()  # the read model the reconciler reads
        report = await reconcile_runs(w.client, harness.store, SystemClock())
        assert report.examined >= 1
        assert report.settled == 0 and report.not_found == 0
        await w.client.get_workflow_handle(workflow_id).cancel()
        for _ in range(200):
            if (
                await w.client.get_workflow_handle(workflow_id).describe()
            ).status != WorkflowExecutionStatus.RUNNING:
                break
            await asyncio.sleep(0.05)
        # The real preflight (over the real ledger) ran once for the whole chain.
        assert await activity_attempts(w.client, workflow_id, "check_spend_budget", run_id=first_run) == 1
    rows = harness.store.read_all(types=LIFECYCLE_TYPES)
    mine = [(r.event_type, msgspec.json.decode(r.payload)) for r in rows]
    mine = [(t, p) for t, p in mine if p["workflowId"] == workflow_id]
    assert [t for t, _ in mine] == ["WorkflowStarted", "WorkflowCanceled"]
    assert {p["temporalRunId"] for _, p in mine} == {first_run}
