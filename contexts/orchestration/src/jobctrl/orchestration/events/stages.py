"""Stage events: fully typed, so ``job_stage_states`` is a pure fold of them."""

from __future__ import annotations

from typing import Annotated

import msgspec

from jobctrl.kernel.events import DomainEvent
from jobctrl.orchestration.events._types import Code, Message, Stage


# -- stages ---------------------------------------------------------------------------------------
class StageOwnerRef(msgspec.Struct, frozen=True, rename="camel"):
    """The owner of a running Score/Tailor/Cover row: one activity attempt of one workflow run."""

    workflow_id: str
    temporal_run_id: str
    attempt: Annotated[int, msgspec.Meta(ge=1)]


class StageStarted(DomainEvent, frozen=True):
    """v2 adds the owner and the baseline (score version / material generation before the run)."""

    event_type = "StageStarted"
    schema_version = 2
    job_id: str
    stage: Stage
    attempt_number: int
    started_at: str
    owner: StageOwnerRef | None = None
    baseline_version: int | None = None


class StageCompleted(DomainEvent, frozen=True):
    event_type = "StageCompleted"
    job_id: str
    stage: Stage
    finished_at: str
    duration_ms: int


class StageFailed(DomainEvent, frozen=True):
    event_type = "StageFailed"
    job_id: str
    stage: Stage
    error_code: Code
    error_message: Message
    retryable: bool
    attempt_number: int


class StageExhausted(DomainEvent, frozen=True):
    event_type = "StageExhausted"
    job_id: str
    stage: Stage
    attempt_count: int
    max_attempts: int


class StageReset(DomainEvent, frozen=True):
    event_type = "StageReset"
    job_id: str
    stage: Stage
    reset_attempts: bool
    reset_at: str


class StageBlocked(DomainEvent, frozen=True):
    """v2 adds the typed block code (e.g. ``UPSTREAM_TAILOR_FAILED``) and its bounded message."""

    event_type = "StageBlocked"
    schema_version = 2
    job_id: str
    stage: Stage
    blocked_by: list[Code]
    error_code: Code
    error_message: Message


class StageSkipped(DomainEvent, frozen=True):
    event_type = "StageSkipped"
    job_id: str
    stage: Stage
    reason: Message


class StageCanceled(DomainEvent, frozen=True):
    event_type = "StageCanceled"
    job_id: str
    stage: Stage
    canceled_at: str
    reason: Message | None = None


class StageEnqueued(DomainEvent, frozen=True):
    """Pending -> Queued (the reference only tags rows with a ``StageQueued`` marker string)."""

    event_type = "StageEnqueued"
    job_id: str
    stage: Stage
    queued_at: str


class StageUnblocked(DomainEvent, frozen=True):
    """Blocked -> Pending, e.g. an upstream Tailor success clearing its own blocks."""

    event_type = "StageUnblocked"
    job_id: str
    stage: Stage
    attempt_count: int
    unblocked_at: str


class StageMarkedStale(DomainEvent, frozen=True):
    """Succeeded -> Stale: the output no longer matches its inputs (e.g. the profile changed)."""

    event_type = "StageMarkedStale"
    job_id: str
    stage: Stage
    reason: Code
    marked_at: str
