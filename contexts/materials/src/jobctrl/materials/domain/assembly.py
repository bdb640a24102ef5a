"""Turn a model draft into an accepted document, or into the list of reasons it is refused.

Rules enforced here (each a ``ValidationIssue``; any issue refuses the whole draft — fail closed):

* only mutable fields change: experiences, their employer/title/dates, education and the section list
  come from the profile; a draft may only update bullets of *existing* experiences and reorder/update
  *existing* skill categories (``unknown_experience`` / ``unknown_skill_category`` otherwise);
* provenance: every model line cites facts the profile has, and a bullet cites only its own job's facts
  (or skills);
* quality: one clean line each, no repeated lines;
* the fabrication gate (``fabrication.unsupported_claims``) on every model-written line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import date

from jobctrl.materials.domain.documents import (
    ClaimLink,
    CoverLetter,
    Line,
    Origin,
    ResumeExperience,
    TailoredResume,
)
from jobctrl.materials.domain.evidence import EvidenceIndex, normalise
from jobctrl.materials.domain.fabrication import unsupported_claims
from jobctrl.materials.domain.profile import IDENTITY_FACT_ID, CandidateProfile, Experience, TargetPosting
from jobctrl.materials.domain.validation import FABRICATION_CODES, IssueCode, ValidationIssue
from jobctrl.materials.ports import CoverLetterDraft, DraftLine, ExperienceUpdate, ResumeDraft

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def _when(value: str | None) -> str:
    if value is None:
        return "Present"
    year, _, month = value.partition("-")
    return f"{_MONTHS[int(month) - 1]} {year}" if month else year


def experience_dates(exp: Experience) -> str:
    return f"{_when(exp.start)} \u2013 {_when(exp.end)}"


class _Checker:
    def __init__(self, profile: CandidateProfile, exempt: Sequence[str] = ()) -> None:
        self.index = EvidenceIndex(profile)
        self.exempt = exempt
        self.issues: list[ValidationIssue] = []
        self._seen_texts: set[str] = set()

    def add(self, code: IssueCode, where: str, detail: str = "") -> None:
        self.issues.append(ValidationIssue(code, where, detail))

    def model_line(self, line_id: str, draft: DraftLine, implicit: Iterable[str] = ()) -> Line:
        """Check one model-written line; ``implicit`` facts are evidence it may use without citing."""
        for fact_id in draft.sources:
            if fact_id not in self.index:
                self.add(IssueCode.UNKNOWN_FACT, line_id, fact_id)
        self.text_quality(line_id, draft.text)
        evidence = self.index.for_facts((*draft.sources, *implicit))
        for claim in unsupported_claims(draft.text, evidence, self.exempt):
            self.add(FABRICATION_CODES[claim.kind], line_id, claim.token)
        return Line(
            line_id=line_id, text=draft.text.strip(), fact_ids=list(draft.sources), origin=Origin.MODEL
        )

    def text_quality(self, where: str, text: str) -> None:
        if _CONTROL.search(text) or not text.strip():
            self.add(IssueCode.MALFORMED_TEXT, where)
        key = normalise(text)
        if key in self._seen_texts:
            self.add(IssueCode.DUPLICATE_LINE, where)
        self._seen_texts.add(key)


def _identity(profile: CandidateProfile) -> list[Line]:
    contact = " · ".join(p for p in (profile.email, profile.location) if p)
    texts = [("identity/name", profile.name), ("identity/headline", profile.headline)]
    if contact:
        texts.append(("identity/contact", contact))
    return [Line(line_id=i, text=t, fact_ids=[IDENTITY_FACT_ID], origin=Origin.PROFILE) for i, t in texts]


_MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


def letter_date(day: date) -> str:
    """``December 1, 2026``: spelt out, independent of the process locale."""
    return f"{_MONTH_NAMES[day.month - 1]} {day.day}, {day.year}"


def _letterhead(profile: CandidateProfile) -> list[Line]:
    """The cover letter's contact header, every line the candidate's own profile facts."""
    texts = [("header/name", profile.name)]
    contact = " · ".join(p for p in (profile.email, profile.phone, profile.location) if p)
    if contact:
        texts.append(("header/contact", contact))
    links = " · ".join(link.url for link in profile.links)
    if links:
        texts.append(("header/links", links))
    return [Line(line_id=i, text=t, fact_ids=[IDENTITY_FACT_ID], origin=Origin.PROFILE) for i, t in texts]


def assemble_resume(
    profile: CandidateProfile, posting: TargetPosting, draft: ResumeDraft
) -> tuple[TailoredResume | None, list[ValidationIssue]]:
    check = _Checker(profile)
    summary = [check.model_line(f"summary/{i}", line) for i, line in enumerate(draft.summary)]

    updates: dict[str, ExperienceUpdate] = {}
    for update in draft.experience_updates:
        if profile.experience(update.experience_id) is None:
            check.add(IssueCode.UNKNOWN_EXPERIENCE, "experience", update.experience_id)
        elif update.experience_id in updates:
            check.add(IssueCode.DUPLICATE_EXPERIENCE, "experience", update.experience_id)
        updates[update.experience_id] = update

    skill_ids = {c.id for c in profile.skills}
    experiences = []
    for exp in profile.experiences:
        header = Line(
            line_id=f"{exp.id}/header",
            text=f"{exp.title} — {exp.employer}",
            fact_ids=[exp.id],
            origin=Origin.PROFILE,
        )
        if exp.id in updates:
            # A bullet stays with its job: it may cite this job, its bullets and the skill categories.
            allowed = {exp.id, *(b.id for b in exp.bullets), *skill_ids}
            bullets = []
            for i, draft_line in enumerate(updates[exp.id].bullets):
                where = f"{exp.id}/bullet/{i}"
                for fact_id in draft_line.sources:
                    if fact_id in check.index and fact_id not in allowed:
                        check.add(IssueCode.MISATTRIBUTED_SOURCE, where, fact_id)
                bullets.append(check.model_line(where, draft_line, implicit=[exp.id]))
        else:
            bullets = [
                Line(line_id=f"{exp.id}/bullet/{i}", text=b.text, fact_ids=[b.id], origin=Origin.PROFILE)
                for i, b in enumerate(exp.bullets)
            ]
        experiences.append(
            ResumeExperience(
                experience_id=exp.id, header=header, dates=experience_dates(exp), bullets=bullets
            )
        )

    skills = _skills(profile, draft, check)
    education = [
        Line(
            line_id=f"{e.id}/line",
            text=", ".join(p for p in (e.degree, e.institution, e.year) if p),
            fact_ids=[e.id],
            origin=Origin.PROFILE,
        )
        for e in profile.education
    ]
    claims = []
    for i, mapping in enumerate(draft.claim_mappings):
        for fact_id in mapping.fact_ids:
            if fact_id not in check.index:
                check.add(IssueCode.UNKNOWN_FACT, f"claim/{i}", fact_id)
        claims.append(ClaimLink(requirement=mapping.requirement, fact_ids=list(mapping.fact_ids)))
    if check.issues:
        return None, check.issues
    resume = TailoredResume(
        job_id=posting.job_id,
        profile_version=profile.version,
        identity=_identity(profile),
        summary=summary,
        experiences=experiences,
        skills=skills,
        education=education,
        claim_mappings=claims,
    )
    return resume, []


def _skills(profile: CandidateProfile, draft: ResumeDraft, check: _Checker) -> list[Line]:
    by_id = {c.id: c for c in profile.skills}
    known_skills = profile.all_skills()
    lines: list[Line] = []
    done: set[str] = set()
    for update in draft.skill_categories:
        category = by_id.get(update.category_id)
        if category is None:
            check.add(IssueCode.UNKNOWN_SKILL_CATEGORY, "skills", update.category_id)
            continue
        if category.id in done:
            check.add(IssueCode.DUPLICATE_SKILL_CATEGORY, "skills", category.id)
            continue
        done.add(category.id)
        where = f"skills/{category.id}"
        for skill in update.skills:
            if skill.casefold() not in known_skills:
                check.add(IssueCode.FABRICATED_TECHNOLOGY, where, skill)
            if _CONTROL.search(skill):
                check.add(IssueCode.MALFORMED_TEXT, where)
        lines.append(
            Line(
                line_id=where,
                text=f"{category.name}: {', '.join(update.skills)}",
                fact_ids=[category.id],
                origin=Origin.MODEL,
            )
        )
    for category in profile.skills:
        if category.id not in done:
            lines.append(
                Line(
                    line_id=f"skills/{category.id}",
                    text=f"{category.name}: {', '.join(category.skills)}",
                    fact_ids=[category.id],
                    origin=Origin.PROFILE,
                )
            )
    return lines


def assemble_cover_letter(
    profile: CandidateProfile,
    posting: TargetPosting,
    draft: CoverLetterDraft,
    resume_artifact_id: str,
    written_on: date,
) -> tuple[CoverLetter | None, list[ValidationIssue]]:
    # The salutation and the target role/company are exempt from the gate: naming the addressee and
    # the job applied for is not a claim about the candidate.
    check = _Checker(profile, exempt=(posting.role_title, posting.company))
    if _CONTROL.search(draft.salutation):
        check.add(IssueCode.MALFORMED_TEXT, "salutation")
    paragraphs = [check.model_line(f"paragraph/{i}", p) for i, p in enumerate(draft.paragraphs)]
    if check.issues:
        return None, check.issues
    closing = [
        Line(line_id="closing/sign-off", text="Sincerely,", fact_ids=[], origin=Origin.TEMPLATE),
        Line(line_id="closing/name", text=profile.name, fact_ids=[IDENTITY_FACT_ID], origin=Origin.PROFILE),
    ]
    letter = CoverLetter(
        job_id=posting.job_id,
        profile_version=profile.version,
        resume_artifact_id=resume_artifact_id,
        role_title=posting.role_title,
        company=posting.company,
        salutation=draft.salutation.strip(),
        paragraphs=paragraphs,
        closing=closing,
        header=_letterhead(profile),
        dated=letter_date(written_on),
    )
    return letter, []
