"""The apply bounded context: reviewing, claiming and submitting applications, never twice.

* ``events`` — published events (importable without the aggregates).
* ``domain`` — the aggregates ``job_application.JobApplication`` (one stream per job) and
  ``identity.ApplicationIdentity`` (repeat-application protection per employer + role); the
  approval gate (``approval``), the facts handed in about a job (``facts``), the typed bodies of run
  events (``run_events``) and the typed errors (``errors``).
* ``use_cases`` — one command per module: ``record_review_decision``, ``claim_apply``, ``run_apply``,
  ``record_outcome``, ``recover_ambiguous_apply``, ``grant_repeat_override``,
  ``record_email_candidate``, ``send_email_application``, ``select_apply_candidates`` (which jobs the
  standing loop may claim next) (``_common`` is their private plumbing).
* ``ports`` — the browser that fills forms, the email sender, the artifact reader.
* ``adapters`` — ``browser.PlaywrightBrowserApply`` (behind the network guard) and ``smtp.SmtpEmailSender``.
* ``activities`` — the ``apply`` Temporal activity (one job, or one batch of the continuous loop).

The public face below is resolved lazily (``jobctrl.kernel.exports``): importing this package, as
importing its ``events`` does, imports nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jobctrl.kernel.exports import lazy_exports

if TYPE_CHECKING:
    from jobctrl.apply.adapters.browser import PlaywrightBrowserApply, launch_chromium
    from jobctrl.apply.adapters.guard_script import CLASSIFY_JS
    from jobctrl.apply.adapters.smtp import SmtpEmailSender
    from jobctrl.apply.domain.approval import approval_refusal_reason
    from jobctrl.apply.domain.errors import (
        ApprovalRefusal,
        FollowUpNotPending,
        InvalidReviewDecision,
        InvalidSnooze,
        NothingToVerify,
    )
    from jobctrl.apply.domain.facts import (
        ApplicantProfile,
        ApplicationMaterials,
        ClaimPolicy,
        CurrentJobFacts,
        email_target,
    )
    from jobctrl.apply.domain.identity import ApplicationIdentity
    from jobctrl.apply.domain.job_application import JobApplication, RunStatus
    from jobctrl.apply.domain.run_events import ManualCompletionPrepared
    from jobctrl.apply.ports import ArtifactReader, BrowserApplyPort, EmailSenderPort
    from jobctrl.apply.use_cases._common import jobs as application_repository
    from jobctrl.apply.use_cases.claim_apply import ApplyClaim, claim_apply
    from jobctrl.apply.use_cases.grant_repeat_override import grant_repeat_override
    from jobctrl.apply.use_cases.record_email_candidate import record_email_candidate
    from jobctrl.apply.use_cases.record_outcome import (
        USER_OUTCOMES,
        USER_WORD,
        InvalidOutcome,
        UserOutcome,
        record_outcome,
    )
    from jobctrl.apply.use_cases.record_review_decision import (
        ReviewDecisionCommand,
        check_review_decision,
        record_review_decision,
    )
    from jobctrl.apply.use_cases.recover_ambiguous_apply import (
        recover_ambiguous_apply,
        resolve_needs_verification,
        settle_verification,
    )
    from jobctrl.apply.use_cases.run_apply import ApplyRunResult, run_apply
    from jobctrl.apply.use_cases.select_apply_candidates import select_apply_candidates
    from jobctrl.apply.use_cases.send_email_application import send_email_application
    from jobctrl.apply.use_cases.snooze_follow_up import snooze_follow_up

_EXPORTS: dict[str, str] = {
    "application_repository": "jobctrl.apply.use_cases._common:jobs",
    "record_review_decision": "jobctrl.apply.use_cases.record_review_decision",
    "ReviewDecisionCommand": "jobctrl.apply.use_cases.record_review_decision",
    "claim_apply": "jobctrl.apply.use_cases.claim_apply",
    "ApplyClaim": "jobctrl.apply.use_cases.claim_apply",
    "run_apply": "jobctrl.apply.use_cases.run_apply",
    "ApplyRunResult": "jobctrl.apply.use_cases.run_apply",
    "record_outcome": "jobctrl.apply.use_cases.record_outcome",
    "recover_ambiguous_apply": "jobctrl.apply.use_cases.recover_ambiguous_apply",
    "resolve_needs_verification": "jobctrl.apply.use_cases.recover_ambiguous_apply",
    "settle_verification": "jobctrl.apply.use_cases.recover_ambiguous_apply",
    "snooze_follow_up": "jobctrl.apply.use_cases.snooze_follow_up",
    "grant_repeat_override": "jobctrl.apply.use_cases.grant_repeat_override",
    "record_email_candidate": "jobctrl.apply.use_cases.record_email_candidate",
    "send_email_application": "jobctrl.apply.use_cases.send_email_application",
    "select_apply_candidates": "jobctrl.apply.use_cases.select_apply_candidates",
    "BrowserApplyPort": "jobctrl.apply.ports",
    "EmailSenderPort": "jobctrl.apply.ports",
    "ArtifactReader": "jobctrl.apply.ports",
    "JobApplication": "jobctrl.apply.domain.job_application",
    "ApplicationIdentity": "jobctrl.apply.domain.identity",
    "PlaywrightBrowserApply": "jobctrl.apply.adapters.browser",
    "SmtpEmailSender": "jobctrl.apply.adapters.smtp",
    "ApplicantProfile": "jobctrl.apply.domain.facts",
    "ApplicationMaterials": "jobctrl.apply.domain.facts",
    "ApprovalRefusal": "jobctrl.apply.domain.errors",
    "CLASSIFY_JS": "jobctrl.apply.adapters.guard_script",
    "ClaimPolicy": "jobctrl.apply.domain.facts",
    "CurrentJobFacts": "jobctrl.apply.domain.facts",
    "InvalidOutcome": "jobctrl.apply.use_cases.record_outcome",
    "InvalidReviewDecision": "jobctrl.apply.domain.errors",
    "ManualCompletionPrepared": "jobctrl.apply.domain.run_events",
    "RunStatus": "jobctrl.apply.domain.job_application",
    "USER_OUTCOMES": "jobctrl.apply.use_cases.record_outcome",
    "USER_WORD": "jobctrl.apply.use_cases.record_outcome",
    "UserOutcome": "jobctrl.apply.use_cases.record_outcome",
    "approval_refusal_reason": "jobctrl.apply.domain.approval",
    "check_review_decision": "jobctrl.apply.use_cases.record_review_decision",
    "email_target": "jobctrl.apply.domain.facts",
    "launch_chromium": "jobctrl.apply.adapters.browser",
    "NothingToVerify": "jobctrl.apply.domain.errors",
    "FollowUpNotPending": "jobctrl.apply.domain.errors",
    "InvalidSnooze": "jobctrl.apply.domain.errors",
}
__all__ = [
    "CLASSIFY_JS",
    "USER_OUTCOMES",
    "USER_WORD",
    "ApplicantProfile",
    "ApplicationIdentity",
    "ApplicationMaterials",
    "ApplyClaim",
    "ApplyRunResult",
    "ApprovalRefusal",
    "ArtifactReader",
    "BrowserApplyPort",
    "ClaimPolicy",
    "CurrentJobFacts",
    "EmailSenderPort",
    "FollowUpNotPending",
    "InvalidOutcome",
    "InvalidReviewDecision",
    "InvalidSnooze",
    "JobApplication",
    "ManualCompletionPrepared",
    "NothingToVerify",
    "PlaywrightBrowserApply",
    "ReviewDecisionCommand",
    "RunStatus",
    "SmtpEmailSender",
    "UserOutcome",
    "application_repository",
    "approval_refusal_reason",
    "check_review_decision",
    "claim_apply",
    "email_target",
    "grant_repeat_override",
    "launch_chromium",
    "record_email_candidate",
    "record_outcome",
    "record_review_decision",
    "recover_ambiguous_apply",
    "resolve_needs_verification",
    "run_apply",
    "select_apply_candidates",
    "send_email_application",
    "settle_verification",
    "snooze_follow_up",
]
__getattr__ = lazy_exports(__name__, _EXPORTS)
