"""Use cases the Temporal runtime calls: record a start, record an outcome, reconcile a described run.

Each loads the run, decides, and saves with the version it loaded (compare-and-swap in the write
transaction).  They return whether anything was appended, so callers can refresh projections only
when needed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, SystemClock, isoformat
from jobctrl.kernel.ids import checked_id
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.runs.aggregate import WorkflowRun
from jobctrl.orchestration.runs.outcomes import RunOutcome
from jobctrl.orchestration.runs.reconcile import Decision, DescribedStatus, reconcile_run


class RunService:
    def __init__(self, store: EventStore, *, clock: Clock | None = None) -> None:
        self.clock = clock or SystemClock()
        self.repo = AggregateRepository.for_class(store, WorkflowRun, clock=self.clock)

    def load(self, workflow_id: str) -> WorkflowRun:
        return self.repo.load(checked_id(workflow_id)) or WorkflowRun(workflow_id)

    def _save(self, run: WorkflowRun) -> bool:
        appended = bool(run.pending_events)
        if appended:
            self.repo.save(run, workflow_id=run.id, run_id=run.run_id)
        return appended

    def record_started(
        self,
        workflow_id: str,
        workflow_type: str,
        temporal_run_id: str,
        input_summary: Mapping[str, Any] | None = None,
    ) -> bool:
        run = self.load(workflow_id)
        run.start(
            workflow_type=workflow_type,
            temporal_run_id=temporal_run_id,
            started_at=isoformat(self.clock.now()),
            input_summary=input_summary,
        )
        return self._save(run)

    def record_outcome(
        self,
        workflow_id: str,
        temporal_run_id: str,
        outcome: RunOutcome,
        *,
        error_code: str | None = None,
        retryable: bool = False,
        duration_ms: int | None = None,
    ) -> bool:
        run = self.load(workflow_id)
        run.close(
            outcome,
            temporal_run_id=temporal_run_id,
            finished_at=isoformat(self.clock.now()),
            duration_ms=duration_ms,
            error_code=error_code,
            retryable=retryable,
        )
        return self._save(run)

    def request_cancellation(
        self,
        workflow_id: str,
        temporal_run_id: str,
        *,
        requested_by: str,
        source: str,
        reason_code: str | None,
    ) -> bool:
        run = self.load(workflow_id)
        run.request_cancellation(
            temporal_run_id=temporal_run_id,
            requested_by=requested_by,
            source=source,
            reason_code=reason_code,
            at=isoformat(self.clock.now()),
        )
        return self._save(run)

    def reconcile(self, workflow_id: str, described: DescribedStatus) -> Decision:
        run = self.load(workflow_id)
        decision = reconcile_run(run, described, at=isoformat(self.clock.now()))
        self._save(run)
        return decision
