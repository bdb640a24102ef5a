"""Workable's public job widget API: ``GET {base}/api/v1/widget/accounts/{account}?details=true``.

Shape: ``{"name", "description", "jobs": [{"title", "shortcode", "code", "employment_type",
"telecommuting", "department", "url", "shortlink", "application_url", "published_on", "country",
"city", "state", "locations": [{"country", "countryCode", "city", "region", "hidden"}],
"description" (HTML, with ``details=true``)}]}``.  One request per board.

Identity: the ``shortcode`` (Workable's own, unique per account) with the posting ``url``
(``https://apply.workable.com/j/{shortcode}``).
"""

from __future__ import annotations

from typing import Any

from jobctrl.discovery.adapters.base import as_str, require
from jobctrl.discovery.adapters.board import BoardRow, JsonBoard
from jobctrl.kernel.html import DESCRIPTION, html_text


def _location(job: dict[str, Any]) -> str:
    places = [
        ", ".join(as_str(loc.get(k)) for k in ("city", "region", "country") if as_str(loc.get(k)))
        for loc in job.get("locations") or []
        if isinstance(loc, dict) and not loc.get("hidden")
    ]
    if not places:
        places = [", ".join(as_str(job.get(k)) for k in ("city", "state", "country") if as_str(job.get(k)))]
    text = "; ".join(p for p in places if p)
    return f"{text} (Remote)" if job.get("telecommuting") is True else text


def _row(job: Any, payload: Any) -> BoardRow:
    require(isinstance(job, dict) and as_str(job.get("shortcode")) != "", "workable job shortcode")
    require(isinstance(job.get("url"), str), "workable job url")
    return BoardRow(
        job["shortcode"],
        as_str(job["url"]),
        title=as_str(job.get("title")),
        employer=as_str(payload.get("name")),  # the account's name, once for all its jobs
        location=_location(job),
        description=html_text(as_str(job.get("description")), DESCRIPTION),
        apply_url=as_str(job.get("application_url")) or None,
    )


WORKABLE = JsonBoard(
    "workable", "other", "/api/v1/widget/accounts/{board}?details=true", "jobs", "jobs", _row
)
parse_workable = WORKABLE.parse
fetch_workable = WORKABLE.fetch
