"""The Job aggregate (stream ``job-<jobId>``): discovery facts about one canonical job.

Its canonical identity lives on the identity-claim stream (see ``identity_claim``); observations,
merges and held candidates live here, keyed by deterministic ids so a retried run records nothing twice.
"""

from __future__ import annotations

from typing import Any

from jobctrl.discovery.events import (
    DuplicateJobLinked,
    DuplicateJobLinkRejected,
    JobDiscovered,
    JobSourceObserved,
)
from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.kernel.events import DomainEvent


class Job(Aggregate):
    stream_prefix = "job"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.discovered = False
        self.employer = ""
        self.observation_ids: set[str] = set()
        self.duplicate_link_ids: set[str] = set()

    def discover(
        self,
        *,
        posting_url: str,
        source: str,
        employer: str,
        metadata: dict[str, Any],
        at: str,
    ) -> None:
        if self.discovered:
            return  # idempotent: a job is discovered once
        self._record(
            JobDiscovered(
                job_id=self.id,
                posting_url=posting_url,
                source=source,
                employer=employer,
                metadata=metadata,
                discovered_at=at,
            )
        )

    def observe(
        self, *, observation_id: str, source_id: str, native_id: str, observed_url: str, run_id: str, at: str
    ) -> bool:
        """Record a source observation; False when this observation is already recorded."""
        return self._record_new(
            observation_id,
            self.observation_ids,
            JobSourceObserved(
                job_id=self.id,
                source_observation_id=observation_id,
                source_id=source_id,
                source_native_id=native_id,
                observed_url=observed_url,
                run_id=run_id,
                observed_at=at,
            ),
        )

    def link_duplicate(self, *, link_id: str, superseded_id: str, reason: str, confidence: float) -> bool:
        link = DuplicateJobLinked(
            duplicate_link_id=link_id,
            surviving_job_id=self.id,
            superseded_job_or_observation_id=superseded_id,
            reason=reason,
            confidence=confidence,
        )
        return self._record_new(link_id, self.duplicate_link_ids, link)

    def reject_duplicate(self, *, link_id: str, candidate_url: str, reason: str, at: str) -> bool:
        rejection = DuplicateJobLinkRejected(
            duplicate_link_id=link_id, job_id=self.id, candidate_posting_url=candidate_url, reason=reason,
            rejected_at=at,
        )  # fmt: skip
        return self._record_new(link_id, self.duplicate_link_ids, rejection)

    def _record_new(self, key: str, recorded: set[str], event: DomainEvent) -> bool:
        """Record ``event`` unless ``key`` (its deterministic id) is already recorded: a retried run
        records nothing twice.  True when recorded now."""
        if key in recorded:
            return False
        self._record(event)
        return True

    @applies(JobDiscovered)
    def _discovered(self, event: JobDiscovered) -> None:
        self.discovered = True
        self.employer = event.employer

    @applies(JobSourceObserved)
    def _observed(self, event: JobSourceObserved) -> None:
        self.observation_ids.add(event.source_observation_id)

    @applies(DuplicateJobLinked)
    def _linked(self, event: DuplicateJobLinked) -> None:
        self.duplicate_link_ids.add(event.duplicate_link_id)

    @applies(DuplicateJobLinkRejected)
    def _rejected(self, event: DuplicateJobLinkRejected) -> None:
        self.duplicate_link_ids.add(event.duplicate_link_id)


def application_url_of(found: JobDiscovered | None) -> str | None:
    """The job's apply target, the one the apply worker and the review both bind to: the posting's
    ``applyUrl`` (http(s) or ``mailto:``) when it has one, else the posting URL."""
    if found is None:
        return None
    apply_url = found.metadata.get("applyUrl")
    return apply_url if isinstance(apply_url, str) and apply_url else found.posting_url
