"""Use case: write the cover letter for the current accepted resume (→ ``CoverLetterGenerated``).

The letter passes the same fact and technology checks as the resume; the salutation and the target
role/company are exempt.  There is no ``CoverLetterFailed`` event: a refused letter appends nothing and
returns ``REJECTED`` with the reasons (orchestration records ``StageFailed``), except that a refusal
on the last allowed attempt (``attempt_number >= MAX_COVER_ATTEMPTS``) records ``MaterialsExhausted``.
Idempotent: a letter already written for the current resume generation is returned without a model call.
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
from jobctrl.materials.domain.aggregate import MAX_COVER_ATTEMPTS
from jobctrl.materials.domain.assembly import assemble_cover_letter
from jobctrl.materials.domain.documents import encode
from jobctrl.materials.domain.profile import CandidateProfile, TargetPosting
from jobctrl.materials.domain.validation import IssueCode, ValidationIssue
from jobctrl.materials.ports import COVER_TASK, CoverLetterDraft
from jobctrl.materials.use_cases._common import (
    GROUNDING_RULES,
    MAX_REPORTED_ISSUES,
    decide_and_save,
    llm_context,
    load,
    prompt_for,
    repository,
)


class CoverStatus(StrEnum):
    GENERATED = "generated"
    ALREADY_CURRENT = "already_current"
    REJECTED = "rejected"
    EXHAUSTED = "exhausted"


@dataclass(frozen=True)
class WriteCoverLetter:
    profile: CandidateProfile
    posting: TargetPosting
    attempt_number: int = 1
    origin: WriteOrigin = field(default_factory=WriteOrigin)


@dataclass(frozen=True)
class CoverOutcome:
    status: CoverStatus
    artifact_id: str | None
    validation_errors: tuple[str, ...] = ()


def write_cover_letter(
    command: WriteCoverLetter,
    *,
    store: EventStore,
    llm: LlmPort,
    artifacts: ArtifactStore,
    clock: Clock,
    spend: SpendRecorder | None = None,
) -> CoverOutcome:
    profile, posting = command.profile, command.posting
    profile.validate()
    posting.validate()
    repo = repository(store, clock, command.origin.tenant_id)
    materials = load(repo, posting.job_id)
    resume_id = materials.require_resume()
    if materials.current_cover_artifact_id is not None:
        return CoverOutcome(CoverStatus.ALREADY_CURRENT, materials.current_cover_artifact_id)
    materials.ensure_can_attempt("cover")

    request = StructuredRequest(
        task=COVER_TASK,
        response_model=CoverLetterDraft,
        system="Write a cover letter for the posting in plain paragraphs. " + GROUNDING_RULES,
        prompt=prompt_for(profile, posting),
        context=llm_context(profile, posting),
        tenant_id=command.origin.tenant_id,
    )
    try:
        result = llm.structured(request)
        if spend is not None:
            spend.record(result.usage)
        draft = CoverLetterDraft.model_validate(result.value.model_dump())
    except ValidationError as exc:
        letter, issues = (
            None,
            [ValidationIssue(IssueCode.SCHEMA_INVALID, "draft", f"{exc.error_count()} errors")],
        )
    else:
        letter, issues = assemble_cover_letter(profile, posting, draft, resume_id, clock.now().date())

    if letter is None:
        errors = tuple(issue.render() for issue in issues)[:MAX_REPORTED_ISSUES]
        if command.attempt_number >= MAX_COVER_ATTEMPTS:
            decide_and_save(
                repo,
                posting.job_id,
                lambda m: m.exhaust_cover(command.attempt_number),
                command.origin,
                materials,
            )
            return CoverOutcome(CoverStatus.EXHAUSTED, None, errors)
        return CoverOutcome(CoverStatus.REJECTED, None, errors)

    data = encode(letter)
    artifact_id = artifact_id_for(ArtifactKind.COVER_LETTER_JSON, posting.job_id, sha256_hex(data))
    artifacts.put(artifact_id, ArtifactKind.COVER_LETTER_JSON, data)
    at = now_iso(clock)
    _, created = decide_and_save(
        repo, posting.job_id, lambda m: m.record_cover_letter(artifact_id, at), command.origin, materials
    )
    return CoverOutcome(CoverStatus.GENERATED if created else CoverStatus.ALREADY_CURRENT, artifact_id)
