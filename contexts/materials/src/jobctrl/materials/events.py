"""Published events of the Materials context (importable without the aggregates).

There is deliberately no ``CoverLetterFailed``: cover failure is ``StageFailed`` + ``WorkflowFailed``.
"""

from __future__ import annotations

from typing import Literal

from jobctrl.kernel.events import DomainEvent


class ResumeApproved(DomainEvent, frozen=True):
    event_type = "ResumeApproved"
    job_id: str
    artifact_id: str
    generation: int
    approved_at: str


class ResumeFailed(DomainEvent, frozen=True):
    event_type = "ResumeFailed"
    job_id: str
    validation_errors: list[str]
    attempt_number: int


class CoverLetterGenerated(DomainEvent, frozen=True):
    event_type = "CoverLetterGenerated"
    job_id: str
    artifact_id: str
    generated_at: str


class PdfRendered(DomainEvent, frozen=True):
    event_type = "PdfRendered"
    job_id: str
    artifact_type: str
    artifact_id: str
    rendered_at: str


class MaterialsExhausted(DomainEvent, frozen=True):
    event_type = "MaterialsExhausted"
    job_id: str
    stage: str
    attempt_count: int
    max_attempts: int


class BulletProvenanceRecorded(DomainEvent, frozen=True):
    event_type = "BulletProvenanceRecorded"
    job_id: str
    artifact_id: str
    generation: int
    bullet_count: int
    recorded_at: str


class InterviewPrepGenerated(DomainEvent, frozen=True):
    event_type = "InterviewPrepGenerated"
    job_id: str
    generation: int
    item_count: int
    generated_at: str


class InterviewPrepFailed(DomainEvent, frozen=True):
    event_type = "InterviewPrepFailed"
    job_id: str
    generation: int
    failed_at: str
    reason_count: int


class TailorRetailorRequested(DomainEvent, frozen=True):
    event_type = "TailorRetailorRequested"
    request_id: str
    job_id: str
    request_kind: Literal["single_job", "bulk_current_policy", "policy_update", "repair"]
    current_policy_version: int
    latest_artifact_policy_version: int | None
    reason: str
    requested_at: str
    source_event_id: str | None = None


class TailoredArtifactsSuppressed(DomainEvent, frozen=True):
    event_type = "TailoredArtifactsSuppressed"
    job_id: str
    artifact_ids: list[str]
    suppression_reason: str
    suppressed_at: str
    current_fit_score: float | None = None
    score_threshold: float | None = None
    current_tailoring_policy_version: int | None = None


class ResumeTemplateVersionSaved(DomainEvent, frozen=True):
    event_type = "ResumeTemplateVersionSaved"
    template_id: str
    template_version_id: str
    version_number: int
    display_name: str
    saved_at: str


class ResumeTemplateDefaultChanged(DomainEvent, frozen=True):
    event_type = "ResumeTemplateDefaultChanged"
    template_id: str
    template_version_id: str
    changed_at: str


class JobResumeTemplateAssigned(DomainEvent, frozen=True):
    event_type = "JobResumeTemplateAssigned"
    job_id: str
    template_id: str | None
    template_version_id: str | None
    assigned_at: str


class ResumeTemplateRefreshCompleted(DomainEvent, frozen=True):
    event_type = "ResumeTemplateRefreshCompleted"
    job_id: str
    attempt_id: str
    generation: int
    template_id: str
    template_version_id: str
    completed_at: str


class ResumeTemplateRefreshFailed(DomainEvent, frozen=True):
    event_type = "ResumeTemplateRefreshFailed"
    job_id: str
    attempt_id: str
    status: Literal["failed", "unavailable"]
    error_message: str
    failed_at: str


class TailoringPolicyUpdated(DomainEvent, frozen=True):
    event_type = "TailoringPolicyUpdated"
    policy_id: str
    policy_version: int
    previous_policy_version: int | None
    policy_fingerprint: str
    changed_fields: list[str]
    updated_at: str
    rollback_of_policy_version: int | None = None


EVENTS: tuple[type[DomainEvent], ...] = (
    ResumeApproved,
    ResumeFailed,
    CoverLetterGenerated,
    PdfRendered,
    MaterialsExhausted,
    BulletProvenanceRecorded,
    InterviewPrepGenerated,
    InterviewPrepFailed,
    TailorRetailorRequested,
    TailoredArtifactsSuppressed,
    ResumeTemplateVersionSaved,
    ResumeTemplateDefaultChanged,
    JobResumeTemplateAssigned,
    ResumeTemplateRefreshCompleted,
    ResumeTemplateRefreshFailed,
    TailoringPolicyUpdated,
)
