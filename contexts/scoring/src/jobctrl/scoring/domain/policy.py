"""Scoring policies: versioned settings that decide bands; a new version makes older scores stale.

Version 0 is the built-in default (never recorded); the first recorded policy is version 1.
"""

from __future__ import annotations

import hashlib
from enum import StrEnum

import msgspec

from jobctrl.kernel.errors import JobCtrlError


class InvalidPolicyError(JobCtrlError):
    code = "invalid_scoring_policy"
    retryable = False


class FitBand(StrEnum):
    STRONG = "strong"
    GOOD = "good"
    STRETCH = "stretch"
    WEAK = "weak"


class ScoringPolicy(msgspec.Struct, frozen=True, kw_only=True):
    version: int = 0
    criteria: str = ""
    strong_band_min: int = 8
    good_band_min: int = 6
    stretch_band_min: int = 4

    def __post_init__(self) -> None:
        if not 1 <= self.stretch_band_min < self.good_band_min < self.strong_band_min <= 10:
            raise InvalidPolicyError("band thresholds must rise strictly within 1-10")
        if len(self.criteria) > 4000:
            raise InvalidPolicyError("criteria text is limited to 4000 characters")

    def fingerprint(self) -> str:
        """Identity of the settings (not the version): an unchanged save is not a new policy."""
        settings = (self.criteria, self.strong_band_min, self.good_band_min, self.stretch_band_min)
        return hashlib.sha256(msgspec.json.encode(settings)).hexdigest()[:32]

    def band_for(self, score: int) -> FitBand:
        if score >= self.strong_band_min:
            return FitBand.STRONG
        if score >= self.good_band_min:
            return FitBand.GOOD
        if score >= self.stretch_band_min:
            return FitBand.STRETCH
        return FitBand.WEAK


DEFAULT_POLICY = ScoringPolicy()
