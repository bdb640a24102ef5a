"""After preparation: the Apply Review queue, materials PDFs, outcomes, follow-ups, pipeline, digest.

Reads come from ``application_projections`` (joined with the job views); the approval gate of a queued
job is apply's own rule evaluated over its ``JobApplication`` stream and the committed facts
(``review_decision.current_facts``), so the queue says in words why a live apply would be refused.
Writes go through apply's and orchestration's use cases: a refused request (4xx) writes nothing.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Path, Query
from fastapi.responses import Response

from jobctrl.apply import (
    USER_WORD,
    ApprovalRefusal,
    InvalidOutcome,
    JobApplication,
    RunStatus,
    approval_refusal_reason,
    email_target,
    record_outcome,
)
from jobctrl.apply import application_repository as apply_jobs
from jobctrl.kernel.clock import isoformat
from jobctrl.materials import ArtifactKind, ArtifactStore
from jobctrl.orchestration import SettingsStore, SpendLedger, acknowledge_digest, last_acknowledged
from jobctrl.projections.read_models.applications import application_projections as ap
from jobctrl.projections.read_models.job_detail import job_detail_projections as jd
from jobctrl.projections.read_models.job_list import job_list_projections as jl
from jobctrl.runtime.api.application_models import (
    ApplicationView,
    Digest,
    DigestAck,
    FollowUpList,
    MaterialsList,
    MaterialView,
    OutcomeList,
    OutcomeRequest,
    OutcomeView,
    PipelineView,
    ReviewItem,
    ReviewQueue,
)
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.models import ID_PATTERN, ErrorBody, error_responses
from jobctrl.runtime.api.reads import JobIdPath
from jobctrl.runtime.api.review_decision import current_facts
from jobctrl.runtime.api.services import Services, StoreContext, services

router = APIRouter(prefix="/v1", tags=["applications"])
ERRORS: dict[int | str, dict[str, Any]] = error_responses(404, 422)

#: The approval gate's refusals, in words a person can act on.
REFUSAL_WORDS: dict[str, str] = {
    "awaiting_approval": "Not approved yet: approve submitting this application.",
    "approval_stale_materials": "The resume or cover letter changed since the approval: review them again.",
    "approval_stale_profile": "Your profile changed since the approval: review the application again.",
    "approval_stale_url": "The application address changed since the approval: review it again.",
    "approval_stale_email_candidate": (
        "The approval does not name the exact recipient and attachment of the email: approve them."
    ),
    "awaiting_dry_run": "No dry run has filled this application yet: approve a dry run first.",
    "override_evidence_invalid": "The partial-coverage override no longer matches its dry run.",
}
ArtifactPath = Annotated[str, Path(pattern=ID_PATTERN)]


# -- helpers ----------------------------------------------------------------------------------------
def _gate(
    app: JobApplication | None, svc: StoreContext, job_id: str
) -> tuple[ApprovalRefusal | None, bool, Any]:
    facts = current_facts(svc, job_id)
    if app is None:
        return "awaiting_approval", False, facts
    email = email_target(facts.application_url) is not None
    return (
        approval_refusal_reason(app, facts, email=email),
        bool(app.runs_with(RunStatus.DRY_RUN_COMPLETED)),
        facts,
    )


def _stage(row: Any) -> str:
    if row.outcome is not None and row.outcome != "applied_confirmation":
        return str(USER_WORD.get(row.outcome, row.outcome))
    if row.applied_at is not None:
        return "applied"
    if row.submit_intended_at is not None:
        return "needs_verification"
    if row.handed_off_at is not None:
        return "needs_manual_completion"
    if row.decision == "decline":
        return "declined"
    if row.prepared_at is not None:
        return "approved" if row.decision == "approve_submit" else "awaiting_review"
    return "preparing"


def _due_at(row: Any, days: int) -> str | None:
    if row.applied_at is None or row.settled_at is not None:
        return None
    applied = datetime.fromisoformat(row.applied_at.replace("Z", "+00:00"))
    due = isoformat(applied + timedelta(days=days))
    snoozed = row.follow_up_snoozed_until
    return snoozed if snoozed is not None and snoozed > due else due  # a snooze puts it off


def _rows(svc: StoreContext, *where: Any) -> list[Any]:
    with svc.db.read() as conn:
        return list(
            conn.execute(
                sa.select(ap, jl.c.title, jl.c.employer, jl.c.fit_score, jl.c.fit_band, jl.c.keywords_json)
                .select_from(
                    ap.join(jl, sa.and_(jl.c.tenant_id == ap.c.tenant_id, jl.c.job_id == ap.c.job_id))
                )
                .where(ap.c.tenant_id == svc.tenant_id, *where)
                .order_by(jl.c.fit_score.desc().nulls_last(), ap.c.job_id)
            )
        )


def _view(row: Any, days: int) -> ApplicationView:
    return ApplicationView(
        job_id=row.job_id, title=row.title, employer=row.employer, stage=_stage(row),
        outcome=USER_WORD.get(row.outcome, row.outcome) if row.outcome else None,
        applied_at=row.applied_at, follow_up_due_at=_due_at(row, days),
    )  # fmt: skip


def _awaiting_review(svc: StoreContext) -> list[Any]:
    return _rows(
        svc,
        ap.c.prepared_at.is_not(None),
        ap.c.applied_at.is_(None),
        ap.c.submit_intended_at.is_(None),
        ap.c.handed_off_at.is_(None),
        sa.or_(ap.c.decision.is_(None), ap.c.decision.not_in(["decline"])),
        jl.c.deleted.is_(False),
    )


# -- routes -----------------------------------------------------------------------------------------
@router.get("/apply/review", response_model=ReviewQueue, summary="Prepared jobs awaiting an apply decision")
def review_queue(
    svc: Annotated[Services, Depends(services)],
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> ReviewQueue:
    return read_review_queue(svc, limit)


def read_review_queue(svc: StoreContext, limit: int = 50) -> ReviewQueue:
    rows = _awaiting_review(svc)
    items = []
    repo = apply_jobs(svc.store, svc.clock, svc.tenant_id)
    for row in rows[:limit]:
        app = repo.load(row.job_id)
        gate, dry_done, facts = _gate(app, svc, row.job_id)
        candidate = None if app is None else app.state.email_candidate
        with svc.db.read() as conn:
            breakdown = conn.execute(
                sa.select(jd.c.breakdown_json).where(
                    jd.c.tenant_id == svc.tenant_id, jd.c.job_id == row.job_id
                )
            ).scalar_one_or_none()
        items.append(
            ReviewItem(
                job_id=row.job_id, title=row.title, employer=row.employer, fit_score=row.fit_score,
                fit_band=row.fit_band, reasons=json.loads(breakdown or "{}"),
                keywords=json.loads(row.keywords_json or "[]"),
                materials_generation=row.materials_generation, profile_version=facts.profile_version,
                resume_pdf_artifact_id=row.resume_pdf_artifact_id,
                cover_pdf_artifact_id=row.cover_pdf_artifact_id, application_url=facts.application_url,
                apply_by=None if facts.application_url is None
                else ("email" if email_target(facts.application_url) else "browser"),
                email_recipient=candidate.recipient if candidate else None,
                email_attachment_artifact_id=candidate.attachment_artifact_id if candidate else None,
                decision=row.decision, dry_run_completed=dry_done, gate=gate,
                gate_reason=REFUSAL_WORDS.get(gate) if gate else None,
            )
        )  # fmt: skip
    return ReviewQueue(items=items, total=len(rows))


PdfType = Literal["resume", "cover_letter"]


def _job_pdfs(svc: Services, job_id: str) -> dict[str, tuple[ArtifactKind, PdfType]] | None:
    """The job's current rendered PDFs (artifact id -> kind, type), the one list both routes serve;
    ``None`` for a known job not prepared yet.  An unknown job is a 404 ``job_not_found``."""
    rows = _rows(svc, ap.c.job_id == job_id)
    if not rows:
        with svc.db.read() as conn:
            known = conn.execute(
                sa.select(jl.c.job_id).where(jl.c.tenant_id == svc.tenant_id, jl.c.job_id == job_id)
            ).first()
        if known is None:
            raise ApiError(404, "job_not_found", f"no job {job_id}")
        return None
    row = rows[0]
    found: dict[str | None, tuple[ArtifactKind, PdfType]] = {
        row.resume_pdf_artifact_id: (ArtifactKind.RESUME_PDF, "resume"),
        row.cover_pdf_artifact_id: (ArtifactKind.COVER_LETTER_PDF, "cover_letter"),
    }
    return {artifact_id: kind for artifact_id, kind in found.items() if artifact_id is not None}


@router.get(
    "/jobs/{job_id}/materials",
    response_model=MaterialsList,
    responses={404: {"model": ErrorBody, "description": "`job_not_found`: no such job"}},
    summary="The job's rendered resume and cover-letter PDFs, each with its sha256 digest",
    description=(
        "A known job that is not prepared yet answers 200 with `prepared: false` and no items; "
        "an unknown job answers 404 `job_not_found` (ADR 0190)."
    ),
)
def list_materials(job_id: JobIdPath, svc: Annotated[Services, Depends(services)]) -> MaterialsList:
    pdfs = _job_pdfs(svc, job_id)
    if pdfs is None:
        return MaterialsList(job_id=job_id, prepared=False, items=[])
    store = None if svc.artifacts_root is None else ArtifactStore(svc.artifacts_root)
    items = []
    for artifact_id, (kind, artifact_type) in pdfs.items():
        stored = None if store is None else store.find(artifact_id, kind)  # a tampered file raises
        if stored is not None:
            url = f"/v1/jobs/{job_id}/materials/{artifact_id}.pdf"
            items.append(
                MaterialView(
                    artifact_id=artifact_id, artifact_type=artifact_type, media_type=stored.media_type,
                    size=stored.size, sha256=stored.sha256, url=url,
                )
            )  # fmt: skip
    return MaterialsList(job_id=job_id, prepared=True, items=items)


@router.get(
    "/jobs/{job_id}/materials/{artifact_id}.pdf",
    response_class=Response,
    responses={200: {"content": {"application/pdf": {}}}, **error_responses(404)},
    summary="A rendered resume or cover-letter PDF of the job, inline",
)
def material_pdf(
    job_id: JobIdPath, artifact_id: ArtifactPath, svc: Annotated[Services, Depends(services)]
) -> Response:
    data = job_pdf_bytes(svc, job_id, artifact_id)
    return Response(data, media_type="application/pdf", headers={"Content-Disposition": "inline"})


def job_pdf_bytes(svc: Services, job_id: str, artifact_id: str) -> bytes:
    """One of the job's current rendered PDFs, verified against its digest; 404s name what is missing."""
    known = (_job_pdfs(svc, job_id) or {}).get(artifact_id)
    if known is None or svc.artifacts_root is None:
        raise ApiError(404, "artifact_not_found", "no such rendered PDF for this job")
    kind = known[0]
    found = ArtifactStore(svc.artifacts_root)
    if found.find(artifact_id, kind) is None:
        raise ApiError(404, "artifact_not_found", "the PDF is not in the artifact store")
    _, data = found.get(artifact_id, kind)
    return data


