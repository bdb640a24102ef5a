"""``JobMaterials``: one job's materials history (stream ``materials-<jobId>``).

State is the fold of the Materials events of the job.  Invariants the command methods hold:

* ``ResumeApproved`` generations count up by one from 1; approving the artifact that is already current
  is a no-op (a retry never makes a second generation);
* a failed tailoring attempt never touches the accepted artifact (fail closed, keep the last accepted);
* after ``MAX_TAILOR_ATTEMPTS`` consecutive failures the job is exhausted (``MaterialsExhausted``) and
  tailoring is refused until a ``TailorRetailorRequested`` (which resets the count);
* a cover letter is written for the current accepted resume generation only;
* a suppressed artifact is never current again.
"""

from __future__ import annotations

from enum import StrEnum
from typing import cast

from jobctrl.kernel.aggregate import Aggregate, applies
from jobctrl.kernel.errors import AttemptBudgetExhaustedError
from jobctrl.kernel.stages import Stage
from jobctrl.materials.domain.errors import ArtifactNotFoundError, NoAcceptedResumeError
from jobctrl.materials.events import (
    BulletProvenanceRecorded,
    CoverLetterGenerated,
    MaterialsExhausted,
    PdfRendered,
    ResumeApproved,
    ResumeFailed,
    TailoredArtifactsSuppressed,
    TailorRetailorRequested,
)

MAX_TAILOR_ATTEMPTS = 5
MAX_COVER_ATTEMPTS = 5


class ArtifactType(StrEnum):
    RESUME = "resume"
    COVER_LETTER = "cover_letter"


class RetailorKind(StrEnum):
    SINGLE_JOB = "single_job"
    BULK_CURRENT_POLICY = "bulk_current_policy"
    POLICY_UPDATE = "policy_update"
    REPAIR = "repair"


