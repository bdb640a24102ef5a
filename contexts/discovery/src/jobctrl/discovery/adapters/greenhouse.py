"""Greenhouse job board API: ``GET {base}/v1/boards/{board}/jobs?content=true``.

Shape: ``{"jobs": [{"id", "title", "absolute_url", "location": {"name"}, "content" (HTML-escaped
HTML), "updated_at", "company_name"?, ...}], "meta": {"total"}}``.
"""

from __future__ import annotations

import html
from typing import Any

from jobctrl.discovery.adapters.base import as_str, require
from jobctrl.discovery.adapters.board import BoardRow, JsonBoard


def _row(job: Any, _payload: Any) -> BoardRow:
    require(isinstance(job, dict) and "id" in job and "absolute_url" in job, "greenhouse job")
    location = job.get("location") or {}
    url = as_str(job["absolute_url"])
    return BoardRow(
        job["id"],
        url,
        title=as_str(job.get("title")),
        employer=as_str(job.get("company_name")),
        location=as_str(location.get("name") if isinstance(location, dict) else location),
        description=html.unescape(as_str(job.get("content"))),
        apply_url=url,
    )


GREENHOUSE = JsonBoard(
    "greenhouse", "greenhouse", "/v1/boards/{board}/jobs?content=true", "jobs", "jobs", _row
)
parse_greenhouse = GREENHOUSE.parse
fetch_greenhouse = GREENHOUSE.fetch
