"""The candidate profile as Materials reads it: facts with ids.

Every statement a tailored resume or cover letter may make must trace to one of these facts, so each
fact carries a stable id (letters, digits, ``_.:-``).  The orchestration context owns profile
*versioning*; Materials receives one version (``version``) and treats it as read-only evidence.

Fact kinds and the id a line cites:

* ``identity`` — the reserved id of the candidate's name, headline, email and location;
* a summary sentence (``SummarySentence.id``);
* an experience (``Experience.id``: employer, title, start/end as ``YYYY`` or ``YYYY-MM``, technologies);
* a bullet of an experience (``Bullet.id``);
* a skill category (``SkillCategory.id``: its name and skills);
* an education entry (``Education.id``).

Wire form is camelCase JSON (``CandidateProfile.from_builtins`` / ``to_builtins``).
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from jobctrl.kernel.ids import InvalidIdError, checked_id
from jobctrl.materials.domain.errors import InvalidPostingError, InvalidProfileError

IDENTITY_FACT_ID = "identity"
MAX_POSTING_TEXT = 12_000  # characters of posting text a prompt carries
_DATE = re.compile(r"^(19|20)\d{2}(-(0[1-9]|1[0-2]))?$")


class _Model(msgspec.Struct, frozen=True, kw_only=True, rename="camel", forbid_unknown_fields=True):
    pass


class SummarySentence(_Model, frozen=True):
    id: str
    text: str


class Bullet(_Model, frozen=True):
    id: str
    text: str


class Experience(_Model, frozen=True):
    id: str
    employer: str
    title: str
    start: str
    end: str | None = None  # None: current role
    location: str | None = None
    technologies: list[str] = []
    bullets: list[Bullet] = []


class SkillCategory(_Model, frozen=True):
    id: str
    name: str
    skills: list[str]


class Education(_Model, frozen=True):
    id: str
    institution: str
    degree: str
    year: str | None = None


class Link(_Model, frozen=True):
    label: str
    url: str


class CandidateProfile(_Model, frozen=True):
    version: int
    name: str
    headline: str
    email: str | None = None
    phone: str | None = None
    location: str | None = None
    links: list[Link] = []
    summary: list[SummarySentence] = []
    experiences: list[Experience] = []
    skills: list[SkillCategory] = []
    education: list[Education] = []

    @classmethod
    def from_builtins(cls, data: object) -> CandidateProfile:
        try:
            profile = msgspec.convert(data, cls)
        except msgspec.ValidationError as exc:
            raise InvalidProfileError(f"profile shape: {str(exc)[:200]}") from None
        profile.validate()
        return profile

    def to_builtins(self) -> dict[str, Any]:
        result: dict[str, Any] = msgspec.to_builtins(self)
        return result

    def validate(self) -> None:
        """Ids unique and safe, texts non-empty, dates well-formed (the invariants evidence relies on)."""
        if self.version < 1:
            raise InvalidProfileError("profile version must be >= 1")
        if not self.name.strip() or not self.headline.strip():
            raise InvalidProfileError("profile needs a name and a headline")
        seen = {IDENTITY_FACT_ID}
        for fact_id, text in self._facts():
            try:
                checked_id(fact_id)
            except InvalidIdError:
                raise InvalidProfileError(f"unsafe fact id {fact_id[:40]!r}") from None
            if fact_id in seen:
                raise InvalidProfileError(f"duplicate fact id {fact_id!r}")
            seen.add(fact_id)
            if not text.strip():
                raise InvalidProfileError(f"fact {fact_id!r} has no text")
        for exp in self.experiences:
            for when in (exp.start, exp.end):
                if when is not None and not _DATE.fullmatch(when):
                    raise InvalidProfileError(
                        f"experience {exp.id!r}: date {when[:20]!r} is not YYYY or YYYY-MM"
                    )

    def _facts(self) -> list[tuple[str, str]]:
        facts: list[tuple[str, str]] = [(s.id, s.text) for s in self.summary]
        for exp in self.experiences:
            facts.append((exp.id, f"{exp.title} {exp.employer}"))
            facts.extend((b.id, b.text) for b in exp.bullets)
        facts.extend((c.id, " ".join([c.name, *c.skills])) for c in self.skills)
        facts.extend((e.id, f"{e.degree} {e.institution}") for e in self.education)
        return facts

    def fact_ids(self) -> frozenset[str]:
        return frozenset({IDENTITY_FACT_ID, *(fid for fid, _ in self._facts())})

    def experience(self, experience_id: str) -> Experience | None:
        return next((e for e in self.experiences if e.id == experience_id), None)

    def all_skills(self) -> frozenset[str]:
        return frozenset(s.casefold() for c in self.skills for s in c.skills)


MAX_REQUIREMENTS = 60
MAX_REQUIREMENT_TEXT = 400


class PostingRequirement(_Model, frozen=True):
    """One requirement of the posting as Scoring extracted it: what tailoring orders and selects by."""

    text: str
    tier: str = "must_have"  # must_have | nice_to_have
    weight: float = 1.0
    keywords: list[str] = []


class TargetPosting(_Model, frozen=True):
    """What the materials are tailored to (from Enrichment/Scoring; handed in by orchestration)."""

    job_id: str
    role_title: str
    company: str
    keywords: list[str] = []
    # The posting's text (enriched, as text), bounded: what the model tailors to.
    description: str = ""
    # The posting's requirements (the current score's ledger), most important first or in posting order.
    requirements: list[PostingRequirement] = []

    @classmethod
    def from_builtins(cls, data: object) -> TargetPosting:
        """From the camelCase wire form (e.g. a Temporal activity input); validated."""
        try:
            posting = msgspec.convert(data, cls)
        except msgspec.ValidationError as exc:
            raise InvalidPostingError(f"posting shape: {str(exc)[:200]}") from None
        posting.validate()
        return posting

    def validate(self) -> None:
        try:
            checked_id(self.job_id)
        except InvalidIdError:
            raise InvalidPostingError("posting job id is not a safe id") from None
        if not self.role_title.strip() or not self.company.strip():
            raise InvalidPostingError("posting needs a role title and a company")
        if len(self.description) > MAX_POSTING_TEXT:
            raise InvalidPostingError(f"posting text is limited to {MAX_POSTING_TEXT} characters")
        if len(self.requirements) > MAX_REQUIREMENTS:
            raise InvalidPostingError(f"a posting has at most {MAX_REQUIREMENTS} requirements")
        for requirement in self.requirements:
            if not requirement.text.strip() or len(requirement.text) > MAX_REQUIREMENT_TEXT:
                raise InvalidPostingError(f"a requirement is 1 to {MAX_REQUIREMENT_TEXT} characters")
            if requirement.tier not in ("must_have", "nice_to_have") or not 0 < requirement.weight <= 5:
                raise InvalidPostingError("a requirement's tier is must_have or nice_to_have, weight 0-5")
