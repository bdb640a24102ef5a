"""Settle apply runs left running by a crash, and let the user resolve needs_verification.

A run with a submit intent and no terminal result may have sent: it becomes needs_verification
(``APPLY_NEEDS_VERIFICATION``) and is never resent.  A run without an intent provably sent nothing, so it
fails retryably (``apply_run_abandoned``).  Only the user settles needs_verification, by saying whether
the application went out.  Recovery is idempotent: re-running it on settled runs writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from jobctrl.apply.domain.errors import NothingToVerify
from jobctrl.apply.domain.job_application import RunStatus
from jobctrl.apply.domain.run_events import FailureResult, NeedsVerification
from jobctrl.apply.use_cases._common import jobs
from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.origin import NO_ORIGIN, WriteOrigin
from jobctrl.kernel.store import EventStore


@dataclass(frozen=True)
class Recovery:
    needs_verification: tuple[str, ...]
    abandoned: tuple[str, ...]


def recover_ambiguous_apply(
    store: EventStore,
    *,
    job_id: str,
    stale_run_ids: frozenset[str],
    clock: Clock | None = None,
    owner: WriteOrigin = NO_ORIGIN,
    tenant_id: str = LOCAL_TENANT,
) -> Recovery:
    """``stale_run_ids``: runs the caller knows have no live owner (Temporal describe says so)."""
    repo = jobs(store, clock, tenant_id)
    app = repo.load(job_id)
    if app is None:
        return Recovery((), ())
    verify, abandoned = [], []
    for run in app.runs_with(RunStatus.RUNNING):
        if run.run_id not in stale_run_ids:
            continue
        if run.intended:
            app.mark_needs_verification(run.run_id, NeedsVerification(cause="intent_without_result"))
            verify.append(run.run_id)
        else:
            app.fail(run.run_id, FailureResult(code="apply_run_abandoned", retryable=True))
            abandoned.append(run.run_id)
    repo.save(app, **owner.metadata())
    return Recovery(tuple(verify), tuple(abandoned))


def resolve_needs_verification(
    store: EventStore,
    *,
    job_id: str,
    run_id: str,
    submitted: bool,
    clock: Clock | None = None,
    owner: WriteOrigin = NO_ORIGIN,
    tenant_id: str = LOCAL_TENANT,
) -> RunStatus:
    """The user checked: the application went out (``submitted``) or provably did not."""
    repo = jobs(store, clock, tenant_id)
    app = repo.get(job_id)
    if submitted:
        app.mark_submitted(run_id, applied_at=now_iso(clock), verification_confidence=1.0)
    else:
        app.fail(
            run_id,
            FailureResult(code="not_submitted_on_verification", retryable=False),
            allow_needs_verification=True,
        )
    repo.save(app, **owner.metadata())
    return app.run(run_id).status


def settle_verification(
    store: EventStore,
    *,
    job_id: str,
    submitted: bool,
    run_id: str | None = None,
    clock: Clock | None = None,
    tenant_id: str = LOCAL_TENANT,
) -> tuple[str, RunStatus]:
    """The user's settlement of the job's run awaiting verification (the API's and the CLI's path).

    ``run_id`` may be left out when exactly one run waits.  "Submitted" records
    ``ApplicationSubmitted`` (the job counts as applied; a new live claim is refused for good); "not
    submitted" records ``ApplicationFailed`` with ``not_submitted_on_verification``, after which a new
    live claim may proceed.  A settlement that names no waiting run raises ``NothingToVerify`` and
    writes nothing, so a second settlement of the same run is refused."""
    app = jobs(store, clock, tenant_id).load(job_id)
    waiting = [] if app is None else [r.run_id for r in app.runs_with(RunStatus.NEEDS_VERIFICATION)]
    if run_id is None and len(waiting) > 1:
        raise NothingToVerify(
            f"{len(waiting)} runs of {job_id} await verification: name one ({', '.join(waiting)})"
        )
    chosen = run_id if run_id is not None else (waiting[0] if waiting else None)
    if chosen is None or chosen not in waiting:
        raise NothingToVerify(
            f"no apply run of {job_id} awaits verification" + (f" as {run_id}" if run_id else "")
        )
    status = resolve_needs_verification(
        store, job_id=job_id, run_id=chosen, submitted=submitted, clock=clock, tenant_id=tenant_id
    )
    return chosen, status