@router.post("/jobs/{job_id}/outcomes", response_model=OutcomeView, status_code=201, responses=ERRORS)
def post_outcome(
    job_id: JobIdPath, body: OutcomeRequest, svc: Annotated[Services, Depends(services)]
) -> OutcomeView:
    current_facts(svc, job_id)  # 404 for an unknown job, before anything is written
    try:
        event = record_outcome(
            svc.store,
            job_id=job_id,
            outcome=body.outcome,
            note=body.note,
            clock=svc.clock,
            tenant_id=svc.tenant_id,
        )
    except InvalidOutcome as exc:
        raise ApiError(422, exc.code, exc.message) from None
    return OutcomeView(
        job_id=job_id, outcome_id=event.outcome_id, outcome=USER_WORD[event.kind], kind=event.kind,
        occurred_at=event.occurred_at,
    )  # fmt: skip


@router.get("/jobs/{job_id}/outcomes", response_model=OutcomeList, responses=ERRORS)
def get_outcomes(job_id: JobIdPath, svc: Annotated[Services, Depends(services)]) -> OutcomeList:
    current_facts(svc, job_id)
    app = apply_jobs(svc.store, svc.clock, svc.tenant_id).load(job_id)
    outcomes = [] if app is None else app.state.outcomes
    return OutcomeList(
        items=[
            OutcomeView(
                job_id=job_id,
                outcome_id=o.outcome_id,
                outcome=USER_WORD.get(o.kind, o.kind),
                kind=o.kind,
                occurred_at=o.occurred_at,
            )
            for o in outcomes
        ]
    )


