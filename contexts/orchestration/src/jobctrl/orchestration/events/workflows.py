"""The lifecycle of every workflow run (error codes bounded; exception text never enters them)."""

from __future__ import annotations

from typing import Any, Literal

from jobctrl.kernel.events import DomainEvent
from jobctrl.orchestration.events._types import Code, Message, WorkflowStatus


# -- workflow lifecycle ---------------------------------------------------------------------------
class WorkflowStarted(DomainEvent, frozen=True):
    event_type = "WorkflowStarted"
    workflow_id: str
    workflow_type: str
    status: WorkflowStatus
    input_summary: dict[str, Any]
    started_at: str | None
    temporal_run_id: str | None
    recovered_from_missing_history: bool | None = None


class WorkflowCancellationRequested(DomainEvent, frozen=True):
    event_type = "WorkflowCancellationRequested"
    workflow_id: str
    workflow_type: str
    requested_by: str
    source: str
    evidence_kind: Literal["request_intent", "temporal_history", "recovered_temporal_history"]
    reason: str | None
    requested_at: str
    temporal_run_id: str | None
    message: Message


class WorkflowClosed(DomainEvent, frozen=True):
    """The fields the five events that close a run share (a base, not an event of its own)."""

    workflow_id: str
    workflow_type: str
    status: WorkflowStatus
    finished_at: str | None
    duration_ms: int | None
    temporal_run_id: str | None


class WorkflowCompleted(WorkflowClosed, frozen=True):
    event_type = "WorkflowCompleted"


class WorkflowFailed(WorkflowClosed, frozen=True):
    event_type = "WorkflowFailed"
    error_code: Code
    error_message: Message
    retryable: bool


class WorkflowCanceled(WorkflowClosed, frozen=True):
    event_type = "WorkflowCanceled"
    error_code: Code
    error_message: Message


class WorkflowTimedOut(WorkflowClosed, frozen=True):
    event_type = "WorkflowTimedOut"
    error_code: Code
    error_message: Message


class WorkflowTerminated(WorkflowClosed, frozen=True):
    event_type = "WorkflowTerminated"
    error_code: Code
    error_message: Message


#: Each event that closes a run, with the status the run closes with: the one table the
#: ``WorkflowRun`` aggregate and the run read models (``workflow_runs``, ``workflow_run_history``) read.
CLOSING_STATUS: dict[type[WorkflowClosed], WorkflowStatus] = {
    WorkflowCompleted: "succeeded",
    WorkflowFailed: "failed",
    WorkflowCanceled: "canceled",
    WorkflowTimedOut: "timed_out",
    WorkflowTerminated: "terminated",
}
#: The events that open or close a run's row (a cancel request only annotates an open one).
RUN_ROW_EVENTS: tuple[type[DomainEvent], ...] = (WorkflowStarted, *CLOSING_STATUS)
