"""Workflow-run lifecycle and Discover pipeline-step stories."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from jobctrl.kernel.execution import ExecutionRefPayload
from jobctrl.orchestration.events import (
    PipelineStepCompleted,
    PipelineStepFailed,
    PipelineStepQueued,
    PipelineStepStarted,
    Stage,
    StageEnqueued,
    StageOwnerRef,
    StageStarted,
    StepDetail,
    WorkflowCompleted,
    WorkflowTerminated,
)
from jobctrl.testing.synthetic._common import Emitted, _Clock


def _start(
    rng: random.Random, clock: _Clock, job: str, stage: Stage, attempt: int, where: tuple[str, str, str]
) -> Iterator[Emitted]:
    """A start (owned stages carry their owner, v2); now and then the row is queued first."""
    stream, wf, run = where
    if rng.random() < 0.2:  # Pending -> Queued -> Running
        yield StageEnqueued(job_id=job, stage=stage, queued_at=clock.tick(rng)), stream, wf, run
    owner = StageOwnerRef(wf, run, 1) if stage in ("score", "tailor", "cover") else None
    started = StageStarted(
        job_id=job, stage=stage, attempt_number=attempt, started_at=clock.tick(rng), owner=owner
    )
    yield started, stream, wf, run


def _steps(
    rng: random.Random, clock: _Clock, ex: ExecutionRefPayload, kind: Any, item: str
) -> Iterator[Emitted]:
    stream = f"steps-{ex.workflow_id}-{ex.temporal_run_id}"
    attempts = rng.choice((1, 1, 1, 2, 3))
    for attempt in range(1, attempts + 1):
        common: dict[str, Any] = {"execution": ex, "step_kind": kind, "item_key": item, "attempt": attempt}
        yield PipelineStepQueued(**common, detail=None, queued_at=clock.tick(rng)), stream, None, None
        yield PipelineStepStarted(**common, detail=None, started_at=clock.tick(rng)), stream, None, None
        if attempt < attempts:
            yield (
                PipelineStepFailed(
                    **common,
                    detail=None,
                    failed_at=clock.tick(rng),
                    duration_ms=10,
                    error_code="source_unavailable",
                    retryable=True,
                ),
                stream,
                None,
                None,
            )
            continue
        detail = StepDetail(
            code=rng.choice(("jobs_observed", "jobs_planned", "raw_debug_text")),
            item_count=rng.randint(0, 40),
        )
        yield (
            PipelineStepCompleted(**common, detail=detail, completed_at=clock.tick(rng), duration_ms=1200),
            stream,
            None,
            None,
        )
        if rng.random() < 0.2:  # a duplicate terminal of the same attempt: the first one wins
            yield (
                PipelineStepFailed(
                    **common,
                    detail=None,
                    failed_at=clock.tick(rng),
                    duration_ms=5,
                    error_code="late_duplicate",
                    retryable=False,
                ),
                stream,
                None,
                None,
            )
    if attempts > 1 and rng.random() < 0.5:  # a late event of an older attempt is ignored
        late = {"execution": ex, "step_kind": kind, "item_key": item, "attempt": 1}
        yield PipelineStepStarted(**late, detail=None, started_at=clock.tick(rng)), stream, None, None


def _completed(clock: _Clock, rng: random.Random, wf: str, run: str) -> WorkflowCompleted:
    return WorkflowCompleted(
        workflow_id=wf,
        workflow_type="DiscoverWorkflow",
        status="succeeded",
        finished_at=clock.tick(rng),
        duration_ms=rng.randint(100, 100_000),
        temporal_run_id=run,
    )


def _terminated(clock: _Clock, rng: random.Random, wf: str, run: str, code: str) -> WorkflowTerminated:
    return WorkflowTerminated(
        workflow_id=wf,
        workflow_type="DiscoverWorkflow",
        status="terminated",
        finished_at=clock.tick(rng),
        duration_ms=None,
        temporal_run_id=run,
        error_code=code,
        error_message="run not found",
    )
