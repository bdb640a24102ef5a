"""The enrichment bounded context: posting content snapshots, description trust, active state.

* ``events`` — published events (importable alone).
* ``domain`` — ``aggregate.PostingEnrichment`` (one job's snapshots, stream ``enrich-<jobId>``);
  ``extraction`` (the cascade: ``extract_posting``, ``from_source_payload``, tiers and confidence);
  ``readiness`` (``EnrichmentOutcome`` with ``blocked_by`` (``EnrichBlock``) and the independent
  ``ApplicationTarget``, for the stage machine).
* ``use_cases`` — ``enrich_job`` (async), ``change_active_state``, ``select_blocked_rows``,
  ``select_enrichment_jobs`` (which members a pass enriches, with which description; ADR 0263).
* ``ports`` — the ``PageFetcher`` port and its typed errors.
* ``adapters`` — ``gateway_fetcher`` (the port over the politeness gateway) and ``httpx_fetcher``
  (the stand-alone adapter that honours robots.txt).
* ``activities`` — the ``enrich_job`` Temporal activity.

The public face below is resolved lazily (``jobctrl.kernel.exports``): importing this package, as
importing its ``events`` does, imports nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jobctrl.kernel.exports import lazy_exports

if TYPE_CHECKING:
    from jobctrl.enrichment.adapters.gateway_fetcher import GatewayPageFetcher
    from jobctrl.enrichment.adapters.httpx_fetcher import HttpxPageFetcher
    from jobctrl.enrichment.domain.aggregate import PostingEnrichment
    from jobctrl.enrichment.domain.extraction import (
        Confidence,
        Extraction,
        ExtractionTier,
        NoPostingContentError,
    )
    from jobctrl.enrichment.domain.readiness import (
        ApplicationTarget,
        EnrichBlock,
        EnrichmentOutcome,
        EnrichStatus,
        FailureClass,
    )
    from jobctrl.enrichment.ports import (
        FetchedPage,
        PageFetcher,
        PostingGoneError,
        RobotsDisallowedError,
        UnreadablePageError,
    )
    from jobctrl.enrichment.use_cases.change_active_state import ChangeActiveState, change_active_state
    from jobctrl.enrichment.use_cases.enrich_job import EnrichJob, InvalidEnrichRequestError, enrich_job
    from jobctrl.enrichment.use_cases.select_blocked_rows import select_blocked_rows
    from jobctrl.enrichment.use_cases.select_enrichment_jobs import select_enrichment_jobs, source_description

_EXPORTS: dict[str, str] = {
    "enrich_job": "jobctrl.enrichment.use_cases.enrich_job",
    "EnrichJob": "jobctrl.enrichment.use_cases.enrich_job",
    "select_enrichment_jobs": "jobctrl.enrichment.use_cases.select_enrichment_jobs",
    "source_description": "jobctrl.enrichment.use_cases.select_enrichment_jobs",
    "InvalidEnrichRequestError": "jobctrl.enrichment.use_cases.enrich_job",
    "change_active_state": "jobctrl.enrichment.use_cases.change_active_state",
    "ChangeActiveState": "jobctrl.enrichment.use_cases.change_active_state",
    "select_blocked_rows": "jobctrl.enrichment.use_cases.select_blocked_rows",
    "PageFetcher": "jobctrl.enrichment.ports",
    "FetchedPage": "jobctrl.enrichment.ports",
    "RobotsDisallowedError": "jobctrl.enrichment.ports",
    "PostingGoneError": "jobctrl.enrichment.ports",
    "UnreadablePageError": "jobctrl.enrichment.ports",
    "GatewayPageFetcher": "jobctrl.enrichment.adapters.gateway_fetcher",
    "HttpxPageFetcher": "jobctrl.enrichment.adapters.httpx_fetcher",
    "PostingEnrichment": "jobctrl.enrichment.domain.aggregate",
    "Extraction": "jobctrl.enrichment.domain.extraction",
    "ExtractionTier": "jobctrl.enrichment.domain.extraction",
    "Confidence": "jobctrl.enrichment.domain.extraction",
    "NoPostingContentError": "jobctrl.enrichment.domain.extraction",
    "EnrichmentOutcome": "jobctrl.enrichment.domain.readiness",
    "EnrichBlock": "jobctrl.enrichment.domain.readiness",
    "EnrichStatus": "jobctrl.enrichment.domain.readiness",
    "ApplicationTarget": "jobctrl.enrichment.domain.readiness",
    "FailureClass": "jobctrl.enrichment.domain.readiness",
}
__all__ = [
    "ApplicationTarget",
    "ChangeActiveState",
    "Confidence",
    "EnrichBlock",
    "EnrichJob",
    "EnrichStatus",
    "EnrichmentOutcome",
    "Extraction",
    "ExtractionTier",
    "FailureClass",
    "FetchedPage",
    "GatewayPageFetcher",
    "HttpxPageFetcher",
    "InvalidEnrichRequestError",
    "NoPostingContentError",
    "PageFetcher",
    "PostingEnrichment",
    "PostingGoneError",
    "RobotsDisallowedError",
    "UnreadablePageError",
    "change_active_state",
    "enrich_job",
    "select_blocked_rows",
    "select_enrichment_jobs",
    "source_description",
]
__getattr__ = lazy_exports(__name__, _EXPORTS)
