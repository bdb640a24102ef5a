"""Record an operator's cancel request for one exact run, once (ADR 0079's intent before evidence).

Its own stream, ``workflow-cancel-{sha256(workflowId, runId)}`` (not the lifecycle stream, which holds
only start and terminal facts), written at expected version 0: a second request for the same run
appends nothing and reports ``False``.
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from jobctrl.kernel.clock import isoformat
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.store import ConcurrencyConflict, EventStore
from jobctrl.orchestration.events import WorkflowCancellationRequested


def cancel_stream(workflow_id: str, run_id: str) -> str:
    return "workflow-cancel-" + hashlib.sha256(f"{workflow_id}\x00{run_id}".encode()).hexdigest()[:40]


def request_workflow_cancellation(
    store: EventStore,
    *,
    workflow_id: str,
    run_id: str | None,
    workflow_type: str,
    tenant_id: str,
    now: datetime,
    requested_by: str = "operator",
    source: str = "api",
) -> bool:
    event = WorkflowCancellationRequested(
        workflow_id=workflow_id,
        workflow_type=workflow_type,
        requested_by=requested_by,
        source=source,
        evidence_kind="request_intent",
        reason=None,
        requested_at=isoformat(now),
        temporal_run_id=run_id,
        message="Cancellation was requested.",
    )
    rid = run_id or ""
    try:
        store.append(
            cancel_stream(workflow_id, rid),
            0,
            [NewEvent.of(event, occurred_at=now, tenant_id=tenant_id, workflow_id=workflow_id, run_id=rid)],
        )
    except ConcurrencyConflict:
        return False  # already requested for this run
    return True
