"""Record an Apply Review decision, bound to exactly what the user reviewed.

An approval may only name things already committed: a materials generation or profile version newer
than the committed one, or an email recipient/attachment no dry run has recorded, is refused and
nothing is written.  (An older target is recorded as given; the gate then reports it as stale.)
"""

from __future__ import annotations

from dataclasses import dataclass

from jobctrl.apply.domain.errors import InvalidReviewDecision
from jobctrl.apply.domain.facts import CurrentJobFacts
from jobctrl.apply.domain.job_application import JobApplication
from jobctrl.apply.events import ApplyReviewDecisionRecorded, ReviewDecision
from jobctrl.apply.use_cases._common import jobs, load_job
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.ids import LOCAL_TENANT, deterministic_id
from jobctrl.kernel.origin import NO_ORIGIN, WriteOrigin
from jobctrl.kernel.store import EventStore

APPROVALS: frozenset[ReviewDecision] = frozenset({"approve_submit", "approve_dry_run"})


@dataclass(frozen=True)
class ReviewDecisionCommand:
    job_id: str
    decision: ReviewDecision
    materials_generation: int | None = None
    profile_version: int | None = None
    application_url: str | None = None
    partial_override_run_id: str | None = None
    email_recipient: str | None = None
    email_attachment_artifact_id: str | None = None
    reason: str | None = None


def _target(command: ReviewDecisionCommand) -> tuple[object, ...]:
    """What an approval is bound to (a rejection names none of it)."""
    return (
        command.materials_generation,
        command.profile_version,
        command.application_url,
        command.partial_override_run_id,
        command.email_recipient,
        command.email_attachment_artifact_id,
    )


def _check(command: ReviewDecisionCommand, facts: CurrentJobFacts, app: JobApplication) -> None:
    if command.decision not in APPROVALS:
        if any(v is not None for v in _target(command)):
            raise InvalidReviewDecision(f"{command.decision} carries no review target")
        return
    recorded = app.state.email_candidate
    candidate = None if recorded is None else (recorded.recipient, recorded.attachment_artifact_id)
    if command.materials_generation is None or command.profile_version is None or not command.application_url:
        raise InvalidReviewDecision("an approval names a materials generation, profile version and URL")
    if facts.materials_generation is None or command.materials_generation > facts.materials_generation:
        raise InvalidReviewDecision("materials generation is not committed")
    if facts.profile_version is None or command.profile_version > facts.profile_version:
        raise InvalidReviewDecision("profile version is not committed")
    if not command.application_url.startswith(("https://", "http://", "mailto:")):
        raise InvalidReviewDecision("application URL must be http(s) or mailto:")
    if (command.email_recipient is None) != (command.email_attachment_artifact_id is None):
        raise InvalidReviewDecision("an email approval names both recipient and attachment")
    if command.email_recipient is not None and candidate != (
        command.email_recipient,
        command.email_attachment_artifact_id,
    ):
        raise InvalidReviewDecision("email recipient/attachment is not the recorded candidate")
    if command.partial_override_run_id is not None and command.partial_override_run_id not in app.state.runs:
        raise InvalidReviewDecision("partial-coverage override names no run of this job")


def check_review_decision(
    store: EventStore,
    command: ReviewDecisionCommand,
    facts: CurrentJobFacts,
    *,
    tenant_id: str = LOCAL_TENANT,
) -> None:
    """Raise ``InvalidReviewDecision`` exactly when ``record_review_decision`` would; writes nothing."""
    _check(command, facts, load_job(jobs(store, None, tenant_id), command.job_id))


def record_review_decision(
    store: EventStore,
    command: ReviewDecisionCommand,
    facts: CurrentJobFacts,
    *,
    clock: Clock | None = None,
    owner: WriteOrigin = NO_ORIGIN,
    tenant_id: str = LOCAL_TENANT,
) -> ApplyReviewDecisionRecorded:
    repo = jobs(store, clock, tenant_id)
    app = load_job(repo, command.job_id)
    _check(command, facts, app)
    event = ApplyReviewDecisionRecorded(
        job_key=command.job_id,
        # Derived from the stream position it decides at, so a retried command is an idempotent replay.
        decision_id=deterministic_id(
            "apply-review", command.job_id, str(app.version), command.decision, repr(_target(command))
        ),
        decision=command.decision,
        reason_present=bool(command.reason and command.reason.strip()),
        materials_generation=command.materials_generation,
        profile_version=command.profile_version,
        application_url=command.application_url,
        partial_override_run_id=command.partial_override_run_id,
        email_recipient=command.email_recipient,
        email_attachment_artifact_id=command.email_attachment_artifact_id,
    )
    app.record_decision(event)
    repo.save(app, **owner.metadata())
    return event
