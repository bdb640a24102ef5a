"""ExecutionSteps: the pipeline steps of one Discover execution (stream ``execution-{runId}``).

The only writer of the four ``PipelineStep*`` events.  A step is keyed by (step kind, item key) within
the execution; each reported transition (queued, started, completed, failed) of a step is recorded
once, so an activity retry or an overlapping batch from a parallel family appends nothing twice.
Which transition wins for the read model (attempt order, the first terminal, the first start) is the
``pipeline_step_projections`` fold's rule, its only fold.

``settle_unfinished`` is terminal reconciliation's write (ADR 0270): once the execution's workflow is
closed, every step it queued or started and never ended gets a ``PipelineStepFailed`` with the run's
code (``canceled`` for a canceled run), non-retryable, detail ``terminal_reconciliation``; the
lifecycle schema has no canceled step state, so the spec's four events stay four.
"""

from __future__ import annotations

from jobctrl.activity_contracts.contracts import StepTransition
from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.text import bound_text, bounded_code
from jobctrl.orchestration.events import (
    PipelineStepCompleted,
    PipelineStepFailed,
    PipelineStepQueued,
    PipelineStepStarted,
    StepDetail,
    StepKind,
)

Transition = StepTransition
SETTLED_DETAIL = "terminal_reconciliation"
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
        self.unfinished: dict[tuple[str, str], None] = {}  # (kind, key) queued/started, not ended: in order

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
        detail = StepDetail(code=kind, item_count=item_count) if item_count is not None else None
        return self._report(
            execution, kind, bound_text(item_key, 200), transition, at=at, detail=detail,
            error_code=error_code, retryable=retryable, duration_ms=duration_ms,
        )  # fmt: skip

    def settle_unfinished(self, execution: ExecutionRef, code: str, *, at: str) -> int:
        """End every queued or started step that never ended (its workflow is closed); the count."""
        detail = StepDetail(code=SETTLED_DETAIL, item_count=None)
        settled = 0
        for kind, key in list(self.unfinished):
            settled += self._report(
                execution, kind, key, "failed", at=at, detail=detail,  # type: ignore[arg-type]
                error_code=code, retryable=False, duration_ms=None,
            )  # fmt: skip
        return settled

    def _report(
        self,
        execution: ExecutionRef,
        kind: StepKind,
        key: str,
        transition: Transition,
        *,
        at: str,
        detail: StepDetail | None,
        error_code: str | None,
        retryable: bool,
        duration_ms: int | None,
    ) -> bool:
        if (kind, key, transition) in self.recorded:
            return False
        base = {
            "execution": execution.payload(),
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
        transition = _TRANSITIONS[type(e)]
        step = (e.step_kind, e.item_key)  # type: ignore[attr-defined]
        self.recorded.add((*step, transition))
        if transition in ("completed", "failed"):
            self.unfinished.pop(step, None)
        elif (*step, "completed") not in self.recorded and (*step, "failed") not in self.recorded:
            self.unfinished[step] = None

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
