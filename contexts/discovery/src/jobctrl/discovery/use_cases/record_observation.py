"""Turn one observed posting into Discovery facts: a new job, an observation, a merge, or a hold.

Retry-safe: observation and duplicate-link ids are derived from (run, source, native id or URL), so a
retried activity that sees the job it created last time records nothing new.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from jobctrl.discovery.adapters.base import ObservedPosting
from jobctrl.discovery.domain.content import content_fingerprint, shingles
from jobctrl.discovery.domain.dedupe import Candidate, Decision, JobCatalog, KnownJob, Verdict, decide
from jobctrl.discovery.domain.identity import CanonicalIdentity, resolve_identity
from jobctrl.discovery.domain.identity_claim import IdentityClaim, claim_id_for
from jobctrl.discovery.domain.job import Job
from jobctrl.discovery.domain.urls import normalize_url
from jobctrl.discovery.use_cases.queued_imports import IMPORT_QUEUE, queued_import
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.ids import LOCAL_TENANT, deterministic_id, new_job_id
from jobctrl.kernel.store import ConcurrencyConflict, EventStore


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
    tenant_id: str = LOCAL_TENANT,
) -> ObservationOutcome:
    identity = resolve_identity(
        posting_url=posting.posting_url,
        canonical_url=posting.canonical_url,
        native_id=posting.native_id,
        ats_kind=posting.ats_kind,
    )
    decision = decide(Candidate(identity, posting.title, posting.employer, posting.description), catalog)
    recorder = _Recorder(
        store, posting, run_id=run_id, clock=clock, workflow_id=workflow_id, tenant_id=tenant_id
    )
    if decision.verdict is Verdict.NEW:
        job_id = recorder.create(identity, catalog, new_id())
        if job_id is not None:
            return ObservationOutcome(Verdict.NEW, job_id)
        # Lost the race for this canonical URL: the winner's job is the same job.
        claim = AggregateRepository.for_class(store, IdentityClaim).get(claim_id_for(identity.canonical_url))
        assert claim.job_id is not None
        verdict = Verdict.SAME_JOB if identity.can_auto_merge else Verdict.HELD
        decision = Decision(verdict, claim.job_id, identity.confidence, "canonical_identity")
    return recorder.attach(decision)


class _Recorder:
    def __init__(
        self,
        store: EventStore,
        posting: ObservedPosting,
        *,
        run_id: str,
        clock: Clock,
        workflow_id: str | None,
        tenant_id: str,
    ) -> None:
        self.store = store
        self.posting = posting
        self.run_id = run_id
        self.workflow_id = workflow_id
        self.jobs = AggregateRepository.for_class(store, Job, clock=clock, tenant_id=tenant_id)
        self.claims = AggregateRepository.for_class(store, IdentityClaim, clock=clock, tenant_id=tenant_id)
        self.now = clock.now()
        self.at = isoformat(self.now)
        self.tenant_id = tenant_id
        self.observed_url = normalize_url(posting.posting_url)
        self.observation_id = deterministic_id(
            "observation", run_id, posting.source_id, posting.native_id or self.observed_url
        )

    def _observe(self, job: Job) -> None:
        job.observe(
            observation_id=self.observation_id,
            source_id=self.posting.source_id,
            native_id=self.posting.native_id or "",
            observed_url=self.observed_url,
            run_id=self.run_id,
            at=self.at,
        )

    def create(self, identity: CanonicalIdentity, catalog: JobCatalog, job_id: str) -> str | None:
        """Create the job and claim its canonical URL together; None when another writer claimed it."""
        p = self.posting
        fingerprint = content_fingerprint(p.title, p.employer, p.description)
        metadata = {
            "title": p.title,
            "location": p.location,
            "atsKind": identity.ats_kind,
            "sourceNativeId": identity.source_native_id,
            "canonicalUrl": identity.canonical_url,
            "contentFingerprint": fingerprint,
            "applyUrl": p.apply_url or "",
            "description": p.description,
        }
        if p.extra.get("importedUrl"):
            # Recorded by a URL import: prepared by the next Discover execution it joins (ADR 0286).
            metadata["importedUrl"] = p.extra["importedUrl"]
        if p.extra.get("extraction"):
            # How a smart-extracted posting's text was found (``json_ld`` or ``readable_text``):
            # enrichment does not take untrusted text as the source's own description (ADR 0221).
            metadata["extraction"] = p.extra["extraction"]
        job = Job(job_id)
        job.discover(
            posting_url=p.posting_url,
            source=p.source_id,
            employer=p.employer,
            metadata=metadata,
            at=self.at,
        )
        self._observe(job)
        claim = IdentityClaim(claim_id_for(identity.canonical_url))
        claim.claim(job.id, identity)
        try:
            with self.store.transaction() as tx:
                self.jobs.save(job, tx=tx, workflow_id=self.workflow_id)
                self.claims.save(claim, tx=tx, workflow_id=self.workflow_id)
                if "importedUrl" in metadata:
                    # Queued with the job, in one commit: the next Discover plan reads the queue (ADR 0309).
                    queued = queued_import(job.id, metadata["importedUrl"], self.now, self.tenant_id)
                    tx.append(IMPORT_QUEUE, None, [queued])
        except ConcurrencyConflict:
            return None
        catalog.add(
            KnownJob(
                job.id,
                identity.canonical_url,
                identity.native_key,
                p.employer,
                fingerprint,
                shingles(p.description),
            )
        )
        return job.id

    def attach(self, decision: Decision) -> ObservationOutcome:
        assert decision.job_id is not None
        owner = self.jobs.get(decision.job_id)
        link_id = deterministic_id("duplicate-link", owner.id, self.observation_id)
        if decision.verdict is Verdict.SAME_JOB:
            self._observe(owner)
        elif decision.verdict is Verdict.CONTENT_DUPLICATE:
            # The observation survives the merge: it is recorded on the surviving job, then linked.
            self._observe(owner)
            owner.link_duplicate(
                link_id=link_id,
                superseded_id=self.observation_id,
                reason=decision.reason,
                confidence=decision.confidence,
            )
        else:
            owner.reject_duplicate(
                link_id=link_id, candidate_url=self.observed_url, reason=decision.reason, at=self.at
            )
        self.jobs.save(owner, workflow_id=self.workflow_id)
        return ObservationOutcome(decision.verdict, owner.id)
