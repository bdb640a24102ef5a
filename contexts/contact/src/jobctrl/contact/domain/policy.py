"""The source-access policy of supervised contact research.

Research never roams: a public page may be fetched only from a host the user supplied for that run;
login, SSO, OAuth, CAPTCHA, paywall and auth URLs go to manual capture; local, private and metadata
destinations are refused outright.  The hard invariants (no authentication, no third-party control
bypass, no autonomous broad discovery) are constants, not settings.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, Literal
from urllib.parse import urlsplit

ALLOWED_CATEGORIES: Final = frozenset({"user_entered", "public_web_page", "user_imported_list"})
PROTECTED_MARKERS: Final = ("login", "signin", "sign-in", "sso", "oauth", "captcha", "paywall", "/auth")
BLOCKED_HOSTS: Final = frozenset({"localhost", "metadata.google.internal", "metadata", "169.254.169.254"})

AUTHENTICATION: Final[Literal["none"]] = "none"
THIRD_PARTY_CONTROL_BYPASS: Final[Literal[False]] = False
AUTONOMOUS_BROAD_DISCOVERY: Final[Literal[False]] = False

MIN_INTERVAL_S: Final = 2.0
MAX_CONCURRENCY: Final = 1
MAX_REQUESTS: Final = 50
MAX_PAGES: Final = 25
MAX_REDIRECTS: Final = 5
MAX_PAGE_TEXT: Final = 40_000
MAX_PROMPT_TEXT: Final = 12_000


class Outcome(StrEnum):
    """Source-attempt outcomes, as recorded per URL."""

    ALLOWED = "allowed"
    NO_CANDIDATES = "no_candidates"
    ROBOTS_DISALLOWED = "robots_disallowed"
    RATE_LIMITED = "rate_limited"
    BUDGET_EXHAUSTED = "budget_exhausted"
    MANUAL_CAPTURE_REQUIRED = "manual_capture_required"
    REJECTED = "rejected"


@dataclass(frozen=True)
class AccessDecision:
    url: str
    outcome: Outcome
    reason: str


def _host_is_blocked(host: str) -> bool:
    if host in BLOCKED_HOSTS or host.endswith(".localhost") or host.endswith(".internal"):
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return (
        address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_reserved
        or address.is_multicast
        or address.is_unspecified
    )


def allowlist_from(user_urls: list[str]) -> frozenset[str]:
    """The hosts the user supplied for this run (lower-case); an empty list allows nothing."""
    return frozenset(h for h in (urlsplit(u).hostname for u in user_urls) if h)


@dataclass(frozen=True)
class SourceAccessPolicy:
    allowlist: frozenset[str]
    allow_loopback_for_tests: bool = False

    def decide(self, url: str, category: str = "public_web_page") -> AccessDecision:
        if category not in ALLOWED_CATEGORIES:
            return AccessDecision(url, Outcome.REJECTED, "category_not_allowed")
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        if parts.scheme not in ("http", "https") or not host:
            return AccessDecision(url, Outcome.REJECTED, "not_a_web_url")
        if parts.username or parts.password:
            return AccessDecision(url, Outcome.REJECTED, "credentials_in_url")
        lowered = url.lower()
        if any(marker in lowered for marker in PROTECTED_MARKERS):
            return AccessDecision(url, Outcome.MANUAL_CAPTURE_REQUIRED, "protected_url")
        loopback_ok = self.allow_loopback_for_tests and host in ("127.0.0.1", "localhost")
        if _host_is_blocked(host) and not loopback_ok:
            return AccessDecision(url, Outcome.REJECTED, "blocked_destination")
        if host not in self.allowlist:
            return AccessDecision(url, Outcome.REJECTED, "host_not_supplied_by_user")
        return AccessDecision(url, Outcome.ALLOWED, "allowed")
