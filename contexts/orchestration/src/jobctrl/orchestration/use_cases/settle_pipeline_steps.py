"""Terminal reconciliation of a closed Discover execution's pipeline steps (ADR 0270).

A step the workflow queued or started and never ended (a family still queued behind the batch when a
cancel arrived, a step of a run Temporal terminated) would read "queued"/"running" for ever.  Once the
execution's workflow run is recorded closed (not succeeded), this ends each such step with a
``PipelineStepFailed``: the run's own code (``canceled``, ``reconciled_terminated``, …), retryable
false, detail ``terminal_reconciliation``.  Nothing is written for an open run (the workflow may still
end its steps itself), a succeeded one, or a step already ended; run it as often as you like.
"""

from __future__ import annotations

from jobctrl.kernel.clock import Clock, SystemClock, isoformat
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.text import bounded_code
from jobctrl.orchestration.domain.execution_steps import ExecutionSteps
from jobctrl.orchestration.domain.workflow_run import WorkflowRun
from jobctrl.orchestration.use_cases._runs import decide_and_save, load_run


def settle_code(run: WorkflowRun) -> str | None:
    """The code a closed run's unfinished steps end with (None: the run is open or succeeded)."""
    if run.open or run.status in (None, "succeeded"):
        return None
    if run.status == "canceled":
        return "canceled"
    return bounded_code(run.error_code or f"workflow_{run.status}")


def settle_pipeline_steps(store: EventStore, execution: ExecutionRef, *, clock: Clock | None = None) -> int:
    """How many steps of ``execution`` were ended now (0: nothing to settle, or the run is not closed)."""
    clock = clock or SystemClock()
    run = load_run(store, execution.workflow_id, execution.temporal_run_id, clock=clock)
    code = settle_code(run) if run is not None else None
    if code is None:
        return 0
    settled = 0

    def decide(steps: ExecutionSteps) -> bool:
        nonlocal settled
        settled = steps.settle_unfinished(execution, code, at=isoformat(clock.now()))
        return settled > 0

    rid = execution.temporal_run_id
    saved = decide_and_save(
        store, ExecutionSteps, lambda repo: repo.load(rid) or ExecutionSteps(rid), decide,
        clock=clock, tenant_id=execution.tenant_id, workflow_id=execution.workflow_id, run_id=rid,
    )  # fmt: skip
    return settled if saved else 0
