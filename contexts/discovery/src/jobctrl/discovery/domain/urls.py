"""Observed-URL normalization: one spelling per posting URL.

Lower-case scheme and host, no fragment, no trailing slash, and no tracking parameters (``utm_*`` and
the ATS click-tracking names below).  Other query parameters keep their order: some career sites put
the job id in the query.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

TRACKING_PARAMETERS = frozenset(
    {"gh_jid", "gh_src", "gh_jrid", "gh_id", "ashby_jid", "lever-source", "lever_source", "src", "ref"}
)


def is_tracking_parameter(name: str) -> bool:
    lowered = name.lower()
    return lowered.startswith("utm_") or lowered in TRACKING_PARAMETERS


def normalize_url(url: str) -> str:
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    default_port = {"http": 80, "https": 443}.get(scheme)
    netloc = host if parts.port in (None, default_port) else f"{host}:{parts.port}"
    path = parts.path.rstrip("/")
    query = urlencode(
        [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not is_tracking_parameter(k)]
    )
    return urlunsplit((scheme, netloc, path, query, ""))
