"""The politeness gateway (context-neutral infrastructure used by Discovery, Enrichment and Contact).

Every outbound crawl request goes through one ``PolitenessGateway``::

    from jobctrl.politeness import ENRICHMENT_POLICY, PolitenessGateway, RequestBudget, UserAgent

    async with PolitenessGateway(UserAgent(contact="https://example.org/jobctrl")) as gateway:
        budget = RequestBudget.for_policy(ENRICHMENT_POLICY)      # one per run
        response = await gateway.get(url, ENRICHMENT_POLICY, budget)  # httpx.Response, body read

* ``CrawlPolicy`` — ``name``, ``honor_robots``, ``min_interval_s`` and ``max_concurrency`` (per host),
  ``request_budget`` (per run), ``max_redirects``, ``request_timeout_s``, ``max_body_bytes``,
  ``allow_loopback`` (local servers only; private and metadata addresses are always refused) and
  ``third_party_control_bypass``, hard-locked to False.  Named policies: ``ATS_POLICY`` (robots exempt,
  2000/run), ``ENRICHMENT_POLICY`` (robots honoured, 2 s, 1 concurrent, 1000), ``SMART_EXTRACT_POLICY``
  (50 pages), ``CONTACT_POLICY`` (2 s, 1 concurrent, 50), ``CAREER_PAGE_POLICY`` (JSON-LD career
  pages).  ``policy.for_local_servers()`` allows loopback; ``policy.replace(...)`` tunes a copy.
* ``PolitenessGateway(user_agent, client=None, clock=None)`` — ``await get(url, policy, budget)`` and
  ``await robots_verdict(url, policy)``; robots verdicts follow the reference table (see ``robots``).
* ``RequestBudget`` — per-run counter shared by all requests of a run.
* ``UserAgent(contact, product="JobCtrl")`` — renders ``JobCtrl/<version> (+contact)``; browser-like
  tokens are refused.
* Typed errors: ``RobotsDisallowed``, ``RequestBudgetExhausted``, ``UnsafeDestination`` (not retryable),
  ``TooManyRedirects`` / ``ResponseTooLarge`` (``source_unavailable``), and the kernel's
  ``TransientNetworkError`` for timeouts and unreachable hosts.
"""

from jobctrl.politeness.budget import RequestBudget
from jobctrl.politeness.errors import (
    RequestBudgetExhausted,
    ResponseTooLarge,
    RobotsDisallowed,
    SourceUnavailableError,
    TooManyRedirects,
    TransientNetworkError,
    UnsafeDestination,
)
from jobctrl.politeness.gateway import PolitenessGateway
from jobctrl.politeness.policy import (
    ATS_POLICY,
    BROAD_BOARD_POLICY,
    CAREER_PAGE_POLICY,
    CONTACT_POLICY,
    ENRICHMENT_POLICY,
    NAMED_POLICIES,
    SMART_EXTRACT_POLICY,
    CrawlPolicy,
    policy_named,
)
from jobctrl.politeness.robots import RobotsOutcome, RobotsVerdict
from jobctrl.politeness.user_agent import UserAgent

__all__ = [
    "ATS_POLICY",
    "BROAD_BOARD_POLICY",
    "CAREER_PAGE_POLICY",
    "CONTACT_POLICY",
    "ENRICHMENT_POLICY",
    "NAMED_POLICIES",
    "SMART_EXTRACT_POLICY",
    "CrawlPolicy",
    "PolitenessGateway",
    "RequestBudget",
    "RequestBudgetExhausted",
    "ResponseTooLarge",
    "RobotsDisallowed",
    "RobotsOutcome",
    "RobotsVerdict",
    "SourceUnavailableError",
    "TooManyRedirects",
    "TransientNetworkError",
    "UnsafeDestination",
    "UserAgent",
    "policy_named",
]
