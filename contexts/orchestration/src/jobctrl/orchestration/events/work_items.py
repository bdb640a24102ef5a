"""Preparation work items."""

from __future__ import annotations

from jobctrl.kernel.events import DomainEvent
from jobctrl.orchestration.events._types import Code, WorkItemKind


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
