"""Reconcile one open run against Temporal's describe of that exact run (nothing stays "running").

The caller (the runtime's reconciler) describes the run and passes the status here; this decides:
* NOT_FOUND: a provisional ``reconciled_not_found`` terminal, once; a provisional run keeps probing;
* the provisional run is visible again: a marked recovery start first, then the usual settlement;
* RUNNING / CONTINUED_AS_NEW (the chain's latest run still runs): nothing;
* closed: settle with ``reconciled_closed_{status}`` / ``reconciled_terminated`` (a success is plain).
``before_settle(run, code)`` runs after the recovery and before the verdict is appended, for a closed
verdict that carries a code (ADR 0079: the runtime closes an orphaned DiscoveryRun there, so a crash
between the two leaves the workflow run open for the next pass).  A real terminal is never
overwritten: every write reloads the run and saves with the version it loaded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from jobctrl.kernel.clock import Clock, SystemClock, isoformat
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.workflow_run import (
    SETTLED_CODES,
    STILL_RUNNING,
    DescribedStatus,
    WorkflowRun,
    run_key,
)
from jobctrl.orchestration.use_cases._runs import decide_and_save, load_run


@dataclass(frozen=True)
class RunReconciled:
    not_found: bool = False
    recovered: bool = False
    settled: bool = False
    hook_result: bool = False


def reconcile_workflow_run(
    store: EventStore,
    *,
    workflow_id: str,
    run_id: str,
    tenant_id: str,
    described: DescribedStatus,
    closed_at: str | None = None,
    before_settle: Callable[[WorkflowRun, str], bool] | None = None,
    clock: Clock | None = None,
) -> RunReconciled:
    clock = clock or SystemClock()

    def change(decide: Callable[[WorkflowRun], bool]) -> bool:
        return decide_and_save(
            store, WorkflowRun, lambda repo: repo.get(run_key(workflow_id, run_id)), decide,
            clock=clock, tenant_id=tenant_id, workflow_id=workflow_id, run_id=run_id,
        )  # fmt: skip

    now = isoformat(clock.now())
    if described is DescribedStatus.NOT_FOUND:
        return RunReconciled(not_found=change(lambda run: run.mark_not_found(at=now)))
    recovered = change(lambda run: run.recover())
    if described in STILL_RUNNING:
        return RunReconciled(recovered=recovered)
    hooked = False
    code = SETTLED_CODES.get(described)
    if code is not None and before_settle is not None:
        loaded = load_run(store, workflow_id, run_id, clock=clock)
        if loaded is not None and loaded.open:
            hooked = before_settle(loaded, code)
    settled = change(lambda run: run.settle(described, finished_at=closed_at or now))
    return RunReconciled(recovered=recovered, settled=settled, hook_result=hooked)
