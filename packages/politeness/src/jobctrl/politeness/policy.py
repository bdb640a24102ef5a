"""Crawl policies: how hard JobCtrl may knock on someone else's door.

A policy is an immutable value.  ``third_party_control_bypass`` exists only to be refused: JobCtrl never
circumvents CAPTCHAs, logins or other third-party access controls, so constructing a policy with it set
is a configuration error rather than a silently ignored flag.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from jobctrl.kernel.errors import ConfigurationError


@dataclass(frozen=True, slots=True)
class CrawlPolicy:
    """Limits applied by the gateway to every request made under this policy.

    * ``honor_robots``: consult robots.txt before each request (documented public APIs are exempt).
    * ``min_interval_s`` / ``max_concurrency``: per host, shared by every request under this policy.
    * ``request_budget``: requests per run (a ``RequestBudget`` is created from it for each run).
    * ``allow_loopback``: permit 127.0.0.0/8 and ::1 (local test servers and the sample board).  Private,
      link-local and metadata addresses stay refused whatever this says.
    """

    name: str
    honor_robots: bool
    min_interval_s: float
    max_concurrency: int
    request_budget: int
    max_redirects: int = 5
    request_timeout_s: float = 20.0
    max_body_bytes: int = 8_000_000
    allow_loopback: bool = False
    third_party_control_bypass: Literal[False] = False

    def __post_init__(self) -> None:
        if self.third_party_control_bypass is not False:
            raise ConfigurationError("third_party_control_bypass is hard-locked to False")
        if self.max_concurrency < 1 or self.request_budget < 0 or self.max_redirects < 0:
            raise ConfigurationError(f"policy {self.name!r}: limits must be positive")
        if self.min_interval_s < 0 or self.request_timeout_s <= 0 or self.max_body_bytes < 1:
            raise ConfigurationError(f"policy {self.name!r}: intervals, timeouts and caps must be positive")

    def replace(self, **changes: Any) -> CrawlPolicy:
        """A copy with ``changes`` applied (validated again, so the bypass lock still holds)."""
        return dataclasses.replace(self, **changes)

    def for_local_servers(self) -> CrawlPolicy:
        """The same policy, but allowed to reach loopback (sample board, tests)."""
        return self.replace(allow_loopback=True)


# Documented public ATS / Workday JSON APIs: robots does not gate them, the budget does.
ATS_POLICY = CrawlPolicy(
    name="ats", honor_robots=False, min_interval_s=0.0, max_concurrency=4, request_budget=2000
)
ENRICHMENT_POLICY = CrawlPolicy(
    name="enrichment", honor_robots=True, min_interval_s=2.0, max_concurrency=1, request_budget=1000
)
SMART_EXTRACT_POLICY = CrawlPolicy(
    name="smart_extract", honor_robots=True, min_interval_s=2.0, max_concurrency=1, request_budget=50
)
CONTACT_POLICY = CrawlPolicy(
    name="contact", honor_robots=True, min_interval_s=2.0, max_concurrency=1, request_budget=50
)
# Career pages carrying schema.org JobPosting JSON-LD are ordinary web pages: robots honored.
CAREER_PAGE_POLICY = CrawlPolicy(
    name="career_page", honor_robots=True, min_interval_s=2.0, max_concurrency=1, request_budget=500
)
# Broad boards through a scraping library that owns its HTTP (ADR 0285): robots cannot gate it, so
# the project paces and budgets where it calls the library: one budget unit per search unit (one
# site x keyword x location), at least 10 s between two searches of one site, one at a time.
BROAD_BOARD_POLICY = CrawlPolicy(
    name="broad_board", honor_robots=False, min_interval_s=10.0, max_concurrency=1, request_budget=60
)

NAMED_POLICIES: dict[str, CrawlPolicy] = {
    p.name: p
    for p in (
        ATS_POLICY, ENRICHMENT_POLICY, SMART_EXTRACT_POLICY, CONTACT_POLICY, CAREER_PAGE_POLICY,
        BROAD_BOARD_POLICY,
    )
}  # fmt: skip


def policy_named(name: str) -> CrawlPolicy:
    try:
        return NAMED_POLICIES[name]
    except KeyError:
        raise ConfigurationError(f"unknown crawl policy {name!r}") from None
