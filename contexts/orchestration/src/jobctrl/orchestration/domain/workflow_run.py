"""WorkflowRun: the lifecycle facts of one exact Temporal run (stream ``workflow-{workflowId}-{runId}``).

The only writer of ``WorkflowStarted`` and the five terminal ``Workflow*`` events.  Rules:
* a run's start is recorded once (a retried activity, or the dispatcher's marker then the worker's,
  appends nothing);
* a terminal is recorded only while the run is open: the first terminal result wins, and nothing
  overwrites it;
* ``reconciled_not_found`` is a provisional verdict (Temporal did not know the run): the run stays
  open for probing, a marked recovery start (``recoveredFromMissingHistory``) reopens it when the run
  reappears, and the workflow's own outcome or a later settlement may still close it.
Error codes are bounded; messages are fixed text or the workflow's own bounded message.
"""

from __future__ import annotations

import hashlib
from enum import StrEnum

from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.kernel.clock import parse_instant
from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.text import bound_text, bounded_code
from jobctrl.orchestration.events import (
    RUN_ROW_EVENTS,
    WorkflowCanceled,
    WorkflowCompleted,
    WorkflowFailed,
    WorkflowStarted,
    WorkflowStatus,
    WorkflowTerminated,
    WorkflowTimedOut,
)

NOT_FOUND = "reconciled_not_found"
RECONCILER_MESSAGE = "settled by the reconciler from Temporal's describe of the exact run"
NOT_FOUND_MESSAGE = "the exact run was not found in the reachable Temporal history; still probing"
LIFECYCLE_TYPES: tuple[str, ...] = tuple(e.event_type for e in RUN_ROW_EVENTS)


class DescribedStatus(StrEnum):
    """Temporal's status of the exact run as its describe reports it (NOT_FOUND: no such run)."""

    RUNNING = "RUNNING"
    CONTINUED_AS_NEW = "CONTINUED_AS_NEW"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    CANCELED = "CANCELED"
    TERMINATED = "TERMINATED"
    TIMED_OUT = "TIMED_OUT"
    NOT_FOUND = "NOT_FOUND"


STILL_RUNNING: frozenset[DescribedStatus] = frozenset(
    {DescribedStatus.RUNNING, DescribedStatus.CONTINUED_AS_NEW}
)
#: The bounded code each closed describe status settles a run with (None: a plain success).
SETTLED_CODES: dict[DescribedStatus, str | None] = {
    DescribedStatus.COMPLETED: None,
    DescribedStatus.FAILED: "reconciled_closed_failed",
    DescribedStatus.CANCELED: "reconciled_closed_canceled",
    DescribedStatus.TIMED_OUT: "reconciled_closed_timed_out",
    DescribedStatus.TERMINATED: "reconciled_terminated",
}


def run_key(workflow_id: str, run_id: str) -> str:
    return f"{workflow_id}-{run_id}"


def duration_ms(start: str, end: str) -> int:
    return max(0, int((parse_instant(end) - parse_instant(start)).total_seconds() * 1000))


