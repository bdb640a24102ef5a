"""What Scoring needs from outside: the posting's description and the candidate's profile (sources the
composition root implements), and what it asks a model for through the LLM port, requirement
extraction and evidence matching (untrusted output)."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, ConfigDict, Field

from jobctrl.scoring.domain.ledger import Fit, RequirementKind, Tier
from jobctrl.scoring.domain.profile import CandidateProfile

#: The enriched posting's description of a job (None when it has none).
DescriptionSource = Callable[[str], str | None]
#: The current candidate profile mapped to scoring evidence (None when none is imported).
ProfileSource = Callable[[], CandidateProfile | None]

EXTRACT_TASK = "score_extract_requirements"
MATCH_TASK = "score_match_evidence"
# Part of a score's identity (``ScoreBreakdown.prompt_version``): a score made under another version of
# these prompts is made again, once.  Bump it whenever EXTRACT_SYSTEM, MATCH_SYSTEM or the prompts'
# shape change.  v2: the enriched posting as text, preceded by the policy's criteria (ADR 0141).
SCORE_PROMPT_VERSION = "score-fit-assessment-jobctrl-v2"


class ExtractedRequirement(BaseModel):
    model_config = ConfigDict(extra="ignore")

    text: str = Field(min_length=1, max_length=400)
    tier: Tier
    kind: RequirementKind
    weight: float = Field(gt=0, le=5)
    keywords: list[str] = Field(default_factory=list, max_length=12)
    min_years: float | None = Field(default=None, ge=0, le=40)


class RequirementExtraction(BaseModel):
    model_config = ConfigDict(extra="ignore")

    requirements: list[ExtractedRequirement] = Field(max_length=60)


class EvidenceMatch(BaseModel):
    model_config = ConfigDict(extra="ignore")

    requirement_index: int = Field(ge=0)
    fit: Fit
    evidence_ids: list[str] = Field(default_factory=list, max_length=12)


class EvidenceMatching(BaseModel):
    model_config = ConfigDict(extra="ignore")

    matches: list[EvidenceMatch] = Field(max_length=60)


EXTRACT_SYSTEM = (
    "Extract the requirements of this job posting. For each: the requirement text, tier "
    "(must_have or nice_to_have), kind (skill, experience, education, authorization, salary, other), "
    "weight 0-5, technology keywords, and min_years when it asks for years of experience."
)
MATCH_SYSTEM = (
    "For each numbered requirement, judge the candidate's fit (direct, strong, transferable, missing, "
    "blocked, not_assessed) and cite the ids of the profile evidence items that support it. Cite only ids "
    "that appear in the profile. A posted salary is never blocked. A right-to-work requirement is "
    "blocked only when the profile's authorization evidence says the candidate lacks it. Weigh the "
    "candidate's criteria when given."
)


def extract_prompt(description: str, criteria: str) -> str:
    """The posting text, preceded by the user's own criteria from the scoring policy when there are any."""
    if not criteria.strip():
        return "JOB POSTING:\n" + description
    return (
        "CANDIDATE'S CRITERIA (weigh requirements with these in mind):\n"
        + criteria
        + "\n\nJOB POSTING:\n"
        + description
    )
