"""The enrichment aggregate of one job: its immutable, versioned content snapshots and their trust."""

from __future__ import annotations

import hashlib
from datetime import datetime

from jobctrl.enrichment.domain.extraction import Confidence, Extraction, ExtractionTier, confidence_of
from jobctrl.enrichment.domain.readiness import ApplicationTarget, EnrichBlock, FailureClass
from jobctrl.enrichment.events import (
    ActiveState,
    EnrichmentFailed,
    JobActiveStateChanged,
    JobEnriched,
    PostingContentSnapshotCaptured,
    PostingContentSnapshotFailed,
)
from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.kernel.clock import isoformat
from jobctrl.kernel.text import bound_text


def snapshot_ref(extraction: Extraction) -> str:
    """Content address of a snapshot: the same content always has the same ref."""
    digest = hashlib.sha256(
        "\x1f".join(
            (extraction.tier.value, extraction.description, extraction.application_url or "")
        ).encode()
    ).hexdigest()
    return f"sha256:{digest}"


class PostingEnrichment(Aggregate):
    stream_prefix = "enrich"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.snapshot_version = 0
        self.snapshot_ref: str | None = None
        self.tier: ExtractionTier | None = None
        self.application_url = ""
        self.full_description: str | None = None  # the latest JobEnriched's (the posting page's text)
        self.failed_attempts = 0
        self.last_failure: FailureClass | None = None
        self.blocked_source: str | None = None
        self.active_state: ActiveState = "unknown"

    # -- derived state ---------------------------------------------------------------------------
    @property
    def confidence(self) -> Confidence | None:
        return confidence_of(self.tier) if self.tier else None

    @property
    def blocked_by(self) -> tuple[EnrichBlock, ...]:
        if self.last_failure is FailureClass.ROBOTS_DISALLOWED:
            return (EnrichBlock.ROBOTS_DISALLOWED,)
        if self.confidence is Confidence.LOW:
            return (EnrichBlock.LOW_CONFIDENCE,)
        return ()

    @property
    def application_target(self) -> ApplicationTarget:
        return ApplicationTarget.READY if self.application_url else ApplicationTarget.MISSING

    # -- commands --------------------------------------------------------------------------------
    def capture(self, extraction: Extraction, source_id: str, at: datetime) -> bool:
        """Record a new snapshot and the enrichment it yields; False when the content is unchanged."""
        ref = snapshot_ref(extraction)
        if ref == self.snapshot_ref and self.last_failure is None:
            return False  # snapshots are immutable: identical content is not a new version
        when = isoformat(at)
        self._record(
            PostingContentSnapshotCaptured(
                job_id=self.id,
                snapshot_version=self.snapshot_version + 1,
                snapshot_ref=ref,
                source_id=source_id,
                extraction_tier=extraction.tier.value,
                captured_at=when,
            )
        )
        self._record(
            JobEnriched(
                job_id=self.id,
                full_description=extraction.description,
                application_url=extraction.application_url or "",
                extraction_tier=extraction.tier.value,
                enriched_at=when,
            )
        )
        return True

    def fail(
        self, source_id: str, failure: FailureClass, retryable: bool, message: str, at: datetime
    ) -> None:
        self._record(
            PostingContentSnapshotFailed(
                job_id=self.id,
                source_id=source_id,
                error_class=failure.value,
                retryable=retryable,
                failed_at=isoformat(at),
            )
        )
        self._record(
            EnrichmentFailed(
                job_id=self.id, error=bound_text(message, 300), attempt_number=self.failed_attempts + 1
            )
        )

    def change_active_state(self, state: ActiveState, method: str, at: datetime) -> bool:
        if state == self.active_state:
            return False
        self._record(
            JobActiveStateChanged(
                job_id=self.id,
                active_state=state,
                previous_state=self.active_state,
                verification_method=method,
                verified_at=isoformat(at),
            )
        )
        return True

    # -- fold ------------------------------------------------------------------------------------
    @applies(PostingContentSnapshotCaptured)
    def _captured(self, event: PostingContentSnapshotCaptured) -> None:
        self.snapshot_version = event.snapshot_version
        self.snapshot_ref = event.snapshot_ref
        try:
            self.tier = ExtractionTier(event.extraction_tier)
        except ValueError:
            self.tier = ExtractionTier.READABLE_TEXT_SPARSE  # an unknown tier is not trusted
        self.last_failure = None
        self.blocked_source = None

    @applies(JobEnriched)
    def _enriched(self, event: JobEnriched) -> None:
        self.application_url = event.application_url
        self.full_description = event.full_description

    @applies(PostingContentSnapshotFailed)
    def _snapshot_failed(self, event: PostingContentSnapshotFailed) -> None:
        self.last_failure = FailureClass.parse(event.error_class)
        self.blocked_source = event.source_id if self.last_failure is FailureClass.ROBOTS_DISALLOWED else None

    @applies(EnrichmentFailed)
    def _failed(self, event: EnrichmentFailed) -> None:
        self.failed_attempts = event.attempt_number

    @applies(JobActiveStateChanged)
    def _active(self, event: JobActiveStateChanged) -> None:
        self.active_state = event.active_state
