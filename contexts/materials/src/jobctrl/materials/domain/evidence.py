"""Evidence: the profile text a line may draw on, looked up by the fact ids the line cites."""

from __future__ import annotations

import re
from dataclasses import dataclass

from jobctrl.materials.domain.profile import IDENTITY_FACT_ID, CandidateProfile

_MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]


def _date_words(when: str | None) -> list[str]:
    """``2019-03`` is evidence for "2019", "March 2019" and "Mar 2019"."""
    if when is None:
        return []
    year, _, month = when.partition("-")
    words = [year]
    if month:
        name = _MONTHS[int(month) - 1]
        words += [f"{name} {year}", f"{name[:3]} {year}"]
    return words


@dataclass(frozen=True)
class Evidence:
    """Normalised evidence text of a set of facts, plus the titles and employers among them."""

    text: str
    titles: frozenset[str]
    employers: frozenset[str]

    def mentions(self, phrase: str) -> bool:
        """Whole-word, case-insensitive occurrence of ``phrase`` in the evidence."""
        needle = re.escape(normalise(phrase))
        return re.search(rf"(?<![\w+#]){needle}(?![\w+#])", self.text) is not None


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u2019", "'")).strip().casefold()


class EvidenceIndex:
    """Maps each fact id of one profile version to the text that fact asserts."""

    def __init__(self, profile: CandidateProfile) -> None:
        self.profile = profile
        texts: dict[str, list[str]] = {
            IDENTITY_FACT_ID: [p for p in (profile.name, profile.headline, profile.location) if p]
        }
        titles: dict[str, str] = {}
        employers: dict[str, str] = {}
        self.owner: dict[str, str] = {}  # bullet id -> experience id (bullets stay with their job)
        for sentence in profile.summary:
            texts[sentence.id] = [sentence.text]
        for exp in profile.experiences:
            texts[exp.id] = [
                exp.title,
                exp.employer,
                exp.location or "",
                *exp.technologies,
                *_date_words(exp.start),
                *_date_words(exp.end),
            ]
            titles[exp.id] = exp.title
            employers[exp.id] = exp.employer
            for bullet in exp.bullets:
                texts[bullet.id] = [bullet.text]
                self.owner[bullet.id] = exp.id
        for category in profile.skills:
            texts[category.id] = [category.name, *category.skills]
        for edu in profile.education:
            texts[edu.id] = [edu.degree, edu.institution, edu.year or ""]
        self._texts = texts
        self._titles = titles
        self._employers = employers

    def __contains__(self, fact_id: object) -> bool:
        return fact_id in self._texts

    def for_profile(self) -> Evidence:
        """Every fact of the profile at once (a message that cites no fact ids, ADR 0275)."""
        return self.for_facts(list(self._texts))

    def for_facts(self, fact_ids: list[str] | tuple[str, ...]) -> Evidence:
        known = [f for f in fact_ids if f in self._texts]
        return Evidence(
            text=" \n ".join(normalise(t) for f in known for t in self._texts[f] if t),
            titles=frozenset(normalise(self._titles[f]) for f in known if f in self._titles),
            employers=frozenset(normalise(self._employers[f]) for f in known if f in self._employers),
        )
