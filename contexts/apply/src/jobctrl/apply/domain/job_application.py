"""The ``JobApplication`` aggregate: one stream per job holding its reviews, runs and results.

Keeping review decisions, email candidates and runs in one stream makes the stream version the claim
lock: a claim appends ``ApplyRunStarted`` at the version it checked the rules against, so two claimers
cannot both start a run (the second gets a concurrency conflict and writes nothing), and an approval
recorded concurrently with a claim also moves the version the claim depends on.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import msgspec

from jobctrl.apply.domain.errors import (
    ClaimRefusal,
    ClaimRefused,
    FollowUpNotPending,
    RunNotActive,
    SubmitAlreadyIntended,
    UnknownApplyRun,
)
from jobctrl.apply.domain.facts import ClaimPolicy, CurrentJobFacts
from jobctrl.apply.domain.run_events import (
    DryRunCompleted,
    FailureResult,
    ManualCompletionPrepared,
    NeedsVerification,
    decode_run_event,
    encode_body,
)
from jobctrl.apply.events import (
    ApplicationFailed,
    ApplicationFollowUpSnoozed,
    ApplicationOutcomeRecorded,
    ApplicationSubmitted,
    ApplyReviewDecisionRecorded,
    ApplyRunEventRecorded,
    ApplyRunStarted,
    ApplySubmissionBlocked,
    ApplySubmitIntended,
    BlockReason,
    EmailApplicationCandidateRecorded,
)
from jobctrl.kernel.aggregate import Aggregate, applies


class RunStatus(enum.Enum):
    RUNNING = "running"
    DRY_RUN_COMPLETED = "dry_run_completed"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    BLOCKED = "blocked"
    NEEDS_VERIFICATION = "needs_verification"


TERMINAL = frozenset({RunStatus.DRY_RUN_COMPLETED, RunStatus.SUCCEEDED, RunStatus.FAILED, RunStatus.BLOCKED})


@dataclass
class RunState:
    run_id: str
    dry_run: bool
    status: RunStatus = RunStatus.RUNNING
    intended: bool = False
    evidence: DryRunCompleted | None = None
    handoff: ManualCompletionPrepared | None = None


# The email a dry run found, recorded as it is found: the candidate and its event are one fact.
EmailCandidate = EmailApplicationCandidateRecorded


@dataclass
class JobApplicationState:
    latest_decision: ApplyReviewDecisionRecorded | None = None
    email_candidate: EmailCandidate | None = None
    runs: dict[str, RunState] = field(default_factory=dict)
    live_attempts: int = 0
    outcomes: list[ApplicationOutcomeRecorded] = field(default_factory=list)
    follow_up_snoozed_until: str | None = None


class JobApplication(Aggregate):
    stream_prefix = "apply-job"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.state = JobApplicationState()

    # -- queries ----------------------------------------------------------------------------------
    @property
    def job_id(self) -> str:
        return self.id

    def run(self, run_id: str) -> RunState:
        found = self.state.runs.get(run_id)
        if found is None:
            raise UnknownApplyRun(f"no apply run {run_id!r} for job {self.id!r}")
        return found

    def runs_with(self, *statuses: RunStatus) -> list[RunState]:
        return [r for r in self.state.runs.values() if r.status in statuses]

    @property
    def submitted_or_unknown(self) -> bool:
        """True once a submit may have happened: the job is never submitted automatically again."""
        return bool(self.runs_with(RunStatus.SUCCEEDED, RunStatus.NEEDS_VERIFICATION)) or any(
            r.intended and r.status is not RunStatus.FAILED for r in self.state.runs.values()
        )

    # -- commands ---------------------------------------------------------------------------------
    def record_decision(self, decision: ApplyReviewDecisionRecorded) -> None:
        self._record(decision)

    def claim_refusal(
        self, facts: CurrentJobFacts, policy: ClaimPolicy, *, dry_run: bool, batch: bool
    ) -> ClaimRefused | None:
        """The claim rules of the reference, in its order; ``None`` means the claim may proceed."""
        reason: ClaimRefusal | None = None
        if not facts.resume_pdf_ready:
            reason = "resume_pdf_not_ready"
        elif not facts.score_current:
            reason = "score_not_current"
        elif not facts.score_eligible:
            reason = "score_not_eligible"
        elif facts.closed:
            reason = "job_closed"
        elif self.runs_with(RunStatus.RUNNING):
            reason = "apply_row_active"  # one attempt at a time, dry or live
        elif (batch or not dry_run) and self.runs_with(RunStatus.NEEDS_VERIFICATION):
            reason = "needs_verification"
        elif (batch or not dry_run) and self.submitted_or_unknown:
            reason = "already_applied"
        elif batch and not facts.application_url:
            reason = "no_apply_target"
        elif batch and (facts.score is None or facts.score < policy.min_score):
            reason = "score_below_minimum"
        elif not dry_run and self.state.live_attempts >= policy.max_attempts:
            reason = "attempts_exhausted"
        elif batch and facts.site_blocked:
            reason = "site_blocked"
        elif batch and facts.enrichment_quarantined:
            reason = "enrichment_quarantined"
        return None if reason is None else ClaimRefused(reason)

    def start_run(
        self,
        *,
        run_id: str,
        worker_id: str,
        model: str,
        dry_run: bool,
        started_at: str,
        facts: CurrentJobFacts,
        policy: ClaimPolicy,
        batch: bool,
    ) -> None:
        refusal = self.claim_refusal(facts, policy, dry_run=dry_run, batch=batch)
        if refusal is not None:
            raise refusal
        self._record(
            ApplyRunStarted(
                job_id=self.id,
                run_id=run_id,
                worker_id=worker_id,
                model=model,
                dry_run=dry_run,
                started_at=started_at,
            )
        )

    def _active(self, run_id: str) -> RunState:
        run = self.run(run_id)
        if run.status is not RunStatus.RUNNING:
            raise RunNotActive(f"apply run {run_id!r} is {run.status.value}")
        return run

    def record_email_candidate(self, run_id: str, candidate: EmailCandidate) -> None:
        self._active(run_id)
        self._record(msgspec.structs.replace(candidate, run_id=run_id))

    def complete_dry_run(self, run_id: str, evidence: DryRunCompleted) -> None:
        run = self._active(run_id)
        if not run.dry_run:
            raise RunNotActive(f"apply run {run_id!r} is live; only a dry run records dry-run evidence")
        self._record(ApplyRunEventRecorded(run_id=run_id, event=encode_body(evidence)))

    def intend_submit(self, run_id: str, *, tenant_id: str, material_version: str, intended_at: str) -> None:
        run = self._active(run_id)
        if run.dry_run:
            raise RunNotActive(f"apply run {run_id!r} is a dry run; it never submits")
        if self.submitted_or_unknown:
            # At most once: an earlier intent (or success) means a send may already have happened.
            raise SubmitAlreadyIntended(f"job {self.id!r} already has a submit intent")
        self._record(
            ApplySubmitIntended(
                tenant_id=tenant_id,
                job_key=self.id,
                run_id=run_id,
                material_version=material_version,
                intended_at=intended_at,
            )
        )

    def mark_submitted(self, run_id: str, *, applied_at: str, verification_confidence: float) -> None:
        run = self.run(run_id)
        if run.status not in (RunStatus.RUNNING, RunStatus.NEEDS_VERIFICATION) or not run.intended:
            raise RunNotActive(f"apply run {run_id!r} has no open submit intent")
        self._record(
            ApplicationSubmitted(
                job_id=self.id,
                run_id=run_id,
                applied_at=applied_at,
                verification_confidence=verification_confidence,
            )
        )

    def fail(self, run_id: str, result: FailureResult, *, allow_needs_verification: bool = False) -> None:
        run = self.run(run_id)
        allowed = {RunStatus.RUNNING} | (
            {RunStatus.NEEDS_VERIFICATION} if allow_needs_verification else set()
        )
        if run.status not in allowed:
            raise RunNotActive(f"apply run {run_id!r} is {run.status.value}")
        if run.intended and not allow_needs_verification:
            # A failure after an intent cannot prove nothing was sent; that is needs_verification.
            raise SubmitAlreadyIntended(f"apply run {run_id!r} intended a submit; verify it instead")
        self._record(
            ApplicationFailed(
                job_id=self.id,
                run_id=run_id,
                result=encode_body(result),
                attempt_number=self.state.live_attempts,
            )
        )

    def hand_off(self, run_id: str, handoff: ManualCompletionPrepared) -> None:
        """A live browser run records what the person needs to finish the form by hand."""
        run = self._active(run_id)
        if run.dry_run:
            raise RunNotActive(f"apply run {run_id!r} is a dry run; it hands nothing off")
        self._record(ApplyRunEventRecorded(run_id=run_id, event=encode_body(handoff)))

    @property
    def latest_handoff(self) -> ManualCompletionPrepared | None:
        found = [r.handoff for r in self.state.runs.values() if r.handoff is not None]
        return found[-1] if found else None

    def block(self, run_id: str, reason: BlockReason, *, blocked_at: str) -> None:
        self._active(run_id)
        self._record(
            ApplySubmissionBlocked(job_id=self.id, run_id=run_id, reason=reason, blocked_at=blocked_at)
        )

    def mark_needs_verification(self, run_id: str, body: NeedsVerification) -> None:
        run = self._active(run_id)
        if not run.intended:
            raise RunNotActive(f"apply run {run_id!r} has no submit intent")
        self._record(ApplyRunEventRecorded(run_id=run_id, event=encode_body(body)))

    @property
    def follow_up_pending(self) -> bool:
        """Applied (submitted, or recorded as applied by the user) and no other outcome yet."""
        applied = bool(self.runs_with(RunStatus.SUCCEEDED)) or any(
            o.kind == "applied_confirmation" for o in self.state.outcomes
        )
        return applied and all(o.kind == "applied_confirmation" for o in self.state.outcomes)

    def snooze_follow_up(self, *, until: str, at: str) -> None:
        if not self.follow_up_pending:
            raise FollowUpNotPending(f"job {self.id!r} has no follow-up pending (not applied, or settled)")
        self._record(ApplicationFollowUpSnoozed(job_id=self.id, until=until, snoozed_at=at))

    def record_outcome(self, event: ApplicationOutcomeRecorded) -> None:
        if any(o.outcome_id == event.outcome_id for o in self.state.outcomes):
            return  # the same command replayed: recorded once
        self._record(event)

    # -- fold -------------------------------------------------------------------------------------
    @applies(ApplicationFollowUpSnoozed)
    def _on_snoozed(self, event: ApplicationFollowUpSnoozed) -> None:
        self.state.follow_up_snoozed_until = event.until  # the latest snooze wins

    @applies(ApplicationOutcomeRecorded)
    def _on_outcome(self, event: ApplicationOutcomeRecorded) -> None:
        self.state.outcomes.append(event)

    @applies(ApplyReviewDecisionRecorded)
    def _on_decision(self, event: ApplyReviewDecisionRecorded) -> None:
        self.state.latest_decision = event

    @applies(ApplyRunStarted)
    def _on_started(self, event: ApplyRunStarted) -> None:
        self.state.runs[event.run_id] = RunState(run_id=event.run_id, dry_run=event.dry_run)
        if not event.dry_run:
            self.state.live_attempts += 1

    @applies(EmailApplicationCandidateRecorded)
    def _on_candidate(self, event: EmailApplicationCandidateRecorded) -> None:
        self.state.email_candidate = event

    @applies(ApplyRunEventRecorded)
    def _on_run_event(self, event: ApplyRunEventRecorded) -> None:
        run = self.state.runs[event.run_id]
        body = decode_run_event(event.event)
        if isinstance(body, DryRunCompleted):
            run.status = RunStatus.DRY_RUN_COMPLETED
            run.evidence = body
        elif isinstance(body, ManualCompletionPrepared):
            run.handoff = body  # the run stays running until its block is recorded
        else:
            run.status = RunStatus.NEEDS_VERIFICATION

    @applies(ApplySubmitIntended)
    def _on_intended(self, event: ApplySubmitIntended) -> None:
        self.state.runs[event.run_id].intended = True

    @applies(ApplicationSubmitted)
    def _on_submitted(self, event: ApplicationSubmitted) -> None:
        self.state.runs[event.run_id].status = RunStatus.SUCCEEDED

    @applies(ApplicationFailed)
    def _on_failed(self, event: ApplicationFailed) -> None:
        self.state.runs[event.run_id].status = RunStatus.FAILED

    @applies(ApplySubmissionBlocked)
    def _on_blocked(self, event: ApplySubmissionBlocked) -> None:
        self.state.runs[event.run_id].status = RunStatus.BLOCKED
