"""How relevant a profile fact is to one posting: the posting's requirements, weighed (ADR 0191).

A requirement is *met by* a fact when the fact's text names one of the requirement's terms, whole
word and case-insensitive.  A requirement's terms are its own keywords, plus every technology or skill
of the candidate's profile and every posting keyword that its text names ("5+ years of PostgreSQL"
→ ``postgresql``).  So relevance uses only words that are already in the profile or the posting: it
orders and selects the candidate's own facts and never adds one.

A fact's relevance is the sum, over the requirements it meets, of weight times tier multiplier (1.25 for
a must-have, 1.0 for a nice-to-have, as the requirement-fit formula weighs them).  A posting without
requirements falls back to its keywords, each a nice-to-have of weight 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jobctrl.materials.domain.evidence import normalise
from jobctrl.materials.domain.profile import CandidateProfile, TargetPosting

TIER_MULTIPLIER = {"must_have": 1.25, "nice_to_have": 1.0}


def mentions(text: str, term: str) -> bool:
    """Whole-word, case-insensitive: ``java`` is not in "javascript", ``c++`` is in "C++ services"."""
    needle = normalise(term)
    if not needle:
        return False
    return re.search(rf"(?<![\w+#]){re.escape(needle)}(?![\w+#])", normalise(text)) is not None


@dataclass(frozen=True)
class Need:
    """One requirement as tailoring weighs it: its words, its terms, its weight."""

    label: str
    terms: tuple[str, ...]
    weight: float

    def met_by(self, text: str) -> bool:
        return any(mentions(text, term) for term in self.terms)


def _vocabulary(profile: CandidateProfile, posting: TargetPosting) -> list[str]:
    words = [s for c in profile.skills for s in c.skills]
    words += [t for e in profile.experiences for t in e.technologies]
    words += list(posting.keywords)
    return list(dict.fromkeys(normalise(w) for w in words if w.strip()))


def needs_of(profile: CandidateProfile, posting: TargetPosting) -> list[Need]:
    vocabulary = _vocabulary(profile, posting)
    if not posting.requirements:
        return [Need(k, (normalise(k),), 1.0) for k in dict.fromkeys(posting.keywords) if k.strip()]
    found = []
    for requirement in posting.requirements:
        own = [normalise(k) for k in requirement.keywords if k.strip()]
        named = [w for w in vocabulary if mentions(requirement.text, w)]
        terms = tuple(dict.fromkeys((*own, *named)))
        if terms:
            weight = requirement.weight * TIER_MULTIPLIER.get(requirement.tier, 1.0)
            found.append(Need(requirement.text.strip()[:200], terms, weight))
    return found


def relevance(text: str, needs: list[Need]) -> float:
    return sum(need.weight for need in needs if need.met_by(text))
