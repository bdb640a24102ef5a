"""Record pipeline-step transitions of one Discover execution (each transition once per step)."""

from __future__ import annotations

from collections.abc import Sequence

from jobctrl.activity_contracts.contracts import PipelineStepChange
from jobctrl.kernel.clock import Clock, SystemClock
from jobctrl.kernel.execution import ExecutionRef
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.execution_steps import ExecutionSteps
from jobctrl.orchestration.use_cases._runs import decide_and_save


def record_pipeline_steps(
    store: EventStore,
    execution: ExecutionRef,
    changes: Sequence[PipelineStepChange],
    *,
    clock: Clock | None = None,
) -> bool:
    """True when anything new was appended (a retry or an overlapping batch appends only what is new)."""
    if not changes:
        return False

    def decide(steps: ExecutionSteps) -> bool:
        recorded = [
            steps.report(
                execution, c.step_kind, c.item_key, c.transition, at=c.at, item_count=c.item_count,
                error_code=c.error_code, retryable=c.retryable, duration_ms=c.duration_ms,
            )
            for c in changes
        ]  # fmt: skip
        return any(recorded)

    rid = execution.temporal_run_id
    return decide_and_save(
        store,
        ExecutionSteps,
        lambda repo: repo.load(rid) or ExecutionSteps(rid),
        decide,
        clock=clock or SystemClock(),
        tenant_id=execution.tenant_id,
        workflow_id=execution.workflow_id,
        run_id=rid,
    )
