"""The describe-based reconciler: nothing stays "running" forever.

For every open run (folded from ``Workflow*`` events) it describes the exact workflow/run:
closed states settle the run with ``reconciled_closed_{status}`` / ``reconciled_terminated``;
RUNNING is left alone; CONTINUED_AS_NEW follows the chain to its latest run; NOT_FOUND records a
provisional ``reconciled_not_found`` terminal and keeps probing.  When a provisionally settled run
reappears, a ``WorkflowStarted`` with ``recoveredFromMissingHistory=true`` restores it, and a later
pass settles its real outcome.  A real terminal is never overwritten: every write re-reads the run
inside its write transaction first (``append_lifecycle(only_if_open=True)``).

A Discover run settled as anything but completed also gets its DiscoveryRun closed, with the
verdict's code as the reason, before the verdict is appended (ADR 0079).
"""

from __future__ import annotations

from dataclasses import dataclass

from temporalio.client import Client, WorkflowExecutionDescription
from temporalio.client import WorkflowExecutionStatus as Status
from temporalio.service import RPCError, RPCStatusCode

from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.events import (
    WorkflowCanceled,
    WorkflowCompleted,
    WorkflowFailed,
    WorkflowStarted,
    WorkflowTerminated,
    WorkflowTimedOut,
)
from jobctrl.runtime.reconcile.discovery_runs import close_orphaned_discovery_run
from jobctrl.runtime.workflow_runs import NOT_FOUND, RunState, append_lifecycle, fold_runs


@dataclass(frozen=True)
class ReconcileReport:
    examined: int
    settled: int
    not_found: int
    recovered: int
    discovery_runs_closed: int = 0


async def _describe(client: Client, workflow_id: str, run_id: str) -> WorkflowExecutionDescription | None:
    try:
        return await client.get_workflow_handle(workflow_id, run_id=run_id or None).describe()
    except RPCError as exc:
        if exc.status == RPCStatusCode.NOT_FOUND:
            return None
        raise


def _closed_event(run: RunState, status: Status, finished_at: str) -> DomainEvent:
    wid, wtype, rid = run.workflow_id, run.workflow_type, run.run_id
    msg = "settled by the reconciler from Temporal's describe of the exact run"
    if status == Status.COMPLETED:
        return WorkflowCompleted(
            workflow_id=wid, workflow_type=wtype, status="succeeded", finished_at=finished_at,
            duration_ms=None, temporal_run_id=rid,
        )  # fmt: skip
    if status == Status.FAILED:
        return WorkflowFailed(
            workflow_id=wid, workflow_type=wtype, status="failed", finished_at=finished_at,
            duration_ms=None, temporal_run_id=rid, error_code="reconciled_closed_failed",
            error_message=msg, retryable=False,
        )  # fmt: skip
    if status == Status.CANCELED:
        return WorkflowCanceled(
            workflow_id=wid, workflow_type=wtype, status="canceled", finished_at=finished_at,
            duration_ms=None, temporal_run_id=rid, error_code="reconciled_closed_canceled", error_message=msg,
        )  # fmt: skip
    if status == Status.TIMED_OUT:
        return WorkflowTimedOut(
            workflow_id=wid, workflow_type=wtype, status="timed_out", finished_at=finished_at,
            duration_ms=None, temporal_run_id=rid, error_code="reconciled_closed_timed_out",
            error_message=msg,
        )  # fmt: skip
    return WorkflowTerminated(
        workflow_id=wid, workflow_type=wtype, status="terminated", finished_at=finished_at,
        duration_ms=None, temporal_run_id=rid, error_code="reconciled_terminated", error_message=msg,
    )  # fmt: skip


async def reconcile_runs(client: Client, store: EventStore, clock: Clock) -> ReconcileReport:
    runs = [r for r in fold_runs(store).values() if r.open]
    settled = not_found = recovered = discovery_closed = 0
    for run in runs:
        desc = await _describe(client, run.workflow_id, run.run_id)
        if desc is not None and desc.status == Status.CONTINUED_AS_NEW:
            desc = await _describe(client, run.workflow_id, "")  # the chain's latest run decides
        now = clock.now()
        fact_base = f"reconcile-{run.recoveries}"
        if desc is None:
            if run.provisional:
                continue  # keep probing; the provisional verdict is already recorded
            event = WorkflowTerminated(
                workflow_id=run.workflow_id,
                workflow_type=run.workflow_type,
                status="terminated",
                finished_at=isoformat(now),
                duration_ms=None,
                temporal_run_id=run.run_id,
                error_code=NOT_FOUND,
                error_message="the exact run was not found in the reachable Temporal history; still probing",
            )
            if append_lifecycle(
                store,
                run.workflow_id,
                run.run_id,
                run.tenant_id,
                [(f"{fact_base}-not-found", event)],
                now,
                only_if_open=True,
            ):
                not_found += 1
            continue
        if run.provisional:
            # The history is back: a marked recovery event restores the run before any settlement.
            marker = WorkflowStarted(
                workflow_id=run.workflow_id,
                workflow_type=run.workflow_type,
                status="in_progress",
                input_summary={},
                started_at=run.started_at,
                temporal_run_id=run.run_id,
                recovered_from_missing_history=True,
            )
            if append_lifecycle(
                store,
                run.workflow_id,
                run.run_id,
                run.tenant_id,
                [(f"{fact_base}-recovered", marker)],
                now,
                only_if_open=True,
            ):
                recovered += 1
                fact_base = f"reconcile-{run.recoveries + 1}"
        if desc.status in (Status.RUNNING, Status.CONTINUED_AS_NEW, None):
            continue
        closed_at = desc.close_time or now
        closed = _closed_event(run, desc.status, isoformat(closed_at))
        reason = getattr(closed, "error_code", None)
        if reason is not None and close_orphaned_discovery_run(store, run, desc.status, reason, clock):
            discovery_closed += 1
        if append_lifecycle(
            store,
            run.workflow_id,
            run.run_id,
            run.tenant_id,
            [(f"{fact_base}-closed", closed)],
            now,
            only_if_open=True,
        ):
            settled += 1
    return ReconcileReport(len(runs), settled, not_found, recovered, discovery_closed)
