"""Rule-based requirement extraction and evidence matching: the offline provider's handlers.

Deterministic and explainable: bullets under a requirements heading are must-haves, bullets under a
"nice to have"/"preferred" heading are nice-to-haves; a fixed technology lexicon supplies keywords;
evidence is matched by keyword (a skill item is direct, an experience/title bullet strong, a related
technology transferable), years against ``min_years``, authorization against authorization items.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import Enum
from functools import lru_cache

from jobctrl.llm.offline import OfflineProvider
from jobctrl.llm.port import StructuredRequest
from jobctrl.scoring.domain.ledger import Fit, RequirementKind, Tier
from jobctrl.scoring.domain.profile import SPONSORSHIP_NEEDED, CandidateProfile, EvidenceItem, EvidenceKind
from jobctrl.scoring.ports import (
    EXTRACT_TASK,
    MATCH_TASK,
    EvidenceMatch,
    EvidenceMatching,
    ExtractedRequirement,
    RequirementExtraction,
)

LEXICON: tuple[str, ...] = (
    "python", "java", "golang", "rust", "typescript", "javascript", "react", "vue", "angular", "node.js",
    "django", "flask", "fastapi", "rails", "ruby", "php", "scala", "kotlin", "swift", "c++", "c#", "sql",
    "postgresql", "mysql", "sqlite", "mongodb", "redis", "kafka", "rabbitmq", "aws", "gcp", "azure",
    "docker", "kubernetes", "terraform", "linux", "graphql", "grpc", "spark", "airflow", "pandas",
    "pytorch", "tensorflow", "machine learning", "ci/cd", "git", "elasticsearch", "snowflake", "dbt",
    "temporal", "microservices", "distributed systems", "event sourcing",
)  # fmt: skip
# Technologies close enough that experience in one transfers to another.
RELATED: tuple[frozenset[str], ...] = (
    frozenset({"postgresql", "mysql", "sqlite", "sql"}),
    frozenset({"aws", "gcp", "azure"}),
    frozenset({"react", "vue", "angular"}),
    frozenset({"django", "flask", "fastapi", "rails"}),
    frozenset({"kafka", "rabbitmq"}),
    frozenset({"pytorch", "tensorflow"}),
    frozenset({"java", "kotlin", "scala"}),
    frozenset({"javascript", "typescript"}),
    frozenset({"docker", "kubernetes"}),
)

_BULLET = re.compile(r"^\s*(?:[-*•·]|\d+[.)])\s+(.*\S)")
_YEARS = re.compile(r"(\d{1,2})\s*\+?\s*(?:years|yrs)")
_SALARY = re.compile(r"\$\s?\d|salary|compensation|per (?:year|annum|hour)|\bpay range\b", re.I)
_AUTH = re.compile(r"authori[sz]|visa|sponsor|citizen|clearance|right to work", re.I)
_EDU = re.compile(r"\b(?:degree|bachelor|master|ph\.?d|bsc|msc)\b", re.I)
_WORD = re.compile(r"[a-z0-9]+")
# Words every authorization requirement shares; what remains (a country, a clearance) must match.
_GENERIC_AUTH_TEXT = (
    "must be able to legally work in the for any employer without sponsorship visa authorized "
    "authorised authorization authorisation right citizen citizenship require requires required we "
    "will not do cannot sponsor status eligible eligibility currently"
)
_GENERIC_AUTH_WORDS = frozenset(_GENERIC_AUTH_TEXT.split())
MAX_REQUIREMENTS = 40


class _Section(Enum):
    NONE = 0
    MUST = 1
    NICE = 2


# One compiled pattern per lexicon term, in lexicon order (a term stands alone: no letter, digit, +
# or # touches it, so "java" is not found in "javascript").
_TERMS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (term, re.compile(rf"(?<![a-z0-9+#]){re.escape(term)}(?![a-z0-9+#])")) for term in LEXICON
)


@lru_cache(maxsize=4096)
def _terms_in(text: str) -> tuple[str, ...]:
    lowered = text.lower()
    return tuple(term for term, pattern in _TERMS if pattern.search(lowered))


def keywords_in(text: str) -> list[str]:
    """The lexicon's terms the text names, in lexicon order.  A pure function of the text, so its
    answers are remembered: the matcher asks it about every profile item for every requirement."""
    return list(_terms_in(text))


def _heading(line: str) -> _Section | None:
    lowered = line.lower().strip().rstrip(":")
    if _BULLET.match(line) or len(lowered) > 60:
        return None
    if any(marker in lowered for marker in ("nice to have", "preferred", "bonus", "pluses", "nice-to-have")):
        return _Section.NICE
    if any(
        marker in lowered for marker in ("requirement", "qualification", "must have", "you have", "you bring")
    ):
        return _Section.MUST
    # Any other short line that is not a sentence is a heading that ends the requirement section.
    if line.strip().endswith(":") or (lowered and len(lowered.split()) <= 5 and not lowered.endswith(".")):
        return _Section.NONE
    return None


def _classify(text: str) -> RequirementKind:
    if _SALARY.search(text):
        return RequirementKind.SALARY
    if _AUTH.search(text):
        return RequirementKind.AUTHORIZATION
    if _YEARS.search(text.lower()):
        return RequirementKind.EXPERIENCE
    if _EDU.search(text):
        return RequirementKind.EDUCATION
    return RequirementKind.SKILL if keywords_in(text) else RequirementKind.OTHER


def extract_requirements(description: str) -> RequirementExtraction:
    section = _Section.NONE
    found: list[ExtractedRequirement] = []
    seen: set[str] = set()
    for line in description.splitlines():
        heading = _heading(line)
        if heading is not None:
            section = heading
            continue
        bullet = _BULLET.match(line)
        if bullet is None or section is _Section.NONE:
            continue
        text = bullet.group(1)[:400]
        if text.lower() in seen:
            continue
        seen.add(text.lower())
        years = _YEARS.search(text.lower())
        must = section is _Section.MUST
        found.append(
            ExtractedRequirement(
                text=text,
                tier=Tier.MUST_HAVE if must else Tier.NICE_TO_HAVE,
                kind=_classify(text),
                weight=2.0 if must else 1.0,
                keywords=keywords_in(text)[:12],
                min_years=float(years.group(1)) if years else None,
            )
        )
    if not found:
        # No structured sections: each technology the posting names becomes a nice-to-have.
        found = [
            ExtractedRequirement(
                text=f"Experience with {term}", tier=Tier.NICE_TO_HAVE, kind=RequirementKind.SKILL,
                weight=1.0, keywords=[term],
            )
            for term in keywords_in(description)
        ]  # fmt: skip
    return RequirementExtraction(requirements=found[:MAX_REQUIREMENTS])


def _related(term: str) -> frozenset[str]:
    return frozenset().union(*(group for group in RELATED if term in group)) - {term}


def _mentions(item: EvidenceItem, terms: Sequence[str] | frozenset[str]) -> bool:
    return not set(terms).isdisjoint(_terms_in(item.text))


def _match_keywords(req: ExtractedRequirement, profile: CandidateProfile) -> tuple[Fit, list[str]]:
    if not req.keywords:
        return Fit.NOT_ASSESSED, []
    skills = [i for i in profile.evidence if i.kind is EvidenceKind.SKILL]
    bullets = [i for i in profile.evidence if i.kind in (EvidenceKind.EXPERIENCE, EvidenceKind.TITLE)]
    direct = [i.id for i in skills if _mentions(i, req.keywords)]
    if direct:
        return Fit.DIRECT, direct
    strong = [i.id for i in bullets if _mentions(i, req.keywords)]
    if strong:
        return Fit.STRONG, strong
    related = frozenset().union(*(_related(k) for k in req.keywords))
    transferable = [i.id for i in (*skills, *bullets) if _mentions(i, related)]
    if transferable:
        return Fit.TRANSFERABLE, transferable
    return Fit.MISSING, []


def _match_years(req: ExtractedRequirement, profile: CandidateProfile) -> tuple[Fit, list[str]]:
    required = req.min_years or 0
    if req.keywords:
        # Years per technology: every dated item naming it counts (an experience's technologies and
        # its title/summary each carry that experience's years), once per experience.
        dated = [
            i for i in profile.evidence
            if i.years is not None and i.kind in (EvidenceKind.EXPERIENCE, EvidenceKind.SKILL)
            and _mentions(i, req.keywords)
        ]  # fmt: skip
        per_experience: dict[str, float] = {}
        for item in dated:
            key = item.id.split("-tech-")[0]
            per_experience[key] = max(per_experience.get(key, 0.0), item.years or 0.0)
        relevant = dated
        years = sum(per_experience.values())
    else:
        relevant = [i for i in profile.evidence if i.kind is EvidenceKind.EXPERIENCE]
        years = profile.total_years_experience
    ids = [i.id for i in relevant]
    if not ids:
        return Fit.MISSING, []
    if years >= required:
        return Fit.DIRECT, ids
    if years >= 0.6 * required:
        return Fit.TRANSFERABLE, ids
    return Fit.MISSING, []


_NO_SPONSORSHIP = re.compile(
    r"(without|no|not|cannot|can't|unable to|will not|won't|do not)\b[^.]{0,40}\bsponsor", re.I
)


def _match_authorization(req: ExtractedRequirement, profile: CandidateProfile) -> tuple[Fit, list[str]]:
    """The posting's right-to-work line against the profile's work authorization.

    No authorization in the profile: not assessed (unknown is not a blocker).  A country or
    clearance the profile names: direct.  "No sponsorship" against a candidate who needs it, or a
    place the profile does not cover: blocked, citing what the profile says."""
    items = [i for i in profile.evidence if i.kind is EvidenceKind.AUTHORIZATION]
    if not items:
        return Fit.NOT_ASSESSED, []
    sponsorship = [i for i in items if i.text == SPONSORSHIP_NEEDED]
    places = [i for i in items if i not in sponsorship]
    if _NO_SPONSORSHIP.search(req.text):
        if sponsorship:
            return Fit.BLOCKED, [i.id for i in sponsorship]
        return (Fit.DIRECT, [i.id for i in places]) if places else (Fit.NOT_ASSESSED, [])
    specific = set(_WORD.findall(req.text.lower())) - _GENERIC_AUTH_WORDS
    if not specific:
        return (Fit.DIRECT, [i.id for i in places]) if places else (Fit.NOT_ASSESSED, [])
    matching = [i.id for i in places if specific & set(_WORD.findall(i.text.lower()))]
    return (Fit.DIRECT, matching) if matching else (Fit.BLOCKED, [i.id for i in items])


def _match_education(req: ExtractedRequirement, profile: CandidateProfile) -> tuple[Fit, list[str]]:
    items = [i.id for i in profile.evidence if i.kind is EvidenceKind.EDUCATION]
    return (Fit.DIRECT, items) if items else (Fit.MISSING, [])


def match_evidence(extraction: RequirementExtraction, profile: CandidateProfile) -> EvidenceMatching:
    matches: list[EvidenceMatch] = []
    for index, req in enumerate(extraction.requirements):
        if req.kind is RequirementKind.SALARY:
            fit, ids = Fit.NOT_ASSESSED, list[str]()  # salary is the candidate's call, never a rule here
        elif req.kind is RequirementKind.AUTHORIZATION:
            fit, ids = _match_authorization(req, profile)
        elif req.kind is RequirementKind.EXPERIENCE:
            fit, ids = _match_years(req, profile)
        elif req.kind is RequirementKind.EDUCATION:
            fit, ids = _match_education(req, profile)
        else:
            fit, ids = _match_keywords(req, profile)
        matches.append(EvidenceMatch(requirement_index=index, fit=fit, evidence_ids=ids[:12]))
    return EvidenceMatching(matches=matches)


def _extract_handler(request: StructuredRequest[RequirementExtraction]) -> RequirementExtraction:
    description = request.context.get("description")
    return extract_requirements(description if isinstance(description, str) else request.prompt)


def _match_handler(request: StructuredRequest[EvidenceMatching]) -> EvidenceMatching:
    extraction = RequirementExtraction.model_validate(request.context["requirements"])
    profile = CandidateProfile.model_validate(request.context["profile"])
    return match_evidence(extraction, profile)


def register_offline_scoring(provider: OfflineProvider) -> None:
    provider.register(EXTRACT_TASK, RequirementExtraction, _extract_handler)
    provider.register(MATCH_TASK, EvidenceMatching, _match_handler)
