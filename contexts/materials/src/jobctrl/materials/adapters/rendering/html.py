"""Render accepted documents to self-contained HTML (Jinja2, autoescaped, strict undefined).

The page size is the user's ``[materials] paper_size`` (Letter or A4), one value for the resume and
the cover letter alike; a resume theme chooses its template and margin.  Cover letters are serif
paragraphs with 0.7 in margins.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from jobctrl.materials.domain.documents import CoverLetter, TailoredResume
from jobctrl.materials.domain.errors import InvalidPostingError


class PageSize(StrEnum):
    """CSS ``@page`` size keywords (case-insensitive in CSS), spelt as ``[materials] paper_size``."""

    LETTER = "letter"
    A4 = "a4"


@dataclass(frozen=True)
class ResumeTheme:
    theme_id: str
    template: str
    margin: str = "14mm"


THEMES: dict[str, ResumeTheme] = {
    "classic": ResumeTheme("classic", "resume_classic.html.j2"),
}
DEFAULT_THEME = "classic"
COVER_LETTER_TEMPLATE = "cover_letter.html.j2"


@cache
def _environment() -> Environment:
    """One environment per process: templates are compiled once (rendering is thread-safe)."""
    return Environment(
        loader=PackageLoader("jobctrl.materials.adapters.rendering", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def theme(theme_id: str) -> ResumeTheme:
    try:
        return THEMES[theme_id]
    except KeyError:
        raise InvalidPostingError(f"unknown resume theme {theme_id[:40]!r}") from None


def resume_html(
    resume: TailoredResume, theme_id: str = DEFAULT_THEME, page_size: PageSize = PageSize.LETTER
) -> str:
    chosen = theme(theme_id)
    return (
        _environment()
        .get_template(chosen.template)
        .render(resume=resume, theme=chosen, page_size=PageSize(page_size).value)
    )


def cover_letter_html(letter: CoverLetter, name: str, page_size: PageSize = PageSize.LETTER) -> str:
    return (
        _environment()
        .get_template(COVER_LETTER_TEMPLATE)
        .render(letter=letter, name=name, page_size=PageSize(page_size).value)
    )
