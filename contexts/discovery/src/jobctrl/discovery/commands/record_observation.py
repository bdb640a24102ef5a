"""Turn one observed posting into Discovery facts: a new job, an observation, a merge, or a hold."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from jobctrl.discovery.adapters.base import ObservedPosting
from jobctrl.discovery.domain.content import content_fingerprint, shingles
from jobctrl.discovery.domain.dedupe import Candidate, JobCatalog, KnownJob, Verdict, decide
from jobctrl.discovery.domain.identity import resolve_identity
from jobctrl.discovery.domain.job import Job
from jobctrl.discovery.domain.urls import normalize_url
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.ids import deterministic_id, new_job_id
from jobctrl.kernel.store import EventStore


@dataclass(frozen=True, slots=True)
class ObservationOutcome:
    verdict: Verdict
    job_id: str


def record_observation(
    store: EventStore,
    catalog: JobCatalog,
    posting: ObservedPosting,
    *,
    run_id: str,
    clock: Clock,
    new_id: Callable[[], str] = new_job_id,
    workflow_id: str | None = None,
) -> ObservationOutcome:
    jobs = AggregateRepository.for_class(store, Job, clock=clock)
    at = isoformat(clock.now())
    identity = resolve_identity(
        posting_url=posting.posting_url,
        canonical_url=posting.canonical_url,
        native_id=posting.native_id,
        ats_kind=posting.ats_kind,
    )
    candidate = Candidate(identity, posting.title, posting.employer, posting.description)
    decision = decide(candidate, catalog)
    observed_url = normalize_url(posting.posting_url)
    observation_id = deterministic_id(
        "observation", run_id, posting.source_id, posting.native_id or observed_url
    )

    def observe(job: Job) -> None:
        job.observe(
            observation_id=observation_id,
            source_id=posting.source_id,
            native_id=posting.native_id or "",
            observed_url=observed_url,
            run_id=run_id,
            at=at,
        )

    if decision.verdict is Verdict.NEW:
        job = Job(new_id())
        fingerprint = content_fingerprint(posting.title, posting.employer, posting.description)
        job.discover(
            posting_url=posting.posting_url,
            source=posting.source_id,
            employer=posting.employer,
            metadata={
                "title": posting.title,
                "location": posting.location,
                "atsKind": identity.ats_kind,
                "sourceNativeId": identity.source_native_id,
                "canonicalUrl": identity.canonical_url,
                "contentFingerprint": fingerprint,
                "applyUrl": posting.apply_url or "",
                "description": posting.description,
            },
            identity=identity,
            at=at,
        )
        observe(job)
        jobs.save(job, workflow_id=workflow_id)
        catalog.add(
            KnownJob(
                job.id,
                identity.canonical_url,
                identity.native_key,
                posting.employer,
                fingerprint,
                shingles(posting.description),
            )
        )
        return ObservationOutcome(Verdict.NEW, job.id)

    assert decision.job_id is not None
    owner = jobs.get(decision.job_id)
    link_id = deterministic_id("duplicate-link", owner.id, observation_id)
    if decision.verdict is Verdict.SAME_JOB:
        observe(owner)
    elif decision.verdict is Verdict.CONTENT_DUPLICATE:
        # The observation survives the merge: it is recorded on the surviving job, then linked.
        observe(owner)
        owner.link_duplicate(
            link_id=link_id,
            superseded_id=observation_id,
            reason=decision.reason,
            confidence=decision.confidence,
        )
    else:
        owner.reject_duplicate(link_id=link_id, candidate_url=observed_url, reason=decision.reason, at=at)
    jobs.save(owner, workflow_id=workflow_id)
    return ObservationOutcome(decision.verdict, owner.id)
