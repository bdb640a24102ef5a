"""Send an approved email application once.

Order is the invariant: check the gate (exact recipient and attachment approved), append and commit
``ApplySubmitIntended``, only then hand the message to the sender.  A sender exception cannot tell
whether the mail left, so the run becomes needs_verification (``email_send_outcome_ambiguous``,
non-retryable) and nothing is ever resent automatically.  The message goes to the approved recipient
only, with the approved attachment only.
"""

from __future__ import annotations

from jobctrl.apply.domain.approval import approval_refusal_reason
from jobctrl.apply.domain.errors import ApprovalRefused, EmailSendOutcomeAmbiguous, RunNotActive
from jobctrl.apply.domain.facts import CurrentJobFacts
from jobctrl.apply.domain.job_application import RunStatus
from jobctrl.apply.domain.run_events import NeedsVerification
from jobctrl.apply.ports import ArtifactReader, EmailSenderPort, OutgoingEmail
from jobctrl.apply.use_cases._common import jobs
from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.origin import NO_ORIGIN, WriteOrigin
from jobctrl.kernel.store import EventStore


def send_email_application(
    store: EventStore,
    *,
    run_id: str,
    facts: CurrentJobFacts,
    sender: EmailSenderPort,
    artifacts: ArtifactReader,
    tenant_id: str = LOCAL_TENANT,
    clock: Clock | None = None,
    owner: WriteOrigin = NO_ORIGIN,
) -> RunStatus:
    repo = jobs(store, clock, tenant_id)
    app = repo.get(facts.job_id)
    run = app.run(run_id)
    if run.dry_run:
        raise RunNotActive(f"apply run {run_id!r} is a dry run; it never sends")
    if run.status is not RunStatus.RUNNING:
        # Sent, failed or ambiguous: a run sends at most once and is never resent automatically.
        raise RunNotActive(f"apply run {run_id!r} is {run.status.value}")
    reason = approval_refusal_reason(app, facts, email=True)
    if reason is not None:
        raise ApprovalRefused(reason)
    candidate = app.state.email_candidate
    assert candidate is not None  # the gate refuses without one
    attachment = artifacts.read(candidate.attachment_artifact_id)
    app.intend_submit(
        run_id,
        tenant_id=tenant_id,
        material_version=f"{facts.materials_generation}:{candidate.attachment_artifact_id}",
        intended_at=now_iso(clock),
    )
    repo.save(app, **owner.metadata())  # the intent is durable before any byte goes out
    try:
        sender.send(
            OutgoingEmail(
                recipient=candidate.recipient,
                subject=candidate.subject,
                body=candidate.body,
                attachment_name=candidate.attachment_name,
                attachment=attachment,
            )
        )
    except Exception as exc:
        app.mark_needs_verification(run_id, NeedsVerification(cause="email_send_outcome_ambiguous"))
        repo.save(app, **owner.metadata())
        raise EmailSendOutcomeAmbiguous(f"apply run {run_id!r}: the sender failed after the intent") from exc
    app.mark_submitted(run_id, applied_at=now_iso(clock), verification_confidence=1.0)
    repo.save(app, **owner.metadata())
    return app.run(run_id).status
