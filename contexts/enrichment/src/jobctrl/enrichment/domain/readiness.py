"""What an enrichment means for the rest of the pipeline, as typed values the stage machine consumes.

Description trust and application-target readiness are independent questions: a low-confidence
description blocks Tailor (``ENRICH_LOW_CONFIDENCE``); a missing external application URL only makes
the application target ``missing`` and blocks nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class EnrichBlock(StrEnum):
    """Conditions that keep downstream stages blocked by Enrich; each names what would resolve it."""

    LOW_CONFIDENCE = "ENRICH_LOW_CONFIDENCE"
    ROBOTS_DISALLOWED = "ENRICH_ROBOTS_DISALLOWED"


class EnrichStatus(StrEnum):
    ENRICHED = "enriched"
    BLOCKED = "blocked"
    FAILED = "failed"


class ApplicationTarget(StrEnum):
    READY = "ready"
    MISSING = "missing"


class FailureClass(StrEnum):
    """``PostingContentSnapshotFailed.errorClass`` values; unknown stored values read as UNCLASSIFIED."""

    ROBOTS_DISALLOWED = "robots_disallowed"
    POSTING_GONE = "posting_gone"
    UNREADABLE_PAGE = "unreadable_page"
    NO_POSTING_CONTENT = "no_posting_content"
    TRANSIENT_NETWORK = "transient_network"
    SOURCE_UNAVAILABLE = "source_unavailable"
    UNCLASSIFIED = "unclassified"

    @classmethod
    def parse(cls, value: str) -> FailureClass:
        try:
            return cls(value)
        except ValueError:
            return cls.UNCLASSIFIED


@dataclass(frozen=True)
class EnrichmentOutcome:
    """The decision for one job after an enrich attempt.

    ``blocked_by`` lists the conditions that keep Tailor (and later stages) blocked; it is empty when
    the description is trusted.  ``application_target`` is reported separately and never blocks.
    """

    job_id: str
    status: EnrichStatus
    blocked_by: tuple[EnrichBlock, ...]
    application_target: ApplicationTarget
    snapshot_version: int
    failure: FailureClass | None = None

    @property
    def blocked_by_codes(self) -> list[str]:
        """The codes as a ``StageBlocked.blockedBy`` list."""
        return [block.value for block in self.blocked_by]

    @property
    def tailor_may_proceed(self) -> bool:
        return self.status is EnrichStatus.ENRICHED and not self.blocked_by
