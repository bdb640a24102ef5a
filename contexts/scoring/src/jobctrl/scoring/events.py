"""Published events of the Scoring context (importable without the aggregates)."""

from __future__ import annotations

from typing import Any

from jobctrl.kernel.events import DomainEvent


class JobScored(DomainEvent, frozen=True):
    event_type = "JobScored"
    job_id: str
    fit_score: float
    breakdown: dict[str, Any]
    keywords: list[str]
    version: int
    scored_at: str
    fit_band: str | None = None
    confidence: str | None = None
    eligibility: dict[str, Any] | None = None


class ScoreCorrected(DomainEvent, frozen=True):
    event_type = "ScoreCorrected"
    job_id: str
    original_score: float
    corrected_score: float
    reason: str
    corrected_at: str


class ScoreRescoreRequested(DomainEvent, frozen=True):
    event_type = "ScoreRescoreRequested"
    job_id: str
    stale_reason: str
    old_policy_version: int
    new_policy_version: int
    next_action: str


class EmployerAnalyzed(DomainEvent, frozen=True):
    event_type = "EmployerAnalyzed"
    job_id: str
    generation: int
    snapshot_hash: str
    cache_key: str
    legs_attempted: int
    legs_succeeded: int
    analyzed_at: str
    cached: bool


class ScoringPolicyUpdated(DomainEvent, frozen=True):
    """A new version of a scoring policy (JobCtrl addition; the reference keeps a mutable table).

    Carries the settings themselves so the current policy is a fold of the log.
    """

    event_type = "ScoringPolicyUpdated"
    policy_id: str
    policy_version: int
    previous_policy_version: int | None
    policy_fingerprint: str
    changed_fields: list[str]
    criteria: str
    strong_band_min: int
    good_band_min: int
    stretch_band_min: int
    updated_at: str


EVENTS: tuple[type[DomainEvent], ...] = (
    JobScored,
    ScoreCorrected,
    ScoreRescoreRequested,
    EmployerAnalyzed,
    ScoringPolicyUpdated,
)
