"""The offline rule-based extraction and matching, rule by rule."""

from __future__ import annotations

from jobctrl.scoring.adapters.offline_rules import extract_requirements, keywords_in, match_evidence
from jobctrl.scoring.domain.ledger import Fit, RequirementKind, Tier
from jobctrl.scoring.domain.policy import FitBand, ScoringPolicy
from jobctrl.scoring.domain.profile import CandidateProfile, EvidenceItem, EvidenceKind
from jobctrl.scoring.ports import ExtractedRequirement, RequirementExtraction

POSTING = """Data Engineer
Requirements:
- 3+ years building data pipelines
- Bachelor's degree in Computer Science
- Strong SQL and Python
Preferred:
- Airflow or dbt
- Compensation: $120k - $140k per year
"""


def _req(
    text: str, kind: RequirementKind, keywords: list[str], years: float | None = None
) -> ExtractedRequirement:
    return ExtractedRequirement(
        text=text, tier=Tier.MUST_HAVE, kind=kind, weight=1, keywords=keywords, min_years=years
    )


def test_sections_set_tiers_and_lines_set_kinds() -> None:
    reqs = extract_requirements(POSTING).requirements
    assert [(r.tier, r.kind) for r in reqs] == [
        (Tier.MUST_HAVE, RequirementKind.EXPERIENCE),
        (Tier.MUST_HAVE, RequirementKind.EDUCATION),
        (Tier.MUST_HAVE, RequirementKind.SKILL),
        (Tier.NICE_TO_HAVE, RequirementKind.SKILL),
        (Tier.NICE_TO_HAVE, RequirementKind.SALARY),
    ]
    assert reqs[0].min_years == 3
    assert reqs[2].keywords == ["python", "sql"]
    assert [r.weight for r in reqs] == [2.0, 2.0, 2.0, 1.0, 1.0]


def test_without_sections_named_technologies_become_nice_to_haves() -> None:
    reqs = extract_requirements("We use Rust and Kubernetes every day.").requirements
    assert [(r.keywords, r.tier) for r in reqs] == [
        (["rust"], Tier.NICE_TO_HAVE),
        (["kubernetes"], Tier.NICE_TO_HAVE),
    ]


def test_keywords_respect_token_boundaries() -> None:
    assert keywords_in("C++ and C# but not javascript-ish Java") == ["java", "javascript", "c++", "c#"]
    assert keywords_in("reactive sparkles") == []


def test_years_fit_depends_on_relevant_experience() -> None:
    profile = CandidateProfile(
        profile_version=1,
        total_years_experience=10,
        evidence=(EvidenceItem(id="e1", kind=EvidenceKind.EXPERIENCE, text="Python APIs", years=2),),
    )
    matched = match_evidence(
        RequirementExtraction(
            requirements=[
                _req("5 years Python", RequirementKind.EXPERIENCE, ["python"], 5),
                _req("3 years Python", RequirementKind.EXPERIENCE, ["python"], 3),
                _req("2 years Python", RequirementKind.EXPERIENCE, ["python"], 2),
                _req("8 years overall", RequirementKind.EXPERIENCE, [], 8),
            ]
        ),
        profile,
    )
    assert [m.fit for m in matched.matches] == [Fit.MISSING, Fit.TRANSFERABLE, Fit.DIRECT, Fit.DIRECT]
    assert all(m.evidence_ids == ["e1"] for m in matched.matches if m.fit is not Fit.MISSING)


def test_authorization_blocks_only_when_the_profile_cannot_meet_it() -> None:
    profile = CandidateProfile(
        profile_version=1,
        evidence=(EvidenceItem(id="a1", kind=EvidenceKind.AUTHORIZATION, text="Citizen of Canada"),),
    )
    extraction = RequirementExtraction(
        requirements=[
            _req("Must be authorized to work in Canada", RequirementKind.AUTHORIZATION, []),
            _req("Must hold an active Secret clearance", RequirementKind.AUTHORIZATION, []),
            _req("Salary $100k", RequirementKind.SALARY, []),
        ]
    )
    assert [m.fit for m in match_evidence(extraction, profile).matches] == [
        Fit.DIRECT,
        Fit.BLOCKED,
        Fit.NOT_ASSESSED,
    ]


def test_policy_bands_and_fingerprint() -> None:
    policy = ScoringPolicy(criteria="remote")
    bands = [policy.band_for(s) for s in (10, 8, 7, 6, 5, 4, 3)]
    assert bands == [FitBand.STRONG] * 2 + [FitBand.GOOD] * 2 + [FitBand.STRETCH] * 2 + [FitBand.WEAK]
    assert policy.fingerprint() == ScoringPolicy(criteria="remote", version=7).fingerprint()
    assert policy.fingerprint() != ScoringPolicy(criteria="onsite").fingerprint()
