"""The accepted documents, stored as JSON artifacts: every rendered line with its provenance.

A ``Line`` is one rendered line and its provenance record: the fact ids it traces to and whether the
text was copied from the profile (``profile``), written by the model (``model``) or is fixed template
wording (``template``).  ``provenance()`` lists them in render order; ``BulletProvenanceRecorded`` counts
them and the artifact holds them, so the record of a generation is content-addressed with it.
"""

from __future__ import annotations

from enum import StrEnum

import msgspec


class Origin(StrEnum):
    PROFILE = "profile"
    MODEL = "model"
    TEMPLATE = "template"


class _Doc(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    pass


class Line(_Doc, frozen=True):
    line_id: str
    text: str
    fact_ids: list[str]
    origin: Origin


class ResumeExperience(_Doc, frozen=True):
    experience_id: str
    header: Line  # "Title — Employer", copied from the profile
    dates: str
    bullets: list[Line]


class ClaimLink(_Doc, frozen=True):
    requirement: str
    fact_ids: list[str]


class TailoredResume(_Doc, frozen=True):
    job_id: str
    profile_version: int
    identity: list[Line]
    summary: list[Line]
    experiences: list[ResumeExperience]
    skills: list[Line]
    education: list[Line]
    claim_mappings: list[ClaimLink]

    def provenance(self) -> list[Line]:
        lines = [*self.identity, *self.summary]
        for exp in self.experiences:
            lines += [exp.header, *exp.bullets]
        return [*lines, *self.skills, *self.education]


class CoverLetter(_Doc, frozen=True):
    job_id: str
    profile_version: int
    resume_artifact_id: str
    role_title: str
    company: str
    salutation: str
    paragraphs: list[Line]
    closing: list[Line]
    # The letterhead (name, then email · phone, then links: all from the profile) and the date the
    # letter was written, from the use case's clock.  Letters written before these existed have none.
    header: list[Line] = []
    dated: str = ""

    def provenance(self) -> list[Line]:
        return [*self.header, *self.paragraphs, *self.closing]


def encode(document: TailoredResume | CoverLetter) -> bytes:
    """Canonical bytes (sorted keys) so the same document always has the same digest and id."""
    return msgspec.json.encode(msgspec.to_builtins(document), order="sorted")


def decode_resume(data: bytes) -> TailoredResume:
    return msgspec.json.decode(data, type=TailoredResume)


def decode_cover_letter(data: bytes) -> CoverLetter:
    return msgspec.json.decode(data, type=CoverLetter)
