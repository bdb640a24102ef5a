"""ExecutionSteps: the pipeline steps of one Discover execution (stream ``execution-{runId}``).

The only writer of the four ``PipelineStep*`` events.  A step is keyed by (step kind, item key) within
the execution; each reported transition (queued, started, completed, failed) of a step is recorded
once, so an activity retry or an overlapping batch from a parallel family appends nothing twice.
Which transition wins for the read model (attempt order, the first terminal, the first start) is the
``pipeline_step_projections`` fold's rule, its only fold.
"""

from __future__ import annotations

from jobctrl.activity_contracts.contracts import StepTransition
from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.text import bound_text, bounded_code
from jobctrl.orchestration.events import (
    ExecutionRef,
    PipelineStepCompleted,
    PipelineStepFailed,
    PipelineStepQueued,
    PipelineStepStarted,
    StepDetail,
    StepKind,
)

Transition = StepTransition
ATTEMPT = 1  # the live path reports one attempt per execution; the fold is attempt-aware regardless
_TRANSITIONS: dict[type[DomainEvent], Transition] = {
    PipelineStepQueued: "queued",
    PipelineStepStarted: "started",
    PipelineStepCompleted: "completed",
    PipelineStepFailed: "failed",
}


class ExecutionSteps(Aggregate):
    stream_prefix = "execution"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.recorded: set[tuple[str, str, str]] = set()

    def report(
        self,
        execution: ExecutionRef,
        kind: StepKind,
        item_key: str,
        transition: Transition,
        *,
        at: str,
        item_count: int | None = None,
        error_code: str | None = None,
        retryable: bool = False,
        duration_ms: int | None = None,
    ) -> bool:
        key = bound_text(item_key, 200)
        if (kind, key, transition) in self.recorded:
            return False
        detail = StepDetail(code=kind, item_count=item_count) if item_count is not None else None
        base = {
            "execution": execution,
            "step_kind": kind,
            "item_key": key,
            "attempt": ATTEMPT,
            "detail": detail,
        }
        event: DomainEvent
        if transition == "queued":
            event = PipelineStepQueued(queued_at=at, **base)  # type: ignore[arg-type]
        elif transition == "started":
            event = PipelineStepStarted(started_at=at, **base)  # type: ignore[arg-type]
        elif transition == "completed":
            event = PipelineStepCompleted(completed_at=at, duration_ms=duration_ms, **base)  # type: ignore[arg-type]
        else:
            event = PipelineStepFailed(
                failed_at=at, duration_ms=duration_ms, error_code=bounded_code(error_code or "unclassified"),
                retryable=retryable, **base,  # type: ignore[arg-type]
            )  # fmt: skip
        self._record(event)
        return True

    def _seen(self, e: DomainEvent) -> None:
        self.recorded.add((e.step_kind, e.item_key, _TRANSITIONS[type(e)]))  # type: ignore[attr-defined]

    @applies(PipelineStepQueued)
    def _queued(self, e: PipelineStepQueued) -> None:
        self._seen(e)

    @applies(PipelineStepStarted)
    def _started(self, e: PipelineStepStarted) -> None:
        self._seen(e)

    @applies(PipelineStepCompleted)
    def _completed(self, e: PipelineStepCompleted) -> None:
        self._seen(e)

    @applies(PipelineStepFailed)
    def _failed(self, e: PipelineStepFailed) -> None:
        self._seen(e)
