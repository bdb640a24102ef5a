"""Published events of the Contact & Outreach context.

Payloads carry no names, emails or page bodies in clear.  Personal values travel only in the sealed
fields (``sealedValue``, ``sealedCandidate``): AES-GCM ciphertext under a key kept per data subject
(see ``vault.py``).  Forgetting that key on ``ContactDeleted`` makes every copy in the append-only log
unreadable, so a read model rebuilt afterwards holds no trace of the person (crypto-shredding).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.registry import Upcaster

ContactRole = Literal["recruiter", "hiring_manager", "referrer", "warm_intro", "other"]
ContactSourceKind = Literal["user_entered", "public_web_page", "user_imported_list", "derived"]


class ContactCreated(DomainEvent, frozen=True):
    event_type = "ContactCreated"
    contact_id: str
    employer: str | None
    job_id: str | None
    role: ContactRole
    created_at: str


class ContactUpdated(DomainEvent, frozen=True):
    event_type = "ContactUpdated"
    contact_id: str
    changed_fields: list[str]
    updated_at: str


class ContactAttributeRecorded(DomainEvent, frozen=True):
    """v2 adds ``sealedValue``: the attribute's value, sealed under the contact's key."""

    event_type = "ContactAttributeRecorded"
    schema_version = 2
    contact_id: str
    attribute_id: str
    attribute_kind: str
    source_kind: ContactSourceKind
    source_ref: str
    capture_method: str
    confidence: float
    user_confirmed: bool
    recorded_at: str
    sealed_value: str | None = None


class ContactDeleted(DomainEvent, frozen=True):
    event_type = "ContactDeleted"
    contact_id: str
    reason: str
    deleted_at: str


class WarmIntroIdentified(DomainEvent, frozen=True):
    event_type = "WarmIntroIdentified"
    contact_id: str
    relationship_id: str
    match_basis: str
    confidence: float
    identified_at: str


class ContactResearchTaskStarted(DomainEvent, frozen=True):
    event_type = "ContactResearchTaskStarted"
    task_id: str
    employer: str | None
    job_id: str | None
    started_at: str


class ContactCandidateProposed(DomainEvent, frozen=True):
    """v2 adds ``sealedCandidate`` (name, title, email, profile URL) under the candidate's subject key."""

    event_type = "ContactCandidateProposed"
    schema_version = 2
    task_id: str
    candidate_id: str
    role: str
    source_kind: str
    source_ref: str
    capture_method: str
    confidence: float
    proposed_at: str
    sealed_candidate: str | None = None


class ContactCandidateRejected(DomainEvent, frozen=True):
    """The user said a proposed person is not to be kept: never a contact, and their sealed data is
    forgotten with this fact (ADR 0210)."""

    event_type = "ContactCandidateRejected"
    task_id: str
    candidate_id: str
    reason: Annotated[str, msgspec.Meta(pattern=r"^[a-z][a-z0-9_]{0,63}$")]
    rejected_at: str


class ContactResearchTaskNeedsReview(DomainEvent, frozen=True):
    event_type = "ContactResearchTaskNeedsReview"
    task_id: str
    candidate_count: int
    needs_review_at: str


class ContactResearchTaskCompleted(DomainEvent, frozen=True):
    event_type = "ContactResearchTaskCompleted"
    task_id: str
    confirmed_count: int
    completed_at: str


class ContactResearchTaskFailed(DomainEvent, frozen=True):
    event_type = "ContactResearchTaskFailed"
    task_id: str
    error_class: str
    retryable: bool
    failed_at: str


class ContactResearchSourceAttempted(DomainEvent, frozen=True):
    """One URL the research looked at and what the source-access policy or the fetch decided."""

    event_type = "ContactResearchSourceAttempted"
    task_id: str
    source_ref: Annotated[str, msgspec.Meta(max_length=2000)]
    outcome: Literal[
        "allowed",
        "no_candidates",
        "robots_disallowed",
        "rate_limited",
        "budget_exhausted",
        "manual_capture_required",
        "rejected",
    ]
    reason_code: Annotated[str, msgspec.Meta(pattern=r"^[a-z][a-z0-9_]{0,63}$")]
    candidate_count: int
    attempted_at: str


