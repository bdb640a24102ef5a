"""Validation of five-field cron expressions (minute hour day-of-month month day-of-week)."""

from __future__ import annotations

import re

_FIELDS: tuple[tuple[str, int, int], ...] = (
    ("minute", 0, 59),
    ("hour", 0, 23),
    ("day of month", 1, 31),
    ("month", 1, 12),
    ("day of week", 0, 7),
)
_TERM = re.compile(r"^(\*|\d{1,2}(?:-\d{1,2})?)(?:/(\d{1,2}))?$")


def validate_cron(expression: str) -> str:
    """Return the normalized expression or raise ``ValueError`` naming the bad field."""
    parts = expression.split()
    if len(parts) != len(_FIELDS):
        raise ValueError(f"cron needs 5 fields, got {len(parts)}")
    for part, (name, low, high) in zip(parts, _FIELDS, strict=True):
        for term in part.split(","):
            match = _TERM.fullmatch(term)
            if match is None:
                raise ValueError(f"cron {name} field {part!r} is not valid")
            span, step = match.group(1), match.group(2)
            if step is not None and int(step) == 0:
                raise ValueError(f"cron {name} step cannot be 0")
            if span != "*":
                bounds = [int(x) for x in span.split("-")]
                if any(not low <= b <= high for b in bounds) or bounds != sorted(bounds):
                    raise ValueError(f"cron {name} field {part!r} is outside {low}-{high}")
    return " ".join(parts)
