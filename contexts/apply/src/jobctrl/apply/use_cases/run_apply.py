"""Run a claimed browser apply, dry or live, and record how it ended.

A dry run never submits: it records dry-run evidence (coverage bound to the materials generation,
profile version and URL it ran against); a driver reporting a submission during a dry run is a
violation and fails the run.  A live run fills the form and stops for the human's final submit
(``ApplySubmissionBlocked(trusted_final_submit_required)``), recording first the hand-off the person
finishes it from (``needs_manual_completion``: the reviewed URL and the answers it was filled with) --
unless the site's host is on the configured allowlist (``ClaimPolicy.browser_submit_hosts``, ADR 0280)
and the run is approved after dry-run evidence and filled the whole form: then ``ApplySubmitIntended``
is committed before the driver's one click on submit, and a click without a clear answer (or a
failure after the intent) needs the user's verification, never a second click.
An email target (``mailto:``) is never opened in a browser: its dry run records the exact candidate
message (recipient, subject, body, attachment) the user approves; its live run is
``send_email_application``.  A CAPTCHA or third-party challenge stops
either mode (fail closed).  The approval gate is re-checked before the browser opens for a live run.
"""

from __future__ import annotations

from dataclasses import dataclass

from jobctrl.apply.domain.approval import approval_refusal_reason
from jobctrl.apply.domain.errors import (
    ApprovalRefused,
    BrowserSubmitOutcomeAmbiguous,
    DryRunViolation,
    RunNotActive,
)
from jobctrl.apply.domain.facts import (
    ApplicantProfile,
    ApplicationMaterials,
    ClaimPolicy,
    CurrentJobFacts,
    answer_values,
    email_target,
)
from jobctrl.apply.domain.job_application import EmailCandidate, JobApplication, RunStatus
from jobctrl.apply.domain.run_events import (
    Answer,
    DryRunCompleted,
    FailureResult,
    ManualCompletionPrepared,
    NeedsVerification,
)
from jobctrl.apply.ports import (
    BrowserApplyPort,
    BrowserApplyRequest,
    ChallengeDetected,
    FormFilled,
    FormNotFound,
    FormSubmitted,
    PageUnavailable,
)
from jobctrl.apply.use_cases._common import jobs
from jobctrl.kernel.aggregate import AggregateRepository
from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.errors import MissingInputError
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.origin import NO_ORIGIN, WriteOrigin
from jobctrl.kernel.store import EventStore


@dataclass(frozen=True)
class ApplyRunResult:
    run_id: str
    status: RunStatus


