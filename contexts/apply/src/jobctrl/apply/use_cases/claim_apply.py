"""Claim a job for an apply run: the claim is the lock and commits with ``ApplyRunStarted``.

Rules (in order): every claim needs a ready resume PDF, a current eligible score and an open job, and no
run in progress; live and batch claims also need that nothing was (or may have been) submitted already;
batch claims need an apply target, a score >= ``min_score``, no blocked site, no quarantined
enrichment; live claims count against the 3-attempt budget, pass the approval gate when approval is
required, and pass the repeat-application check.  All checks run against the versions the transaction
appends at, so a concurrent claim, review or send makes this one fail with ``ClaimConflict``.
"""

from __future__ import annotations

from dataclasses import dataclass

from jobctrl.apply.domain.approval import approval_refusal_reason
from jobctrl.apply.domain.errors import ApprovalRefused, ClaimConflict
from jobctrl.apply.domain.facts import ClaimPolicy, CurrentJobFacts
from jobctrl.apply.domain.identity import ApplicationIdentity
from jobctrl.apply.use_cases._common import (
    ConcurrencyConflict,
    identities,
    jobs,
    load_identity,
    load_job,
)
from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.origin import NO_ORIGIN, WriteOrigin
from jobctrl.kernel.store import EventStore


@dataclass(frozen=True)
class ApplyClaim:
    job_id: str
    run_id: str
    dry_run: bool


def claim_apply(
    store: EventStore,
    facts: CurrentJobFacts,
    policy: ClaimPolicy,
    *,
    run_id: str,
    worker_id: str,
    model: str,
    dry_run: bool,
    batch: bool = False,
    email: bool = False,
    clock: Clock | None = None,
    owner: WriteOrigin = NO_ORIGIN,
    tenant_id: str = LOCAL_TENANT,
) -> ApplyClaim:
    job_repo, id_repo = jobs(store, clock, tenant_id), identities(store, clock, tenant_id)
    app = load_job(job_repo, facts.job_id)
    started_at = now_iso(clock)
    app.start_run(
        run_id=run_id,
        worker_id=worker_id,
        model=model,
        dry_run=dry_run,
        started_at=started_at,
        facts=facts,
        policy=policy,
        batch=batch,
    )
    identity: ApplicationIdentity | None = None
    if not dry_run:
        # An email send is gated even when approval is not required (exact recipient and attachment).
        if policy.approval_required or email:
            reason = approval_refusal_reason(app, facts, email=email)
            if reason is not None:
                raise ApprovalRefused(reason)
        identity = load_identity(id_repo, facts.employer, facts.role)
        identity.claim(job_id=facts.job_id, run_id=run_id, claimed_at=started_at)
    try:
        with store.transaction() as tx:
            job_repo.save(app, tx=tx, **owner.metadata())
            if identity is not None:
                id_repo.save(identity, tx=tx, **owner.metadata())
    except ConcurrencyConflict as exc:
        raise ClaimConflict(f"job {facts.job_id!r}: another writer committed first") from exc
    return ApplyClaim(job_id=facts.job_id, run_id=run_id, dry_run=dry_run)
