"""Scoring aggregates: a job's score history and a scoring policy's versions."""

from __future__ import annotations

from datetime import datetime

import msgspec

from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.kernel.clock import isoformat
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.scoring.domain.formula import MAX_SCORE, MIN_SCORE
from jobctrl.scoring.domain.ledger import ScoreBreakdown
from jobctrl.scoring.domain.policy import ScoringPolicy
from jobctrl.scoring.events import JobScored, ScoreCorrected, ScoreRescoreRequested, ScoringPolicyUpdated

STALE_REASON_POLICY_CHANGED = "scoring_policy_changed"
NEXT_ACTION_RESCORE = "rescore"


class ScoreNotFoundError(JobCtrlError):
    code = "score_not_found"
    retryable = False


class InvalidCorrectionError(JobCtrlError):
    code = "invalid_score_correction"
    retryable = False


class JobScore(Aggregate):
    """Every version of one job's score.  JobScored and ScoreCorrected each create a new version."""

    stream_prefix = "score"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.score_version = 0
        self.fit_score: int | None = None
        self.policy_version: int | None = None
        self.stale_for_policy: int | None = None
        self.breakdown: ScoreBreakdown | None = None
        self.keywords: tuple[str, ...] = ()  # the latest JobScored's (what the materials tailor to)

    @property
    def is_stale(self) -> bool:
        return self.stale_for_policy is not None

    def record(self, scored: JobScored) -> None:
        if scored.version != self.score_version + 1:
            raise ValueError("score versions are consecutive")
        self._record(scored)

    def request_rescore(self, new_policy_version: int) -> bool:
        """Mark the score stale for ``new_policy_version``; False when that is already known or moot."""
        if self.fit_score is None or self.policy_version is None:
            return False  # nothing scored yet: the first score will use the current policy anyway
        if self.policy_version >= new_policy_version:
            return False
        if self.stale_for_policy is not None and self.stale_for_policy >= new_policy_version:
            return False  # an older request already covers it: a repeat appends nothing
        self._record(
            ScoreRescoreRequested(
                job_id=self.id,
                stale_reason=STALE_REASON_POLICY_CHANGED,
                old_policy_version=self.policy_version,
                new_policy_version=new_policy_version,
                next_action=NEXT_ACTION_RESCORE,
            )
        )
        return True

    def correct(self, corrected_score: int, reason: str, at: datetime) -> None:
        if self.fit_score is None:
            raise ScoreNotFoundError(f"job {self.id} has no score to correct")
        if not MIN_SCORE <= corrected_score <= MAX_SCORE:
            raise InvalidCorrectionError(f"a corrected score is {MIN_SCORE}-{MAX_SCORE}")
        if corrected_score == self.fit_score:
            raise InvalidCorrectionError("the correction equals the current score")
        if not reason.strip():
            raise InvalidCorrectionError("a correction needs a reason")
        self._record(
            ScoreCorrected(
                job_id=self.id,
                original_score=self.fit_score,
                corrected_score=corrected_score,
                reason=reason,
                corrected_at=isoformat(at),
            )
        )

    @applies(JobScored)
    def _scored(self, event: JobScored) -> None:
        self.score_version = event.version
        self.fit_score = int(event.fit_score)
        self.breakdown = msgspec.convert(event.breakdown, ScoreBreakdown)
        self.policy_version = self.breakdown.policy_version
        self.stale_for_policy = None
        self.keywords = tuple(event.keywords)

    @applies(ScoreCorrected)
    def _corrected(self, event: ScoreCorrected) -> None:
        self.score_version += 1
        self.fit_score = int(event.corrected_score)

    @applies(ScoreRescoreRequested)
    def _stale(self, event: ScoreRescoreRequested) -> None:
        self.stale_for_policy = event.new_policy_version


class ScoringPolicyHistory(Aggregate):
    """The versions of one scoring policy; its current value is the latest recorded settings."""

    stream_prefix = "scoring-policy"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.current = ScoringPolicy()

    def update(self, proposed: ScoringPolicy, at: datetime) -> bool:
        """Record ``proposed`` as the next version; False (nothing recorded) if the settings are unchanged."""
        if proposed.fingerprint() == self.current.fingerprint():
            return False
        changed = [
            name
            for name in ("criteria", "strong_band_min", "good_band_min", "stretch_band_min")
            if getattr(proposed, name) != getattr(self.current, name)
        ]
        self._record(
            ScoringPolicyUpdated(
                policy_id=self.id,
                policy_version=self.current.version + 1,
                previous_policy_version=self.current.version or None,
                policy_fingerprint=proposed.fingerprint(),
                changed_fields=changed,
                criteria=proposed.criteria,
                strong_band_min=proposed.strong_band_min,
                good_band_min=proposed.good_band_min,
                stretch_band_min=proposed.stretch_band_min,
                updated_at=isoformat(at),
            )
        )
        return True

    @applies(ScoringPolicyUpdated)
    def _updated(self, event: ScoringPolicyUpdated) -> None:
        self.current = ScoringPolicy(
            version=event.policy_version,
            criteria=event.criteria,
            strong_band_min=event.strong_band_min,
            good_band_min=event.good_band_min,
            stretch_band_min=event.stretch_band_min,
        )
