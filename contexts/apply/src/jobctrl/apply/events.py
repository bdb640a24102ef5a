"""Published events of the Apply context (importable without the aggregates)."""

from __future__ import annotations

from typing import Any, Literal

from jobctrl.kernel.events import DomainEvent

ReviewDecision = Literal["approve_submit", "approve_dry_run", "defer", "decline", "reset"]
OutcomeKind = Literal[
    "applied_confirmation",
    "recruiter_reply",
    "interview",
    "assessment",
    "rejection",
    "offer",
    "withdrawn",
    "bounced",
    "no_response",
    "unknown",
]


class ApplyRunStarted(DomainEvent, frozen=True):
    event_type = "ApplyRunStarted"
    job_id: str
    run_id: str
    worker_id: str
    model: str
    dry_run: bool
    started_at: str


class ApplySubmitIntended(DomainEvent, frozen=True):
    event_type = "ApplySubmitIntended"
    tenant_id: str
    job_key: str
    run_id: str
    material_version: str
    intended_at: str


class ApplyRunEventRecorded(DomainEvent, frozen=True):
    event_type = "ApplyRunEventRecorded"
    run_id: str
    event: dict[str, Any]


class EmailApplicationCandidateRecorded(DomainEvent, frozen=True):
    event_type = "EmailApplicationCandidateRecorded"
    run_id: str
    recipient: str
    subject: str
    body: str
    attachment_artifact_id: str
    attachment_name: str


class ApplicationEmailFeedbackIngested(DomainEvent, frozen=True):
    event_type = "ApplicationEmailFeedbackIngested"
    job_key: str
    evidence_id: str
    suggestion_id: str
    provider: Literal["gmail"]
    suggested_kind: str
    classification_confidence: float
    link_confidence: float
    link_signals: list[str]


class ApplicationSubmitted(DomainEvent, frozen=True):
    event_type = "ApplicationSubmitted"
    job_id: str
    run_id: str
    applied_at: str
    verification_confidence: float


class ApplicationFailed(DomainEvent, frozen=True):
    event_type = "ApplicationFailed"
    job_id: str
    run_id: str
    result: dict[str, Any]
    attempt_number: int


class ApplyReviewDecisionRecorded(DomainEvent, frozen=True):
    event_type = "ApplyReviewDecisionRecorded"
    job_key: str
    decision_id: str
    decision: ReviewDecision
    reason_present: bool
    materials_generation: int | None
    profile_version: int | None
    application_url: str | None
    partial_override_run_id: str | None
    email_recipient: str | None
    email_attachment_artifact_id: str | None


class ApplicationOutcomeRecorded(DomainEvent, frozen=True):
    event_type = "ApplicationOutcomeRecorded"
    job_key: str
    outcome_id: str
    kind: OutcomeKind
    source: Literal["manual", "email_suggestion"]
    occurred_at: str
    suggestion_id: str | None
    evidence_id: str | None
    interview_prep_generation: int | None
    note_present: bool


class ApplicationFollowUpSnoozed(DomainEvent, frozen=True):
    """The user put off an application's follow-up: it is not due before ``until`` (ADR 0213)."""

    event_type = "ApplicationFollowUpSnoozed"
    job_id: str
    until: str
    snoozed_at: str


class OutcomeSuggestionDecided(DomainEvent, frozen=True):
    event_type = "OutcomeSuggestionDecided"
    job_key: str
    suggestion_id: str
    evidence_id: str | None
    decision: Literal["accept", "correct", "ignore"]
    outcome_id: str | None
    outcome_kind: OutcomeKind | None
    note_present: bool
    reason_present: bool


BlockReason = Literal["trusted_final_submit_required", "third_party_challenge"]


class ApplySubmissionBlocked(DomainEvent, frozen=True):
    """A run stopped before any submission because a human must act (never an automatic retry)."""

    event_type = "ApplySubmissionBlocked"
    job_id: str
    run_id: str
    reason: BlockReason
    blocked_at: str


class ApplicationIdentityClaimed(DomainEvent, frozen=True):
    """A live apply claim reserved an employer+role identity (repeat-application protection).

    ``identity_key`` is a digest of the normalised employer and role, so the stream holds no names.
    """

    event_type = "ApplicationIdentityClaimed"
    identity_key: str
    job_id: str
    run_id: str
    override_id: str | None
    claimed_at: str


class RepeatApplicationOverrideGranted(DomainEvent, frozen=True):
    """The user allowed one more live claim for ``job_id`` although the identity was applied to."""

    event_type = "RepeatApplicationOverrideGranted"
    identity_key: str
    job_id: str
    override_id: str
    reason_present: bool
    granted_at: str


EVENTS: tuple[type[DomainEvent], ...] = (
    ApplyRunStarted,
    ApplySubmitIntended,
    ApplyRunEventRecorded,
    EmailApplicationCandidateRecorded,
    ApplicationEmailFeedbackIngested,
    ApplicationSubmitted,
    ApplicationFailed,
    ApplyReviewDecisionRecorded,
    ApplicationOutcomeRecorded,
    OutcomeSuggestionDecided,
    ApplySubmissionBlocked,
    ApplicationIdentityClaimed,
    RepeatApplicationOverrideGranted,
    ApplicationFollowUpSnoozed,
)
