"""The approval gate: is the latest review decision a current ``approve_submit`` with dry-run evidence?

An approval is bound to what the user reviewed (materials generation, profile version, application URL
and, for email, recipient and attachment).  Anything that moved since makes it stale, and the refusal
names what moved, in the reference order.  Reading is fail-closed: a store that cannot be read answers
``awaiting_approval``, never "approved".
"""

from __future__ import annotations

from sqlalchemy.exc import SQLAlchemyError

from jobctrl.apply.domain.errors import ApprovalRefusal
from jobctrl.apply.domain.facts import CurrentJobFacts
from jobctrl.apply.domain.job_application import JobApplication, RunStatus
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.errors import StorageUnavailable
from jobctrl.kernel.store import EventStore


def approval_refusal_reason(
    app: JobApplication, facts: CurrentJobFacts, *, email: bool
) -> ApprovalRefusal | None:
    decision = app.state.latest_decision
    if decision is None or decision.decision != "approve_submit":
        return "awaiting_approval"
    if facts.materials_generation is None or decision.materials_generation != facts.materials_generation:
        return "approval_stale_materials"
    if facts.profile_version is None or decision.profile_version != facts.profile_version:
        return "approval_stale_profile"
    if facts.application_url is None or decision.application_url != facts.application_url:
        return "approval_stale_url"
    candidate = app.state.email_candidate
    if email:
        if (
            candidate is None
            or decision.email_recipient != candidate.recipient
            or decision.email_attachment_artifact_id != candidate.attachment_artifact_id
        ):
            return "approval_stale_email_candidate"
        # The candidate was found by a dry run of this job; that run is the email's dry-run evidence.
        if app.run(candidate.run_id).dry_run:
            return None
        return "awaiting_dry_run"
    return _dry_run_refusal(app, facts, decision.partial_override_run_id)


def _dry_run_refusal(
    app: JobApplication, facts: CurrentJobFacts, override_run_id: str | None
) -> ApprovalRefusal | None:
    def matches(run_id: str) -> bool:
        run = app.state.runs.get(run_id)
        evidence = run.evidence if run is not None else None
        return (
            evidence is not None
            and evidence.materials_generation == facts.materials_generation
            and evidence.profile_version == facts.profile_version
            and evidence.application_url == facts.application_url
        )

    if override_run_id is not None:
        # A partial-coverage override is bound to one run; it must be that run's current, partial evidence.
        run = app.state.runs.get(override_run_id)
        if (
            run is None
            or run.evidence is None
            or run.evidence.coverage != "partial"
            or not matches(override_run_id)
        ):
            return "override_evidence_invalid"
        return None
    full = [
        r
        for r in app.runs_with(RunStatus.DRY_RUN_COMPLETED)
        if r.evidence is not None and r.evidence.coverage == "full" and matches(r.run_id)
    ]
    return None if full else "awaiting_dry_run"


def read_approval(store: EventStore, facts: CurrentJobFacts, *, email: bool) -> ApprovalRefusal | None:
    """The gate against the stored log.  An unreadable store is "not approved" (fail closed)."""
    try:
        app = AggregateRepository.for_class(store, JobApplication).load(facts.job_id)
    except (StorageUnavailable, SQLAlchemyError, OSError):
        return "awaiting_approval"
    if app is None:
        return "awaiting_approval"
    return approval_refusal_reason(app, facts, email=email)
