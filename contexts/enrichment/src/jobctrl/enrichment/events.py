"""Published events of the Enrichment context (importable without the aggregates)."""

from __future__ import annotations

from typing import Literal

import msgspec

from jobctrl.kernel.events import DomainEvent

ActiveState = Literal["unknown", "active", "closed", "expired", "removed", "location_incompatible"]


class JobEnriched(DomainEvent, frozen=True):
    event_type = "JobEnriched"
    job_id: str
    full_description: str
    application_url: str
    extraction_tier: str
    enriched_at: str


class EnrichmentFailed(DomainEvent, frozen=True):
    event_type = "EnrichmentFailed"
    job_id: str
    error: str
    attempt_number: int


class PostingContentSnapshotCaptured(DomainEvent, frozen=True):
    event_type = "PostingContentSnapshotCaptured"
    job_id: str
    snapshot_version: int
    snapshot_ref: str
    source_id: str
    extraction_tier: str
    captured_at: str


class PostingContentSnapshotFailed(DomainEvent, frozen=True):
    event_type = "PostingContentSnapshotFailed"
    job_id: str
    source_id: str
    error_class: str
    retryable: bool
    failed_at: str


class JobActiveStateChanged(DomainEvent, frozen=True):
    event_type = "JobActiveStateChanged"
    job_id: str
    active_state: ActiveState
    previous_state: ActiveState
    verification_method: str
    verified_at: str


class DuplicateEvidence(msgspec.Struct, frozen=True, rename="camel"):
    kind: Literal["description_hash_match", "apply_url_match", "high_confidence_content_similarity"]
    matched_value: str
    confidence: float


class ContentDuplicateCandidateDetected(DomainEvent, frozen=True):
    event_type = "ContentDuplicateCandidateDetected"
    job_id: str
    candidate_job_id: str
    evidence: list[DuplicateEvidence]
    confidence: float
    detected_at: str


class CompensationFactsUpdated(DomainEvent, frozen=True):
    event_type = "CompensationFactsUpdated"
    job_id: str
    changed_sections: list[Literal["posted", "market"]]
    updated_at: str
    posted_record_status: Literal["recorded", "not_recorded"] | None
    posted_parse_state: Literal["missing", "unparseable", "ambiguous", "parsed_range"] | None
    market_record_status: Literal["recorded", "not_requested"] | None
    market_estimate_state: (
        Literal[
            "not_requested", "unsupported", "source_unavailable", "insufficient_evidence", "estimated_range"
        ]
        | None
    )


EVENTS: tuple[type[DomainEvent], ...] = (
    JobEnriched,
    EnrichmentFailed,
    PostingContentSnapshotCaptured,
    PostingContentSnapshotFailed,
    JobActiveStateChanged,
    ContentDuplicateCandidateDetected,
    CompensationFactsUpdated,
)
