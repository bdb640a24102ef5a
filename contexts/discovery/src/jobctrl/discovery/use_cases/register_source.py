"""Register a source in the source registry (idempotent: a registered source is left as it is)."""

from __future__ import annotations

from jobctrl.discovery.domain.source import SourceEntry
from jobctrl.discovery.events import SourceKind, SourceState
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.ids import LOCAL_TENANT, checked_id
from jobctrl.kernel.store import EventStore
from jobctrl.politeness import policy_named


def register_source(
    store: EventStore,
    *,
    source_id: str,
    kind: SourceKind,
    policy_id: str,
    clock: Clock,
    state: SourceState = "experimental",
    tenant_id: str = LOCAL_TENANT,
) -> bool:
    """True when the entry was created.  The policy must be a named crawl policy."""
    policy_named(policy_id)  # ConfigurationError for an unknown policy, before anything is written
    sources = AggregateRepository.for_class(store, SourceEntry, clock=clock, tenant_id=tenant_id)
    entry = sources.load(checked_id(source_id)) or SourceEntry(source_id)
    entry.register(kind=kind, policy_id=policy_id, state=state, at=isoformat(clock.now()))
    if not entry.pending_events:
        return False
    sources.save(entry)
    return True
