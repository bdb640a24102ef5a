"""Record a workflow run's own outcome; only an open run takes it (the first terminal result wins)."""

from __future__ import annotations

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, SystemClock
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.workflow_run import WorkflowRun, run_key
from jobctrl.orchestration.use_cases._runs import decide_and_save


def record_workflow_outcome(
    store: EventStore,
    *,
    workflow_id: str,
    run_id: str,
    workflow_type: str,
    tenant_id: str,
    status: str,
    started_at: str,
    finished_at: str,
    error_code: str | None = None,
    error_message: str | None = None,
    retryable: bool = False,
    clock: Clock | None = None,
) -> bool:
    def load(repo: AggregateRepository[WorkflowRun]) -> WorkflowRun:
        run = repo.load(run_key(workflow_id, run_id))
        if run is None:  # the start marker never arrived: the outcome alone still names the run
            run = WorkflowRun.new(workflow_id, run_id)
            run.status = "in_progress"
        run.workflow_type = workflow_type  # the outcome names its workflow type itself
        return run

    return decide_and_save(
        store,
        WorkflowRun,
        load,
        lambda run: run.finish(
            status,
            started_at=started_at,
            finished_at=finished_at,
            error_code=error_code,
            error_message=error_message,
            retryable=retryable,
        ),
        clock=clock or SystemClock(),
        tenant_id=tenant_id,
        workflow_id=workflow_id,
        run_id=run_id,
    )
