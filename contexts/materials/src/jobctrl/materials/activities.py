"""Materials' Temporal activities: ``tailor_job``, ``cover_letter`` and ``render_pdf`` (steps 2-4 of a
JobPreparationWorkflow), plus ``register_offline_materials`` for the offline LLM provider.

Inputs come from ports the composition root implements: ``inputs(job_id)`` gives the candidate profile
(the versioned one) and the target posting; ``eligible(job_id)`` says why a job may not be tailored
(its score), so a rerun that resumes after Score still honours eligibility.  Tailor and Cover go through
the ``StageTracker`` with the workflow as owner (a step that already succeeded is reused) and carry the
same owner as event metadata (``WriteOrigin``).  Rendering drives one Chromium through Playwright's sync
API, which is bound to the thread that started it, so every render runs on one dedicated thread.
"""

from __future__ import annotations

from collections.abc import Callable

from temporalio import activity

from jobctrl.activity_contracts.contracts import PreparationStepInput, PreparationStepResult
from jobctrl.activity_contracts.errors import to_application_error
from jobctrl.activity_contracts.stage_tracking import (
    StageTracker,
    StepOwner,
    owner_from_activity,
)
from jobctrl.activity_contracts.threads import heartbeating
from jobctrl.kernel.clock import Clock
from jobctrl.kernel.errors import JobCtrlError, MissingInputError
from jobctrl.kernel.origin import WriteOrigin
from jobctrl.kernel.stages import Stage
from jobctrl.kernel.store import EventStore
from jobctrl.llm import LlmPort, OfflineProvider, SpendRecorder
from jobctrl.llm.port import StructuredRequest
from jobctrl.materials.adapters.artifacts import ArtifactStore
from jobctrl.materials.adapters.offline_writer import OfflineMaterialsWriter
from jobctrl.materials.adapters.rendering.html import PageSize
from jobctrl.materials.adapters.rendering.lanes import RenderLanes
from jobctrl.materials.domain.aggregate import ArtifactType
from jobctrl.materials.domain.profile import CandidateProfile, TargetPosting
from jobctrl.materials.ports import COVER_TASK, TAILOR_TASK, CoverLetterDraft, PdfRenderer, ResumeDraft
from jobctrl.materials.use_cases.render_pdf import RenderPdf, render_pdfs
from jobctrl.materials.use_cases.tailor_resume import TailorResume, TailorStatus, tailor_resume
from jobctrl.materials.use_cases.write_cover_letter import CoverStatus, WriteCoverLetter, write_cover_letter

MaterialsInputs = Callable[[str], tuple[CandidateProfile, TargetPosting] | None]
Eligibility = Callable[[str], str | None]


class MaterialsRejected(JobCtrlError):
    """The draft failed validation (the fabrication gate or the shape); retryable until exhausted."""

    code = "materials_rejected"
    retryable = True


class MaterialsExhausted(MaterialsRejected):
    code = "materials_exhausted"
    retryable = False


def register_offline_materials(provider: OfflineProvider) -> None:
    """Answer the tailor and cover tasks offline (deterministic drafts grounded in the profile)."""
    writer = OfflineMaterialsWriter()

    def tailor(request: StructuredRequest[ResumeDraft]) -> ResumeDraft:
        return writer.structured(request).value

    def cover(request: StructuredRequest[CoverLetterDraft]) -> CoverLetterDraft:
        return writer.structured(request).value

    provider.register(TAILOR_TASK, ResumeDraft, tailor)
    provider.register(COVER_TASK, CoverLetterDraft, cover)


def _origin(owner: StepOwner, tenant_id: str) -> WriteOrigin:
    return WriteOrigin(owner.workflow_id, owner.run_id, owner.attempt, tenant_id)