class WorkflowRun(Aggregate):
    stream_prefix = "workflow"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.workflow_id = ""
        self.run_id = ""
        self.workflow_type = ""
        self.status: WorkflowStatus | None = None
        self.error_code: str | None = None
        self.started_at: str | None = None
        self.start_recorded = False

    @classmethod
    def new(cls, workflow_id: str, run_id: str) -> WorkflowRun:
        run = cls(run_key(workflow_id, run_id))
        run.workflow_id, run.run_id = workflow_id, run_id
        return run

    @classmethod
    def stream_id_for(cls, aggregate_id: str) -> str:
        raw = f"{cls.stream_prefix}-{aggregate_id}"
        return raw if len(raw) <= 200 else f"{cls.stream_prefix}-{hashlib.sha256(raw.encode()).hexdigest()}"

    @property
    def provisional(self) -> bool:
        return self.status == "terminated" and self.error_code == NOT_FOUND

    @property
    def open(self) -> bool:
        return self.status == "in_progress" or self.provisional

    # -- commands -------------------------------------------------------------------------------
    def start(self, *, workflow_type: str, started_at: str, input_summary: dict[str, str]) -> bool:
        if self.start_recorded:
            return False
        self._record(
            WorkflowStarted(
                workflow_id=self.workflow_id, workflow_type=workflow_type, status="in_progress",
                input_summary=dict(input_summary), started_at=started_at, temporal_run_id=self.run_id,
            )
        )  # fmt: skip
        return True

    def finish(
        self,
        status: str,
        *,
        started_at: str,
        finished_at: str,
        error_code: str | None = None,
        error_message: str | None = None,
        retryable: bool = False,
    ) -> bool:
        """The workflow's own outcome (``succeeded`` / ``canceled`` / anything else is a failure)."""
        if not self.open:
            return False
        wid, wtype, rid = self.workflow_id, self.workflow_type, self.run_id
        took = duration_ms(started_at, finished_at)
        code = bounded_code(error_code or status)
        message = bound_text(error_message or code, 500)
        if status == "succeeded":
            self._record(
                WorkflowCompleted(
                    workflow_id=wid, workflow_type=wtype, status="succeeded", finished_at=finished_at,
                    duration_ms=took, temporal_run_id=rid,
                )
            )  # fmt: skip
        elif status == "canceled":
            self._record(
                WorkflowCanceled(
                    workflow_id=wid, workflow_type=wtype, status="canceled", finished_at=finished_at,
                    duration_ms=took, temporal_run_id=rid, error_code=code, error_message=message,
                )
            )  # fmt: skip
        else:
            self._record(
                WorkflowFailed(
                    workflow_id=wid, workflow_type=wtype, status="failed", finished_at=finished_at,
                    duration_ms=took, temporal_run_id=rid, error_code=code, error_message=message,
                    retryable=retryable,
                )
            )  # fmt: skip
        return True

    def mark_not_found(self, *, at: str) -> bool:
        """Temporal does not know the run: a provisional verdict, recorded once while it is running."""
        if self.status != "in_progress":
            return False
        self._record(
            WorkflowTerminated(
                workflow_id=self.workflow_id, workflow_type=self.workflow_type, status="terminated",
                finished_at=at, duration_ms=None, temporal_run_id=self.run_id, error_code=NOT_FOUND,
                error_message=NOT_FOUND_MESSAGE,
            )
        )  # fmt: skip
        return True

    def recover(self) -> bool:
        """The run Temporal did not know is visible again: a marked start restores it."""
        if not self.provisional:
            return False
        self._record(
            WorkflowStarted(
                workflow_id=self.workflow_id, workflow_type=self.workflow_type, status="in_progress",
                input_summary={}, started_at=self.started_at, temporal_run_id=self.run_id,
                recovered_from_missing_history=True,
            )
        )  # fmt: skip
        return True

    def settle(self, described: DescribedStatus, *, finished_at: str) -> bool:
        """Close an open run as Temporal's describe says it closed."""
        if not self.open or described not in SETTLED_CODES:
            return False
        wid, wtype, rid, code = self.workflow_id, self.workflow_type, self.run_id, SETTLED_CODES[described]
        at, msg = finished_at, RECONCILER_MESSAGE
        event: DomainEvent
        if code is None:
            event = WorkflowCompleted(
                workflow_id=wid, workflow_type=wtype, status="succeeded", finished_at=at, duration_ms=None,
                temporal_run_id=rid,
            )  # fmt: skip
        elif described is DescribedStatus.FAILED:
            event = WorkflowFailed(
                workflow_id=wid, workflow_type=wtype, status="failed", finished_at=at, duration_ms=None,
                temporal_run_id=rid, error_code=code, error_message=msg, retryable=False,
            )  # fmt: skip
        elif described is DescribedStatus.CANCELED:
            event = WorkflowCanceled(
                workflow_id=wid, workflow_type=wtype, status="canceled", finished_at=at, duration_ms=None,
                temporal_run_id=rid, error_code=code, error_message=msg,
            )  # fmt: skip
        elif described is DescribedStatus.TIMED_OUT:
            event = WorkflowTimedOut(
                workflow_id=wid, workflow_type=wtype, status="timed_out", finished_at=at, duration_ms=None,
                temporal_run_id=rid, error_code=code, error_message=msg,
            )  # fmt: skip
        else:
            event = WorkflowTerminated(
                workflow_id=wid, workflow_type=wtype, status="terminated", finished_at=at, duration_ms=None,
                temporal_run_id=rid, error_code=code, error_message=msg,
            )  # fmt: skip
        self._record(event)
        return True

    # -- fold -----------------------------------------------------------------------------------
    def _names(self, workflow_id: str, workflow_type: str, run_id: str | None) -> None:
        if not self.workflow_id:
            self.workflow_id, self.workflow_type, self.run_id = workflow_id, workflow_type, run_id or ""

    @applies(WorkflowStarted)
    def _started(self, e: WorkflowStarted) -> None:
        self._names(e.workflow_id, e.workflow_type, e.temporal_run_id)
        if not e.recovered_from_missing_history:
            self.start_recorded = True
        if self.status is None:
            self.status, self.started_at = "in_progress", e.started_at
        elif self.open:  # a recovery marker reopens a provisional verdict, never a real terminal
            self.status, self.error_code = "in_progress", None
        if self.started_at is None:
            self.started_at = e.started_at

    def _closed(self, e: DomainEvent) -> None:
        self._names(e.workflow_id, e.workflow_type, e.temporal_run_id)  # type: ignore[attr-defined]
        self.status = e.status  # type: ignore[attr-defined]
        self.error_code = getattr(e, "error_code", None)

    @applies(WorkflowCompleted)
    def _completed(self, e: WorkflowCompleted) -> None:
        self._closed(e)

    @applies(WorkflowFailed)
    def _failed(self, e: WorkflowFailed) -> None:
        self._closed(e)

    @applies(WorkflowCanceled)
    def _canceled(self, e: WorkflowCanceled) -> None:
        self._closed(e)

    @applies(WorkflowTimedOut)
    def _timed_out(self, e: WorkflowTimedOut) -> None:
        self._closed(e)

    @applies(WorkflowTerminated)
    def _terminated(self, e: WorkflowTerminated) -> None:
        self._closed(e)
