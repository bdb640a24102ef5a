"""The standing auto-apply loop ``apply-auto-local``, reconciled at start-up and every heartbeat.

Enabled: start the continuous ApplyWorkflow unless it is running, or unless the loop's last run
failed with ``budget_exceeded`` while today's spend is still at or above a positive ceiling (the
budget halt).  Disabled: cancel it.  (The reference's extra ``auto-apply-browser`` capability gate is
not modelled here; the apply context owns browser readiness.)
"""

from __future__ import annotations

from enum import Enum

from temporalio.client import Client, WorkflowExecutionStatus
from temporalio.common import WorkflowIDConflictPolicy, WorkflowIDReusePolicy
from temporalio.service import RPCError, RPCStatusCode

from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.spend.ledger import SpendLedger
from jobctrl.orchestration.workflows.apply import ApplyWorkflow, ApplyWorkflowInput
from jobctrl.orchestration.workflows.ids import AUTO_APPLY_LOOP_ID
from jobctrl.runtime.settings import RuntimeSettings
from jobctrl.runtime.workflow_runs import fold_runs


class LoopAction(Enum):
    STARTED = "started"
    ALREADY_RUNNING = "already_running"
    BUDGET_HALT = "budget_halt"
    CANCELED = "canceled"
    IDLE = "idle"


async def _running(client: Client) -> bool:
    try:
        desc = await client.get_workflow_handle(AUTO_APPLY_LOOP_ID).describe()
    except RPCError as exc:
        if exc.status == RPCStatusCode.NOT_FOUND:
            return False
        raise
    return desc.status == WorkflowExecutionStatus.RUNNING


def _halted_by_budget(store: EventStore, spend: SpendLedger, tenant: str) -> bool:
    loop_runs = [r for (wid, _), r in fold_runs(store).items() if wid == AUTO_APPLY_LOOP_ID]
    if not loop_runs:
        return False
    latest = max(loop_runs, key=lambda r: r.started_at or "")
    return (
        latest.status == "failed" and latest.error_code == "budget_exceeded" and spend.status(tenant).exceeded
    )


async def reconcile_auto_apply_loop(
    client: Client,
    settings: RuntimeSettings,
    store: EventStore,
    spend: SpendLedger,
    task_queue: str,
    tenant: str = "local",
) -> LoopAction:
    running = await _running(client)
    if not settings.auto_apply:
        if running:
            await client.get_workflow_handle(AUTO_APPLY_LOOP_ID).cancel()
            return LoopAction.CANCELED
        return LoopAction.IDLE
    if running:
        return LoopAction.ALREADY_RUNNING
    if _halted_by_budget(store, spend, tenant):
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
