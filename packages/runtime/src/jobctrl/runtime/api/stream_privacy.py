"""What of an event may go out on ``/v1/events/stream`` (ADR 0104): an allowlist, never a denylist.

The stream tells a dashboard *that* something happened — event type, position, ids, versions,
codes, counts — and the dashboard fetches what it shows through the read routes. So a frame's
payload keeps only:

* keys shaped like identifiers, versions, positions or attempts (``jobId``, ``profileVersion``,
  ``generation``, ...), and a short list of code fields (``stage``, ``status``, ``decision``, ...);
* values that are numbers, booleans, or id/code-shaped strings (no spaces, ``@``, ``/`` or ``+``;
  at most 100 characters), or bounded lists of those;
* for events that carry personal data (the profile, contacts and research candidates, resumes and
  cover letters, applications and their e-mail), identifiers and versions only.

Everything else — names, e-mails, phones, URLs, free text, nested documents, sealed values — is
dropped. This is the same rule as ``jobctrl.orchestration.privacy`` applies to run summaries and
step details.
"""

from __future__ import annotations

import re
from typing import Any, Final

MAX_LIST_ITEMS: Final = 20
_SAFE_VALUE: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:\-]{0,99}$")
_IDENTIFIER_KEY: Final = re.compile(
    r"^(?:[a-z][A-Za-z0-9]*(?:Id|Ids|Key|Version|Generation|Position)|version|generation|attempt|attemptNumber)$"
)
CODE_KEYS: Final[frozenset[str]] = frozenset(
    {
        "stage", "stages", "status", "state", "phase", "outcome", "decision", "kind", "trigger", "reasonCode",
        "errorCode", "code", "source", "sourceKind", "artifactType", "workflowType", "family", "dryRun",
        "retryable", "count", "total", "newJobs", "existingJobs", "filteredJobs", "recoveredUnits",
    }
)  # fmt: skip
PERSONAL_PREFIXES: Final[tuple[str, ...]] = (
    "Profile", "Contact", "Resume", "CoverLetter", "Email", "Application", "Apply", "Tailor", "Tailored",
    "Materials", "Digest", "OutcomeSuggestion", "RepeatApplication",
)  # fmt: skip


def carries_personal_data(event_type: str) -> bool:
    return event_type.startswith(PERSONAL_PREFIXES)


def _safe(value: Any) -> Any | None:
    if isinstance(value, bool | int | float):
        return value
    if isinstance(value, str) and _SAFE_VALUE.fullmatch(value):
        return value
    if isinstance(value, list):
        items = [
            v for v in (_safe(x) for x in value[:MAX_LIST_ITEMS]) if v is not None and not isinstance(v, list)
        ]
        return items
    return None


def stream_payload(event_type: str, payload: dict[str, Any]) -> dict[str, Any]:
    """The allowlisted part of ``payload`` for the stream."""
    personal = carries_personal_data(event_type)
    kept: dict[str, Any] = {}
    for key, value in payload.items():
        if not (_IDENTIFIER_KEY.fullmatch(key) or (not personal and key in CODE_KEYS)):
            continue
        safe = _safe(value)
        if safe is not None:
            kept[key] = safe
    return kept
