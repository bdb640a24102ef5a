"""Published events of the Orchestration context: stages, workflow lifecycle, pipeline steps,
preparation work items and the candidate profile (importable without the aggregates).

Stage events are fully typed so ``job_stage_states`` is a pure fold of them.  Pipeline-step details
carry only allowlisted codes and counts; error codes are bounded; exception text never enters them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.registry import Payload, Upcaster

Stage = Literal["discover", "enrich", "score", "tailor", "cover", "apply"]
WorkflowStatus = Literal["in_progress", "succeeded", "failed", "canceled", "timed_out", "terminated"]
StepKind = Literal[
    "source_planning",
    "source_family",
    "enrichment_pass",
    "preparation_fanout",
    "existing_backlog_sweep",
    "pdf_render",
]
WorkItemKind = Literal["score_job", "tailor_resume", "suppress_tailored_artifacts"]
ContinuationOutcome = Literal["succeeded", "failed", "canceled", "terminated", "timed_out"]
Code = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z][A-Za-z0-9_.:\-]{0,79}$")]
ItemKey = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
Message = Annotated[str, msgspec.Meta(max_length=500)]


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


# -- profile --------------------------------------------------------------------------------------
class ProfileUpdated(DomainEvent, frozen=True):
    event_type = "ProfileUpdated"
    changed_sections: list[str]
    updated_at: str


class ProfileImported(DomainEvent, frozen=True):
    event_type = "ProfileImported"
    source: str
    imported_sections: list[str]
    imported_at: str


class ProfileRevisionSaved(DomainEvent, frozen=True):
    """Every accepted save: the normalized profile content and its digests (profile version N).

    ``factsDigest`` covers what preparation depends on; ``presentationDigest`` covers style/template
    sections only, so a presentation-only save is recorded but starts nothing."""

    event_type = "ProfileRevisionSaved"
    profile_version: Annotated[int, msgspec.Meta(ge=1)]
    content: dict[str, Any]
    facts_digest: str
    presentation_digest: str
    saved_at: str


class ProfileContinuationQueued(DomainEvent, frozen=True):
    """The outbox fact committed with a genuine ``ProfileUpdated``: preparation must continue."""

    event_type = "ProfileContinuationQueued"
    intent_id: str
    profile_version: int
    profile_event_id: str
    workflow_id: str
    queued_at: str


class ProfileContinuationDispatchIntended(DomainEvent, frozen=True):
    """Appended before the Temporal start: from here on the revision may have started."""

    event_type = "ProfileContinuationDispatchIntended"
    intent_id: str
    workflow_id: str
    intended_at: str


class ProfileContinuationCoalesced(DomainEvent, frozen=True):
    """A revision that provably never started is folded into a newer one."""

    event_type = "ProfileContinuationCoalesced"
    intent_id: str
    into_intent_id: str
    coalesced_at: str


class ProfileContinuationClosed(DomainEvent, frozen=True):
    """The terminal fact of a dispatched continuation (ADR 0077): its execution ended for good, so the
    outbox never describes, attaches to or starts it again, even once Temporal's retention has purged
    its history.  ``recordedBy`` says who saw the end: the workflow itself (success, failure, cancel)
    or a drain that found it closed in Temporal (terminated, timed out, or ended before this fact)."""

    event_type = "ProfileContinuationClosed"
    intent_id: str
    workflow_id: str
    outcome: ContinuationOutcome
    closed_at: str
    recorded_by: Literal["workflow", "outbox_drain"]


# -- pipeline steps -------------------------------------------------------------------------------
class ExecutionRef(msgspec.Struct, frozen=True, rename="camel"):
    """The immutable identity of one Discover execution."""

    tenant_id: str
    workflow_id: str
    temporal_run_id: str


class StepDetail(msgspec.Struct, frozen=True, rename="camel"):
    code: Code
    item_count: int | None


class _PipelineStep(DomainEvent, frozen=True):
    execution: ExecutionRef
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


# -- workflow lifecycle ---------------------------------------------------------------------------
class WorkflowStarted(DomainEvent, frozen=True):
    event_type = "WorkflowStarted"
    workflow_id: str
    workflow_type: str
    status: WorkflowStatus
    input_summary: dict[str, Any]
    started_at: str | None
    temporal_run_id: str | None
    recovered_from_missing_history: bool | None = None


class WorkflowCancellationRequested(DomainEvent, frozen=True):
    event_type = "WorkflowCancellationRequested"
    workflow_id: str
    workflow_type: str
    requested_by: str
    source: str
    evidence_kind: Literal["request_intent", "temporal_history", "recovered_temporal_history"]
    reason: str | None
    requested_at: str
    temporal_run_id: str | None
    message: Message


class _WorkflowClosed(DomainEvent, frozen=True):
    workflow_id: str
    workflow_type: str
    status: WorkflowStatus
    finished_at: str | None
    duration_ms: int | None
    temporal_run_id: str | None


class WorkflowCompleted(_WorkflowClosed, frozen=True):
    event_type = "WorkflowCompleted"


class WorkflowFailed(_WorkflowClosed, frozen=True):
    event_type = "WorkflowFailed"
    error_code: Code
    error_message: Message
    retryable: bool


class WorkflowCanceled(_WorkflowClosed, frozen=True):
    event_type = "WorkflowCanceled"
    error_code: Code
    error_message: Message


class WorkflowTimedOut(_WorkflowClosed, frozen=True):
    event_type = "WorkflowTimedOut"
    error_code: Code
    error_message: Message


class WorkflowTerminated(_WorkflowClosed, frozen=True):
    event_type = "WorkflowTerminated"
    error_code: Code
    error_message: Message


# -- preparation work items -----------------------------------------------------------------------
class PreparationWorkItemQueued(DomainEvent, frozen=True):
    event_type = "PreparationWorkItemQueued"
    work_item_id: str
    job_id: str
    kind: WorkItemKind
    reason: str
    target_version: int | None
    source_event_id: str
    queued_at: str


class PreparationWorkItemStarted(DomainEvent, frozen=True):
    event_type = "PreparationWorkItemStarted"
    work_item_id: str
    job_id: str
    kind: WorkItemKind
    worker_id: str
    started_at: str


class PreparationWorkItemCompleted(DomainEvent, frozen=True):
    event_type = "PreparationWorkItemCompleted"
    work_item_id: str
    job_id: str
    kind: WorkItemKind
    completed_at: str
    duration_ms: int


class PreparationWorkItemFailed(DomainEvent, frozen=True):
    event_type = "PreparationWorkItemFailed"
    work_item_id: str
    job_id: str
    kind: WorkItemKind
    error_code: Code
    retryable: bool
    failed_at: str


EVENTS: tuple[type[DomainEvent], ...] = (
    StageStarted,
    StageCompleted,
    StageFailed,
    StageExhausted,
    StageReset,
    StageBlocked,
    StageSkipped,
    StageCanceled,
    ProfileUpdated,
    ProfileImported,
    PipelineStepQueued,
    PipelineStepStarted,
    PipelineStepCompleted,
    PipelineStepFailed,
    DigestReviewed,
    WorkflowStarted,
    WorkflowCancellationRequested,
    WorkflowCompleted,
    WorkflowFailed,
    WorkflowCanceled,
    WorkflowTimedOut,
    WorkflowTerminated,
    PreparationWorkItemQueued,
    PreparationWorkItemStarted,
    PreparationWorkItemCompleted,
    PreparationWorkItemFailed,
    StageEnqueued,
    StageUnblocked,
    StageMarkedStale,
    ProfileRevisionSaved,
    ProfileContinuationQueued,
    ProfileContinuationDispatchIntended,
    ProfileContinuationCoalesced,
    ProfileContinuationClosed,
)


def _stage_started_v1(payload: Payload) -> Payload:
    return payload  # v1 rows simply have no owner / baseline (both optional)


def _stage_blocked_v1(payload: Payload) -> Payload:
    return {**payload, "errorCode": "BLOCKED_UPSTREAM", "errorMessage": ""}


UPCASTERS: tuple[Upcaster, ...] = (
    Upcaster("StageStarted", 1, _stage_started_v1),
    Upcaster("StageBlocked", 1, _stage_blocked_v1),
)
