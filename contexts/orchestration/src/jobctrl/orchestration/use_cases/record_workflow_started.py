"""Record that a workflow run started (once per run; a retry or a second marker appends nothing)."""

from __future__ import annotations

from collections.abc import Mapping

from jobctrl.kernel.clock import Clock, SystemClock
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.workflow_run import WorkflowRun, run_key
from jobctrl.orchestration.use_cases._runs import decide_and_save


def record_workflow_started(
    store: EventStore,
    *,
    workflow_id: str,
    run_id: str,
    workflow_type: str,
    tenant_id: str,
    started_at: str,
    input_summary: Mapping[str, str],
    clock: Clock | None = None,
) -> bool:
    return decide_and_save(
        store,
        WorkflowRun,
        lambda repo: repo.load(run_key(workflow_id, run_id)) or WorkflowRun.new(workflow_id, run_id),
        lambda run: run.start(
            workflow_type=workflow_type, started_at=started_at, input_summary=dict(input_summary)
        ),
        clock=clock or SystemClock(),
        tenant_id=tenant_id,
        workflow_id=workflow_id,
        run_id=run_id,
    )
