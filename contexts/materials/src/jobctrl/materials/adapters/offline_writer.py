"""``OfflineMaterialsWriter``: a deterministic, network-free ``LlmPort`` for the materials tasks.

It answers ``tailor_resume`` with a ``ResumeDraft`` and ``write_cover_letter`` with a
``CoverLetterDraft`` built only from the profile in ``request.context`` (never from the prompt text):
it orders and selects bullets, summary sentences and skills by their relevance to the posting's
requirements (``relevance``: weight and tier of each requirement a fact meets) and quotes facts
verbatim, citing the facts it used.  So its output passes the fabrication gate by construction,
and the same inputs always give the same draft (hence the same artifact id on a retry).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from jobctrl.kernel.errors import ConfigurationError
from jobctrl.llm.port import LlmUsage, StructuredRequest, StructuredResult
from jobctrl.materials.domain.profile import CandidateProfile, TargetPosting
from jobctrl.materials.domain.relevance import Need, needs_of, relevance
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


MAX_SUMMARY = 3
MIN_BULLETS, MAX_BULLETS = 2, 5  # per experience: the relevant ones, at least two, at most five
MAX_SKILLS = 8  # per category: the relevant ones first


def _ranked(items: list[Any], text: Callable[[Any], str], needs: list[Need]) -> list[Any]:
    """Most relevant first; ``sorted`` is stable, so ties keep the profile's order."""
    return sorted(items, key=lambda item: -relevance(text(item), needs))


def _selected(
    items: list[Any], text: Callable[[Any], str], needs: list[Need], low: int, high: int
) -> list[Any]:
    ranked = _ranked(items, text, needs)
    relevant = sum(1 for item in ranked if relevance(text(item), needs) > 0)
    return ranked[: max(low, min(relevant, high))]


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
    """Order and select the candidate's own facts by the posting's requirements (``relevance``)."""
    needs = needs_of(profile, posting)
    summary = _selected(list(profile.summary), lambda s: s.text, needs, 2, MAX_SUMMARY)
    updates = [
        ExperienceUpdate(
            experience_id=exp.id,
            bullets=[
                DraftLine(text=b.text, sources=[b.id])
                for b in _selected(list(exp.bullets), lambda b: b.text, needs, MIN_BULLETS, MAX_BULLETS)
            ],
        )
        for exp in profile.experiences
        if exp.bullets
    ]
    categories = _ranked(list(profile.skills), lambda c: " ".join(c.skills), needs)
    skill_updates = [
        SkillCategoryUpdate(
            category_id=c.id,
            skills=_selected(list(c.skills), str, needs, min(len(c.skills), MAX_SKILLS), MAX_SKILLS),
        )
        for c in categories
    ]
    facts = (
        [(s.id, s.text) for s in profile.summary]
        + [(b.id, b.text) for exp in profile.experiences for b in exp.bullets]
        + [(c.id, " ".join(c.skills)) for c in profile.skills]
    )
    mappings = []
    for need in needs:
        cited = [fid for fid, text in facts if need.met_by(text)][:8]
        if cited:
            mappings.append(ClaimMapping(requirement=need.label, fact_ids=cited))
    return ResumeDraft(
        summary=[DraftLine(text=s.text, sources=[s.id]) for s in summary]
        or [DraftLine(text=profile.headline, sources=["identity"])],
        experience_updates=updates,
        skill_categories=skill_updates,
        claim_mappings=mappings[:40],
    )


def write_cover(profile: CandidateProfile, posting: TargetPosting) -> CoverLetterDraft:
    needs = needs_of(profile, posting)
    opening = f"I am writing to apply for the {posting.role_title} role at {posting.company}."
    paragraphs: list[DraftLine] = []
    if profile.summary:
        lead = _ranked(list(profile.summary), lambda s: s.text, needs)[0]
        paragraphs.append(DraftLine(text=f"{opening} {lead.text}", sources=[lead.id]))
    else:
        paragraphs.append(DraftLine(text=f"{opening} {profile.headline}.", sources=["identity"]))
    for exp in profile.experiences[:2]:
        if not exp.bullets:
            continue
        best = _ranked(list(exp.bullets), lambda b: b.text, needs)[0]
        achievement = best.text.rstrip(".")
        achievement = achievement[0].lower() + achievement[1:]
        paragraphs.append(
            DraftLine(text=f"As {exp.title} at {exp.employer}, I {achievement}.", sources=[exp.id, best.id])
        )
    if profile.skills:
        category = _ranked(list(profile.skills), lambda c: " ".join(c.skills), needs)[0]
        shown = _ranked(list(category.skills), str, needs)[:4]
        paragraphs.append(
            DraftLine(
                text=f"I would bring hands-on experience with {', '.join(shown)} and would welcome a chat.",
                sources=[category.id],
            )
        )
    return CoverLetterDraft(salutation=f"Dear {posting.company} hiring team,", paragraphs=paragraphs)