class MaterialsActivities:
    def __init__(
        self,
        store: EventStore,
        *,
        llm: LlmPort,
        artifacts: ArtifactStore,
        renderer: Callable[[], PdfRenderer],
        inputs: MaterialsInputs,
        eligible: Eligibility,
        tracker: StageTracker,
        clock: Clock,
        spend: SpendRecorder | None = None,
        render_lanes: int = 1,
        paper_size: PageSize = PageSize.LETTER,
    ) -> None:
        self.store = store
        self.llm = llm
        self.artifacts = artifacts
        self.renderer = renderer
        self.inputs = inputs
        self.eligible = eligible
        self.tracker = tracker
        self.clock = clock
        self.spend = spend
        self.paper_size = PageSize(paper_size)
        self._lanes = RenderLanes(renderer, render_lanes)

    def _inputs(self, job_id: str) -> tuple[CandidateProfile, TargetPosting]:
        found = self.inputs(job_id)
        if found is None:
            raise MissingInputError(f"job {job_id} has no profile or posting to write materials for")
        return found

    def _step(
        self, params: PreparationStepInput, stage: Stage, work: Callable[[StepOwner], None]
    ) -> PreparationStepResult:
        with heartbeating():  # a model may take longer than the heartbeat timeout to answer
            return self._tracked_step(params, stage, work)

    def _tracked_step(
        self, params: PreparationStepInput, stage: Stage, work: Callable[[StepOwner], None]
    ) -> PreparationStepResult:
        owner = owner_from_activity()
        tracker = self.tracker.for_tenant(params.tenant_id)  # stage rows under the workflow's tenant
        reason = self.eligible(params.job_id)
        try:
            if reason is not None:
                tracker.skip(params.job_id, stage, reason)
                return PreparationStepResult("not_eligible", reason)
            if not tracker.begin(params.job_id, stage, owner):
                return PreparationStepResult("done")  # succeeded already: reused
            try:
                work(owner)
            except JobCtrlError as exc:
                tracker.fail(params.job_id, stage, owner, exc)
                raise
            tracker.succeed(params.job_id, stage, owner)
        except JobCtrlError as exc:
            raise to_application_error(exc) from exc
        return PreparationStepResult("done")

    @activity.defn(name="tailor_job")
    def tailor_job(self, params: PreparationStepInput) -> PreparationStepResult:
        def work(owner: StepOwner) -> None:
            profile, posting = self._inputs(params.job_id)
            outcome = tailor_resume(
                TailorResume(profile, posting, origin=_origin(owner, params.tenant_id)),
                store=self.store, llm=self.llm, artifacts=self.artifacts, clock=self.clock, spend=self.spend,
            )  # fmt: skip
            if outcome.status is TailorStatus.FAILED:
                cls = MaterialsExhausted if outcome.exhausted else MaterialsRejected
                raise cls("tailored resume rejected: " + ", ".join(outcome.validation_errors)[:300])

        return self._step(params, "tailor", work)

    @activity.defn(name="cover_letter")
    def cover_letter(self, params: PreparationStepInput) -> PreparationStepResult:
        def work(owner: StepOwner) -> None:
            profile, posting = self._inputs(params.job_id)
            outcome = write_cover_letter(
                WriteCoverLetter(profile, posting, origin=_origin(owner, params.tenant_id)),
                store=self.store, llm=self.llm, artifacts=self.artifacts, clock=self.clock, spend=self.spend,
            )  # fmt: skip
            if outcome.status in (CoverStatus.REJECTED, CoverStatus.EXHAUSTED):
                cls = MaterialsExhausted if outcome.status is CoverStatus.EXHAUSTED else MaterialsRejected
                raise cls("cover letter rejected: " + ", ".join(outcome.validation_errors)[:300])

        return self._step(params, "cover", work)

    def _render_both(self, renderer: PdfRenderer, job_id: str, origin: WriteOrigin) -> None:
        # One load of the job's materials and one save for both PDFs (ADR 0397).
        render_pdfs(
            [RenderPdf(job_id, kind, paper_size=self.paper_size, origin=origin)
             for kind in (ArtifactType.RESUME, ArtifactType.COVER_LETTER)],
            store=self.store, renderer=renderer, artifacts=self.artifacts, clock=self.clock,
        )  # fmt: skip

    @activity.defn(name="render_pdf")
    async def render_pdf(self, params: PreparationStepInput) -> PreparationStepResult:
        origin = _origin(owner_from_activity(), params.tenant_id)
        try:
            await self._lanes.run(lambda renderer: self._render_both(renderer, params.job_id, origin))
        except JobCtrlError as exc:
            raise to_application_error(exc) from exc
        return PreparationStepResult("done")

    def close(self) -> None:
        """Stop each lane's Chromium on its own thread, then the threads."""
        self._lanes.close()
