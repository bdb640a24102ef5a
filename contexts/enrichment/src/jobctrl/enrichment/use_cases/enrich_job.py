"""Enrich one job: capture a content snapshot of its posting and decide what it unblocks.

A description the source already delivered is used as is; otherwise the detail page is fetched through
the ``PageFetcher`` port and run through the extraction cascade.  Outcomes:

* captured → ``enriched``; a low-confidence tier keeps Tailor blocked by ``ENRICH_LOW_CONFIDENCE``;
* robots.txt forbids the fetch → ``blocked`` by ``ENRICH_ROBOTS_DISALLOWED`` (resolvable later);
* the page is gone → ``failed`` and the job is marked ``removed``;
* other permanent failures → ``failed``; retryable failures are recorded, then re-raised for retry.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from jobctrl.enrichment.domain.aggregate import PostingEnrichment
from jobctrl.enrichment.domain.extraction import (
    Extraction,
    ExtractionTier,
    extract_posting,
    from_source_payload,
)
from jobctrl.enrichment.domain.readiness import EnrichmentOutcome, EnrichStatus, FailureClass
from jobctrl.enrichment.ports import PageFetcher, PostingGoneError
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.ids import LOCAL_TENANT, InvalidIdError, checked_id
from jobctrl.kernel.store import EventStore


class InvalidEnrichRequestError(JobCtrlError):
    """The command itself is malformed (unsafe job id, non-http posting URL): nothing is recorded."""

    code = "invalid_enrich_request"
    retryable = False


@dataclass(frozen=True)
class EnrichJob:
    job_id: str
    posting_url: str
    source_id: str
    source_description: str | None = None


def _outcome(enrichment: PostingEnrichment, status: EnrichStatus) -> EnrichmentOutcome:
    return EnrichmentOutcome(
        job_id=enrichment.id,
        status=status,
        blocked_by=enrichment.blocked_by,
        application_target=enrichment.application_target,
        snapshot_version=enrichment.snapshot_version,
        failure=enrichment.last_failure,
    )


def _validate(command: EnrichJob) -> None:
    try:
        checked_id(command.job_id)
        checked_id(command.source_id)
    except InvalidIdError as exc:
        raise InvalidEnrichRequestError(str(exc)) from exc
    parts = urlsplit(command.posting_url)
    if parts.scheme not in ("http", "https") or not parts.hostname or len(command.posting_url) > 2048:
        raise InvalidEnrichRequestError("the posting URL must be an absolute http(s) URL")


async def enrich_job(
    command: EnrichJob,
    *,
    store: EventStore,
    fetcher: PageFetcher,
    clock: Clock,
    tenant_id: str = LOCAL_TENANT,
) -> EnrichmentOutcome:
    _validate(command)
    repo = AggregateRepository.for_class(store, PostingEnrichment, clock=clock, tenant_id=tenant_id)
    enrichment = repo.load(command.job_id) or PostingEnrichment(command.job_id)

    extraction: Extraction | None = None
    if command.source_description:
        extraction = from_source_payload(command.source_description)
    if extraction is None:
        try:
            page = await fetcher.fetch(command.posting_url)
            extraction = extract_posting(page.body, page.final_url)
        except JobCtrlError as exc:
            failure = FailureClass.parse(exc.code)
            enrichment.fail(command.source_id, failure, exc.retryable, exc.message, clock.now())
            if isinstance(exc, PostingGoneError):
                enrichment.change_active_state("removed", "detail_fetch_http_status", clock.now())
            repo.save(enrichment)  # failure facts commit before the error travels on
            if exc.retryable:
                raise
            status = EnrichStatus.BLOCKED if enrichment.blocked_by else EnrichStatus.FAILED
            return _outcome(enrichment, status)

    enrichment.capture(extraction, command.source_id, clock.now())
    if extraction.valid_through is not None and extraction.valid_through < clock.now():
        enrichment.change_active_state("expired", "json_ld_valid_through", clock.now())
    elif enrichment.active_state == "unknown":
        method = "source_payload" if extraction.tier is ExtractionTier.SOURCE_PAYLOAD else "detail_fetch"
        enrichment.change_active_state("active", method, clock.now())
    repo.save(enrichment)
    return _outcome(enrichment, EnrichStatus.BLOCKED if enrichment.blocked_by else EnrichStatus.ENRICHED)
