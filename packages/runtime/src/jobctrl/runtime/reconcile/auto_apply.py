"""The standing auto-apply loop ``apply-auto-local``, reconciled at start-up and every heartbeat.

Enabled: start the continuous ApplyWorkflow unless it is running, or unless the loop's last run
failed with ``budget_exceeded`` while today's spend is still at or above a positive ceiling (the
budget halt).  Disabled: cancel it.  (The reference's extra ``auto-apply-browser`` capability gate is
not modelled here; the apply context owns browser readiness.)
"""

from __future__ import annotations

from enum import Enum

from temporalio.client import Client, WorkflowExecutionDescription, WorkflowExecutionStatus
from temporalio.common import WorkflowIDConflictPolicy, WorkflowIDReusePolicy
from temporalio.service import RPCError, RPCStatusCode

from jobctrl.kernel.store import EventStore
from jobctrl.orchestration import AUTO_APPLY_LOOP_ID, ApplyWorkflow, ApplyWorkflowInput, SpendLedger, load_run
from jobctrl.runtime.settings import RuntimeSettings


class LoopAction(Enum):
    STARTED = "started"
    ALREADY_RUNNING = "already_running"
    BUDGET_HALT = "budget_halt"
    CANCELED = "canceled"
    IDLE = "idle"


async def _latest(client: Client) -> WorkflowExecutionDescription | None:
    try:
        return await client.get_workflow_handle(AUTO_APPLY_LOOP_ID).describe()
    except RPCError as exc:
        if exc.status == RPCStatusCode.NOT_FOUND:
            return None
        raise


def _halted_by_budget(
    store: EventStore, spend: SpendLedger, tenant: str, latest: WorkflowExecutionDescription | None
) -> bool:
    """The loop's latest chain failed on the budget (its ``WorkflowRun``, recorded under the chain's first
    run id) and today's spend is still at or above the ceiling."""
    if latest is None:
        return False
    chain = latest.raw_description.workflow_execution_info.first_run_id or latest.run_id
    run = load_run(store, AUTO_APPLY_LOOP_ID, chain)
    if run is None or run.status != "failed" or run.error_code != "budget_exceeded":
        return False
    return spend.status(tenant).exceeded


async def reconcile_auto_apply_loop(
    client: Client,
    settings: RuntimeSettings,
    store: EventStore,
    spend: SpendLedger,
    task_queue: str,
    tenant: str = "local",
) -> LoopAction:
    latest = await _latest(client)
    running = latest is not None and latest.status == WorkflowExecutionStatus.RUNNING
    if not settings.auto_apply:
        if running:
            await client.get_workflow_handle(AUTO_APPLY_LOOP_ID).cancel()
            return LoopAction.CANCELED
        return LoopAction.IDLE
    if running:
        return LoopAction.ALREADY_RUNNING
    if _halted_by_budget(store, spend, tenant, latest):
        return LoopAction.BUDGET_HALT
    await client.start_workflow(
        ApplyWorkflow.run,
        ApplyWorkflowInput(tenant=tenant, dry_run=False, continuous=True, auto_apply_loop=True),
        id=AUTO_APPLY_LOOP_ID,
        task_queue=task_queue,
        id_conflict_policy=WorkflowIDConflictPolicy.USE_EXISTING,
        id_reuse_policy=WorkflowIDReusePolicy.ALLOW_DUPLICATE,
    )
    return LoopAction.STARTED
