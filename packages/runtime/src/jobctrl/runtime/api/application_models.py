"""The wire models of the after-preparation routes (``applications``): review queue, outcomes, follow-ups,
pipeline, digest."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from jobctrl.apply import UserOutcome
from jobctrl.runtime.api.models import Request, Wire


class ReviewItem(Wire):
    job_id: str
    title: str | None
    employer: str
    fit_score: float | None
    fit_band: str | None
    reasons: dict[str, Any]
    keywords: list[str]
    materials_generation: int | None
    profile_version: int | None
    resume_pdf_artifact_id: str | None
    cover_pdf_artifact_id: str | None
    application_url: str | None
    apply_by: Literal["email", "browser"] | None
    email_recipient: str | None
    email_attachment_artifact_id: str | None
    decision: str | None
    dry_run_completed: bool
    gate: str | None
    gate_reason: str | None


class ReviewQueue(Wire):
    items: list[ReviewItem]
    total: int


class OutcomeRequest(Request):
    outcome: UserOutcome
    note: Annotated[str, Field(max_length=2000)] | None = None


class OutcomeView(Wire):
    job_id: str
    outcome_id: str
    outcome: str
    kind: str
    occurred_at: str


class OutcomeList(Wire):
    items: list[OutcomeView]


class ApplicationView(Wire):
    job_id: str
    title: str | None
    employer: str
    stage: str
    outcome: str | None
    applied_at: str | None
    follow_up_due_at: str | None


class PipelineView(Wire):
    counts: dict[str, int]
    items: list[ApplicationView]


class FollowUpList(Wire):
    follow_up_days: int
    items: list[ApplicationView]


class Digest(Wire):
    since: str | None
    new_matches: int
    prepared: int
    awaiting_review: int
    follow_ups_due: int
    spent_usd: float
    budget_usd: float
    acknowledged_at: str | None


class DigestAck(Wire):
    acknowledged_at: str
    previous_acknowledged_at: str | None


class MaterialView(Wire):
    """One rendered PDF of a job, with the digest it is verified against when served."""

    artifact_id: str
    artifact_type: Literal["resume", "cover_letter"]
    media_type: str
    size: int
    sha256: str
    url: str  # GET it for the PDF itself


class MaterialText(Wire):
    """The text of one rendered PDF, page by page (at most the first 20 of ``page_count``)."""

    job_id: str
    artifact_id: str
    page_count: int
    pages: list[str]


class MaterialsList(Wire):
    """A known job's PDFs.  ``prepared`` is false (and ``items`` empty) while the job has no prepared
    materials yet; an unknown job is a 404 ``job_not_found`` instead (ADR 0190)."""

    job_id: str
    prepared: bool
    items: list[MaterialView]
