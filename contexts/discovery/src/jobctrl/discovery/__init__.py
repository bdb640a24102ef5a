"""The discovery bounded context.

* ``events`` — published events (reference catalog plus the appended execution/progress events).
* ``domain`` — URL normalization (``urls``), canonical identity and confidences (``identity``,
  ``identity_claim``), content fingerprints and shingles (``content``), dedupe decisions (``dedupe``),
  aggregates ``Job``, ``SourceEntry`` (+ ``source_health``), ``DiscoveryExecution``; typed errors
  (``errors``).  The discovery run is orchestration's (ADR 0180): discovery reports its start,
  progress and end through the ``ports.DiscoveryRunLog`` port.
* ``adapters`` — Greenhouse, Lever, Ashby JSON and JSON-LD career pages, all through the politeness
  gateway; ``adapters.registry.adapter_for(kind)`` gives the fetcher and its default crawl policy.
* ``commands`` — one use case per module: ``run_source_family``, ``run_discovery`` (a whole run in
  one call),
  ``record_observation``, ``load_catalog``, ``register_source(s)``, ``change_source_state``,
  ``apply_source_recommendation``, ``select_runnable_sources``, ``link_execution_members``,
  ``record_work_plan``, ``close_execution_membership`` (and ``close_interrupted_membership``),
  ``sources`` (the user's sources: ``add_source``, ``remove_source``,
  ``list_sources``, ``registered_sources`` — the catalog Discover runs — and ``import_sources``).
  ``domain.source_spec.parse_source`` parses ``KIND TOKEN_OR_URL``; ``domain.search`` is the
  user's search, re-applied to every family after fetching.  Plain inputs plus an ``EventStore``, a
  ``Clock``, the tenant to write under (default ``local``) and (for crawling) a
  ``PolitenessGateway``: callable from Temporal activities.
* ``sample_board`` — a local job board (69 postings, six formats, robots.txt) for tests and the demo.
"""
