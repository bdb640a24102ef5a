"""The candidate profile, versioned by orchestration's ``ProfileService``, in the shapes the contexts read.

The saved document is the Materials shape (facts with ids); Scoring matches against evidence items,
derived here from the same facts so both contexts read one profile version.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from jobctrl.kernel.store import EventStore
from jobctrl.materials.profile import CandidateProfile as MaterialsProfile
from jobctrl.orchestration.profile.service import ProfileService
from jobctrl.scoring.profile import CandidateProfile as ScoringProfile
from jobctrl.scoring.profile import EvidenceItem, EvidenceKind

_UNSAFE = re.compile(r"[^A-Za-z0-9_.:\-]+")


def _id(*parts: str) -> str:
    return _UNSAFE.sub("-", "-".join(parts)).strip("-")[:80] or "item"


def _years(start: str, end: str | None) -> float:
    def month(value: str) -> float:
        year, _, mon = value.partition("-")
        return int(year) + (int(mon) - 1) / 12 if mon else int(year)

    finish = month(end) if end else datetime.now(UTC).year + (datetime.now(UTC).month - 1) / 12
    return round(max(0.0, finish - month(start)), 1)


def saved_profile(store: EventStore) -> tuple[int, dict[str, Any]] | None:
    profile = ProfileService(store).load()
    if profile.profile_version == 0:
        return None
    return profile.profile_version, dict(profile.content)


_CONTACT_FIELDS = ("name", "headline", "email", "location")


def to_document(profile: dict[str, Any]) -> dict[str, Any]:
    """The Materials-shaped profile as the versioned document's sections (contact, summary, ...)."""
    return {
        "contact": {k: profile[k] for k in _CONTACT_FIELDS if profile.get(k) is not None},
        "summary": profile.get("summary", []),
        "experience": profile.get("experiences", []),
        "skills": profile.get("skills", []),
        "education": profile.get("education", []),
    }


def materials_profile(version: int, document: dict[str, Any]) -> MaterialsProfile:
    contact = document.get("contact", {})
    return MaterialsProfile.from_builtins(
        {
            "version": version,
            **{k: contact[k] for k in _CONTACT_FIELDS if k in contact},
            "summary": document.get("summary", []),
            "experiences": document.get("experience", []),
            "skills": document.get("skills", []),
            "education": document.get("education", []),
        }
    )


def scoring_profile(version: int, content: dict[str, Any]) -> ScoringProfile:
    m = materials_profile(version, content)
    items: list[EvidenceItem] = []
    total = 0.0
    for exp in m.experiences:
        years = _years(exp.start, exp.end)
        total += years
        items.append(
            EvidenceItem(
                id=_id(exp.id),
                kind=EvidenceKind.EXPERIENCE,
                text=f"{exp.title} at {exp.employer}",
                years=years,
            )
        )
        items.append(
            EvidenceItem(id=_id(exp.id, "title"), kind=EvidenceKind.TITLE, text=exp.title, years=years)
        )
        items.append(EvidenceItem(id=_id(exp.id, "employer"), kind=EvidenceKind.EMPLOYER, text=exp.employer))
        for n, tech in enumerate(exp.technologies):
            items.append(
                EvidenceItem(id=_id(exp.id, "tech", str(n)), kind=EvidenceKind.SKILL, text=tech, years=years)
            )
        for bullet in exp.bullets:
            items.append(EvidenceItem(id=_id(bullet.id), kind=EvidenceKind.EXPERIENCE, text=bullet.text))
    for category in m.skills:
        for n, skill in enumerate(category.skills):
            items.append(EvidenceItem(id=_id(category.id, str(n)), kind=EvidenceKind.SKILL, text=skill))
    for edu in m.education:
        items.append(
            EvidenceItem(id=_id(edu.id), kind=EvidenceKind.EDUCATION, text=f"{edu.degree}, {edu.institution}")
        )
    return ScoringProfile(
        profile_version=version, total_years_experience=min(60.0, total), evidence=tuple(items)
    )
