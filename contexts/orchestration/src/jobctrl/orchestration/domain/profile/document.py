"""The saved profile document, typed: what ``PATCH /v1/profile`` and ``jobctrl profile import`` may save.

A save is validated here before anything is appended (the ``save_profile`` use case), so an unknown
or malformed field is refused with every field path at once and never reaches scoring or tailoring.

Sections (camelCase keys, as saved):

* ``contact`` — ``name``, ``headline``, ``email``, ``phone``, ``location``, ``links`` (``label``, ``url``);
* ``summary`` — sentences with ids; ``experience`` — roles with ids, ``YYYY``/``YYYY-MM`` dates,
  technologies and bullets with ids; ``skills`` — categories with ids; ``education`` — entries with ids;
* ``workAuthorization`` — ``countries`` (ISO 3166-1 alpha-2 codes, or ``EU``) the candidate may work
  in without sponsorship, and ``requiresSponsorship`` elsewhere;
* ``projects``, ``certifications``, ``languages`` — entries with ids; ``preferences``, ``targets``,
  ``style``, ``template`` — free JSON objects (read by no scoring or tailoring rule).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel

from jobctrl.kernel.text import unstorable_text


def _matching(pattern: str, expected: str) -> AfterValidator:
    compiled = re.compile(pattern)

    def check(value: str) -> str:
        if not compiled.fullmatch(value):
            raise ValueError(f"must be {expected}")
        return value

    return AfterValidator(check)


FactId = Annotated[
    str, _matching(r"[A-Za-z0-9][A-Za-z0-9_.:\-]{0,79}", "an id of letters, digits and _.:- (at most 80)")
]
Text = Annotated[str, Field(min_length=1, max_length=2000)]
Short = Annotated[str, Field(min_length=1, max_length=300)]
When = Annotated[str, _matching(r"(19|20)\d{2}(-(0[1-9]|1[0-2]))?", "a date as YYYY or YYYY-MM")]
Year = Annotated[str, _matching(r"(19|20)\d{2}", "a year as YYYY")]
Country = Annotated[str, _matching(r"[A-Z]{2}|EU", "an ISO 3166-1 alpha-2 country code (GB, US, DE) or EU")]
Email = Annotated[str, Field(max_length=254), _matching(r"[^@\s]+@[^@\s]+\.[^@\s]+", "an email address")]
Phone = Annotated[str, _matching(r"[0-9+()./ \-]{5,40}", "a phone number (digits, spaces, + ( ) . / -)")]
_URL = re.compile(r"^(https?://|mailto:)\S+$")


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True, frozen=True)


class Link(_Part):
    label: Short
    url: Annotated[str, Field(max_length=500)]

    @field_validator("url")
    @classmethod
    def _url(cls, value: str) -> str:
        if not _URL.match(value):
            raise ValueError("must be an http(s) or mailto: URL")
        return value


class Contact(_Part):
    name: Short
    headline: Short
    email: Email | None = None
    phone: Phone | None = None
    location: Short | None = None
    links: list[Link] = Field(default_factory=list, max_length=20)


class Sentence(_Part):
    id: FactId
    text: Text


class Experience(_Part):
    id: FactId
    employer: Short
    title: Short
    start: When
    end: When | None = None
    location: Short | None = None
    technologies: list[Short] = Field(default_factory=list, max_length=60)
    bullets: list[Sentence] = Field(default_factory=list, max_length=30)


class SkillCategory(_Part):
    id: FactId
    name: Short
    skills: list[Short] = Field(min_length=1, max_length=80)


class Education(_Part):
    id: FactId
    institution: Short
    degree: Short
    year: Year | None = None


class WorkAuthorization(_Part):
    countries: list[Country] = Field(default_factory=list, max_length=60)
    requires_sponsorship: bool = False


class Project(_Part):
    id: FactId
    name: Short
    description: Text | None = None
    url: Annotated[str, Field(max_length=500)] | None = None
    technologies: list[Short] = Field(default_factory=list, max_length=40)


class Certification(_Part):
    id: FactId
    name: Short
    issuer: Short | None = None
    year: Year | None = None


class Language(_Part):
    id: FactId
    language: Short
    fluency: Short | None = None


class ProfileDocument(_Part):
    contact: Contact | None = None
    summary: list[Sentence] = Field(default_factory=list, max_length=20)
    experience: list[Experience] = Field(default_factory=list, max_length=60)
    skills: list[SkillCategory] = Field(default_factory=list, max_length=40)
    education: list[Education] = Field(default_factory=list, max_length=20)
    work_authorization: WorkAuthorization | None = None
    projects: list[Project] = Field(default_factory=list, max_length=40)
    certifications: list[Certification] = Field(default_factory=list, max_length=40)
    languages: list[Language] = Field(default_factory=list, max_length=20)
    preferences: dict[str, JsonValue] = Field(default_factory=dict)
    targets: dict[str, JsonValue] = Field(default_factory=dict)
    style: dict[str, JsonValue] = Field(default_factory=dict)
    template: dict[str, JsonValue] | str | None = None

    @model_validator(mode="after")
    def _ids_unique(self) -> ProfileDocument:
        seen: set[str] = {"identity"}
        ids = [s.id for s in self.summary]
        for exp in self.experience:
            ids.append(exp.id)
            ids.extend(b.id for b in exp.bullets)
        ids += [c.id for c in self.skills] + [e.id for e in self.education]
        ids += [p.id for p in self.projects] + [c.id for c in self.certifications]
        ids += [lang.id for lang in self.languages]
        for fact_id in ids:
            if fact_id in seen:
                raise ValueError(f"fact id {fact_id!r} is used twice (ids must be unique)")
            seen.add(fact_id)
        for exp in self.experience:
            if exp.end is not None and exp.end < exp.start:
                raise ValueError(f"experience {exp.id!r} ends ({exp.end}) before it starts ({exp.start})")
        return self


def field_problems(content: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Every problem of ``content`` as ``(field path, reason)``; empty when it is a valid document."""
    found = unstorable_text(dict(content))
    if found is not None:
        return [(found, "a NUL or a lone surrogate cannot be stored")]
    try:
        ProfileDocument.model_validate(dict(content))
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            path = ".".join(str(p) for p in error["loc"]) or "(document)"
            problems.append((path, error["msg"].removeprefix("Value error, ")))
        return problems
    return []