class OutreachDraftGenerated(DomainEvent, frozen=True):
    """v2 adds ``sealedDraft`` (subject and body) under the contact's subject key (ADR 0275)."""

    event_type = "OutreachDraftGenerated"
    schema_version = 2
    thread_id: str
    contact_id: str
    job_id: str | None
    draft_id: str
    generation: int
    kind: Literal["intro_request", "follow_up"]
    generated_at: str
    sealed_draft: str | None = None


class OutreachDraftRevised(DomainEvent, frozen=True):
    """v2 adds ``sealedDraft``: the user's edited text, sealed under the contact's key (ADR 0275)."""

    event_type = "OutreachDraftRevised"
    schema_version = 2
    thread_id: str
    draft_id: str
    generation: int
    revised_at: str
    sealed_draft: str | None = None


class OutreachDraftApproved(DomainEvent, frozen=True):
    event_type = "OutreachDraftApproved"
    thread_id: str
    draft_id: str
    generation: int
    approved_at: str


class OutreachDraftRejected(DomainEvent, frozen=True):
    event_type = "OutreachDraftRejected"
    thread_id: str
    draft_id: str
    generation: int
    reason: str
    rejected_at: str


class OutreachSendLogged(DomainEvent, frozen=True):
    event_type = "OutreachSendLogged"
    thread_id: str
    draft_id: str
    channel: str
    sent_at: str
    logged_at: str


class OutreachReplyRecorded(DomainEvent, frozen=True):
    """The user records, by hand, that the contact answered a logged send (ADR 0275); what they said
    travels only sealed under the contact's key."""

    event_type = "OutreachReplyRecorded"
    thread_id: str
    reply_id: str
    channel: Annotated[str, msgspec.Meta(pattern=r"^[a-z][a-z0-9_]{0,39}$")]
    received_at: str
    recorded_at: str
    sealed_note: str | None = None


class FollowUpScheduled(DomainEvent, frozen=True):
    event_type = "FollowUpScheduled"
    thread_id: str
    job_id: str | None
    due_at: str
    basis: str
    scheduled_at: str


class FollowUpCompleted(DomainEvent, frozen=True):
    event_type = "FollowUpCompleted"
    thread_id: str
    completed_at: str


class FollowUpDismissed(DomainEvent, frozen=True):
    event_type = "FollowUpDismissed"
    thread_id: str
    reason: str
    dismissed_at: str


EVENTS: tuple[type[DomainEvent], ...] = (
    ContactCreated,
    ContactUpdated,
    ContactAttributeRecorded,
    ContactDeleted,
    WarmIntroIdentified,
    ContactResearchTaskStarted,
    ContactCandidateProposed,
    ContactResearchTaskNeedsReview,
    ContactResearchTaskCompleted,
    ContactResearchTaskFailed,
    OutreachDraftGenerated,
    OutreachDraftRevised,
    OutreachDraftApproved,
    OutreachDraftRejected,
    OutreachSendLogged,
    FollowUpScheduled,
    FollowUpCompleted,
    FollowUpDismissed,
    ContactResearchSourceAttempted,
    ContactCandidateRejected,
    OutreachReplyRecorded,
)


def _no_sealed_data(payload: dict[str, object]) -> dict[str, object]:
    """Reference (v1) payloads never carried personal values: nothing to add."""
    return payload


UPCASTERS: tuple[Upcaster, ...] = (
    Upcaster("ContactAttributeRecorded", 1, _no_sealed_data),
    Upcaster("ContactCandidateProposed", 1, _no_sealed_data),
    Upcaster("OutreachDraftGenerated", 1, _no_sealed_data),
    Upcaster("OutreachDraftRevised", 1, _no_sealed_data),
)
