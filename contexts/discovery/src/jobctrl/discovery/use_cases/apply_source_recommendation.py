"""Quarantine or disable a source when its recent run outcomes say so (see ``source_health``)."""

from __future__ import annotations

from collections.abc import Sequence

from jobctrl.discovery.domain.source import SourceEntry
from jobctrl.discovery.domain.source_health import SourceRecommendation, SourceRunOutcome, recommend
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, isoformat
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore


def apply_source_recommendation(
    store: EventStore,
    *,
    source_id: str,
    outcomes: Sequence[SourceRunOutcome],
    clock: Clock,
    tenant_id: str = LOCAL_TENANT,
) -> SourceRecommendation | None:
    """Returns the recommendation that was applied, or None when the source stays as it is."""
    sources = AggregateRepository.for_class(store, SourceEntry, clock=clock, tenant_id=tenant_id)
    entry = sources.get(source_id)
    recommendation = recommend(entry.state, outcomes)
    if recommendation is None:
        return None
    entry.change_state(to=recommendation.to_state, reason=recommendation.reason, at=isoformat(clock.now()))
    sources.save(entry)
    return recommendation
