"""Lever postings API: ``GET {base}/v0/postings/{site}?mode=json``.

Shape: a JSON array of ``{"id", "text", "hostedUrl", "applyUrl", "categories": {"location", "team",
"commitment", ...}, "description", "descriptionPlain", "lists": [{"text", "content"}], ...}``.
"""

from __future__ import annotations

from typing import Any

from jobctrl.discovery.adapters.base import as_str, require
from jobctrl.discovery.adapters.board import BoardRow, JsonBoard


def _description(job: dict[str, Any]) -> str:
    parts = [as_str(job.get("descriptionPlain")) or as_str(job.get("description"))]
    for item in job.get("lists") or []:
        if isinstance(item, dict):
            parts.append(f"{as_str(item.get('text'))}\n{as_str(item.get('content'))}")
    parts.append(as_str(job.get("additionalPlain")))
    return "\n".join(p for p in parts if p)


def _row(job: Any, _payload: Any) -> BoardRow:
    require(isinstance(job, dict) and "id" in job and "hostedUrl" in job, "lever posting")
    categories = job.get("categories") or {}
    require(isinstance(categories, dict), "lever categories")
    return BoardRow(
        job["id"],
        as_str(job["hostedUrl"]),
        title=as_str(job.get("text")),
        location=as_str(categories.get("location")),
        description=_description(job),
        apply_url=as_str(job.get("applyUrl")) or None,
    )


LEVER = JsonBoard("lever", "lever", "/v0/postings/{board}?mode=json", None, "postings", _row)
parse_lever = LEVER.parse
fetch_lever = LEVER.fetch
