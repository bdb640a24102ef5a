"""The politeness gateway (context-neutral infrastructure used by Discovery, Enrichment and Contact).

Planned public surface (implemented in ``gateway.py``):

* ``CrawlPolicy`` — name, ``honor_robots``, ``min_interval_s`` (per host), ``max_concurrency`` (per host),
  ``request_budget`` (per run), ``max_redirects``, ``allow_private_hosts`` (False except in tests that
  serve from 127.0.0.1 through an explicit override), and ``third_party_control_bypass`` hard-locked False.
  Named policies of the reference: ``ATS_POLICY`` (robots exempt, 2000/run), ``ENRICHMENT_POLICY``
  (robots honored, 2 s, 1 concurrent, 1000), ``SMART_EXTRACT_POLICY`` (50 pages), ``CONTACT_POLICY``
  (2 s, 1 concurrent, 50 requests).
* ``PolitenessGateway(user_agent=..., client=httpx.AsyncClient | None, clock=...)`` with
  ``async get(url, policy, budget) -> httpx.Response`` and ``async robots_verdict(url) -> RobotsVerdict``.
* ``RequestBudget`` — per-run counter shared by all requests of a run.
* Typed errors: ``RobotsDisallowed``, ``RequestBudgetExhausted``, ``UnsafeDestination`` plus the kernel's
  ``SourceUnavailableError`` / ``TransientNetworkError``.
"""
