"""Published events of the Orchestration context: stages, workflow lifecycle, pipeline steps,
preparation work items and the candidate profile (importable without the aggregates).

Stage events are fully typed so ``job_stage_states`` is a pure fold of them.  Pipeline-step details
carry only allowlisted codes and counts; error codes are bounded; exception text never enters them.
"""

from __future__ import annotations

from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.registry import Payload, Upcaster
from jobctrl.orchestration.events._types import (
    Code,
    ContinuationOutcome,
    ItemKey,
    Message,
    Stage,
    StepKind,
    WorkflowStatus,
    WorkItemKind,
)
from jobctrl.orchestration.events.profile import (
    ProfileContinuationClosed,
    ProfileContinuationCoalesced,
    ProfileContinuationDispatchIntended,
    ProfileContinuationQueued,
    ProfileImported,
    ProfileRevisionSaved,
    ProfileUpdated,
)
from jobctrl.orchestration.events.stages import (
    StageBlocked,
    StageCanceled,
    StageCompleted,
    StageEnqueued,
    StageExhausted,
    StageFailed,
    StageMarkedStale,
    StageOwnerRef,
    StageReset,
    StageSkipped,
    StageStarted,
    StageUnblocked,
)
from jobctrl.orchestration.events.steps import (
    DigestReviewed,
    PipelineStepCompleted,
    PipelineStepFailed,
    PipelineStepQueued,
    PipelineStepStarted,
    StepDetail,
)
from jobctrl.orchestration.events.work_items import (
    PreparationWorkItemCompleted,
    PreparationWorkItemFailed,
    PreparationWorkItemQueued,
    PreparationWorkItemStarted,
)
from jobctrl.orchestration.events.workflows import (
    CLOSING_STATUS,
    RUN_ROW_EVENTS,
    WorkflowCanceled,
    WorkflowCancellationRequested,
    WorkflowClosed,
    WorkflowCompleted,
    WorkflowFailed,
    WorkflowStarted,
    WorkflowTerminated,
    WorkflowTimedOut,
)

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


__all__ = [
    "CLOSING_STATUS",
    "EVENTS",
    "RUN_ROW_EVENTS",
    "UPCASTERS",
    "Code",
    "ContinuationOutcome",
    "DigestReviewed",
    "ItemKey",
    "Message",
    "PipelineStepCompleted",
    "PipelineStepFailed",
    "PipelineStepQueued",
    "PipelineStepStarted",
    "PreparationWorkItemCompleted",
    "PreparationWorkItemFailed",
    "PreparationWorkItemQueued",
    "PreparationWorkItemStarted",
    "ProfileContinuationClosed",
    "ProfileContinuationCoalesced",
    "ProfileContinuationDispatchIntended",
    "ProfileContinuationQueued",
    "ProfileImported",
    "ProfileRevisionSaved",
    "ProfileUpdated",
    "Stage",
    "StageBlocked",
    "StageCanceled",
    "StageCompleted",
    "StageEnqueued",
    "StageExhausted",
    "StageFailed",
    "StageMarkedStale",
    "StageOwnerRef",
    "StageReset",
    "StageSkipped",
    "StageStarted",
    "StageUnblocked",
    "StepDetail",
    "StepKind",
    "WorkItemKind",
    "WorkflowCanceled",
    "WorkflowCancellationRequested",
    "WorkflowClosed",
    "WorkflowCompleted",
    "WorkflowFailed",
    "WorkflowStarted",
    "WorkflowStatus",
    "WorkflowTerminated",
    "WorkflowTimedOut",
]
