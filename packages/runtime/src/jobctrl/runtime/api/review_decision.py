"""``POST /v1/jobs/{id}/apply-review/decision``: record an Apply Review decision (apply's use case).

The committed facts the decision is checked against come from the read models (employer, title,
score, application URL), the job's own ``ResumeApproved`` / ``PdfRendered`` facts in the log (the
committed materials generation) and the saved profile version.  A refused decision is a 422 and
writes nothing (the use case raises before it appends).

An approval hands work to the runtime (ADR 0162): ``approve_dry_run`` starts the ApplyWorkflow dry
run of the job; ``approve_submit`` starts the live ApplyWorkflow when the gate passes with that
approval (dry-run evidence bound to the same target exists), else it is recorded and the response
says why nothing started.  For a start, a ready worker and Temporal are checked BEFORE the decision
is recorded (503 ``worker_runtime_unavailable`` / ``temporal_unavailable`` write nothing).
"""

from __future__ import annotations

import json
from typing import Annotated

import sqlalchemy as sa
from fastapi import APIRouter, Depends
from starlette.concurrency import run_in_threadpool

from jobctrl.apply import (
    CurrentJobFacts,
    InvalidReviewDecision,
    ReviewDecisionCommand,
    approval_refusal_reason,
    check_review_decision,
    email_target,
    record_review_decision,
)
from jobctrl.apply import application_repository as apply_jobs
from jobctrl.apply.events import ApplyReviewDecisionRecorded
from jobctrl.discovery import application_url
from jobctrl.kernel.store.schema import job_events
from jobctrl.materials.events import PdfRendered, ResumeApproved
from jobctrl.orchestration import (
    APPLY_WORKFLOW_TYPE,
    ApplyWorkflowInput,
    SettingsStore,
    apply_workflow_id,
    load_profile,
)
from jobctrl.projections.read_models.job_detail import job_detail_projections as jd
from jobctrl.projections.read_models.job_list import job_list_projections as jl
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.models import ReviewDecisionRequest, ReviewDecisionResult, error_responses
from jobctrl.runtime.api.readiness import require_ready_worker
from jobctrl.runtime.api.reads import JobIdPath
from jobctrl.runtime.api.services import Services, StoreContext, services
from jobctrl.runtime.api.workflow_control import TemporalUnavailable, WorkflowAlreadyRunning, WorkflowControl

router = APIRouter(prefix="/v1", tags=["apply"])


def current_facts(svc: StoreContext, job_id: str) -> CurrentJobFacts:
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
    profile = load_profile(svc.store, clock=svc.clock, tenant_id=svc.tenant_id)
    return CurrentJobFacts(
        job_id=job_id,
        employer=row.employer,
        role=row.title or "",
        materials_generation=max(generations, default=None),
        profile_version=profile.profile_version or None,
        # The same target the apply worker binds to (the posting's applyUrl, else its URL).
        application_url=application_url(svc.store, job_id) or row.application_url,
        resume_pdf_ready=any(m.event_type == PdfRendered.event_type for m in materials),
        score_current=row.fit_score is not None,
        score_eligible=row.fit_score is not None,
        score=row.fit_score,
        closed=bool(row.deleted),
    )


@router.post(
    "/jobs/{job_id}/apply-review/decision",
    response_model=ReviewDecisionResult,
    responses=error_responses(404, 409, 422, 503),
)
async def decide(
    job_id: JobIdPath, body: ReviewDecisionRequest, svc: Annotated[Services, Depends(services)]
) -> ReviewDecisionResult:
    event, facts, control, task_queue = await run_in_threadpool(_record, svc, job_id, body)
    result = ReviewDecisionResult(job_id=job_id, decision_id=event.decision_id, decision=event.decision)
    if control is None:
        return result
    dry_run = event.decision == "approve_dry_run"
    if not dry_run:
        app = await run_in_threadpool(apply_jobs(svc.store, svc.clock, svc.tenant_id).get, job_id)
        gate = approval_refusal_reason(app, facts, email=email_target(facts.application_url) is not None)
        if gate is not None:
            return result.model_copy(update={"gate": gate})
    workflow_id = apply_workflow_id(svc.tenant_id, job_id)
    try:
        started = await control.start(
            APPLY_WORKFLOW_TYPE,
            ApplyWorkflowInput(tenant=svc.tenant_id, job_id=job_id, dry_run=dry_run),
            workflow_id=workflow_id,
            task_queue=task_queue,
        )
    except WorkflowAlreadyRunning:
        raise ApiError(409, "apply_already_running", f"{workflow_id} is already running") from None
    except TemporalUnavailable as exc:
        raise ApiError(503, exc.code, exc.message) from None
    return result.model_copy(update={"workflow_id": started.workflow_id, "dry_run": dry_run})


def _record(
    svc: Services, job_id: str, body: ReviewDecisionRequest
) -> tuple[ApplyReviewDecisionRecorded, CurrentJobFacts, WorkflowControl | None, str]:
    facts = current_facts(svc, job_id)
    command = ReviewDecisionCommand(job_id=job_id, **body.model_dump())
    control: WorkflowControl | None = None
    task_queue = ""
    if command.decision in ("approve_dry_run", "approve_submit"):
        try:  # a bad decision is a 422 before the runtime is asked about
            check_review_decision(svc.store, command, facts, tenant_id=svc.tenant_id)
        except InvalidReviewDecision as exc:
            raise ApiError(422, exc.code, exc.message) from None
        require_ready_worker(svc.db, svc.clock.now())  # 503 before anything is recorded
        control = svc.require_control()
        task_queue = svc.task_queue or SettingsStore(svc.db, clock=svc.clock).load().task_queue
    try:
        event = record_review_decision(svc.store, command, facts, clock=svc.clock, tenant_id=svc.tenant_id)
    except InvalidReviewDecision as exc:
        raise ApiError(422, exc.code, exc.message) from None
    return event, facts, control, task_queue
