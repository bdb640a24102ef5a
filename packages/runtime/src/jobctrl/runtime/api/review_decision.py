"""``POST /v1/jobs/{id}/apply-review/decision``: record an Apply Review decision (apply's use case).

The committed facts the decision is checked against come from the read models (employer, title,
score, application URL), the job's own ``ResumeApproved`` / ``PdfRendered`` facts in the log (the
committed materials generation) and the saved profile version.  A refused decision is a 422 and
writes nothing (the use case raises before it appends).
"""

from __future__ import annotations

import json
from typing import Annotated

import sqlalchemy as sa
from fastapi import APIRouter, Depends

from jobctrl.apply.errors import InvalidReviewDecision
from jobctrl.apply.facts import CurrentJobFacts
from jobctrl.apply.use_cases.record_review_decision import ReviewDecisionCommand, record_review_decision
from jobctrl.kernel.store.schema import job_events
from jobctrl.materials.events import PdfRendered, ResumeApproved
from jobctrl.orchestration.profile.service import ProfileService
from jobctrl.projections.read_models.job_detail import job_detail_projections as jd
from jobctrl.projections.read_models.job_list import job_list_projections as jl
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.models import ErrorBody, ReviewDecisionRequest, ReviewDecisionResult
from jobctrl.runtime.api.reads import JobIdPath
from jobctrl.runtime.api.services import Services, services

router = APIRouter(prefix="/v1", tags=["apply"])


def current_facts(svc: Services, job_id: str) -> CurrentJobFacts:
    with svc.db.read() as conn:
        row = conn.execute(
            sa.select(jl.c.employer, jl.c.title, jl.c.fit_score, jl.c.deleted, jd.c.application_url)
            .select_from(
                jl.outerjoin(jd, sa.and_(jd.c.tenant_id == jl.c.tenant_id, jd.c.job_id == jl.c.job_id))
            )
            .where(jl.c.tenant_id == svc.tenant_id, jl.c.job_id == job_id)
        ).first()
        if row is None:
            raise ApiError(404, "job_not_found", f"no job {job_id}")
        materials = conn.execute(
            sa.select(job_events.c.event_type, job_events.c.payload).where(
                job_events.c.tenant_id == svc.tenant_id,
                job_events.c.job_id == job_id,
                job_events.c.event_type.in_([ResumeApproved.event_type, PdfRendered.event_type]),
            )
        ).all()
    generations = [
        int(json.loads(m.payload)["generation"])
        for m in materials
        if m.event_type == ResumeApproved.event_type
    ]
    profile = ProfileService(svc.store, clock=svc.clock, tenant_id=svc.tenant_id).load()
    return CurrentJobFacts(
        job_id=job_id,
        employer=row.employer,
        role=row.title or "",
        materials_generation=max(generations, default=None),
        profile_version=profile.profile_version or None,
        application_url=row.application_url,
        resume_pdf_ready=any(m.event_type == PdfRendered.event_type for m in materials),
        score_current=row.fit_score is not None,
        score_eligible=row.fit_score is not None,
        score=row.fit_score,
        closed=bool(row.deleted),
    )


@router.post(
    "/jobs/{job_id}/apply-review/decision",
    response_model=ReviewDecisionResult,
    responses={404: {"model": ErrorBody}, 422: {"model": ErrorBody}},
)
def decide(
    job_id: JobIdPath, body: ReviewDecisionRequest, svc: Annotated[Services, Depends(services)]
) -> ReviewDecisionResult:
    facts = current_facts(svc, job_id)
    command = ReviewDecisionCommand(job_id=job_id, **body.model_dump())
    try:
        event = record_review_decision(svc.store, command, facts, clock=svc.clock, tenant_id=svc.tenant_id)
    except InvalidReviewDecision as exc:
        raise ApiError(422, exc.code, exc.message) from None
    return ReviewDecisionResult(job_id=job_id, decision_id=event.decision_id, decision=event.decision)
