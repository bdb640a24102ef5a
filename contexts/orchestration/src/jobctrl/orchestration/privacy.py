"""Allowlists for what may enter workflow summaries and step details (codes, counts, opaque ids).

URLs, descriptions, profiles, prompts, provider output, paths, credentials and exception text never
pass: unknown keys are dropped, strings must look like codes, lists are bounded with a marker.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.text import bounded_code

INPUT_SUMMARY_KEYS: Final[frozenset[str]] = frozenset(
    {
        "jobId", "jobIds", "stages", "dryRun", "limit", "workers", "minScore", "continuous", "rescore",
        "retailor", "autoApplyLoop", "approvalRequired", "kind", "taskId", "sourceIds", "holdSeconds",
    }
)  # fmt: skip
MAX_LIST_ITEMS: Final = 20
_SAFE_VALUE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:\-]{0,99}$")

STEP_DETAIL_CODES: Final[frozenset[str]] = frozenset(
    {
        "planned", "dispatched", "jobs_found", "jobs_accepted", "jobs_enriched", "jobs_filtered", "no_work",
        "partial", "swept", "rendered", "targets_dispatched", "legacy_history_recovery", "canceled_by_owner",
    }
)  # fmt: skip


class DetailNotAllowed(JobCtrlError):
    code = "detail_not_allowed"
    retryable = False


def _safe_scalar(value: Any) -> Any | None:
    if isinstance(value, bool) or (isinstance(value, int | float) and not isinstance(value, bool)):
        return value
    if isinstance(value, str) and _SAFE_VALUE.fullmatch(value):
        return value
    return None


def summarize_input(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Keep allowlisted keys whose values are numbers, booleans, or id/code-shaped strings."""
    summary: dict[str, Any] = {}
    for key in sorted(raw):
        if key not in INPUT_SUMMARY_KEYS:
            continue
        value = raw[key]
        if isinstance(value, list | tuple):
            items = [v for v in (_safe_scalar(x) for x in value) if v is not None]
            summary[key] = items[:MAX_LIST_ITEMS]
            if len(items) > MAX_LIST_ITEMS:
                summary[f"{key}Total"] = len(items)
                summary[f"{key}Truncated"] = True
            continue
        safe = _safe_scalar(value)
        if safe is not None:
            summary[key] = safe
    return summary


def checked_detail_code(code: str) -> str:
    if code not in STEP_DETAIL_CODES:
        raise DetailNotAllowed(f"detail code {code[:40]!r} is not allowlisted")
    return code


def bounded_error_code(code: str) -> str:
    """Error codes are lower snake case, at most 64 characters; anything else is ``unclassified``."""
    return bounded_code(code.lower() if code.isascii() else code)
