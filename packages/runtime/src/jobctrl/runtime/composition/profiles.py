"""The candidate profile, versioned by orchestration's profile use cases, in the shapes the contexts read.

The saved document is the Materials shape (facts with ids); Scoring matches against evidence items,
derived here from the same facts so both contexts read one profile version.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from jobctrl.kernel.store import EventStore
from jobctrl.materials import CandidateProfile as MaterialsProfile
from jobctrl.orchestration import load_profile
from jobctrl.scoring import SPONSORSHIP_NEEDED, EvidenceItem, EvidenceKind
from jobctrl.scoring import CandidateProfile as ScoringProfile

_UNSAFE = re.compile(r"[^A-Za-z0-9_.:\-]+")
P = TypeVar("P")


def _id(*parts: str) -> str:
    return _UNSAFE.sub("-", "-".join(parts)).strip("-")[:80] or "item"


def _years(start: str, end: str | None) -> float:
    def month(value: str) -> float:
        year, _, mon = value.partition("-")
        return int(year) + (int(mon) - 1) / 12 if mon else int(year)

    finish = month(end) if end else datetime.now(UTC).year + (datetime.now(UTC).month - 1) / 12
    return round(max(0.0, finish - month(start)), 1)


def saved_profile(store: EventStore) -> tuple[int, dict[str, Any]] | None:
    profile = load_profile(store)
    if profile.profile_version == 0:
        return None
    return profile.profile_version, dict(profile.content)


def stream_version(store: EventStore, stream_id: str) -> int:
    """The stream's current version: one indexed ``MAX`` on the driver (ADR 0376)."""
    sql = f"SELECT MAX(stream_version) FROM job_events WHERE stream_id = {store.db.mark}"
    return int(store.db.fetch(sql, [stream_id])[0][0] or 0)


@dataclass
class _Kept:
    stream_id: str
    version: int  # the profile stream's version this was loaded at
    saved: tuple[int, dict[str, Any]] | None
    shapes: dict[tuple[str, int, int], Any] = field(default_factory=dict)


class SavedProfiles:
    """The saved profile and the shapes the contexts read, kept while its stream is unchanged.

    Every use asks the store for the profile stream's version (one indexed ``MAX``); the same
    version is the same profile (the log is append-only), so the kept load and shapes are answered,
    and any other version (a save by this or any other process) loads it again (ADR 0376).  A shape
    is also keyed by the month: an experience without an end counts its years up to now."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._kept: _Kept | None = None
        self.loads = 0

    def saved(self) -> tuple[int, dict[str, Any]] | None:
        return self._current().saved

    def streams(self) -> list[str]:
        """The profile's stream id once it was loaded (for a caller that asks for its version in a
        statement of its own and hands it to :meth:`shape` as ``at``, ADR 0396); none before."""
        kept = self._kept
        return [] if kept is None else [kept.stream_id]

    def _current(self, at: int | None = None) -> _Kept:
        kept = self._kept
        if kept is not None:
            stored = stream_version(self.store, kept.stream_id) if at is None else at
            if stored == kept.version:
                return kept
        profile = load_profile(self.store)
        self.loads += 1
        saved = None if profile.profile_version == 0 else (profile.profile_version, dict(profile.content))
        kept = self._kept = _Kept(profile.stream_id, profile.version, saved)
        return kept

    def shape(self, kind: str, build: Callable[[int, dict[str, Any]], P], at: int | None = None) -> P | None:
        """The shape of the profile as stored now; ``at`` is the profile stream's version as the
        caller just read it from the store (else it is asked for here)."""
        kept = self._current(at)
        if kept.saved is None:
            return None
        now = datetime.now(UTC)
        key = (kind, now.year, now.month)
        if key not in kept.shapes:
            kept.shapes[key] = build(*kept.saved)
        found: P = kept.shapes[key]
        return found


_CONTACT_FIELDS = ("name", "headline", "email", "phone", "location", "links")
# Names a posting's right-to-work line may use for a country code of the profile.
COUNTRY_NAMES: dict[str, str] = {
    "GB": "United Kingdom UK Britain British England Scotland Wales",
    "US": "United States USA US America American",
    "CA": "Canada Canadian", "AU": "Australia Australian", "NZ": "New Zealand",
    "IE": "Ireland Irish", "DE": "Germany German", "FR": "France French", "NL": "Netherlands Dutch",
    "ES": "Spain Spanish", "IT": "Italy Italian", "PT": "Portugal Portuguese", "PL": "Poland Polish",
    "SE": "Sweden Swedish", "DK": "Denmark Danish", "FI": "Finland Finnish", "NO": "Norway Norwegian",
    "CH": "Switzerland Swiss", "AT": "Austria Austrian", "BE": "Belgium Belgian", "IN": "India Indian",
    "SG": "Singapore", "JP": "Japan Japanese", "IL": "Israel Israeli", "BR": "Brazil Brazilian",
    "EU": "European Union EU EEA Europe European",
}  # fmt: skip
EU_MEMBERS = frozenset(
    [
        "AT",
        "BE",
        "BG",
        "HR",
        "CY",
        "CZ",
        "DK",
        "EE",
        "FI",
        "FR",
        "DE",
        "GR",
        "HU",
        "IE",
        "IT",
        "LV",
        "LT",
        "LU",
        "MT",
        "NL",
        "PL",
        "PT",
        "RO",
        "SK",
        "SI",
        "ES",
        "SE",
    ]
)


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
    items.extend(authorization_evidence(content.get("workAuthorization")))
    return ScoringProfile(
        profile_version=version, total_years_experience=min(60.0, total), evidence=tuple(items)
    )


def authorization_evidence(section: object) -> list[EvidenceItem]:
    """The profile's work authorization as evidence: one item per country (with the names a posting
    may use), and one saying the candidate needs sponsorship when they do."""
    if not isinstance(section, dict):
        return []
    items: list[EvidenceItem] = []
    countries = [c for c in section.get("countries", []) if isinstance(c, str)]
    for code in countries:
        names = COUNTRY_NAMES.get(code, code)
        if code in EU_MEMBERS:
            names += " " + COUNTRY_NAMES["EU"]
        items.append(
            EvidenceItem(
                id=_id("auth", code),
                kind=EvidenceKind.AUTHORIZATION,
                text=f"Authorized to work in {code} ({names}) without sponsorship",
            )
        )
    if section.get("requiresSponsorship") is True:
        items.append(
            EvidenceItem(id="auth-sponsorship", kind=EvidenceKind.AUTHORIZATION, text=SPONSORSHIP_NEEDED)
        )
    return items
