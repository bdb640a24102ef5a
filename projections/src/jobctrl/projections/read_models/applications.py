"""``application_projections``: one row per (tenant, job) from preparation to outcome (ADR 0162).

What the review queue, the pipeline-by-outcome view, the follow-ups due and the digest read: the
current materials (generation, the resume/cover artifacts and their PDFs), the latest review decision,
the apply runs started, the submission (intent, submit, hand-off) and the latest outcome.  Rows carry
no personal data and no free text (codes, ids and timestamps only).

Materials: a new ``ResumeApproved`` generation replaces the resume and clears both PDFs (they were
rendered from the older generation); ``CoverLetterGenerated`` replaces the cover and clears its PDF.
``applied_at`` is the first ``ApplicationSubmitted`` (or, without one, the first ``applied`` outcome:
the user's own record after a hand-off); the follow-up clock runs from it while ``settled_at`` is null
(``settled_at``: the first outcome other than ``applied_confirmation``).  Whether a follow-up is due
is decided when reading (``applied_at`` + the configured days, or the user's snooze when later,
``follow_up_snoozed_until``): the table itself is a pure fold.
"""

from __future__ import annotations

from typing import Any

import msgspec
import sqlalchemy as sa

from jobctrl.apply.events import (
    ApplicationFailed,
    ApplicationFollowUpSnoozed,
    ApplicationOutcomeRecorded,
    ApplicationSubmitted,
    ApplyReviewDecisionRecorded,
    ApplyRunStarted,
    ApplySubmissionBlocked,
    ApplySubmitIntended,
)
from jobctrl.materials.events import CoverLetterGenerated, PdfRendered, ResumeApproved
from jobctrl.projections.model import EventInfo, Fold, Projection, ReadModelTable
from jobctrl.projections.schema import metadata
from jobctrl.projections.times import utc_or_none

application_projections = sa.Table(
    "application_projections",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("job_id", sa.String(200), primary_key=True),
    sa.Column("materials_generation", sa.Integer, nullable=True),
    sa.Column("resume_artifact_id", sa.String(200), nullable=True),
    sa.Column("cover_artifact_id", sa.String(200), nullable=True),
    sa.Column("resume_pdf_artifact_id", sa.String(200), nullable=True),
    sa.Column("cover_pdf_artifact_id", sa.String(200), nullable=True),
    sa.Column("prepared_at", sa.String(40), nullable=True),
    sa.Column("decision", sa.String(20), nullable=True),
    sa.Column("decided_at", sa.String(40), nullable=True),
    sa.Column("dry_runs", sa.Integer, nullable=False),
    sa.Column("live_runs", sa.Integer, nullable=False),
    sa.Column("submit_intended_at", sa.String(40), nullable=True),
    sa.Column("handed_off_at", sa.String(40), nullable=True),
    sa.Column("applied_at", sa.String(40), nullable=True),
    sa.Column("outcome", sa.String(30), nullable=True),
    sa.Column("outcome_at", sa.String(40), nullable=True),
    sa.Column("outcomes", sa.Integer, nullable=False),
    sa.Column("settled_at", sa.String(40), nullable=True),
    sa.Column("follow_up_snoozed_until", sa.String(40), nullable=True),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
)


class ApplicationRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    job_id: str
    materials_generation: int | None
    resume_artifact_id: str | None
    cover_artifact_id: str | None
    resume_pdf_artifact_id: str | None
    cover_pdf_artifact_id: str | None
    prepared_at: str | None
    decision: str | None
    decided_at: str | None
    dry_runs: int
    live_runs: int
    submit_intended_at: str | None
    handed_off_at: str | None
    applied_at: str | None
    outcome: str | None
    outcome_at: str | None
    outcomes: int
    settled_at: str | None
    follow_up_snoozed_until: str | None
    last_event_position: int
    updated_at: str | None


APPLICATIONS = ReadModelTable(application_projections, ApplicationRow)
NOT_SUBMITTED = "not_submitted_on_verification"  # apply's FailureResult code of that settlement
# ``PdfRendered.artifactType`` as the materials context records it (the ``_pdf`` forms are read too).
RESUME_PDF, COVER_PDF = frozenset({"resume", "resume_pdf"}), frozenset({"cover_letter", "cover_letter_pdf"})


def _job_key(event: Any, info: EventInfo) -> tuple[str, str]:
    return (info.tenant_id, getattr(event, "job_id", None) or event.job_key)


def _next(row: ApplicationRow | None, info: EventInfo, job_id: str, **changes: Any) -> ApplicationRow:
    if row is None:
        row = APPLICATIONS.blank(
            tenant_id=info.tenant_id,
            job_id=job_id,
            dry_runs=0,
            live_runs=0,
            outcomes=0,
            last_event_position=info.position,
        )
    row = msgspec.structs.replace(row, last_event_position=info.position, updated_at=info.at, **changes)
    prepared = row.resume_pdf_artifact_id is not None and row.cover_pdf_artifact_id is not None
    if prepared and row.prepared_at is None:
        row = msgspec.structs.replace(row, prepared_at=info.at)
    elif not prepared and row.prepared_at is not None:
        row = msgspec.structs.replace(row, prepared_at=None)
    return row


