"""Timestamps in read models: ISO-8601 UTC with milliseconds and ``Z``, the wire form."""

from __future__ import annotations

from jobctrl.kernel.clock import isoformat, parse_instant


def utc_or_none(value: str | None) -> str | None:
    """Normalise an event's time; an unparseable value becomes ``None`` rather than raw text."""
    if value is None:
        return None
    if len(value) == 24 and value.endswith("Z") and value[10] == "T":
        return value  # already in wire form: the common case, kept cheap
    try:
        return isoformat(parse_instant(value))
    except ValueError:
        return None