def run_apply(
    store: EventStore,
    *,
    job_id: str,
    run_id: str,
    facts: CurrentJobFacts,
    policy: ClaimPolicy,
    profile: ApplicantProfile,
    materials: ApplicationMaterials,
    browser: BrowserApplyPort,
    clock: Clock | None = None,
    owner: WriteOrigin = NO_ORIGIN,
    tenant_id: str = LOCAL_TENANT,
) -> ApplyRunResult:
    repo = jobs(store, clock, tenant_id)
    app = repo.get(job_id)
    run = app.run(run_id)
    if run.status is not RunStatus.RUNNING:
        raise RunNotActive(f"apply run {run_id!r} is {run.status.value}")
    if facts.application_url is None or facts.materials_generation is None or facts.profile_version is None:
        raise MissingInputError("an apply run needs an application URL, materials and a profile version")
    if materials.generation != facts.materials_generation:
        raise MissingInputError("materials handed in are not the current generation")
    recipient = email_target(facts.application_url)
    if recipient is not None:
        if not run.dry_run:
            raise MissingInputError("a live email application is sent by send_email_application")
        if materials.resume_artifact_id is None:
            raise MissingInputError("an email application needs the resume PDF artifact")
        app.record_email_candidate(
            run_id,
            EmailCandidate(
                run_id=run_id,
                recipient=recipient,
                subject=f"Application: {facts.role or 'the open position'}"[:200],
                body=materials.cover_letter_text,
                attachment_artifact_id=materials.resume_artifact_id,
                attachment_name="resume.pdf",
            ),
        )
        app.complete_dry_run(
            run_id,
            DryRunCompleted(
                coverage="full", materials_generation=facts.materials_generation,
                profile_version=facts.profile_version, application_url=facts.application_url,
                filled=["email_recipient", "email_attachment"], missing=[], blocked_attempts=0,
            ),
        )  # fmt: skip
        _save(repo, app, owner)
        return ApplyRunResult(run_id=run_id, status=app.run(run_id).status)
    submits = False
    if not run.dry_run:
        reason = approval_refusal_reason(app, facts, email=False)
        if policy.approval_required and reason is not None:
            raise ApprovalRefused(reason)
        # Submitting itself needs all three: an allowlisted host, the approval bound to this target
        # after dry-run evidence (even when approval is not required to claim), and a whole form.
        submits = reason is None and policy.submits_browser_form(facts.application_url)
    intended = False

    def before_submit(form: FormFilled) -> bool:
        nonlocal intended
        if form.missing:
            return False  # an incomplete form is never sent: the person finishes it
        app.intend_submit(
            run_id, tenant_id=tenant_id, intended_at=now_iso(clock),
            material_version=f"{facts.materials_generation}:{materials.resume_artifact_id or 'browser-form'}",
        )  # fmt: skip
        _save(repo, app, owner)  # the intent is durable before the click
        intended = True
        return True

    request = BrowserApplyRequest(
        url=facts.application_url, profile=profile, materials=materials, dry_run=run.dry_run,
        before_submit=before_submit if submits else None,
    )  # fmt: skip
    try:
        outcome = browser.fill_application(request)
    except Exception as exc:
        if not intended:
            raise
        _ambiguous(repo, app, run_id, owner)
        message = f"apply run {run_id!r}: the browser failed after its intent"
        raise BrowserSubmitOutcomeAmbiguous(message) from exc
    if intended:
        if isinstance(outcome, FormSubmitted) and 200 <= outcome.status < 400:
            app.mark_submitted(run_id, applied_at=now_iso(clock), verification_confidence=1.0)
            _save(repo, app, owner)
            return ApplyRunResult(run_id=run_id, status=app.run(run_id).status)
        _ambiguous(repo, app, run_id, owner)
        raise BrowserSubmitOutcomeAmbiguous(f"apply run {run_id!r}: no clear answer to the one submit")
    violation = False
    match outcome:
        case ChallengeDetected():
            app.block(run_id, "third_party_challenge", blocked_at=now_iso(clock))
        case PageUnavailable():
            app.fail(run_id, FailureResult(code="page_unavailable", retryable=True))
        case FormNotFound():
            app.fail(run_id, FailureResult(code="form_not_found", retryable=False))
        case FormFilled() if run.dry_run and outcome.reported_submitted:
            violation = True
            app.fail(run_id, FailureResult(code="dry_run_violation", retryable=False))
        case FormFilled() if run.dry_run:
            app.complete_dry_run(run_id, _evidence(outcome, facts))
        case FormFilled():
            # The human always does the final browser submit, whatever the driver reported: the run
            # records the hand-off (what was filled, with which values) and stops.
            values = answer_values(profile, materials)
            answers = [Answer(field=k, value=values[k]) for k in outcome.filled if values.get(k)]
            app.hand_off(
                run_id,
                ManualCompletionPrepared(
                    application_url=facts.application_url, answers=answers,
                    resume_pdf_path=materials.resume_pdf_path,
                ),
            )  # fmt: skip
            app.block(run_id, "trusted_final_submit_required", blocked_at=now_iso(clock))
    _save(repo, app, owner)
    if violation:
        raise DryRunViolation(f"apply run {run_id!r}: a submission was reported during a dry run")
    return ApplyRunResult(run_id=run_id, status=app.run(run_id).status)


def _evidence(outcome: FormFilled, facts: CurrentJobFacts) -> DryRunCompleted:
    assert facts.materials_generation is not None and facts.profile_version is not None
    assert facts.application_url is not None
    return DryRunCompleted(
        coverage="partial" if outcome.missing else "full",
        materials_generation=facts.materials_generation,
        profile_version=facts.profile_version,
        application_url=facts.application_url,
        filled=list(outcome.filled),
        missing=list(outcome.missing),
        blocked_attempts=outcome.blocked_attempts,
    )


def _ambiguous(
    repo: AggregateRepository[JobApplication], app: JobApplication, run_id: str, owner: WriteOrigin
) -> None:
    app.mark_needs_verification(run_id, NeedsVerification(cause="browser_submit_outcome_ambiguous"))
    _save(repo, app, owner)


def _save(repo: AggregateRepository[JobApplication], app: JobApplication, owner: WriteOrigin) -> None:
    repo.save(app, **owner.metadata())
