"""Candidate extraction: the structured output asked of the model, and the offline extractor.

The model (or the offline rules) only proposes; every candidate lands in review with provenance and
``user_confirmed=false``.  Provider output is untrusted: names and titles are bounded and stripped,
roles outside the enum become ``other``, and nothing the page did not say is invented.
"""

from __future__ import annotations

import re
from typing import Literal, TypeVar

from pydantic import BaseModel, Field, field_validator

from jobctrl.kernel.text import bound_text
from jobctrl.llm import LlmUsage, StructuredRequest, StructuredResult

T = TypeVar("T", bound=BaseModel)
Role = Literal["recruiter", "hiring_manager", "referrer", "warm_intro", "other"]
TASK = "extract_contact_candidates"
SYSTEM_PROMPT = (
    "Extract people named on this page who could help with a job application. Only list people the "
    "page names explicitly; never invent anyone. Return name, title, email and profile URL only when the "
    "page states them."
)


class ExtractedCandidate(BaseModel):
    name: str = Field(min_length=1, max_length=120)
    title: str | None = Field(default=None, max_length=160)
    email: str | None = Field(default=None, max_length=200)
    profile_url: str | None = Field(default=None, max_length=500)
    role: Role = "other"
    confidence: float = Field(default=0.5, ge=0, le=1)

    @field_validator("name", "title", mode="before")
    @classmethod
    def _clean(cls, value: object) -> object:
        return bound_text(value, 160) if isinstance(value, str) else value


class ContactResearchCandidates(BaseModel):
    candidates: list[ExtractedCandidate] = Field(default_factory=list, max_length=50)


_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
# "Jane Doe — Head of Talent" / "Jane Doe, Engineering Manager" / "Jane Doe - Recruiter"
_SEPARATOR = "(?:\u2014|\u2013|-|,|\\|)"  # em dash, en dash, hyphen, comma, bar
_PERSON_LINE = re.compile(
    r"^(?P<name>[A-Z][a-z]+(?: [A-Z][a-z'\-]+){1,2})\s*"
    + _SEPARATOR
    + r"\s*(?P<title>[A-Za-z][A-Za-z &/\-]{2,80})$"
)
_ROLE_HINTS: tuple[tuple[str, Role], ...] = (
    ("recruit", "recruiter"),
    ("talent", "recruiter"),
    ("people partner", "recruiter"),
    ("manager", "hiring_manager"),
    ("head of", "hiring_manager"),
    ("director", "hiring_manager"),
    ("lead", "hiring_manager"),
)


def _role_for(title: str) -> Role:
    lowered = title.lower()
    return next((role for hint, role in _ROLE_HINTS if hint in lowered), "other")


def extract_offline(page_text: str) -> ContactResearchCandidates:
    """Deterministic rules: a line naming a person with a title; an e-mail on that line or the next."""
    lines = [line.strip() for line in page_text.splitlines()]
    found: list[ExtractedCandidate] = []
    seen: set[str] = set()
    for index, line in enumerate(lines):
        match = _PERSON_LINE.match(line)
        if not match or match["name"] in seen:
            continue
        seen.add(match["name"])
        window = " ".join(lines[index : index + 2])
        email = _EMAIL.search(window)
        title = match["title"].strip()
        found.append(
            ExtractedCandidate(
                name=match["name"],
                title=title,
                email=email.group(0) if email else None,
                role=_role_for(title),
                confidence=0.7 if email else 0.55,
            )
        )
    return ContactResearchCandidates(candidates=found)


class OfflineContactExtractor:
    """An ``LlmPort`` for the extraction task that needs no network (the embedded default)."""

    model = "local-offline-contact-extractor"

    def structured(self, request: StructuredRequest[T]) -> StructuredResult[T]:
        if request.task != TASK:
            raise ValueError(f"offline contact extractor cannot do {request.task!r}")
        candidates = extract_offline(request.prompt)
        value = request.response_model.model_validate(candidates.model_dump())
        usage = LlmUsage(
            self.model,
            input_tokens=len(request.prompt) // 4,
            output_tokens=len(candidates.candidates) * 20,
            tenant_id=request.tenant_id,
        )
        return StructuredResult(value=value, usage=usage)
