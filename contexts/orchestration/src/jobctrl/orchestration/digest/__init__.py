"""The daily digest's acknowledgement: one ``DigestAcknowledgement`` stream per tenant.

Acknowledging records ``DigestReviewed`` (when the user reviewed it, and the acknowledgement it
replaces); the digest's "new since" counts start at the latest acknowledgement.
"""

from __future__ import annotations

from jobctrl.kernel.aggregate import Aggregate, AggregateRepository, applies
from jobctrl.kernel.clock import Clock, SystemClock, isoformat
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.events import DigestReviewed


class DigestAcknowledgement(Aggregate):
    stream_prefix = "digest"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.acknowledged_at: str | None = None

    def acknowledge(self, *, at: str, reviewed_at: str) -> DigestReviewed:
        event = DigestReviewed(
            acknowledged_at=at, reviewed_at=reviewed_at, previous_acknowledged_at=self.acknowledged_at
        )
        self._record(event)
        return event

    @applies(DigestReviewed)
    def _on_reviewed(self, event: DigestReviewed) -> None:
        self.acknowledged_at = event.acknowledged_at


def _repo(
    store: EventStore, clock: Clock | None, tenant_id: str
) -> AggregateRepository[DigestAcknowledgement]:
    return AggregateRepository.for_class(
        store, DigestAcknowledgement, clock=clock or SystemClock(), tenant_id=tenant_id
    )


def last_acknowledged(store: EventStore, *, tenant_id: str = LOCAL_TENANT) -> str | None:
    found = _repo(store, None, tenant_id).load(tenant_id)
    return None if found is None else found.acknowledged_at


def acknowledge_digest(
    store: EventStore,
    *,
    reviewed_at: str | None = None,
    clock: Clock | None = None,
    tenant_id: str = LOCAL_TENANT,
) -> DigestReviewed:
    repo = _repo(store, clock, tenant_id)
    digest = repo.load(tenant_id) or DigestAcknowledgement(tenant_id)
    now = isoformat((clock or SystemClock()).now())
    event = digest.acknowledge(at=now, reviewed_at=reviewed_at or now)
    repo.save(digest)
    return event
