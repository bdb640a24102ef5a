"""Render accepted documents to self-contained HTML (Jinja2, autoescaped, strict undefined).

Resume themes declare their page size: A4 by default, Letter when the theme asks for it.  Cover
letters are serif paragraphs on Letter with 0.7 in margins.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from jobctrl.materials.documents import CoverLetter, TailoredResume
from jobctrl.materials.errors import InvalidPostingError


class PageSize(StrEnum):
    A4 = "A4"
    LETTER = "Letter"


@dataclass(frozen=True)
class ResumeTheme:
    theme_id: str
    template: str
    page_size: PageSize = PageSize.A4
    margin: str = "14mm"


THEMES: dict[str, ResumeTheme] = {
    "classic": ResumeTheme("classic", "resume_classic.html.j2"),
    "classic-letter": ResumeTheme("classic-letter", "resume_classic.html.j2", PageSize.LETTER, "0.6in"),
}
DEFAULT_THEME = "classic"
COVER_LETTER_TEMPLATE = "cover_letter.html.j2"


@cache
def _environment() -> Environment:
    """One environment per process: templates are compiled once (rendering is thread-safe)."""
    return Environment(
        loader=PackageLoader("jobctrl.materials.rendering", "templates"),
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


def resume_html(resume: TailoredResume, theme_id: str = DEFAULT_THEME) -> str:
    chosen = theme(theme_id)
    return _environment().get_template(chosen.template).render(resume=resume, theme=chosen)


def cover_letter_html(letter: CoverLetter, name: str) -> str:
    return _environment().get_template(COVER_LETTER_TEMPLATE).render(letter=letter, name=name)
