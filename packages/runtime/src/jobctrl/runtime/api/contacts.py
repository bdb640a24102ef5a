"""Supervised contact research, reviewed by the user: the research results and their candidates,
confirm and reject (ADR 0210).

``GET /v1/contacts/research`` lists the research tasks (``contact_research_task_projections``);
``GET /v1/contacts/research/{taskId}`` is one task with its candidates, their sealed name, title,
email and profile address opened for the user who reviews them (never anywhere else: the read models
and the event stream hold none).  Confirm and reject go through contact's use cases: only an explicit
confirmation makes a contact, a rejection forgets the person's data, and a refused decision (404, 409)
writes nothing.  Nothing here sends anything to anyone.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Path, Query
from pydantic import Field

from jobctrl.contact import (
    ContactResearchTask,
    ContactRuleViolation,
    ContactServices,
    PersonalDataVault,
    TaskState,
    confirm_candidate,
    reject_candidate,
)
from jobctrl.projections.read_models.contacts import contact_research_task_projections as tasks
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.models import ID_PATTERN, Request, Wire, error_responses
from jobctrl.runtime.api.services import Services, StoreContext, services

router = APIRouter(prefix="/v1/contacts", tags=["contacts"])
_ID = ID_PATTERN
TaskIdPath = Annotated[str, Path(pattern=_ID, description="the research task id")]
CandidateIdPath = Annotated[str, Path(pattern=_ID, description="the proposed candidate id")]
ERRORS: dict[int | str, dict[str, Any]] = error_responses(404, 409, 422)
CandidateStatus = Literal["needs_review", "confirmed", "rejected", "not_kept", "erased"]


class ResearchTaskView(Wire):
    task_id: str
    employer: str | None
    job_id: str | None
    status: str
    candidates: int
    confirmed: int | None
    sources_attempted: int
    sources_refused: int
    error_class: str | None
    started_at: str | None
    finished_at: str | None


class ResearchTaskList(Wire):
    items: list[ResearchTaskView]
    total: int


class CandidateView(Wire):
    candidate_id: str
    status: CandidateStatus
    role: str
    confidence: float
    source_ref: str
    name: str | None  # opened from the sealed proposal; None once the person's data is forgotten
    title: str | None
    email: str | None
    profile_url: str | None


class ResearchTaskDetail(Wire):
    task: ResearchTaskView
    candidates: list[CandidateView]


class RejectRequest(Request):
    reason: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,63}$")] = "not_relevant"


class CandidateDecision(Wire):
    task_id: str
    candidate_id: str
    status: CandidateStatus
    contact_id: str | None


def contact_services(svc: StoreContext) -> ContactServices:
    return ContactServices(
        store=svc.store, vault=PersonalDataVault(svc.db), clock=svc.clock, tenant_id=svc.tenant_id
    )


def _task_view(r: Any) -> ResearchTaskView:
    return ResearchTaskView(
        task_id=r.task_id, employer=r.employer, job_id=r.job_id, status=r.status, candidates=r.candidates,
        confirmed=r.confirmed, sources_attempted=r.sources_attempted, sources_refused=r.sources_refused,
        error_class=r.error_class, started_at=r.started_at, finished_at=r.finished_at,
    )  # fmt: skip


def list_research(svc: StoreContext, *, job_id: str | None = None, limit: int = 50) -> ResearchTaskList:
    where = [tasks.c.tenant_id == svc.tenant_id, *([tasks.c.job_id == job_id] if job_id else [])]
    with svc.db.read() as conn:
        total = int(conn.execute(sa.select(sa.func.count()).select_from(tasks).where(*where)).scalar_one())
        rows = conn.execute(
            sa.select(tasks).where(*where).order_by(tasks.c.started_at.desc(), tasks.c.task_id).limit(limit)
        ).all()
    return ResearchTaskList(items=[_task_view(r) for r in rows], total=total)


def _task(cs: ContactServices, task_id: str) -> ContactResearchTask:
    task = cs.tasks.load(task_id)
    if task is None:
        raise ApiError(404, "research_task_not_found", f"no research task {task_id}")
    return task


def _status(cs: ContactServices, task: ContactResearchTask, candidate_id: str) -> CandidateStatus:
    contact = cs.contacts.load(candidate_id)
    if contact is not None:
        return "erased" if contact.deleted else "confirmed"
    if candidate_id in task.rejected:
        return "rejected"
    return "needs_review" if task.state is TaskState.NEEDS_REVIEW else "not_kept"


def research_detail(svc: StoreContext, task_id: str) -> ResearchTaskDetail:
    cs = contact_services(svc)
    task = _task(cs, task_id)
    with svc.db.read() as conn:
        row = conn.execute(
            sa.select(tasks).where(tasks.c.tenant_id == svc.tenant_id, tasks.c.task_id == task_id)
        ).first()
    if row is None:
        raise ApiError(404, "research_task_not_found", f"research task {task_id} is not projected yet")
    candidates = []
    for cid, proposal in sorted(task.candidates.items()):
        values = cs.vault.open(cid, proposal.sealed_candidate) or {}
        candidates.append(
            CandidateView(
                candidate_id=cid, status=_status(cs, task, cid), role=proposal.role,
                confidence=proposal.confidence, source_ref=proposal.source_ref, name=values.get("name"),
                title=values.get("title"), email=values.get("email"), profile_url=values.get("profileUrl"),
            )
        )  # fmt: skip
    return ResearchTaskDetail(task=_task_view(row), candidates=candidates)


def decide(
    svc: StoreContext, task_id: str, candidate_id: str, *, confirm: bool, reason: str = "not_relevant"
) -> CandidateDecision:
    """Confirm or reject one candidate through contact's use cases; a refusal writes nothing."""
    cs = contact_services(svc)
    task = _task(cs, task_id)
    if candidate_id not in task.candidates:
        raise ApiError(404, "candidate_not_found", f"no candidate {candidate_id} in task {task_id}")
    try:
        if confirm:
            contact_id = confirm_candidate(cs, task_id, candidate_id)
            return CandidateDecision(
                task_id=task_id, candidate_id=candidate_id, status="confirmed", contact_id=contact_id
            )
        reject_candidate(cs, task_id, candidate_id, reason=reason)
    except ContactRuleViolation as exc:
        raise ApiError(409, exc.code, exc.message) from None
    return CandidateDecision(task_id=task_id, candidate_id=candidate_id, status="rejected", contact_id=None)


