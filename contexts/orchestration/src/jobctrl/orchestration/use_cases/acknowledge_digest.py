"""Acknowledge the daily digest (``DigestReviewed`` on the tenant's ``DigestAcknowledgement``), and
read when it was last acknowledged (where the digest's "new since" counts start)."""

from __future__ import annotations

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, SystemClock, isoformat
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.digest import DigestAcknowledgement
from jobctrl.orchestration.events import DigestReviewed


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
