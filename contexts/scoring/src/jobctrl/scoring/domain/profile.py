"""The candidate profile as Scoring needs it: evidence items with stable ids.

Orchestration owns profile versioning and its outbox; Scoring only reads a snapshot.  Each evidence
item is one checkable fact (a skill, an experience bullet, a title held, an employer, a degree, a work
authorization) and its ``id`` is what a ledger row cites.  Adapting a richer profile means flattening
it into these items; ids must stay stable across versions so old ledgers still resolve.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, field_validator


class EvidenceKind(StrEnum):
    SKILL = "skill"
    EXPERIENCE = "experience"
    TITLE = "title"
    EMPLOYER = "employer"
    EDUCATION = "education"
    AUTHORIZATION = "authorization"


# The text of the authorization item saying the candidate needs visa sponsorship.
SPONSORSHIP_NEEDED = "requires visa sponsorship"


class EvidenceItem(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:\-]{0,79}$")
    kind: EvidenceKind
    text: str = Field(min_length=1, max_length=500)
    years: float | None = Field(default=None, ge=0, le=60)


class CandidateProfile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    profile_version: int = Field(ge=1)
    total_years_experience: float = Field(default=0, ge=0, le=60)
    evidence: tuple[EvidenceItem, ...] = Field(max_length=2000)

    @field_validator("evidence")
    @classmethod
    def _unique_ids(cls, items: tuple[EvidenceItem, ...]) -> tuple[EvidenceItem, ...]:
        ids = [item.id for item in items]
        if len(ids) != len(set(ids)):
            raise ValueError("evidence ids must be unique")
        return items

    def evidence_ids(self) -> frozenset[str]:
        return frozenset(item.id for item in self.evidence)
