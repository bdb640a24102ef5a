"""The evidence ledger: each requirement of a posting and how the profile meets it."""

from __future__ import annotations

from enum import StrEnum

import msgspec


class Tier(StrEnum):
    MUST_HAVE = "must_have"
    NICE_TO_HAVE = "nice_to_have"


class Fit(StrEnum):
    DIRECT = "direct"
    STRONG = "strong"
    TRANSFERABLE = "transferable"
    MISSING = "missing"
    BLOCKED = "blocked"
    NOT_ASSESSED = "not_assessed"


class RequirementKind(StrEnum):
    SKILL = "skill"
    EXPERIENCE = "experience"
    EDUCATION = "education"
    AUTHORIZATION = "authorization"
    SALARY = "salary"
    OTHER = "other"


# Rows at these fit levels claim the profile meets the requirement, so they must cite evidence.
CLAIMING_FITS: frozenset[Fit] = frozenset({Fit.DIRECT, Fit.STRONG, Fit.TRANSFERABLE})


class LedgerRow(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    requirement_id: str
    text: str
    tier: Tier
    kind: RequirementKind
    weight: float
    fit: Fit
    evidence_ids: tuple[str, ...] = ()


class ScoreBreakdown(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """The typed shape of ``JobScored.breakdown`` (the event field is a free record on the wire)."""

    formula: str
    policy_version: int
    profile_version: int
    posting_hash: str
    # The scoring prompts' version (``SCORE_PROMPT_VERSION``); ``None`` on scores made before it was kept.
    prompt_version: str | None = None
    weighted_fit: float
    raw_score: int
    capped_by_blocker: bool
    requirements: tuple[LedgerRow, ...]
