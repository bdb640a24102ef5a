"""The describe-based reconciler, the Temporal side: nothing stays "running" forever.

The candidates are the open rows of ``workflow_run_history`` (every run of every workflow id: in
progress, or provisionally ``reconciled_not_found``); for each, this describes the exact
workflow/run (CONTINUED_AS_NEW follows the chain to its latest run) and hands the status to
orchestration's ``reconcile_workflow_run``, which decides and appends (ADR 0120).  A row that lags
the log is harmless: the use case reloads the run and appends nothing to a closed one.

A Discover run settled as anything but completed also gets its DiscoveryRun closed, with the
verdict's code as the reason, before the verdict is appended (ADR 0079): orchestration's
``close_orphaned_discovery_run`` (with discovery's membership closer, composed here) runs in the use
case's ``before_settle`` hook.

Then the pipeline steps (ADR 0270): each Discover execution whose step rows in
``pipeline_step_projections`` still read queued/running goes to orchestration's
``settle_pipeline_steps``, which ends them if the recorded run is closed and not succeeded (it decides
from the recorded run and steps, not from the rows).
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from temporalio.client import Client, WorkflowExecutionDescription
from temporalio.client import WorkflowExecutionStatus as Status
from temporalio.service import RPCError, RPCStatusCode

from jobctrl.discovery import InterruptedMembershipCloser
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration import (
    NOT_FOUND,
    DescribedStatus,
    WorkflowRun,
    close_orphaned_discovery_run,
    reconcile_workflow_run,
    settle_pipeline_steps,
)
from jobctrl.projections.read_models.pipeline_steps import pipeline_step_projections
from jobctrl.projections.read_models.workflow_run_history import workflow_run_history


@dataclass(frozen=True)
class ReconcileReport:
    examined: int
    settled: int
    not_found: int
    recovered: int
    discovery_runs_closed: int = 0
    steps_settled: int = 0


@dataclass(frozen=True)
class OpenRun:
    tenant_id: str
    workflow_id: str
    run_id: str


def open_runs(store: EventStore) -> list[OpenRun]:
    """Open runs as the read model shows them (none before the projections were first migrated).

    Read from ``workflow_run_history`` (ADR 0271): every run of a workflow id, so a run left open
    behind a rerun of the same id (which ``workflow_run_projections`` no longer shows) is still
    described and settled."""
    t = workflow_run_history
    with store.db.read() as conn:
        if not sa.inspect(conn).has_table(t.name):
            return []
        rows = conn.execute(
            sa.select(t.c.tenant_id, t.c.workflow_id, t.c.run_id)
            .where(
                t.c.run_id != "",
                sa.or_(
                    t.c.status == "in_progress",
                    sa.and_(t.c.status == "terminated", t.c.error_code == NOT_FOUND),
                ),
            )
            .order_by(t.c.last_event_position, t.c.run_id)
        ).all()
    return [OpenRun(tenant, wid, rid) for tenant, wid, rid in rows]


def executions_with_open_steps(store: EventStore) -> list[ExecutionRef]:
    """Discover executions whose step rows still read queued or running, oldest first; the use case
    decides from the recorded run (per run id: a rerun's row in ``workflow_run_projections`` hides
    the run before it) whether they are closed."""
    s = pipeline_step_projections
    with store.db.read() as conn:
        if not sa.inspect(conn).has_table(s.name):
            return []
        rows = conn.execute(
            sa.select(s.c.tenant_id, s.c.workflow_id, s.c.run_id)
            .where(s.c.status.in_(("queued", "running")))
            .group_by(s.c.tenant_id, s.c.workflow_id, s.c.run_id)
            .order_by(sa.func.min(s.c.last_event_id))
        ).all()
    return [ExecutionRef(tenant, wid, rid) for tenant, wid, rid in rows]


async def _describe(client: Client, workflow_id: str, run_id: str) -> WorkflowExecutionDescription | None:
    try:
        return await client.get_workflow_handle(workflow_id, run_id=run_id or None).describe()
    except RPCError as exc:
        if exc.status == RPCStatusCode.NOT_FOUND:
            return None
        raise


def described_status(desc: WorkflowExecutionDescription | None) -> DescribedStatus:
    if desc is None:
        return DescribedStatus.NOT_FOUND
    if desc.status is None:
        return DescribedStatus.RUNNING
    return DescribedStatus(desc.status.name)


async def reconcile_runs(client: Client, store: EventStore, clock: Clock) -> ReconcileReport:
    runs = open_runs(store)
    settled = not_found = recovered = discovery_closed = 0
    close_membership = InterruptedMembershipCloser(store, clock)
    for run in runs:
        desc = await _describe(client, run.workflow_id, run.run_id)
        if desc is not None and desc.status == Status.CONTINUED_AS_NEW:
            desc = await _describe(client, run.workflow_id, "")  # the chain's latest run decides
        described = described_status(desc)

        def close_discovery(
            recorded: WorkflowRun,
            code: str,
            described: DescribedStatus = described,
            tenant: str = run.tenant_id,
        ) -> bool:
            return close_orphaned_discovery_run(
                store, recorded, tenant, described, code, clock, close_membership
            )

        closed_at = isoformat(desc.close_time) if desc is not None and desc.close_time else None
        outcome = reconcile_workflow_run(
            store, workflow_id=run.workflow_id, run_id=run.run_id, tenant_id=run.tenant_id,
            described=described, closed_at=closed_at, before_settle=close_discovery, clock=clock,
        )  # fmt: skip
        settled += outcome.settled
        not_found += outcome.not_found
        recovered += outcome.recovered
        discovery_closed += outcome.hook_result
    steps = sum(settle_pipeline_steps(store, ex, clock=clock) for ex in executions_with_open_steps(store))
    return ReconcileReport(len(runs), settled, not_found, recovered, discovery_closed, steps)