class JobMaterials(Aggregate):
    stream_prefix = "materials"

    def __init__(self, aggregate_id: str) -> None:
        super().__init__(aggregate_id)
        self.generation = 0
        self.resume_artifact_id: str | None = None
        self.tailor_failures = 0
        self.exhausted: set[Stage] = set()
        self.cover_artifact_id: str | None = None
        self.cover_generation: int | None = None
        self.rendered: set[str] = set()
        self.known_artifacts: set[str] = set()
        self.suppressed: set[str] = set()
        self.retailor_requests: set[str] = set()

    # -- queries ---------------------------------------------------------------------------------
    @property
    def current_cover_artifact_id(self) -> str | None:
        """The cover letter written for the current resume generation, if any."""
        if self.cover_generation == self.generation and self.resume_artifact_id is not None:
            return self.cover_artifact_id
        return None

    def require_resume(self) -> str:
        if self.resume_artifact_id is None:
            raise NoAcceptedResumeError(f"job {self.id!r} has no accepted resume")
        return self.resume_artifact_id

    # -- commands --------------------------------------------------------------------------------
    def ensure_can_attempt(self, stage: Stage) -> None:
        if stage in self.exhausted:
            raise AttemptBudgetExhaustedError(f"{stage} exhausted for job {self.id!r}")

    def approve_resume(self, artifact_id: str, line_count: int, at: str) -> bool:
        """Accept a validated resume as the next generation; False when it is already current."""
        self.ensure_can_attempt("tailor")
        if artifact_id == self.resume_artifact_id:
            return False
        generation = self.generation + 1
        self._record(
            BulletProvenanceRecorded(
                job_id=self.id, artifact_id=artifact_id, generation=generation, bullet_count=line_count,
                recorded_at=at,
            )
        )  # fmt: skip
        self._record(
            ResumeApproved(job_id=self.id, artifact_id=artifact_id, generation=generation, approved_at=at)
        )
        return True

    def fail_resume(self, validation_errors: list[str]) -> None:
        """Record a refused attempt; the accepted artifact stays.  The last allowed failure exhausts."""
        self.ensure_can_attempt("tailor")
        attempt = self.tailor_failures + 1
        self._record(
            ResumeFailed(job_id=self.id, validation_errors=validation_errors, attempt_number=attempt)
        )
        if attempt >= MAX_TAILOR_ATTEMPTS:
            self._record(
                MaterialsExhausted(
                    job_id=self.id, stage="tailor", attempt_count=attempt,
                    max_attempts=MAX_TAILOR_ATTEMPTS,
                )
            )  # fmt: skip

    def record_cover_letter(self, artifact_id: str, at: str) -> bool:
        self.require_resume()
        if artifact_id == self.current_cover_artifact_id:
            return False
        self._record(CoverLetterGenerated(job_id=self.id, artifact_id=artifact_id, generated_at=at))
        return True

    def exhaust_cover(self, attempt_number: int) -> None:
        if "cover" in self.exhausted:
            return
        self._record(
            MaterialsExhausted(
                job_id=self.id, stage="cover", attempt_count=attempt_number,
                max_attempts=MAX_COVER_ATTEMPTS,
            )
        )  # fmt: skip

    def record_pdf(self, artifact_type: ArtifactType, pdf_artifact_id: str, at: str) -> bool:
        if pdf_artifact_id in self.rendered:
            return False
        self._record(
            PdfRendered(
                job_id=self.id, artifact_type=artifact_type.value, artifact_id=pdf_artifact_id, rendered_at=at
            )
        )
        return True

    def request_retailor(
        self,
        request_id: str,
        kind: RetailorKind,
        current_policy_version: int,
        latest_artifact_policy_version: int | None,
        reason: str,
        at: str,
        source_event_id: str | None = None,
    ) -> bool:
        if request_id in self.retailor_requests:
            return False
        self._record(
            TailorRetailorRequested(
                request_id=request_id, job_id=self.id, request_kind=kind.value,
                current_policy_version=current_policy_version,
                latest_artifact_policy_version=latest_artifact_policy_version, reason=reason,
                requested_at=at, source_event_id=source_event_id,
            )
        )  # fmt: skip
        return True

    def suppress(
        self,
        artifact_ids: list[str],
        reason: str,
        at: str,
        current_fit_score: float | None = None,
        score_threshold: float | None = None,
    ) -> bool:
        unknown = [a for a in artifact_ids if a not in self.known_artifacts]
        if unknown:
            raise ArtifactNotFoundError(f"job {self.id!r} has no artifact {unknown[0]!r}")
        fresh = sorted(set(artifact_ids) - self.suppressed)
        if not fresh:
            return False
        self._record(
            TailoredArtifactsSuppressed(
                job_id=self.id, artifact_ids=fresh, suppression_reason=reason, suppressed_at=at,
                current_fit_score=current_fit_score, score_threshold=score_threshold,
            )
        )  # fmt: skip
        return True

    # -- folds -----------------------------------------------------------------------------------
    @applies(BulletProvenanceRecorded)
    def _on_provenance(self, event: BulletProvenanceRecorded) -> None:
        self.known_artifacts.add(event.artifact_id)

    @applies(ResumeApproved)
    def _on_approved(self, event: ResumeApproved) -> None:
        self.generation = event.generation
        self.resume_artifact_id = event.artifact_id
        self.known_artifacts.add(event.artifact_id)
        self.suppressed.discard(event.artifact_id)  # re-accepted by a later tailoring run
        self.tailor_failures = 0

    @applies(ResumeFailed)
    def _on_failed(self, event: ResumeFailed) -> None:
        self.tailor_failures = event.attempt_number

    @applies(MaterialsExhausted)
    def _on_exhausted(self, event: MaterialsExhausted) -> None:
        self.exhausted.add(cast(Stage, event.stage))

    @applies(CoverLetterGenerated)
    def _on_cover(self, event: CoverLetterGenerated) -> None:
        self.cover_artifact_id = event.artifact_id
        self.cover_generation = self.generation
        self.known_artifacts.add(event.artifact_id)
        self.exhausted.discard("cover")

    @applies(PdfRendered)
    def _on_pdf(self, event: PdfRendered) -> None:
        self.rendered.add(event.artifact_id)
        self.known_artifacts.add(event.artifact_id)

    @applies(TailorRetailorRequested)
    def _on_retailor(self, event: TailorRetailorRequested) -> None:
        # A retailor starts a fresh attempt budget for both stages.
        self.retailor_requests.add(event.request_id)
        self.tailor_failures = 0
        self.exhausted.clear()

    @applies(TailoredArtifactsSuppressed)
    def _on_suppressed(self, event: TailoredArtifactsSuppressed) -> None:
        self.suppressed.update(event.artifact_ids)
        if self.resume_artifact_id in self.suppressed:
            self.resume_artifact_id = None
        if self.cover_artifact_id in self.suppressed:
            self.cover_artifact_id = None
