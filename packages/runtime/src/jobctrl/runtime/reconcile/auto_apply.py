"""The standing auto-apply loop ``apply-auto-local``, reconciled at start-up and every heartbeat.

Enabled: start the continuous ApplyWorkflow unless it is running, or unless the loop's last run
failed with ``budget_exceeded`` while today's spend is still at or above a positive ceiling (the
budget halt).  Disabled: cancel it.  (The reference's extra ``auto-apply-browser`` capability gate is
not modelled here; the apply context owns browser readiness.)
"""

from __future__ import annotations

from enum import Enum

import sqlalchemy as sa
from temporalio.client import Client, WorkflowExecutionStatus
from temporalio.common import WorkflowIDConflictPolicy, WorkflowIDReusePolicy
from temporalio.service import RPCError, RPCStatusCode

from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.spend.ledger import SpendLedger
from jobctrl.orchestration.workflows.apply import ApplyWorkflow, ApplyWorkflowInput
from jobctrl.orchestration.workflows.ids import AUTO_APPLY_LOOP_ID
from jobctrl.projections.read_models.workflow_runs import workflow_run_projections
from jobctrl.runtime.settings import RuntimeSettings


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
    """The loop's latest run (its ``workflow_run_projections`` row) failed on the budget, still spent."""
    t = workflow_run_projections
    with store.db.read() as conn:
        if not sa.inspect(conn).has_table(t.name):
            return False
        latest = conn.execute(
            sa.select(t.c.status, t.c.error_code).where(
                t.c.tenant_id == tenant, t.c.workflow_id == AUTO_APPLY_LOOP_ID
            )
        ).first()
    if latest is None:
        return False
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
