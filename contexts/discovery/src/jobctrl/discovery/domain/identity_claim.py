"""The claim on a canonical URL (stream ``jobidentity-<digest of the URL>``).

Creating a job also creates this stream at version 0 in the same transaction, so two writers that
decide "new job" for the same canonical URL at once (parallel source families) cannot both win: the
second append fails with ``ConcurrencyConflict`` and that writer re-observes the winner's job.  The
stream holds the job's one ``CanonicalJobIdentityResolved`` fact.
"""

from __future__ import annotations

from jobctrl.discovery.domain.identity import CanonicalIdentity
from jobctrl.discovery.events import CanonicalJobIdentityResolved
from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.kernel.ids import deterministic_id


def claim_id_for(canonical_url: str) -> str:
    return deterministic_id("job-identity", canonical_url)


class IdentityClaim(Aggregate):
    stream_prefix = "jobidentity"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.job_id: str | None = None

    def claim(self, job_id: str, identity: CanonicalIdentity) -> None:
        if self.job_id is not None:
            return
        self._record(
            CanonicalJobIdentityResolved(
                job_id=job_id,
                canonical_url=identity.canonical_url,
                ats_kind=identity.ats_kind,
                source_native_id=identity.source_native_id,
                confidence=identity.confidence,
            )
        )

    @applies(CanonicalJobIdentityResolved)
    def _resolved(self, event: CanonicalJobIdentityResolved) -> None:
        self.job_id = event.job_id
