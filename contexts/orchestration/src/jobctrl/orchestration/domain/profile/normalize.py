"""Normalizing a profile so that only genuine changes count as changes.

Strings are stripped and their inner whitespace collapsed, empty values dropped, keys sorted; the
digest of the normalized form decides whether a save changed anything.  ``style`` and ``template``
are presentation sections: changing only them never restarts preparation.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any, Final

from jobctrl.kernel.errors import JobCtrlError
from jobctrl.orchestration.domain.profile.document import field_problems

FACT_SECTIONS: Final[frozenset[str]] = frozenset(
    {
        "contact", "summary", "experience", "education", "skills", "projects", "certifications",
        "languages", "preferences", "targets", "workAuthorization",
    }
)  # fmt: skip
PRESENTATION_SECTIONS: Final[frozenset[str]] = frozenset({"style", "template"})
_SPACES = re.compile(r"\s+")


class InvalidProfile(JobCtrlError):
    """The document does not validate; ``problems`` lists each ``(field path, reason)``."""

    code = "invalid_profile"
    retryable = False

    def __init__(self, message: str = "", problems: list[tuple[str, str]] | None = None) -> None:
        self.problems = problems or []
        if not message:
            shown = "; ".join(f"{path}: {reason}" for path, reason in self.problems[:20])
            more = len(self.problems) - 20
            message = f"invalid profile: {shown}" + (f" (and {more} more)" if more > 0 else "")
        super().__init__(message)


def _normalize(value: Any) -> Any:
    if isinstance(value, str):
        return _SPACES.sub(" ", value).strip()
    if isinstance(value, Mapping):
        items = {str(k): _normalize(v) for k, v in value.items()}
        return {k: v for k, v in sorted(items.items()) if v not in ("", None, [], {})}
    if isinstance(value, list | tuple):
        return [v for v in (_normalize(x) for x in value) if v not in ("", None, [], {})]
    if value is None or isinstance(value, bool | int | float):
        return value
    raise InvalidProfile(f"unsupported value of type {type(value).__name__}")


def normalize_profile(content: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(content) - FACT_SECTIONS - PRESENTATION_SECTIONS)
    if unknown:
        raise InvalidProfile(
            f"unknown profile sections: {', '.join(s[:40] for s in unknown)}",
            [(s[:40], "not a profile section") for s in unknown],
        )
    problems = field_problems(content)
    if problems:
        raise InvalidProfile(problems=problems)
    normalized: dict[str, Any] = _normalize(content)
    return normalized


def digest(content: Mapping[str, Any], sections: frozenset[str]) -> str:
    subset = {k: v for k, v in content.items() if k in sections}
    return hashlib.sha256(json.dumps(subset, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def changed_sections(
    before: Mapping[str, Any], after: Mapping[str, Any], sections: frozenset[str]
) -> list[str]:
    return sorted(s for s in sections if before.get(s) != after.get(s))
