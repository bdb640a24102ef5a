"""Content duplicates across sources: an exact fingerprint and description-shingle similarity.

Both only count when the employer name is genuine: two "Confidential" postings with the same text are
not evidence of one job.
"""

from __future__ import annotations

import hashlib
import html
import re

SHINGLE_SIZE = 5
MIN_SHINGLE_TOKENS = 80
SHINGLE_JACCARD_THRESHOLD = 0.83

_TAGS = re.compile(r"<[^>]+>")
_NON_WORD = re.compile(r"[^\w]+")
_PLACEHOLDER_NAMES = frozenset(
    {
        "",
        "unknown",
        "n/a",
        "na",
        "none",
        "confidential",
        "confidential company",
        "stealth",
        "stealth startup",
        "company",
        "employer",
        "hiring company",
        "undisclosed",
        "private",
    }
)


def tokens(text: str) -> list[str]:
    plain = _TAGS.sub(" ", html.unescape(text)).lower()
    return [t for t in _NON_WORD.split(plain) if t]


def normalized(text: str) -> str:
    return " ".join(tokens(text))


# Compared after the same normalization as the candidate ("N/A" and "n/a" both become "n a").
_PLACEHOLDER_EMPLOYERS = frozenset(normalized(name) for name in _PLACEHOLDER_NAMES)


def is_genuine_employer(name: str) -> bool:
    key = normalized(name)
    return key not in _PLACEHOLDER_EMPLOYERS and len(key) >= 2


def content_fingerprint(title: str, company: str, description: str) -> str:
    joined = "\x1f".join((normalized(title), normalized(company), normalized(description)))
    return hashlib.sha256(joined.encode()).hexdigest()


def shingles(description: str) -> frozenset[str] | None:
    """5-token shingles, or None when the description is too short (< 80 tokens) to compare."""
    words = tokens(description)
    if len(words) < MIN_SHINGLE_TOKENS:
        return None
    return frozenset(" ".join(words[i : i + SHINGLE_SIZE]) for i in range(len(words) - SHINGLE_SIZE + 1))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = len(a | b)
    return len(a & b) / union if union else 0.0
