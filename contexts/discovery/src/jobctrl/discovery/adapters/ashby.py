"""Ashby job board API: ``GET {base}/posting-api/job-board/{name}``.

Shape: ``{"apiVersion": "1", "jobs": [{"id", "title", "location", "secondaryLocations", "department",
"isListed", "isRemote", "descriptionHtml", "descriptionPlain", "publishedAt", "employmentType",
"jobUrl", "applyUrl", ...}]}``.  Unlisted jobs are skipped.
"""

from __future__ import annotations

from typing import Any

from jobctrl.discovery.adapters.base import as_str, require
from jobctrl.discovery.adapters.board import BoardRow, JsonBoard


def _row(job: Any, _payload: Any) -> BoardRow | None:
    require(isinstance(job, dict) and "id" in job and "jobUrl" in job, "ashby job")
    if job.get("isListed") is False:
        return None
    return BoardRow(
        job["id"],
        as_str(job["jobUrl"]),
        title=as_str(job.get("title")),
        location=as_str(job.get("location")),
        description=as_str(job.get("descriptionPlain")) or as_str(job.get("descriptionHtml")),
        apply_url=as_str(job.get("applyUrl")) or None,
    )


ASHBY = JsonBoard("ashby", "ashby", "/posting-api/job-board/{board}", "jobs", "jobs", _row)
parse_ashby = ASHBY.parse
fetch_ashby = ASHBY.fetch
