"""WorkflowRun: the lifecycle of one workflow id across its Temporal runs (stream ``workflow-{id}``).

Rules:
* the first terminal result of a run wins; a duplicate or late terminal report appends nothing;
* a report for a run that is not the current one appends nothing (a cancel aimed at R1 never
  touches its replacement R2);
* a start with a new run id reopens the row; a start of the current run is idempotent;
* a provisional ``reconciled_not_found`` close can be re-settled: the exact run reappearing appends
  ``WorkflowStarted`` with ``recoveredFromMissingHistory`` and is then settled normally;
* summaries carry allowlisted codes and counts; error codes are bounded; messages are fixed text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.orchestration.events import (
    WorkflowCanceled,
    WorkflowCancellationRequested,
    WorkflowCompleted,
    WorkflowFailed,
    WorkflowStarted,
    WorkflowStatus,
    WorkflowTerminated,
    WorkflowTimedOut,
)
from jobctrl.orchestration.privacy import bounded_error_code, summarize_input
from jobctrl.orchestration.runs.outcomes import MESSAGES, RECONCILED_NOT_FOUND, RunOutcome

_CLOSED = (WorkflowCompleted, WorkflowFailed, WorkflowCanceled, WorkflowTimedOut, WorkflowTerminated)


class WorkflowRun(Aggregate):
    stream_prefix = "workflow"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.workflow_type = ""
        self.run_id: str | None = None
        self.status: WorkflowStatus | None = None
        self.error_code: str | None = None
        self.started_at: str | None = None
        self.cancel_requested_for: set[str] = set()

    @property
    def workflow_id(self) -> str:
        return self.id

    @property
    def is_open(self) -> bool:
        return self.status == "in_progress"

    @property
    def provisional(self) -> bool:
        """Closed only because Temporal did not know the run: evidence was missing, not final."""
        return self.status == "terminated" and self.error_code == RECONCILED_NOT_FOUND

    # -- commands -------------------------------------------------------------------------------
    def start(
        self,
        *,
        workflow_type: str,
        temporal_run_id: str,
        started_at: str,
        input_summary: Mapping[str, Any] | None = None,
        recovered_from_missing_history: bool = False,
    ) -> bool:
        if temporal_run_id == self.run_id and not (self.provisional and recovered_from_missing_history):
            return False  # the same run again (dispatch marker, then the workflow's own marker)
        self._record(
            WorkflowStarted(
                workflow_id=self.id,
                workflow_type=workflow_type,
                status="in_progress",
                input_summary=summarize_input(input_summary or {}),
                started_at=started_at,
                temporal_run_id=temporal_run_id,
                recovered_from_missing_history=True if recovered_from_missing_history else None,
            )
        )
        return True

    def close(
        self,
        outcome: RunOutcome,
        *,
        temporal_run_id: str,
        finished_at: str,
        duration_ms: int | None = None,
        error_code: str | None = None,
        retryable: bool = False,
    ) -> bool:
        if temporal_run_id != self.run_id or not self.is_open:
            return False  # first terminal wins; a report about another run changes nothing
        common: dict[str, Any] = {
            "workflow_id": self.id,
            "workflow_type": self.workflow_type,
            "status": outcome.value,
            "finished_at": finished_at,
            "duration_ms": duration_ms,
            "temporal_run_id": temporal_run_id,
        }
        if outcome is RunOutcome.SUCCEEDED:
            self._record(WorkflowCompleted(**common))
            return True
        code = bounded_error_code(error_code or f"workflow_{outcome.value}")
        message = MESSAGES[outcome]
        if outcome is RunOutcome.FAILED:
            self._record(
                WorkflowFailed(**common, error_code=code, error_message=message, retryable=retryable)
            )
        elif outcome is RunOutcome.CANCELED:
            self._record(WorkflowCanceled(**common, error_code=code, error_message=message))
        elif outcome is RunOutcome.TIMED_OUT:
            self._record(WorkflowTimedOut(**common, error_code=code, error_message=message))
        else:
            self._record(WorkflowTerminated(**common, error_code=code, error_message=message))
        return True

    def request_cancellation(
        self, *, temporal_run_id: str, requested_by: str, source: str, reason_code: str | None, at: str
    ) -> bool:
        """Record a cancel intent scoped to ``temporal_run_id``; only the open current run counts."""
        if temporal_run_id != self.run_id or not self.is_open or temporal_run_id in self.cancel_requested_for:
            return False
        self._record(
            WorkflowCancellationRequested(
                workflow_id=self.id,
                workflow_type=self.workflow_type,
                requested_by=bounded_error_code(requested_by),
                source=bounded_error_code(source),
                evidence_kind="request_intent",
                reason=None if reason_code is None else bounded_error_code(reason_code),
                requested_at=at,
                temporal_run_id=temporal_run_id,
                message="Cancellation was requested.",
            )
        )
        return True

    # -- fold -----------------------------------------------------------------------------------
    @applies(WorkflowStarted)
    def _started(self, e: WorkflowStarted) -> None:
        self.workflow_type = e.workflow_type
        self.run_id = e.temporal_run_id
        self.status = "in_progress"
        self.error_code = None
        self.started_at = e.started_at

    @applies(WorkflowCancellationRequested)
    def _cancel_requested(self, e: WorkflowCancellationRequested) -> None:
        if e.temporal_run_id is not None:
            self.cancel_requested_for.add(e.temporal_run_id)

    def _closed(self, status: WorkflowStatus, code: str | None) -> None:
        self.status = status
        self.error_code = code

    @applies(WorkflowCompleted)
    def _completed(self, e: WorkflowCompleted) -> None:
        self._closed(e.status, None)

    @applies(WorkflowFailed)
    def _failed(self, e: WorkflowFailed) -> None:
        self._closed(e.status, e.error_code)

    @applies(WorkflowCanceled)
    def _canceled(self, e: WorkflowCanceled) -> None:
        self._closed(e.status, e.error_code)

    @applies(WorkflowTimedOut)
    def _timed_out(self, e: WorkflowTimedOut) -> None:
        self._closed(e.status, e.error_code)

    @applies(WorkflowTerminated)
    def _terminated(self, e: WorkflowTerminated) -> None:
        self._closed(e.status, e.error_code)
