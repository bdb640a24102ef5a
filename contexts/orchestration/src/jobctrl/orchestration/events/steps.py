"""Pipeline steps of a Discover execution (details carry only allowlisted codes and counts) and the
digest review."""

from __future__ import annotations

from typing import Annotated

import msgspec

from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.execution import ExecutionRefPayload
from jobctrl.orchestration.events._types import Code, ItemKey, StepKind


# -- pipeline steps -------------------------------------------------------------------------------
class StepDetail(msgspec.Struct, frozen=True, rename="camel"):
    code: Code
    item_count: int | None


class _PipelineStep(DomainEvent, frozen=True):
    execution: ExecutionRefPayload
    step_kind: StepKind
    item_key: ItemKey
    attempt: Annotated[int, msgspec.Meta(ge=1)]
    detail: StepDetail | None


class PipelineStepQueued(_PipelineStep, frozen=True):
    event_type = "PipelineStepQueued"
    queued_at: str


class PipelineStepStarted(_PipelineStep, frozen=True):
    event_type = "PipelineStepStarted"
    started_at: str


class PipelineStepCompleted(_PipelineStep, frozen=True):
    event_type = "PipelineStepCompleted"
    completed_at: str
    duration_ms: int | None


class PipelineStepFailed(_PipelineStep, frozen=True):
    event_type = "PipelineStepFailed"
    failed_at: str
    duration_ms: int | None
    error_code: Code
    retryable: bool


class DigestReviewed(DomainEvent, frozen=True):
    event_type = "DigestReviewed"
    acknowledged_at: str
    reviewed_at: str
    previous_acknowledged_at: str | None
