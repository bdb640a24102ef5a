"""The enrichment bounded context: posting content snapshots, description trust, active state.

* ``events`` — published events (importable alone).
* ``extraction`` — the cascade (``extract_posting``, ``from_source_payload``), tiers and confidence.
* ``fetching`` — the ``PageFetcher`` port and its typed errors; ``httpx_fetcher`` — the stand-alone
  adapter that honours robots.txt (replaced by the politeness gateway at integration).
* ``aggregate.PostingEnrichment`` — one job's snapshots (stream ``enrich-<jobId>``).
* ``readiness`` — ``EnrichmentOutcome`` with ``blocked_by`` (``EnrichBlock``) and the independent
  ``ApplicationTarget``, for the stage machine.
* ``use_cases`` — ``enrich_job`` (async), ``change_active_state``, ``select_blocked_rows``.
"""
