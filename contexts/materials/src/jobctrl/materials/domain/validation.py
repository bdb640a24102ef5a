"""Validation issues: typed in code, rendered to bounded strings only for ``ResumeFailed``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from jobctrl.kernel.text import bound_text
from jobctrl.materials.domain.fabrication import ClaimKind


class IssueCode(StrEnum):
    SCHEMA_INVALID = "schema_invalid"
    UNKNOWN_EXPERIENCE = "unknown_experience"  # the model tried to add an experience
    DUPLICATE_EXPERIENCE = "duplicate_experience"
    UNKNOWN_SKILL_CATEGORY = "unknown_skill_category"  # the model tried to add a skill category
    DUPLICATE_SKILL_CATEGORY = "duplicate_skill_category"
    UNKNOWN_FACT = "unknown_fact"  # a line cites a fact the profile does not have
    MISATTRIBUTED_SOURCE = "misattributed_source"  # a bullet cites another job's achievement
    MALFORMED_TEXT = "malformed_text"
    DUPLICATE_LINE = "duplicate_line"
    FABRICATED_NUMBER = "fabricated_number"
    FABRICATED_DATE = "fabricated_date"
    FABRICATED_TITLE = "fabricated_title"
    FABRICATED_EMPLOYER = "fabricated_employer"
    FABRICATED_TECHNOLOGY = "fabricated_technology"


FABRICATION_CODES: dict[ClaimKind, IssueCode] = {
    ClaimKind.NUMBER: IssueCode.FABRICATED_NUMBER,
    ClaimKind.DATE: IssueCode.FABRICATED_DATE,
    ClaimKind.TITLE: IssueCode.FABRICATED_TITLE,
    ClaimKind.EMPLOYER: IssueCode.FABRICATED_EMPLOYER,
    ClaimKind.TECHNOLOGY: IssueCode.FABRICATED_TECHNOLOGY,
}


@dataclass(frozen=True)
class ValidationIssue:
    code: IssueCode
    where: str
    detail: str = ""

    def render(self) -> str:
        """``code@where: detail`` — bounded, control characters stripped (it lands in the log)."""
        text = f"{self.code.value}@{self.where}"
        if self.detail:
            text += f": {self.detail}"
        return bound_text(text, 160)
