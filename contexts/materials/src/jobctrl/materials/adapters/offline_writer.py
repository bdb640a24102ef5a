"""``OfflineMaterialsWriter``: a deterministic, network-free ``LlmPort`` for the materials tasks.

It answers ``tailor_resume`` with a ``ResumeDraft`` and ``write_cover_letter`` with a
``CoverLetterDraft`` built only from the profile in ``request.context`` (never from the prompt text):
it reorders bullets, summary sentences and skills by how many posting keywords they mention and quotes
facts verbatim, citing the facts it used.  So its output passes the fabrication gate by construction,
and the same inputs always give the same draft (hence the same artifact id on a retry).
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel

from jobctrl.kernel.errors import ConfigurationError
from jobctrl.llm.port import LlmUsage, StructuredRequest, StructuredResult
from jobctrl.materials.domain.evidence import normalise
from jobctrl.materials.domain.profile import CandidateProfile, TargetPosting
from jobctrl.materials.ports import (
    COVER_TASK,
    TAILOR_TASK,
    ClaimMapping,
    CoverLetterDraft,
    DraftLine,
    ExperienceUpdate,
    ResumeDraft,
    SkillCategoryUpdate,
)

T = TypeVar("T", bound=BaseModel)


def _hits(text: str, keywords: list[str]) -> int:
    low = normalise(text)
    return sum(1 for k in keywords if k and k in low)


class OfflineMaterialsWriter:
    model = "local-offline-materials"

    def structured(self, request: StructuredRequest[T]) -> StructuredResult[T]:
        profile = CandidateProfile.from_builtins(request.context.get("profile"))
        posting = TargetPosting.from_builtins(request.context.get("posting"))
        draft: BaseModel
        if request.task == TAILOR_TASK and request.response_model is ResumeDraft:
            draft = tailor(profile, posting)
        elif request.task == COVER_TASK and request.response_model is CoverLetterDraft:
            draft = write_cover(profile, posting)
        else:
            raise ConfigurationError(f"offline materials writer cannot answer task {request.task!r}")
        value = request.response_model.model_validate(draft.model_dump())
        usage = LlmUsage(
            model=self.model,
            input_tokens=(len(request.system) + len(request.prompt)) // 4,
            output_tokens=len(draft.model_dump_json()) // 4,
            tenant_id=request.tenant_id,
        )
        return StructuredResult(value=value, usage=usage)


def tailor(profile: CandidateProfile, posting: TargetPosting) -> ResumeDraft:
    keywords = [normalise(k) for k in posting.keywords]

    def by_relevance(text: str) -> int:
        return -_hits(text, keywords)  # sorted() is stable: ties keep the profile's order

    summary = sorted(profile.summary, key=lambda s: by_relevance(s.text))
    updates = [
        ExperienceUpdate(
            experience_id=exp.id,
            bullets=[
                DraftLine(text=b.text, sources=[b.id])
                for b in sorted(exp.bullets, key=lambda b: by_relevance(b.text))
            ],
        )
        for exp in profile.experiences
        if exp.bullets
    ]
    categories = sorted(profile.skills, key=lambda c: by_relevance(" ".join(c.skills)))
    skill_updates = [
        SkillCategoryUpdate(category_id=c.id, skills=sorted(c.skills, key=by_relevance)) for c in categories
    ]
    facts = (
        [(s.id, s.text) for s in profile.summary]
        + [(b.id, b.text) for exp in profile.experiences for b in exp.bullets]
        + [(c.id, " ".join(c.skills)) for c in profile.skills]
    )
    mappings = []
    for keyword, raw in zip(keywords, posting.keywords, strict=True):
        cited = [fid for fid, text in facts if keyword and keyword in normalise(text)][:8]
        if cited:
            mappings.append(ClaimMapping(requirement=raw, fact_ids=cited))
    return ResumeDraft(
        summary=[DraftLine(text=s.text, sources=[s.id]) for s in summary[:4]]
        or [DraftLine(text=profile.headline, sources=["identity"])],
        experience_updates=updates,
        skill_categories=skill_updates,
        claim_mappings=mappings,
    )


def write_cover(profile: CandidateProfile, posting: TargetPosting) -> CoverLetterDraft:
    keywords = [normalise(k) for k in posting.keywords]
    opening = f"I am writing to apply for the {posting.role_title} role at {posting.company}."
    paragraphs: list[DraftLine] = []
    if profile.summary:
        lead = max(profile.summary, key=lambda s: _hits(s.text, keywords))
        paragraphs.append(DraftLine(text=f"{opening} {lead.text}", sources=[lead.id]))
    else:
        paragraphs.append(DraftLine(text=f"{opening} {profile.headline}.", sources=["identity"]))
    for exp in profile.experiences[:2]:
        if not exp.bullets:
            continue
        best = max(exp.bullets, key=lambda b: _hits(b.text, keywords))
        achievement = best.text.rstrip(".")
        achievement = achievement[0].lower() + achievement[1:]
        paragraphs.append(
            DraftLine(text=f"As {exp.title} at {exp.employer}, I {achievement}.", sources=[exp.id, best.id])
        )
    if profile.skills:
        category = max(profile.skills, key=lambda c: _hits(" ".join(c.skills), keywords))
        shown = sorted(category.skills, key=lambda s: -_hits(s, keywords))[:4]
        paragraphs.append(
            DraftLine(
                text=f"I would bring hands-on experience with {', '.join(shown)} and would welcome a chat.",
                sources=[category.id],
            )
        )
    return CoverLetterDraft(salutation=f"Dear {posting.company} hiring team,", paragraphs=paragraphs)
