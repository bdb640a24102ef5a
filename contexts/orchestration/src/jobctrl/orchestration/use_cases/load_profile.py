"""Read the tenant's candidate profile as saved (version 0 before the first save); ``change_profile``
is the load-decide-save the profile's commands share."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration.domain.profile.aggregate import CandidateProfile

T = TypeVar("T")


def profile_repository(
    store: EventStore, *, clock: Clock | None = None, tenant_id: str = LOCAL_TENANT
) -> AggregateRepository[CandidateProfile]:
    return AggregateRepository.for_class(store, CandidateProfile, clock=clock, tenant_id=tenant_id)


def load_profile(
    store: EventStore, *, clock: Clock | None = None, tenant_id: str = LOCAL_TENANT
) -> CandidateProfile:
    loaded = profile_repository(store, clock=clock, tenant_id=tenant_id).load(tenant_id)
    return loaded or CandidateProfile(tenant_id)


def change_profile(
    store: EventStore,
    decide: Callable[[CandidateProfile], T],
    *,
    clock: Clock | None = None,
    tenant_id: str = LOCAL_TENANT,
) -> T:
    """Run ``decide`` on the freshly loaded profile and append what it recorded (compare-and-swap on
    the loaded version: a concurrent writer makes the save raise ``ConcurrencyConflict``)."""
    repo = profile_repository(store, clock=clock, tenant_id=tenant_id)
    profile = repo.load(tenant_id) or CandidateProfile(tenant_id)
    result = decide(profile)
    if profile.pending_events:
        repo.save(profile)
    return result
