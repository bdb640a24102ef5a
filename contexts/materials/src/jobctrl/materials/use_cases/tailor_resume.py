"""Use case: tailor the resume of one job (``TailorResume`` → ``ResumeApproved`` or ``ResumeFailed``).

Callable from a Temporal activity: plain typed input plus ports.  Idempotent on retry:

* ``baseline_generation`` is the accepted generation the caller saw before this run; if a newer one is
  already committed, it is returned without another model call;
* the artifact id is derived from the document's sha256, so an identical result reuses the stored
  artifact, and approving the current artifact again appends nothing.

Fail closed: a draft with any validation issue records ``ResumeFailed`` (the accepted artifact is kept);
the last allowed failure also records ``MaterialsExhausted``; an exhausted job is refused before any
model call (``AttemptBudgetExhaustedError``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from pydantic import ValidationError

from jobctrl.kernel.clock import Clock, now_iso
from jobctrl.kernel.origin import WriteOrigin
from jobctrl.kernel.store import EventStore
from jobctrl.llm.port import LlmPort, SpendRecorder, StructuredRequest
from jobctrl.materials.adapters.artifacts import ArtifactKind, ArtifactStore, artifact_id_for, sha256_hex
from jobctrl.materials.domain.assembly import assemble_resume
from jobctrl.materials.domain.documents import encode
from jobctrl.materials.domain.profile import CandidateProfile, TargetPosting
from jobctrl.materials.domain.validation import IssueCode, ValidationIssue
from jobctrl.materials.ports import TAILOR_TASK, ResumeDraft
from jobctrl.materials.use_cases._common import (
    GROUNDING_RULES,
    MAX_REPORTED_ISSUES,
    TAILORING_RULES,
    decide_and_save,
    llm_context,
    load,
    prompt_for,
    repository,
)


class TailorStatus(StrEnum):
    APPROVED = "approved"
    ALREADY_CURRENT = "already_current"
    FAILED = "failed"


@dataclass(frozen=True)
class TailorResume:
    profile: CandidateProfile
    posting: TargetPosting
    baseline_generation: int | None = None
    origin: WriteOrigin = field(default_factory=WriteOrigin)


@dataclass(frozen=True)
class TailorOutcome:
    status: TailorStatus
    artifact_id: str | None  # the accepted artifact after this call (kept on failure)
    generation: int
    validation_errors: tuple[str, ...] = ()
    exhausted: bool = False


def tailor_resume(
    command: TailorResume,
    *,
    store: EventStore,
    llm: LlmPort,
    artifacts: ArtifactStore,
    clock: Clock,
    spend: SpendRecorder | None = None,
) -> TailorOutcome:
    profile, posting = command.profile, command.posting
    profile.validate()
    posting.validate()
    repo = repository(store, clock, command.origin.tenant_id)
    materials = load(repo, posting.job_id)
    baseline = command.baseline_generation
    if baseline is not None and materials.generation > baseline and materials.resume_artifact_id:
        return TailorOutcome(TailorStatus.ALREADY_CURRENT, materials.resume_artifact_id, materials.generation)
    materials.ensure_can_attempt("tailor")

    request = StructuredRequest(
        task=TAILOR_TASK,
        response_model=ResumeDraft,
        system="Tailor the candidate's resume to the posting. " + TAILORING_RULES + GROUNDING_RULES,
        prompt=prompt_for(profile, posting),
        context=llm_context(profile, posting),
        tenant_id=command.origin.tenant_id,
    )
    issues: list[ValidationIssue]
    try:
        result = llm.structured(request)
    except ValidationError as exc:
        issues, resume = (
            [ValidationIssue(IssueCode.SCHEMA_INVALID, "draft", f"{exc.error_count()} errors")],
            None,
        )
    else:
        if spend is not None:
            spend.record(result.usage)
        # Provider output is untrusted: validate it again against the schema before using it.
        try:
            draft = ResumeDraft.model_validate(result.value.model_dump())
        except ValidationError as exc:
            issues, resume = (
                [ValidationIssue(IssueCode.SCHEMA_INVALID, "draft", f"{exc.error_count()} errors")],
                None,
            )
        else:
            resume, issues = assemble_resume(profile, posting, draft)

    if resume is None:
        errors = [issue.render() for issue in issues][:MAX_REPORTED_ISSUES]
        materials, _ = decide_and_save(
            repo, posting.job_id, lambda m: m.fail_resume(errors), command.origin, materials
        )
        return TailorOutcome(
            TailorStatus.FAILED,
            materials.resume_artifact_id,
            materials.generation,
            tuple(errors),
            exhausted="tailor" in materials.exhausted,
        )

    data = encode(resume)
    artifact_id = artifact_id_for(ArtifactKind.RESUME_JSON, posting.job_id, sha256_hex(data))
    artifacts.put(artifact_id, ArtifactKind.RESUME_JSON, data)  # before the event: the event never dangles
    line_count, at = len(resume.provenance()), now_iso(clock)
    materials, approved = decide_and_save(
        repo,
        posting.job_id,
        lambda m: m.approve_resume(artifact_id, line_count, at),
        command.origin,
        materials,
    )
    status = TailorStatus.APPROVED if approved else TailorStatus.ALREADY_CURRENT
    return TailorOutcome(status, artifact_id, materials.generation)
