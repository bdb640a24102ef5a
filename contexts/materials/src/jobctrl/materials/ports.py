"""What Materials needs from outside: the HTML → PDF renderer (``PdfRenderer``, served by
``adapters.rendering.pdf.ChromiumPdfRenderer``) and what the model may return through the LLM port,
the response models (pydantic, extra fields forbidden).

These are the *mutable fields* of a tailored resume and nothing else: summary sentences, experience
bullet updates (keyed by an existing experience id), skill-category ordering/updates (keyed by an existing
category id) and claim mappings.  Employer, title, dates, education and the section list are not in the
schema, so the model has no way to express a change to them; an unknown id is rejected by
``assembly.assemble_resume``.  Every line names the profile facts it rests on (``sources``).
"""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

TAILOR_TASK = "tailor_resume"
COVER_TASK = "write_cover_letter"


class PdfRenderer(Protocol):
    def render(self, html: str) -> bytes:
        """Return PDF bytes for ``html``, page size taken from the CSS ``@page`` rule."""
        ...


class _Draft(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DraftLine(_Draft):
    text: str = Field(min_length=1, max_length=400)
    sources: list[str] = Field(min_length=1, max_length=8)


class ExperienceUpdate(_Draft):
    experience_id: str
    bullets: list[DraftLine] = Field(min_length=1, max_length=10)


class SkillCategoryUpdate(_Draft):
    category_id: str
    skills: list[str] = Field(min_length=1, max_length=40)


class ClaimMapping(_Draft):
    requirement: str = Field(min_length=1, max_length=200)
    fact_ids: list[str] = Field(min_length=1, max_length=8)


class ResumeDraft(_Draft):
    summary: list[DraftLine] = Field(min_length=1, max_length=6)
    experience_updates: list[ExperienceUpdate] = Field(default_factory=list, max_length=30)
    skill_categories: list[SkillCategoryUpdate] = Field(default_factory=list, max_length=30)
    claim_mappings: list[ClaimMapping] = Field(default_factory=list, max_length=40)


class CoverLetterDraft(_Draft):
    salutation: str = Field(min_length=1, max_length=120)
    paragraphs: list[DraftLine] = Field(min_length=1, max_length=8)
