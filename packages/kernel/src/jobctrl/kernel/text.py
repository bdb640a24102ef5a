"""Bounding and cleaning untrusted text before it is stored or shown."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from jobctrl.kernel.html import POSTING, html_text

# C0 and C1 controls, DEL, and bidi overrides; tab/newline survive only when asked for.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_CONTROL_AND_NEWLINES = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_SPACES = re.compile(" {2,}")
TRUNCATION_MARK = "…"


def bound_text(value: str, limit: int, *, keep_newlines: bool = False) -> str:
    """Strip control characters and cut to at most ``limit`` characters (marker included)."""
    if limit < 1:
        raise ValueError("limit must be positive")
    # Already clean (the common case, on the read models' rebuild path): no control, format or
    # separator character but the space (``isprintable``), no run of spaces, no outer space, short.
    printable = value.isprintable()
    if (
        printable
        and len(value) <= limit
        and (keep_newlines or ("  " not in value and value == value.strip()))
    ):
        return value
    if printable:
        # Every character either pattern removes is unprintable (controls, bidi formats), so there
        # is nothing for it to find (ADR 0416).
        cleaned = value
    else:
        pattern = _CONTROL if keep_newlines else _CONTROL_AND_NEWLINES
        cleaned = pattern.sub("" if keep_newlines else " ", value)
    if not keep_newlines:
        if "  " in cleaned:
            cleaned = _SPACES.sub(" ", cleaned)
        cleaned = cleaned.strip()
    if len(cleaned) <= limit:
        return cleaned
    return cleaned[: limit - len(TRUNCATION_MARK)] + TRUNCATION_MARK


_CODE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


def bounded_code(value: str, *, fallback: str = "unclassified") -> str:
    """An error or reason code: lower snake case, at most 64 characters; anything else is the fallback."""
    return value if _CODE.fullmatch(value) else fallback


_TAG = re.compile(r"<[A-Za-z/!][^>]*>")


def plain_text(value: str) -> str:
    """Posting text as text: HTML (raw or entity-escaped, as Greenhouse's ``content``) reduced to its
    text with one line per block and ``- `` before list items; text without tags is returned as is."""
    candidate = value
    if not _TAG.search(candidate) and _TAG.search(unescape(candidate)):
        candidate = unescape(candidate)  # entity-escaped markup
    if not _TAG.search(candidate):
        return value

    return html_text(candidate, POSTING)


_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def unstorable_text(value: Any, where: str = "") -> str | None:
    """Where in ``value`` (a JSON value) a string holds a NUL or a lone surrogate, or ``None``.

    Neither survives storage: a lone surrogate cannot be encoded as UTF-8 (SQLite and PostgreSQL both
    refuse it) and PostgreSQL text and JSONB refuse NUL.  Used by every request body and reusable by
    any other intake of the same documents (a profile import, say)."""
    if isinstance(value, str):
        return where or "value" if _UNSTORABLE.search(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            inner = f"{where}.{key}" if where else str(key)
            if isinstance(key, str) and _UNSTORABLE.search(key):
                return f"{where}.<key>" if where else "<key>"
            found = unstorable_text(item, inner)
            if found is not None:
                return found
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            found = unstorable_text(item, f"{where}[{index}]" if where else f"[{index}]")
            if found is not None:
                return found
    return None
