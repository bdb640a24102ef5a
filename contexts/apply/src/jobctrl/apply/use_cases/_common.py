"""Helpers shared by the use cases (repositories, timestamps, owner metadata)."""

from __future__ import annotations

from jobctrl.apply.domain.identity import ApplicationIdentity, identity_key, legacy_identity_key
from jobctrl.apply.domain.job_application import JobApplication
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, SystemClock
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import ConcurrencyConflict, EventStore


def jobs(
    store: EventStore, clock: Clock | None, tenant_id: str = LOCAL_TENANT
) -> AggregateRepository[JobApplication]:
    """The job-application repository; what it saves is written under ``tenant_id`` (ADR 0082)."""
    return AggregateRepository.for_class(
        store, JobApplication, clock=clock or SystemClock(), tenant_id=tenant_id
    )


def identities(
    store: EventStore, clock: Clock | None, tenant_id: str = LOCAL_TENANT
) -> AggregateRepository[ApplicationIdentity]:
    return AggregateRepository.for_class(
        store, ApplicationIdentity, clock=clock or SystemClock(), tenant_id=tenant_id
    )


def load_identity(
    repo: AggregateRepository[ApplicationIdentity], employer: str, role: str
) -> ApplicationIdentity:
    """The v2 identity stream, seeing what the v1 stream of the same names holds (ADR 0160)."""
    key = identity_key(employer, role)
    identity = repo.load(key) or ApplicationIdentity(key)
    legacy_key = legacy_identity_key(employer, role)
    if legacy_key != key:
        identity.inherit(repo.load(legacy_key))
    return identity


def load_job(repo: AggregateRepository[JobApplication], job_id: str) -> JobApplication:
    return repo.load(job_id) or JobApplication(job_id)


__all__ = [
    "ConcurrencyConflict",
    "identities",
    "jobs",
    "load_identity",
    "load_job",
]