def on_resume(row: ApplicationRow | None, event: ResumeApproved, info: EventInfo) -> ApplicationRow:
    if (
        row is not None
        and row.materials_generation is not None
        and event.generation <= row.materials_generation
    ):
        return row  # an older or repeated generation changes nothing
    return _next(
        row, info, event.job_id, materials_generation=event.generation, resume_artifact_id=event.artifact_id,
        resume_pdf_artifact_id=None, cover_pdf_artifact_id=None,
    )  # fmt: skip


def on_cover(row: ApplicationRow | None, event: CoverLetterGenerated, info: EventInfo) -> ApplicationRow:
    if row is not None and row.cover_artifact_id == event.artifact_id:
        return row
    return _next(row, info, event.job_id, cover_artifact_id=event.artifact_id, cover_pdf_artifact_id=None)


def on_pdf(row: ApplicationRow | None, event: PdfRendered, info: EventInfo) -> ApplicationRow | None:
    if event.artifact_type in RESUME_PDF:
        return _next(row, info, event.job_id, resume_pdf_artifact_id=event.artifact_id)
    if event.artifact_type in COVER_PDF:
        return _next(row, info, event.job_id, cover_pdf_artifact_id=event.artifact_id)
    return row


def on_decision(
    row: ApplicationRow | None, event: ApplyReviewDecisionRecorded, info: EventInfo
) -> ApplicationRow:
    return _next(row, info, event.job_key, decision=event.decision, decided_at=info.at)


def on_run_started(row: ApplicationRow | None, event: ApplyRunStarted, info: EventInfo) -> ApplicationRow:
    if event.dry_run:
        return _next(row, info, event.job_id, dry_runs=(row.dry_runs if row else 0) + 1)
    return _next(row, info, event.job_id, live_runs=(row.live_runs if row else 0) + 1)


def on_intended(row: ApplicationRow | None, event: ApplySubmitIntended, info: EventInfo) -> ApplicationRow:
    if row is not None and row.submit_intended_at is not None:
        return row
    return _next(row, info, event.job_key, submit_intended_at=utc_or_none(event.intended_at))


def on_submitted(row: ApplicationRow | None, event: ApplicationSubmitted, info: EventInfo) -> ApplicationRow:
    if row is not None and row.applied_at is not None:
        return row  # the first submission is the application
    return _next(row, info, event.job_id, applied_at=utc_or_none(event.applied_at))


def on_failed(row: ApplicationRow | None, event: ApplicationFailed, info: EventInfo) -> ApplicationRow | None:
    # Only the user's "it was not submitted" settles an intent (ADR 0212): the job is no longer
    # waiting for verification and may be applied to again.  Any other failure had no intent.
    if row is None or row.applied_at is not None or event.result.get("code") != NOT_SUBMITTED:
        return row
    return _next(row, info, event.job_id, submit_intended_at=None)


def on_snoozed(
    row: ApplicationRow | None, event: ApplicationFollowUpSnoozed, info: EventInfo
) -> ApplicationRow | None:
    if row is None:
        return row
    return _next(row, info, event.job_id, follow_up_snoozed_until=utc_or_none(event.until))  # latest wins


def on_blocked(
    row: ApplicationRow | None, event: ApplySubmissionBlocked, info: EventInfo
) -> ApplicationRow | None:
    if event.reason != "trusted_final_submit_required" or (row is not None and row.handed_off_at is not None):
        return row
    return _next(row, info, event.job_id, handed_off_at=utc_or_none(event.blocked_at))


def on_outcome(
    row: ApplicationRow | None, event: ApplicationOutcomeRecorded, info: EventInfo
) -> ApplicationRow:
    at = utc_or_none(event.occurred_at)
    changes: dict[str, Any] = {
        "outcome": event.kind,
        "outcome_at": at,
        "outcomes": (row.outcomes if row else 0) + 1,
    }
    if event.kind == "applied_confirmation":
        if row is None or row.applied_at is None:
            changes["applied_at"] = at
    elif row is None or row.settled_at is None:
        changes["settled_at"] = at
    return _next(row, info, event.job_key, **changes)


PROJECTION = Projection(
    name="applications",
    tables=(APPLICATIONS,),
    folds=(
        Fold(ResumeApproved, APPLICATIONS, _job_key, on_resume),
        Fold(CoverLetterGenerated, APPLICATIONS, _job_key, on_cover),
        Fold(PdfRendered, APPLICATIONS, _job_key, on_pdf),
        Fold(ApplyReviewDecisionRecorded, APPLICATIONS, _job_key, on_decision),
        Fold(ApplyRunStarted, APPLICATIONS, _job_key, on_run_started),
        Fold(ApplySubmitIntended, APPLICATIONS, _job_key, on_intended),
        Fold(ApplicationSubmitted, APPLICATIONS, _job_key, on_submitted),
        Fold(ApplySubmissionBlocked, APPLICATIONS, _job_key, on_blocked),
        Fold(ApplicationFailed, APPLICATIONS, _job_key, on_failed),
        Fold(ApplicationFollowUpSnoozed, APPLICATIONS, _job_key, on_snoozed),
        Fold(ApplicationOutcomeRecorded, APPLICATIONS, _job_key, on_outcome),
    ),
    creates_rows_on=frozenset(
        {
            "ResumeApproved",
            "CoverLetterGenerated",
            "ApplyReviewDecisionRecorded",
            "ApplyRunStarted",
            "ApplySubmitIntended",
            "ApplicationSubmitted",
            "ApplicationOutcomeRecorded",
        }
    ),
)
