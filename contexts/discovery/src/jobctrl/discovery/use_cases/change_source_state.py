"""Move a source to another state (operator command); every change is a SourceStateChanged event."""

from __future__ import annotations

from jobctrl.discovery.domain.source import SourceEntry
from jobctrl.discovery.events import SourceState
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore


def change_source_state(
    store: EventStore,
    *,
    source_id: str,
    to: SourceState,
    reason: str,
    clock: Clock,
    operator: bool = True,
    tenant_id: str = LOCAL_TENANT,
) -> bool:
    sources = AggregateRepository.for_class(store, SourceEntry, clock=clock, tenant_id=tenant_id)
    entry = sources.get(source_id)
    if not entry.change_state(to=to, reason=reason, at=isoformat(clock.now()), operator=operator):
        return False
    sources.save(entry)
    return True