@router.get("/research", response_model=ResearchTaskList, summary="Contact research tasks and their results")
def get_research(
    svc: Annotated[Services, Depends(services)],
    job_id: Annotated[str | None, Query(alias="jobId", pattern=_ID)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> ResearchTaskList:
    return list_research(svc, job_id=job_id, limit=limit)


@router.get(
    "/research/{task_id}",
    response_model=ResearchTaskDetail,
    responses=error_responses(404),
    summary="One research task with its candidates, for review",
)
def get_research_task(task_id: TaskIdPath, svc: Annotated[Services, Depends(services)]) -> ResearchTaskDetail:
    return research_detail(svc, task_id)


@router.post(
    "/research/{task_id}/candidates/{candidate_id}/confirm",
    response_model=CandidateDecision,
    status_code=201,
    responses=ERRORS,
    summary="Confirm a candidate: the only way a proposed person becomes a contact",
)
def post_confirm(
    task_id: TaskIdPath, candidate_id: CandidateIdPath, svc: Annotated[Services, Depends(services)]
) -> CandidateDecision:
    return decide(svc, task_id, candidate_id, confirm=True)


@router.post(
    "/research/{task_id}/candidates/{candidate_id}/reject",
    response_model=CandidateDecision,
    responses=ERRORS,
    summary="Reject a candidate: never a contact, and their sealed data is forgotten",
)
def post_reject(
    task_id: TaskIdPath,
    candidate_id: CandidateIdPath,
    svc: Annotated[Services, Depends(services)],
    body: RejectRequest | None = None,
) -> CandidateDecision:
    return decide(svc, task_id, candidate_id, confirm=False, reason=(body or RejectRequest()).reason)
