"""PipelineStep: one (execution, step kind, item key), across its attempts.

Attempt-aware like its projection: a higher attempt replaces an older one; a late report of a lower
attempt appends nothing; within one attempt the first terminal result wins and repeats append
nothing.  Details are allowlisted codes and counts; error codes are bounded.
"""

from __future__ import annotations

from enum import StrEnum

from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.kernel.ids import deterministic_id
from jobctrl.orchestration.events import (
    ExecutionRef,
    PipelineStepCompleted,
    PipelineStepFailed,
    PipelineStepQueued,
    PipelineStepStarted,
    StepDetail,
    StepKind,
)
from jobctrl.orchestration.privacy import bounded_error_code, checked_detail_code


class StepPhase(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


_ORDER = {StepPhase.QUEUED: 0, StepPhase.RUNNING: 1, StepPhase.SUCCEEDED: 2, StepPhase.FAILED: 2}


def step_id(execution: ExecutionRef, step_kind: StepKind, item_key: str) -> str:
    return deterministic_id(
        "pipeline-step",
        execution.tenant_id,
        execution.workflow_id,
        execution.temporal_run_id,
        step_kind,
        item_key,
    )


def detail(code: str, item_count: int | None = None) -> StepDetail:
    if item_count is not None and item_count < 0:
        raise ValueError("item counts cannot be negative")
    return StepDetail(code=checked_detail_code(code), item_count=item_count)


class PipelineStep(Aggregate):
    stream_prefix = "step"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.attempt = 0
        self.phase: StepPhase | None = None
        self.error_code: str | None = None

    def _accepts(self, attempt: int, phase: StepPhase) -> bool:
        if attempt < self.attempt:
            return False  # a late report of an older attempt
        if attempt > self.attempt or self.phase is None:
            return True  # a newer attempt replaces the older one
        if self.phase in (StepPhase.SUCCEEDED, StepPhase.FAILED):
            return False  # first terminal wins within an attempt
        return _ORDER[phase] > _ORDER[self.phase]

    def queue(
        self, execution: ExecutionRef, kind: StepKind, item_key: str, *, attempt: int, at: str,
        detail: StepDetail | None = None,
    ) -> bool:  # fmt: skip
        if not self._accepts(attempt, StepPhase.QUEUED):
            return False
        self._record(
            PipelineStepQueued(
                execution=execution,
                step_kind=kind,
                item_key=item_key,
                attempt=attempt,
                detail=detail,
                queued_at=at,
            )
        )
        return True

    def start(
        self, execution: ExecutionRef, kind: StepKind, item_key: str, *, attempt: int, at: str,
        detail: StepDetail | None = None,
    ) -> bool:  # fmt: skip
        if not self._accepts(attempt, StepPhase.RUNNING):
            return False
        self._record(
            PipelineStepStarted(
                execution=execution,
                step_kind=kind,
                item_key=item_key,
                attempt=attempt,
                detail=detail,
                started_at=at,
            )
        )
        return True

    def complete(
        self, execution: ExecutionRef, kind: StepKind, item_key: str, *, attempt: int, at: str,
        duration_ms: int | None = None, detail: StepDetail | None = None,
    ) -> bool:  # fmt: skip
        if not self._accepts(attempt, StepPhase.SUCCEEDED):
            return False
        self._record(
            PipelineStepCompleted(
                execution=execution, step_kind=kind, item_key=item_key, attempt=attempt, detail=detail,
                completed_at=at, duration_ms=duration_ms,
            )
        )  # fmt: skip
        return True

    def fail(
        self, execution: ExecutionRef, kind: StepKind, item_key: str, *, attempt: int, at: str,
        error_code: str, retryable: bool, duration_ms: int | None = None, detail: StepDetail | None = None,
    ) -> bool:  # fmt: skip
        if not self._accepts(attempt, StepPhase.FAILED):
            return False
        self._record(
            PipelineStepFailed(
                execution=execution, step_kind=kind, item_key=item_key, attempt=attempt, detail=detail,
                failed_at=at, duration_ms=duration_ms, error_code=bounded_error_code(error_code),
                retryable=retryable,
            )
        )  # fmt: skip
        return True

    def _at(self, attempt: int, phase: StepPhase, code: str | None = None) -> None:
        self.attempt, self.phase, self.error_code = attempt, phase, code

    @applies(PipelineStepQueued)
    def _queued(self, e: PipelineStepQueued) -> None:
        self._at(e.attempt, StepPhase.QUEUED)

    @applies(PipelineStepStarted)
    def _started(self, e: PipelineStepStarted) -> None:
        self._at(e.attempt, StepPhase.RUNNING)

    @applies(PipelineStepCompleted)
    def _completed(self, e: PipelineStepCompleted) -> None:
        self._at(e.attempt, StepPhase.SUCCEEDED)

    @applies(PipelineStepFailed)
    def _failed(self, e: PipelineStepFailed) -> None:
        self._at(e.attempt, StepPhase.FAILED, e.error_code)
