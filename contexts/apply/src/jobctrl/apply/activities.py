"""Apply's Temporal activity: ``apply`` (one job, or one batch of the continuous loop).

The current job facts, the applicant and the materials come from ports the composition root implements
over the other contexts' facts; the claim policy (minimum score, approval) is re-read at claim time.
Each job gets one apply run whose id derives from the Temporal run and the job, so an activity retry
re-attaches to its run instead of claiming twice (a run already finished is counted, not redone).
The browser is Playwright's sync API, bound to the thread that started it, so all browser work runs on
one dedicated thread.  A dry run never submits; ``submitted`` counts only live runs that reached it.
Everything an apply writes carries the workflow's tenant (``ApplyActivityInput.tenant_id``, ADR 0082).

An email target (``mailto:``): the dry run records the candidate message; the live run sends it once
through the owned sender (``send_email_application``: the intent commits before the send).  A retry
that finds its run already intended never sends again: the run becomes needs_verification (ADR 0161).
A live browser run on an allowlisted site (``ClaimPolicy.browser_submit_hosts``) submits the same way:
intent, then one click, and a retry after the intent never clicks again (ADR 0280).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from temporalio import activity

from jobctrl.activity_contracts.contracts import ApplyActivityInput, ApplyActivityResult
from jobctrl.activity_contracts.errors import to_application_error
from jobctrl.activity_contracts.stage_tracking import StepOwner, owner_from_activity
from jobctrl.activity_contracts.threads import run_heartbeating
from jobctrl.apply.domain.errors import BrowserSubmitOutcomeAmbiguous, EmailSendOutcomeAmbiguous
from jobctrl.apply.domain.facts import (
    ApplicantProfile,
    ApplicationMaterials,
    ClaimPolicy,
    CurrentJobFacts,
    email_target,
)
from jobctrl.apply.domain.job_application import RunStatus
from jobctrl.apply.domain.run_events import NeedsVerification
from jobctrl.apply.ports import ArtifactReader, BrowserApplyPort, EmailSenderPort
from jobctrl.apply.use_cases._common import jobs
from jobctrl.apply.use_cases.claim_apply import claim_apply
from jobctrl.apply.use_cases.recover_ambiguous_apply import recover_ambiguous_apply
from jobctrl.apply.use_cases.run_apply import run_apply
from jobctrl.apply.use_cases.send_email_application import send_email_application
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.errors import JobCtrlError, MissingInputError
from jobctrl.kernel.ids import deterministic_id
from jobctrl.kernel.origin import WriteOrigin
from jobctrl.kernel.store import EventStore


@dataclass(frozen=True)
class ApplyInputs:
    facts: CurrentJobFacts
    applicant: ApplicantProfile
    materials: ApplicationMaterials


ApplyInputsSource = Callable[[str], ApplyInputs | None]
#: (tenant, limit) → job ids the continuous loop may claim next (eligibility is re-checked at claim).
ApplyCandidates = Callable[[str, int], Sequence[str]]
PolicySource = Callable[[], ClaimPolicy]
#: The owned sender as configured now (re-read per send); raises ConfigurationError when none is.
EmailSenderSource = Callable[[], EmailSenderPort]


def _no_sender() -> EmailSenderPort:
    raise MissingInputError("no SMTP sender is configured (settings: smtp_host)")


class ApplyActivities:
    def __init__(
        self,
        store: EventStore,
        *,
        inputs: ApplyInputsSource,
        candidates: ApplyCandidates,
        policy: PolicySource,
        browser: Callable[[], BrowserApplyPort],
        clock: Clock,
        worker_id: str = "jobctrl-worker",
        model: str = "local-offline",
        email_sender: EmailSenderSource = _no_sender,
        artifacts: ArtifactReader | None = None,
    ) -> None:
        self.email_sender = email_sender
        self.artifacts = artifacts
        self.store = store
        self.inputs = inputs
        self.candidates = candidates
        self.policy = policy
        self.browser = browser
        self.clock = clock
        self.worker_id = worker_id
        self.model = model
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jobctrl-apply")
        self._browser: BrowserApplyPort | None = None

    def _one(self, tenant_id: str, job_id: str, dry_run: bool, batch: bool, owner: StepOwner) -> bool:
        """Claim (or re-attach to) this run's apply of ``job_id`` and run it, writing under the
        workflow's tenant; True when it submitted."""
        found = self.inputs(job_id)
        if found is None:
            raise MissingInputError(f"job {job_id} has no materials or application target to apply with")
        writer = WriteOrigin(owner.workflow_id, owner.run_id, owner.attempt)
        run_id = deterministic_id("apply-run", owner.run_id, job_id)
        repo = jobs(self.store, self.clock, tenant_id)
        app = repo.load(job_id)
        existing = None if app is None else app.state.runs.get(run_id)
        email = email_target(found.facts.application_url) is not None
        # The sender is built before anything is claimed: a missing configuration writes nothing.
        sender = self.email_sender() if email and not dry_run else None
        if existing is None:
            claim_apply(
                self.store, found.facts, self.policy(),
                run_id=run_id, worker_id=self.worker_id, model=self.model, dry_run=dry_run, batch=batch,
                email=email and not dry_run, clock=self.clock, owner=writer, tenant_id=tenant_id,
            )  # fmt: skip
        elif existing.status is not RunStatus.RUNNING:
            return existing.status is RunStatus.SUCCEEDED
        if existing is not None and existing.intended and app is not None:
            # A retry after the intent (an email send or an allowlisted browser submit): the first
            # attempt may have sent.  Never again.
            app.mark_needs_verification(run_id, NeedsVerification(cause="intent_without_result"))
            repo.save(app, **writer.metadata())
            ambiguous = EmailSendOutcomeAmbiguous if email else BrowserSubmitOutcomeAmbiguous
            raise ambiguous(f"apply run {run_id!r} was intended by an earlier attempt")
        if sender is not None:
            if self.artifacts is None:
                raise MissingInputError("no artifact reader for the email attachment")
            status = send_email_application(
                self.store, run_id=run_id, facts=found.facts, sender=sender,
                artifacts=self.artifacts, tenant_id=tenant_id, clock=self.clock, owner=writer,
            )  # fmt: skip
            return status is RunStatus.SUCCEEDED
        if self._browser is None:
            self._browser = self.browser()  # created on the apply thread, used only there
        result = run_apply(
            self.store, job_id=job_id, run_id=run_id, facts=found.facts, policy=self.policy(),
            profile=found.applicant, materials=found.materials, browser=self._browser,
            clock=self.clock, owner=writer, tenant_id=tenant_id,
        )  # fmt: skip
        return result.status is RunStatus.SUCCEEDED and not dry_run

    def _batch(self, params: ApplyActivityInput, owner: StepOwner) -> ApplyActivityResult:
        if params.job_id is not None and not params.continuous:
            return ApplyActivityResult(
                1, int(self._one(params.tenant_id, params.job_id, params.dry_run, False, owner))
            )
        processed = submitted = 0
        for job_id in self.candidates(params.tenant_id, max(1, params.batch_limit)):
            try:
                submitted += self._one(params.tenant_id, job_id, params.dry_run, True, owner)
            except JobCtrlError:
                continue  # refused or failed: recorded on the job's run, the batch goes on
            processed += 1
        return ApplyActivityResult(processed, submitted)

    @activity.defn(name="apply")
    async def apply(self, params: ApplyActivityInput) -> ApplyActivityResult:
        owner = owner_from_activity()
        try:
            return await run_heartbeating(self._thread, lambda: self._batch(params, owner))
        except JobCtrlError as exc:
            raise to_application_error(exc) from exc

    @activity.defn(name="recover_apply")
    async def recover_apply(self, params: ApplyActivityInput) -> None:
        """The workflow's live attempt is over: settle its run (intent → needs_verification)."""
        owner = owner_from_activity()
        if params.job_id is None:
            return
        run_id = deterministic_id("apply-run", owner.run_id, params.job_id)
        writer = WriteOrigin(owner.workflow_id, owner.run_id, owner.attempt)
        await asyncio.to_thread(
            lambda: recover_ambiguous_apply(
                self.store, job_id=params.job_id or "", stale_run_ids=frozenset({run_id}), clock=self.clock,
                owner=writer, tenant_id=params.tenant_id,
            )
        )  # fmt: skip

    def close(self) -> None:
        def stop() -> None:
            closer = getattr(self._browser, "close", None)
            if closer is not None:
                closer()
            self._browser = None

        self._thread.submit(stop).result()
        self._thread.shutdown()