def _follow_up_days(svc: StoreContext) -> int:
    return int(SettingsStore(svc.db, clock=svc.clock).load().follow_up_days)


@router.get(
    "/applications/pipeline", response_model=PipelineView, summary="Applications by stage and outcome"
)
def pipeline(svc: Annotated[Services, Depends(services)]) -> PipelineView:
    days = _follow_up_days(svc)
    items = [_view(r, days) for r in _rows(svc, jl.c.deleted.is_(False))]
    counts: dict[str, int] = {}
    for item in items:
        counts[item.stage] = counts.get(item.stage, 0) + 1
    return PipelineView(counts=counts, items=items)


def due_follow_ups(svc: StoreContext) -> tuple[int, list[ApplicationView]]:
    days = _follow_up_days(svc)
    now = isoformat(svc.clock.now())
    rows = _rows(svc, ap.c.applied_at.is_not(None), ap.c.settled_at.is_(None), jl.c.deleted.is_(False))
    views = [_view(r, days) for r in rows]
    return days, [v for v in views if v.follow_up_due_at is not None and v.follow_up_due_at <= now]


@router.get("/follow-ups/due", response_model=FollowUpList, summary="Applications whose follow-up is due now")
def follow_ups_due(svc: Annotated[Services, Depends(services)]) -> FollowUpList:
    days, items = due_follow_ups(svc)
    return FollowUpList(follow_up_days=days, items=items)


