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


EVENTS: tuple[type[DomainEvent], ...] = (JobScored, ScoreCorrected, ScoreRescoreRequested, EmployerAnalyzed)
