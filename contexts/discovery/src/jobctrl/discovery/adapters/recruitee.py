"""Recruitee's public careers API: ``GET {base}/api/offers/`` (``base`` is ``https://{company}.recruitee.com``).

Shape: ``{"offers": [{"id" (int), "slug", "title", "description" (HTML), "requirements" (HTML),
"location", "city", "country", "remote", "careers_url", "careers_apply_url", "company_name",
"department", "status", "published_at"}]}``; only ``published`` offers are postings.

Identity: the offer ``id`` (unique within the company) with its ``careers_url``.
"""

from __future__ import annotations

from typing import Any

from jobctrl.discovery.adapters.base import as_str, require
from jobctrl.discovery.adapters.board import BoardRow, JsonBoard
from jobctrl.kernel.html import DESCRIPTION, html_text


def _row(offer: Any, _payload: Any) -> BoardRow | None:
    require(isinstance(offer, dict) and isinstance(offer.get("id"), int | str), "recruitee offer id")
    require(isinstance(offer.get("careers_url"), str), "recruitee offer careers_url")
    if as_str(offer.get("status")) not in ("", "published"):
        return None  # drafts and closed offers are not postings
    location = as_str(offer.get("location")) or ", ".join(
        as_str(offer.get(k)) for k in ("city", "country") if as_str(offer.get(k))
    )
    if offer.get("remote") is True and "remote" not in location.lower():
        location = f"{location} (Remote)" if location else "Remote"
    description = "\n\n".join(
        html_text(as_str(offer.get(k)), DESCRIPTION)
        for k in ("description", "requirements")
        if as_str(offer.get(k))
    )
    return BoardRow(
        offer["id"],
        as_str(offer["careers_url"]),
        title=as_str(offer.get("title")),
        employer=as_str(offer.get("company_name")),
        location=location,
        description=description,
        apply_url=as_str(offer.get("careers_apply_url")) or None,
    )


RECRUITEE = JsonBoard("recruitee", "other", "/api/offers/", "offers", "offers", _row)
parse_recruitee = RECRUITEE.parse
fetch_recruitee = RECRUITEE.fetch