@router.get("/digest", response_model=Digest, summary="The daily digest")
def digest(svc: Annotated[Services, Depends(services)]) -> Digest:
    return read_digest(svc)


def read_digest(svc: StoreContext) -> Digest:
    since = last_acknowledged(svc.store, tenant_id=svc.tenant_id)
    settings = SettingsStore(svc.db, clock=svc.clock).load()
    with svc.db.read() as conn:
        matches = (
            sa.select(sa.func.count())
            .select_from(jl)
            .where(
                jl.c.tenant_id == svc.tenant_id,
                jl.c.deleted.is_(False),
                jl.c.fit_score >= settings.min_fit_score,
                *([jl.c.scored_at > since] if since else []),
            )
        )
        new_matches = int(conn.execute(matches).scalar_one())
        prepared = int(
            conn.execute(
                sa.select(sa.func.count())
                .select_from(ap)
                .where(
                    ap.c.tenant_id == svc.tenant_id,
                    ap.c.prepared_at.is_not(None),
                    *([ap.c.prepared_at > since] if since else []),
                )
            ).scalar_one()
        )
    ledger = SpendLedger(svc.db, lambda: settings.daily_budget_usd, clock=svc.clock)
    status = ledger.status()
    return Digest(
        since=since, new_matches=new_matches, prepared=prepared, awaiting_review=len(_awaiting_review(svc)),
        follow_ups_due=len(due_follow_ups(svc)[1]), spent_usd=status.spent_usd, budget_usd=status.budget_usd,
        acknowledged_at=since,
    )  # fmt: skip


@router.post(
    "/digest/acknowledge", response_model=DigestAck, summary="Acknowledge the digest (DigestReviewed)"
)
def acknowledge(svc: Annotated[Services, Depends(services)]) -> DigestAck:
    event = acknowledge_digest(svc.store, clock=svc.clock, tenant_id=svc.tenant_id)
    return DigestAck(
        acknowledged_at=event.acknowledged_at, previous_acknowledged_at=event.previous_acknowledged_at
    )
