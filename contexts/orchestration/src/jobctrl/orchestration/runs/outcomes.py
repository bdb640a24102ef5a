"""Terminal outcomes of a workflow run and the typed event each one appends."""

from __future__ import annotations

from enum import StrEnum

from jobctrl.orchestration.events import (
    WorkflowCanceled,
    WorkflowCompleted,
    WorkflowFailed,
    WorkflowTerminated,
    WorkflowTimedOut,
)


class RunOutcome(StrEnum):
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    CANCELED = "canceled"
    TIMED_OUT = "timed_out"
    TERMINATED = "terminated"


CLOSE_EVENTS: dict[RunOutcome, type] = {
    RunOutcome.SUCCEEDED: WorkflowCompleted,
    RunOutcome.FAILED: WorkflowFailed,
    RunOutcome.CANCELED: WorkflowCanceled,
    RunOutcome.TIMED_OUT: WorkflowTimedOut,
    RunOutcome.TERMINATED: WorkflowTerminated,
}

# Fixed operator-facing text per outcome: exception text never enters an event.
MESSAGES: dict[RunOutcome, str] = {
    RunOutcome.SUCCEEDED: "",
    RunOutcome.FAILED: "The workflow failed; see the error code.",
    RunOutcome.CANCELED: "The workflow was canceled.",
    RunOutcome.TIMED_OUT: "The workflow timed out.",
    RunOutcome.TERMINATED: "The workflow was terminated.",
}

RECONCILED_NOT_FOUND = "reconciled_not_found"
