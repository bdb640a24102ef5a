"""Outreach threads, written: draft, edit, approve, reject, log a send, record a reply and keep a
follow-up (ADR 0275, 0276), through contact's use cases.

``POST /v1/outreach/threads`` drafts a message to a confirmed contact (and optionally about a job)
through the configured model under the truthfulness gate: a claim the profile does not support is a
422 naming each claim, and nothing is written.  ``GET /v1/outreach/threads/{id}`` opens the draft and
the reply notes for the user (sealed in the log; nothing once the contact is deleted).  Every step
answers the thread as the log has it now; a refused step (404, 409, 422) writes nothing.  There is
no send route: the user sends the approved text themselves and says so (``…/sent``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Path
from pydantic import AwareDatetime, Field

from jobctrl.contact import (
    ContactRuleViolation,
    ContactServices,
    DraftVersionMismatch,
    InvalidOutreachInput,
    OutreachThreadNotFound,
    OutreachTransitionError,
    SubjectForgotten,
    UnsupportedOutreachClaims,
    approve_outreach,
    complete_follow_up,
    dismiss_follow_up,
    draft_outreach,
    log_outreach_send,
    read_outreach,
    record_outreach_reply,
    reject_outreach,
    revise_outreach,
    schedule_follow_up,
)
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.orchestration import ledger_with_settings
from jobctrl.projections.read_models.job_list import job_list_projections as jl
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.models import ErrorBody, Request, Wire
from jobctrl.runtime.api.services import Services, StoreContext, services
from jobctrl.runtime.composition.outreach import outreach_llm, outreach_services

router = APIRouter(prefix="/v1/outreach", tags=["contacts"])
_ID = r"^[A-Za-z0-9_.:\-]{1,200}$"
_CODE = r"^[a-z][a-z0-9_]{0,39}$"
ThreadIdPath = Annotated[str, Path(pattern=_ID, description="the outreach thread id")]
Id = Annotated[str, Field(pattern=_ID)]
Code = Annotated[str, Field(pattern=_CODE)]
Text = Annotated[str, Field(min_length=1, max_length=4000)]
ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody},
    409: {"model": ErrorBody},
    422: {"model": ErrorBody},
}


class DraftRequest(Request):
    contact_id: Id
    job_id: Id | None = None
    role: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    employer: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    points: Annotated[list[Annotated[str, Field(min_length=1, max_length=300)]], Field(max_length=5)] = []


class ReviseRequest(Request):
    subject: Annotated[str, Field(min_length=1, max_length=200)]
    body: Text


class VersionRequest(Request):
    draft_id: Id
    generation: Annotated[int, Field(ge=1, le=1_000_000)]


class RejectRequest(VersionRequest):
    reason: Code = "not_right"


class SentRequest(Request):
    channel: Code
    sent_at: AwareDatetime | None = None


class ReplyRequest(Request):
    channel: Code
    received_at: AwareDatetime | None = None
    note: Text | None = None


class FollowUpRequest(Request):
    due_at: AwareDatetime
    basis: Code = "user_scheduled"


class DismissRequest(Request):
    reason: Code = "not_needed"


class ReplyView(Wire):
    reply_id: str
    channel: str
    received_at: str
    note: str | None  # opened for the user; None once the contact is deleted


class ThreadDetail(Wire):
    thread_id: str
    contact_id: str
    job_id: str | None
    draft_id: str | None
    generation: int
    draft_status: str | None
    subject: str | None  # opened for the user; None once the contact is deleted
    body: str | None
    sends: int
    replies: list[ReplyView]
    follow_up_status: str | None
    follow_up_due_at: str | None


def contact_services(svc: StoreContext, *, drafting: bool = False) -> ContactServices:
    llm = outreach_llm(svc.db, svc.clock) if drafting else None
    return outreach_services(svc.db, svc.store, svc.clock, svc.tenant_id, llm=llm)


def _refusal(exc: Exception) -> ApiError:
    if isinstance(exc, OutreachThreadNotFound):
        return ApiError(404, exc.code, exc.message)
    if isinstance(exc, UnsupportedOutreachClaims):
        return ApiError(422, exc.code, exc.message, [("body", claim) for claim in exc.claims])
    if isinstance(exc, InvalidOutreachInput):
        return ApiError(422, exc.code, exc.message)
    if isinstance(exc, ConfigurationError):
        return ApiError(409, "profile_required", exc.message)
    assert isinstance(
        exc, ContactRuleViolation | DraftVersionMismatch | OutreachTransitionError | SubjectForgotten
    )
    return ApiError(409, exc.code, exc.message)


_REFUSED = (
    OutreachThreadNotFound, UnsupportedOutreachClaims, InvalidOutreachInput, ConfigurationError,
    ContactRuleViolation, DraftVersionMismatch, OutreachTransitionError, SubjectForgotten,
)  # fmt: skip


def thread_detail(cs: ContactServices, thread_id: str) -> ThreadDetail:
    try:
        text = read_outreach(cs, thread_id)
    except OutreachThreadNotFound as exc:
        raise _refusal(exc) from None
    t = text.thread
    assert t.contact_id is not None
    return ThreadDetail(
        thread_id=t.id, contact_id=t.contact_id, job_id=t.job_id, draft_id=t.draft_id,
        generation=t.generation, draft_status=t.status.value if t.status else None,
        subject=text.subject, body=text.body, sends=t.sends,
        replies=[ReplyView(reply_id=r.reply_id, channel=r.channel, received_at=r.received_at, note=r.note)
                 for r in text.replies],
        follow_up_status=t.follow_up, follow_up_due_at=t.follow_up_due_at,
    )  # fmt: skip


def act(svc: StoreContext, thread_id: str, step: Callable[[ContactServices], object]) -> ThreadDetail:
    """Run one thread step; a refusal is a typed 404/409/422 and writes nothing."""
    cs = contact_services(svc)
    try:
        step(cs)
    except _REFUSED as exc:
        raise _refusal(exc) from None
    return thread_detail(cs, thread_id)


def _job_target(svc: StoreContext, job_id: str) -> tuple[str | None, str | None]:
    with svc.db.read() as conn:
        row = conn.execute(
            sa.select(jl.c.title, jl.c.employer).where(jl.c.tenant_id == svc.tenant_id, jl.c.job_id == job_id)
        ).first()
    if row is None:
        raise ApiError(404, "job_not_found", f"no job {job_id}")
    return row.title, row.employer


def start_draft(svc: StoreContext, body: DraftRequest) -> ThreadDetail:
    """Draft through the model (the route's and ``jobctrl outreach draft``'s one path)."""
    cs = contact_services(svc)
    contact = cs.contacts.load(body.contact_id)
    if contact is None or contact.deleted:
        raise ApiError(404, "contact_not_found", f"no contact {body.contact_id}")
    role, employer = body.role, body.employer
    if body.job_id is not None:
        job_role, job_employer = _job_target(svc, body.job_id)
        role, employer = role or job_role, employer or job_employer
    if ledger_with_settings(svc.db, clock=svc.clock).status(svc.tenant_id).exceeded:
        raise ApiError(409, "budget_exceeded", "today's LLM budget is spent; raise dailyBudgetUsd or wait")
    cs = contact_services(svc, drafting=True)
    try:
        drafted = draft_outreach(
            cs, body.contact_id, job_id=body.job_id, role=role, employer=employer, points=tuple(body.points)
        )
    except _REFUSED as exc:
        raise _refusal(exc) from None
    return thread_detail(cs, drafted.thread_id)


@router.post(
    "/threads", response_model=ThreadDetail, status_code=201, responses=ERRORS,
    summary="Draft a message to a confirmed contact (model-written, under the truthfulness gate)",
)  # fmt: skip
def post_draft(body: DraftRequest, svc: Annotated[Services, Depends(services)]) -> ThreadDetail:
    return start_draft(svc, body)


@router.get(
    "/threads/{thread_id}", response_model=ThreadDetail, responses={404: {"model": ErrorBody}},
    summary="One thread with its draft and reply notes opened for the user",
)  # fmt: skip
def get_thread(thread_id: ThreadIdPath, svc: Annotated[Services, Depends(services)]) -> ThreadDetail:
    return thread_detail(contact_services(svc), thread_id)


@router.post("/threads/{thread_id}/revise", response_model=ThreadDetail, responses=ERRORS,
             summary="Edit the draft by hand: a new generation, back in review")  # fmt: skip
def post_revise(
    thread_id: ThreadIdPath, body: ReviseRequest, svc: Annotated[Services, Depends(services)]
) -> ThreadDetail:
    return act(
        svc, thread_id, lambda cs: revise_outreach(cs, thread_id, subject=body.subject, body=body.body)
    )


@router.post("/threads/{thread_id}/approve", response_model=ThreadDetail, responses=ERRORS,
             summary="Approve the exact draft version under review")  # fmt: skip
def post_approve(
    thread_id: ThreadIdPath, body: VersionRequest, svc: Annotated[Services, Depends(services)]
) -> ThreadDetail:
    return act(
        svc, thread_id,
        lambda cs: approve_outreach(cs, thread_id, draft_id=body.draft_id, generation=body.generation),
    )  # fmt: skip


@router.post("/threads/{thread_id}/reject", response_model=ThreadDetail, responses=ERRORS,
             summary="Reject the draft version under review, with a reason code")  # fmt: skip
def post_reject(
    thread_id: ThreadIdPath, body: RejectRequest, svc: Annotated[Services, Depends(services)]
) -> ThreadDetail:
    return act(
        svc, thread_id,
        lambda cs: reject_outreach(
            cs, thread_id, draft_id=body.draft_id, generation=body.generation, reason=body.reason
        ),
    )  # fmt: skip


@router.post("/threads/{thread_id}/sent", response_model=ThreadDetail, responses=ERRORS,
             summary="Say you sent the approved draft yourself (JobCtrl never sends outreach)")  # fmt: skip
def post_sent(
    thread_id: ThreadIdPath, body: SentRequest, svc: Annotated[Services, Depends(services)]
) -> ThreadDetail:
    return act(
        svc,
        thread_id,
        lambda cs: log_outreach_send(cs, thread_id, channel=body.channel, sent_at=body.sent_at),
    )


@router.post("/threads/{thread_id}/replies", response_model=ThreadDetail, status_code=201,
             responses=ERRORS, summary="Record, by hand, that the contact replied")  # fmt: skip
def post_reply(
    thread_id: ThreadIdPath, body: ReplyRequest, svc: Annotated[Services, Depends(services)]
) -> ThreadDetail:
    return act(
        svc, thread_id,
        lambda cs: record_outreach_reply(
            cs, thread_id, channel=body.channel, received_at=body.received_at, note=body.note
        ),
    )  # fmt: skip


@router.post("/threads/{thread_id}/follow-up", response_model=ThreadDetail, responses=ERRORS,
             summary="Set (or move) the thread's follow-up reminder")  # fmt: skip
def post_follow_up(
    thread_id: ThreadIdPath, body: FollowUpRequest, svc: Annotated[Services, Depends(services)]
) -> ThreadDetail:
    return act(
        svc, thread_id, lambda cs: schedule_follow_up(cs, thread_id, due_at=body.due_at, basis=body.basis)
    )


@router.post("/threads/{thread_id}/follow-up/complete", response_model=ThreadDetail, responses=ERRORS,
             summary="Mark the follow-up done")  # fmt: skip
def post_follow_up_done(thread_id: ThreadIdPath, svc: Annotated[Services, Depends(services)]) -> ThreadDetail:
    return act(svc, thread_id, lambda cs: complete_follow_up(cs, thread_id))


@router.post("/threads/{thread_id}/follow-up/dismiss", response_model=ThreadDetail, responses=ERRORS,
             summary="Drop the follow-up, with a reason code")  # fmt: skip
def post_follow_up_dismiss(
    thread_id: ThreadIdPath, svc: Annotated[Services, Depends(services)], body: DismissRequest | None = None
) -> ThreadDetail:
    reason = (body or DismissRequest()).reason
    return act(svc, thread_id, lambda cs: dismiss_follow_up(cs, thread_id, reason=reason))
