"""JSON Resume (schema v1.0.0, https://jsonresume.org/schema) → the saved profile document.

The sections JobCtrl reads are typed (``basics``, ``work``, ``education``, ``skills``, ``projects``,
``certificates``, ``languages``); the others the schema defines (``volunteer``, ``awards``,
``publications``, ``interests``, ``references``, ``meta``) are accepted and not imported.  A field the
schema does not define is refused with its path (the schema tolerates extensions; JobCtrl does not
silently drop what a user wrote), as is a malformed value (a date that is not ISO 8601, a string
where a list belongs).

Ids are stable: derived from the content (``exp-<employer>-<start>``, ``<exp>-b<n>``, ``skills-<name>``,
``edu-<institution>``…), so importing the same file again is the same document and saves nothing.
An experience's ``technologies`` are the skill keywords its summary and highlights name.
JobCtrl's own extension, ``basics.workAuthorization`` (``countries``, ``requiresSponsorship``), fills
the document's ``workAuthorization``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError, field_validator

_ISO = re.compile(r"^(\d{4})(-(\d{2}))?(-(\d{2}))?")
_UNSAFE = re.compile(r"[^a-z0-9]+")
Str = Annotated[str, Field(max_length=2000)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Location(_Strict):
    address: Str | None = None
    postalCode: Str | None = None  # noqa: N815 (the schema's names)
    city: Str | None = None
    countryCode: Str | None = None  # noqa: N815
    region: Str | None = None


class SocialProfile(_Strict):
    network: Str | None = None
    username: Str | None = None
    url: Str | None = None


class WorkAuthorization(_Strict):
    countries: list[Str] = []
    requiresSponsorship: bool = False  # noqa: N815


class Basics(_Strict):
    name: Str
    label: Str | None = None
    image: Str | None = None
    email: Str | None = None
    phone: Str | None = None
    url: Str | None = None
    summary: Str | None = None
    location: Location | None = None
    profiles: list[SocialProfile] = []
    workAuthorization: WorkAuthorization | None = None  # noqa: N815 (JobCtrl's extension)


def _date(value: str | None) -> str | None:
    if value is None or value == "":
        return None
    match = _ISO.match(value)
    if match is None or len(value) not in (4, 7, 10):
        raise ValueError("must be an ISO 8601 date: YYYY, YYYY-MM or YYYY-MM-DD")
    return match.group(1) + (f"-{match.group(3)}" if match.group(3) else "")


class Work(_Strict):
    name: Str
    position: Str
    url: Str | None = None
    startDate: Str  # noqa: N815
    endDate: Str | None = None  # noqa: N815
    summary: Str | None = None
    description: Str | None = None
    highlights: list[Str] = []
    location: Str | None = None

    @field_validator("startDate", "endDate")
    @classmethod
    def _iso(cls, value: str | None) -> str | None:
        _date(value)
        return value


class EducationEntry(_Strict):
    institution: Str
    url: Str | None = None
    area: Str | None = None
    studyType: Str | None = None  # noqa: N815
    startDate: Str | None = None  # noqa: N815
    endDate: Str | None = None  # noqa: N815
    score: Str | None = None
    courses: list[Str] = []

    @field_validator("startDate", "endDate")
    @classmethod
    def _iso(cls, value: str | None) -> str | None:
        _date(value)
        return value


class Skill(_Strict):
    name: Str
    level: Str | None = None
    keywords: list[Str] = []


class ProjectEntry(_Strict):
    name: Str
    description: Str | None = None
    highlights: list[Str] = []
    keywords: list[Str] = []
    startDate: Str | None = None  # noqa: N815
    endDate: Str | None = None  # noqa: N815
    url: Str | None = None
    roles: list[Str] = []
    entity: Str | None = None
    type: Str | None = None


class Certificate(_Strict):
    name: Str
    date: Str | None = None
    issuer: Str | None = None
    url: Str | None = None


class LanguageEntry(_Strict):
    language: Str
    fluency: Str | None = None


class JsonResume(_Strict):
    schema_: Str | None = Field(default=None, alias="$schema")
    basics: Basics
    work: list[Work] = []
    volunteer: list[dict[str, JsonValue]] = []
    education: list[EducationEntry] = []
    awards: list[dict[str, JsonValue]] = []
    certificates: list[Certificate] = []
    publications: list[dict[str, JsonValue]] = []
    skills: list[Skill] = []
    languages: list[LanguageEntry] = []
    interests: list[dict[str, JsonValue]] = []
    references: list[dict[str, JsonValue]] = []
    projects: list[ProjectEntry] = []
    meta: dict[str, JsonValue] = {}


class InvalidJsonResume(ValueError):
    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{p}: {r}" for p, r in problems))


def looks_like_json_resume(data: object) -> bool:
    return isinstance(data, Mapping) and ("basics" in data or "work" in data)


def _slug(*parts: str) -> str:
    joined = "-".join(_UNSAFE.sub("-", p.casefold()).strip("-") for p in parts if p)
    return joined[:70].strip("-") or "item"


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s.strip()]


def _names(text: str, terms: list[str]) -> list[str]:
    lowered = text.casefold()
    return [t for t in terms if re.search(r"(?<![\w+#])" + re.escape(t.casefold()) + r"(?![\w+#])", lowered)]


def to_document(data: Mapping[str, Any]) -> dict[str, Any]:
    """The saved-document form of a JSON Resume, or ``InvalidJsonResume`` with every field path."""
    try:
        resume = JsonResume.model_validate(dict(data))
    except ValidationError as exc:
        raise InvalidJsonResume(
            [
                (".".join(str(p) for p in e["loc"]), e["msg"].removeprefix("Value error, "))
                for e in exc.errors()
            ]
        ) from None
    basics = resume.basics
    location = basics.location
    place = (
        ", ".join(p for p in (location.city, location.region, location.countryCode) if p) if location else ""
    )
    links = [{"label": "Website", "url": basics.url}] if basics.url else []
    links += [{"label": p.network or p.username or "Profile", "url": p.url} for p in basics.profiles if p.url]
    headline = basics.label or (resume.work[0].position if resume.work else "Candidate")
    contact = {
        "name": basics.name, "headline": headline, "email": basics.email, "phone": basics.phone,
        "location": place or None, "links": links,
    }  # fmt: skip
    terms = list(dict.fromkeys(k for s in resume.skills for k in (s.keywords or [s.name])))
    experience = []
    for work in resume.work:
        start = _date(work.startDate)
        assert start is not None
        exp_id = f"exp-{_slug(work.name, start)}"
        texts = [t for t in (work.summary, work.description) if t] + list(work.highlights)
        bullets = [{"id": f"{exp_id}-b{n}", "text": text} for n, text in enumerate(work.highlights, 1)]
        if not bullets and work.summary:
            bullets = [{"id": f"{exp_id}-b{n}", "text": t} for n, t in enumerate(_sentences(work.summary), 1)]
        experience.append(
            {
                "id": exp_id, "employer": work.name, "title": work.position, "start": start,
                "end": _date(work.endDate), "location": work.location,
                "technologies": _names(" ".join([work.position, *texts]), terms), "bullets": bullets,
            }
        )  # fmt: skip
    summary = [{"id": f"sum-{n}", "text": t} for n, t in enumerate(_sentences(basics.summary or ""), 1)]
    skills = [
        {"id": f"skills-{_slug(s.name)}", "name": s.name, "skills": s.keywords or [s.name]}
        for s in resume.skills
    ]
    education = [
        {
            "id": f"edu-{_slug(e.institution, e.studyType or '', e.area or '')}",
            "institution": e.institution,
            "degree": " ".join(p for p in (e.studyType, e.area) if p) or "Studies",
            "year": (_date(e.endDate) or "")[:4] or None,
        }
        for e in resume.education
    ]
    projects = [
        {
            "id": f"proj-{_slug(p.name)}", "name": p.name, "description": p.description, "url": p.url,
            "technologies": p.keywords,
        }
        for p in resume.projects
    ]  # fmt: skip
    certifications = [
        {
            "id": f"cert-{_slug(c.name)}",
            "name": c.name,
            "issuer": c.issuer,
            "year": (_date(c.date) or "")[:4] or None,
        }
        for c in resume.certificates
    ]
    languages = [
        {"id": f"lang-{_slug(entry.language)}", "language": entry.language, "fluency": entry.fluency}
        for entry in resume.languages
    ]
    document: dict[str, Any] = {
        "contact": contact, "summary": summary, "experience": experience, "skills": skills,
        "education": education, "projects": projects, "certifications": certifications,
        "languages": languages,
    }  # fmt: skip
    if basics.workAuthorization is not None:
        document["workAuthorization"] = basics.workAuthorization.model_dump()
    cleaned: dict[str, Any] = _without_empty(document)
    return cleaned


def _without_empty(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_empty(v) for k, v in value.items() if v not in (None, "", [], {})}
    if isinstance(value, list):
        return [_without_empty(v) for v in value]
    return value


def assign_missing_ids(document: Mapping[str, Any]) -> dict[str, Any]:
    """The project's own document with an id given to every entry that has none (the same stable
    scheme as a JSON Resume import); entries that have ids keep them."""
    doc: dict[str, Any] = {k: v for k, v in document.items()}

    def entries(section: str) -> list[Any]:
        value = doc.get(section)
        return [dict(e) if isinstance(e, Mapping) else e for e in value] if isinstance(value, list) else []

    summary = entries("summary")
    for n, entry in enumerate(summary, 1):
        if isinstance(entry, dict):
            entry.setdefault("id", f"sum-{n}")
    experience = entries("experience")
    for entry in experience:
        if not isinstance(entry, dict):
            continue
        if "id" not in entry:
            entry["id"] = f"exp-{_slug(str(entry.get('employer', '')), str(entry.get('start', '')))}"
        bullets = [dict(b) if isinstance(b, Mapping) else b for b in entry.get("bullets", []) or []]
        for n, bullet in enumerate(bullets, 1):
            if isinstance(bullet, dict):
                bullet.setdefault("id", f"{entry['id']}-b{n}")
        if bullets:
            entry["bullets"] = bullets
    prefixes = {
        "skills": ("skills", "name"), "education": ("edu", "institution"), "projects": ("proj", "name"),
        "certifications": ("cert", "name"), "languages": ("lang", "language"),
    }  # fmt: skip
    for section, (prefix, key) in prefixes.items():
        items = entries(section)
        for entry in items:
            if isinstance(entry, dict) and "id" not in entry:
                entry["id"] = f"{prefix}-{_slug(str(entry.get(key, '')))}"
        if section in doc:
            doc[section] = items
    if "summary" in doc:
        doc["summary"] = summary
    if "experience" in doc:
        doc["experience"] = experience
    return doc
