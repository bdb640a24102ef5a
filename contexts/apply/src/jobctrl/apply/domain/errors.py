"""Typed errors of the Apply context.  Every refusal writes nothing; each carries a stable code."""

from __future__ import annotations

from typing import Literal

from jobctrl.kernel.errors import JobCtrlError

ApprovalRefusal = Literal[
    "awaiting_approval",
    "approval_stale_materials",
    "approval_stale_profile",
    "approval_stale_url",
    "approval_stale_email_candidate",
    "awaiting_dry_run",
    "override_evidence_invalid",
]

ClaimRefusal = Literal[
    "resume_pdf_not_ready",
    "score_not_current",
    "score_not_eligible",
    "score_below_minimum",
    "job_closed",
    "no_apply_target",
    "apply_row_active",
    "already_applied",
    "needs_verification",
    "attempts_exhausted",
    "site_blocked",
    "enrichment_quarantined",
    "repeat_application",
]


class ApprovalRefused(JobCtrlError):
    """The approval gate said no; ``reason`` is one of the reference refusal reasons."""

    code = "approval_refused"
    retryable = False

    def __init__(self, reason: ApprovalRefusal) -> None:
        super().__init__(f"apply approval refused: {reason}")
        self.reason: ApprovalRefusal = reason


class ClaimRefused(JobCtrlError):
    code = "apply_claim_refused"
    retryable = False

    def __init__(self, reason: ClaimRefusal) -> None:
        super().__init__(f"apply claim refused: {reason}")
        self.reason: ClaimRefusal = reason


class ClaimConflict(JobCtrlError):
    """Another claimer committed first (the stream version moved): this one holds no lock."""

    code = "apply_claim_conflict"
    retryable = False


class InvalidReviewDecision(JobCtrlError):
    """A review decision that names something not committed, or is malformed."""

    code = "invalid_review_decision"
    retryable = False


class UnknownApplyRun(JobCtrlError):
    code = "unknown_apply_run"
    retryable = False


class FollowUpNotPending(JobCtrlError):
    """A snooze of a follow-up that is not pending (the job was not applied to, or has an outcome)."""

    code = "follow_up_not_pending"
    retryable = False


class InvalidSnooze(JobCtrlError):
    code = "invalid_snooze"
    retryable = False


class NothingToVerify(JobCtrlError):
    """A settlement named no run awaiting verification (none waits, the run named does not, or
    several wait and none was named): nothing is written."""

    code = "no_run_needs_verification"
    retryable = False


class RunNotActive(JobCtrlError):
    """A result for a run that is not running (first terminal result wins; late reports write nothing)."""

    code = "apply_run_not_active"
    retryable = False


class SubmitAlreadyIntended(JobCtrlError):
    """An intent exists for this job already: a second send is never attempted automatically."""

    code = "apply_needs_verification"
    retryable = False


class EmailSendOutcomeAmbiguous(JobCtrlError):
    """The SMTP sender raised after the intent was recorded: the mail may or may not have left."""

    code = "email_send_outcome_ambiguous"
    retryable = False


class BrowserSubmitOutcomeAmbiguous(JobCtrlError):
    """A browser submit was clicked after the intent but no answer was seen: it may have gone."""

    code = "browser_submit_outcome_ambiguous"
    retryable = False


class DryRunViolation(JobCtrlError):
    """An adapter reported a submission during a dry run."""

    code = "dry_run_violation"
    retryable = False
