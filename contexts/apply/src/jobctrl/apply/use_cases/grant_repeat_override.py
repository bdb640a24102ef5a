"""Let one more job of an employer+role already applied to be claimed live (used by one claim)."""

from __future__ import annotations

from jobctrl.apply.domain.facts import CurrentJobFacts
from jobctrl.apply.use_cases._common import identities, load_identity
from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.ids import LOCAL_TENANT, deterministic_id
from jobctrl.kernel.origin import NO_ORIGIN, WriteOrigin
from jobctrl.kernel.store import EventStore


def grant_repeat_override(
    store: EventStore,
    facts: CurrentJobFacts,
    *,
    reason: str | None = None,
    clock: Clock | None = None,
    owner: WriteOrigin = NO_ORIGIN,
    tenant_id: str = LOCAL_TENANT,
) -> str:
    repo = identities(store, clock, tenant_id)
    identity = load_identity(repo, facts.employer, facts.role)
    key = identity.id
    existing = identity.open_override(facts.job_id)
    if existing is not None:
        return existing
    override_id = deterministic_id("apply-repeat-override", key, facts.job_id, str(identity.version))
    identity.grant_override(
        job_id=facts.job_id,
        override_id=override_id,
        reason_present=bool(reason and reason.strip()),
        granted_at=now_iso(clock),
    )
    repo.save(identity, **owner.metadata())
    return override_id
