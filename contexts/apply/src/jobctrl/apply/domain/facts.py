"""What the Apply context needs to know about a job, handed in explicitly.

Apply owns none of these facts: materials, profile, scoring, enrichment and discovery publish them as
events, and the caller (a Temporal activity reading projections) passes the current values in.  Keeping
them as inputs makes every rule testable without the other contexts and keeps the contexts independent.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass(frozen=True)
class CurrentJobFacts:
    """The committed state of a job as of the claim / send / review."""

    job_id: str
    employer: str
    role: str
    materials_generation: int | None
    profile_version: int | None
    application_url: str | None
    resume_pdf_ready: bool
    score_current: bool
    score_eligible: bool
    score: float | None
    closed: bool = False
    site_blocked: bool = False
    enrichment_quarantined: bool = False


@dataclass(frozen=True)
class ClaimPolicy:
    """Settings re-read at claim time (``min_fit_score``, ``apply_approval_required``,
    ``browser_submit_allowlist``: the hosts whose forms an approved live run submits itself)."""

    min_score: float = 7.0
    approval_required: bool = True
    max_attempts: int = 3
    browser_submit_hosts: frozenset[str] = frozenset()

    def submits_browser_form(self, application_url: str) -> bool:
        """True when the URL's host is on the explicit allowlist (exact host, case-insensitive);
        every other site's live run stops for the person's own submit (ADR 0280)."""
        parts = urlsplit(application_url)
        host = (parts.hostname or "").lower()
        return parts.scheme in ("http", "https") and bool(host) and host in self.browser_submit_hosts


@dataclass(frozen=True)
class ApplicantProfile:
    """The fields a form is filled from (profile facts, never invented)."""

    full_name: str
    email: str
    phone: str

    @property
    def first_name(self) -> str:
        return self.full_name.split()[0] if self.full_name.split() else ""

    @property
    def last_name(self) -> str:
        parts = self.full_name.split()
        return " ".join(parts[1:]) if len(parts) > 1 else ""


@dataclass(frozen=True)
class ApplicationMaterials:
    """The approved materials of one generation: the resume PDF and the cover letter text."""

    generation: int
    resume_pdf_path: str
    cover_letter_text: str
    resume_artifact_id: str | None = None  # the PDF an email application attaches


def email_target(application_url: str | None) -> str | None:
    """The address of a ``mailto:`` application target (an application sent by email), else None."""
    if application_url is None or not application_url.lower().startswith("mailto:"):
        return None
    address = application_url[len("mailto:") :].split("?", 1)[0].strip()
    return address or None


def answer_values(profile: ApplicantProfile, materials: ApplicationMaterials) -> dict[str, str]:
    """What each form field kind is filled with: profile facts and the approved cover letter only."""
    return {
        "full_name": profile.full_name,
        "first_name": profile.first_name,
        "last_name": profile.last_name,
        "email": profile.email,
        "phone": profile.phone,
        "cover_letter": materials.cover_letter_text,
    }
