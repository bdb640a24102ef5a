"""Bounding and cleaning untrusted text before it is stored or shown."""

from __future__ import annotations

import re

# C0 and C1 controls, DEL, and bidi overrides; tab/newline survive only when asked for.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_CONTROL_AND_NEWLINES = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
TRUNCATION_MARK = "…"


def bound_text(value: str, limit: int, *, keep_newlines: bool = False) -> str:
    """Strip control characters and cut to at most ``limit`` characters (marker included)."""
    if limit < 1:
        raise ValueError("limit must be positive")
    pattern = _CONTROL if keep_newlines else _CONTROL_AND_NEWLINES
    cleaned = pattern.sub("" if keep_newlines else " ", value)
    if not keep_newlines:
        cleaned = re.sub(r" {2,}", " ", cleaned).strip()
    if len(cleaned) <= limit:
        return cleaned
    return cleaned[: limit - len(TRUNCATION_MARK)] + TRUNCATION_MARK


_CODE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


def bounded_code(value: str, *, fallback: str = "unclassified") -> str:
    """An error or reason code: lower snake case, at most 64 characters; anything else is the fallback."""
    return value if _CODE.fullmatch(value) else fallback
