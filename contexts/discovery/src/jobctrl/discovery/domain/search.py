"""What the user is looking for: the ``[search]`` section of ``config.toml`` as a typed value.

Every discovery family applies the same filter to what it observed, so a posting is kept or dropped
for the same reasons whichever board it came from.  Matching is case-insensitive on words and phrases:

* ``keywords`` — at least one must appear in the title or the description (none: any posting);
* ``locations`` — at least one must appear in the location (none: anywhere); a remote posting passes
  a location filter when ``remote`` is not ``"exclude"``;
* ``remote`` — ``"any"`` (default), ``"only"`` (the posting must say remote) or ``"exclude"``;
* ``seniority`` — at least one level word (``senior``, ``staff``, ``lead``…) must appear in the title
  (none: any level);
* ``exclusions`` — a posting whose title contains any of them is dropped (``"intern"``, ``"manager"``).

The value is plain and immutable; the runtime builds it from the validated configuration and hands it
to discovery.  ``SearchFilters()`` accepts every posting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

RemotePreference = Literal["any", "only", "exclude"]
REMOTE_PREFERENCES: tuple[RemotePreference, ...] = ("any", "only", "exclude")
MAX_TERMS = 50
MAX_TERM_LENGTH = 80
_REMOTE = re.compile(r"\b(remote|anywhere|work from home|distributed)\b", re.IGNORECASE)


def _term_pattern(term: str) -> re.Pattern[str]:
    # Whole words/phrases: "go" must not match "google", "c++" keeps its symbols.
    return re.compile(r"(?<![\w])" + re.escape(term.casefold()) + r"(?![\w])")


class InvalidSearchFilters(ValueError):
    """A term is empty, too long, or there are too many of them."""


@dataclass(frozen=True, slots=True)
class SearchFilters:
    keywords: tuple[str, ...] = ()
    locations: tuple[str, ...] = ()
    remote: RemotePreference = "any"
    seniority: tuple[str, ...] = ()
    exclusions: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.remote not in REMOTE_PREFERENCES:
            raise InvalidSearchFilters(f"remote must be one of {', '.join(REMOTE_PREFERENCES)}")
        for name in ("keywords", "locations", "seniority", "exclusions"):
            terms: tuple[str, ...] = getattr(self, name)
            if len(terms) > MAX_TERMS:
                raise InvalidSearchFilters(f"{name}: at most {MAX_TERMS} terms")
            for term in terms:
                if not term.strip():
                    raise InvalidSearchFilters(f"{name}: empty term")
                if len(term) > MAX_TERM_LENGTH:
                    raise InvalidSearchFilters(f"{name}: a term is longer than {MAX_TERM_LENGTH} characters")

    @property
    def accepts_everything(self) -> bool:
        return self == SearchFilters()

    def accepts(self, *, title: str, location: str = "", description: str = "") -> bool:
        """Whether a posting with this title, location and description is one the user wants."""
        title_f, location_f = title.casefold(), location.casefold()
        remote = bool(_REMOTE.search(location) or _REMOTE.search(title))
        if any(_term_pattern(t.strip()).search(title_f) for t in self.exclusions):
            return False
        if self.remote == "only" and not remote:
            return False
        if self.remote == "exclude" and remote:
            return False
        if self.locations and not (
            any(_term_pattern(loc.strip()).search(location_f) for loc in self.locations)
            or (remote and self.remote != "exclude")
        ):
            return False
        if self.seniority and not any(_term_pattern(s.strip()).search(title_f) for s in self.seniority):
            return False
        if self.keywords:
            haystack = f"{title_f}\n{description.casefold()}"
            if not any(_term_pattern(k.strip()).search(haystack) for k in self.keywords):
                return False
        return True
