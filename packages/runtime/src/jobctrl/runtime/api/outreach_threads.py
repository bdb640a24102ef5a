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

import inspect
from collections.abc import Callable
from dataclasses import dataclass
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
from jobctrl.runtime.api.models import ID_PATTERN, Request, Wire, error_responses
from jobctrl.runtime.api.services import Services, StoreContext, services
from jobctrl.runtime.composition.outreach import outreach_llm, outreach_services

router = APIRouter(prefix="/v1/outreach", tags=["contacts"])
_ID = ID_PATTERN
_CODE = r"^[a-z][a-z0-9_]{0,39}$"
ThreadIdPath = Annotated[str, Path(pattern=_ID, description="the outreach thread id")]
Id = Annotated[str, Field(pattern=_ID)]
Code = Annotated[str, Field(pattern=_CODE)]
Text = Annotated[str, Field(min_length=1, max_length=4000)]
ERRORS: dict[int | str, dict[str, Any]] = error_responses(404, 409, 422)


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
    "/threads/{thread_id}", response_model=ThreadDetail, responses=error_responses(404),
    summary="One thread with its draft and reply notes opened for the user",
)  # fmt: skip
def get_thread(thread_id: ThreadIdPath, svc: Annotated[Services, Depends(services)]) -> ThreadDetail:
    return thread_detail(contact_services(svc), thread_id)


@dataclass(frozen=True)
class _Step:
    """One thread step's route: ``POST /v1/outreach/threads/{thread_id}/<path>``, running ``run``
    through :func:`act` and answering the thread.  ``body`` is its request model (``None``: no body);
    an ``optional`` body may be left out and then defaults to ``body()``."""

    name: str  # the endpoint's name (and so the OpenAPI operation id)
    path: str
    summary: str
    run: Callable[[ContactServices, str, Any], object]
    body: type[Request] | None = None
    optional: bool = False
    status_code: int = 200


_STEPS: tuple[_Step, ...] = (
    _Step("post_revise", "revise", "Edit the draft by hand: a new generation, back in review",
          lambda cs, tid, b: revise_outreach(cs, tid, subject=b.subject, body=b.body), ReviseRequest),
    _Step("post_approve", "approve", "Approve the exact draft version under review",
          lambda cs, tid, b: approve_outreach(cs, tid, draft_id=b.draft_id, generation=b.generation),
          VersionRequest),
    _Step("post_reject", "reject", "Reject the draft version under review, with a reason code",
          lambda cs, tid, b: reject_outreach(
              cs, tid, draft_id=b.draft_id, generation=b.generation, reason=b.reason),
          RejectRequest),
    _Step("post_sent", "sent", "Say you sent the approved draft yourself (JobCtrl never sends outreach)",
          lambda cs, tid, b: log_outreach_send(cs, tid, channel=b.channel, sent_at=b.sent_at), SentRequest),
    _Step("post_reply", "replies", "Record, by hand, that the contact replied",
          lambda cs, tid, b: record_outreach_reply(
              cs, tid, channel=b.channel, received_at=b.received_at, note=b.note),
          ReplyRequest, status_code=201),
    _Step("post_follow_up", "follow-up", "Set (or move) the thread's follow-up reminder",
          lambda cs, tid, b: schedule_follow_up(cs, tid, due_at=b.due_at, basis=b.basis), FollowUpRequest),
    _Step("post_follow_up_done", "follow-up/complete", "Mark the follow-up done",
          lambda cs, tid, _: complete_follow_up(cs, tid)),
    _Step("post_follow_up_dismiss", "follow-up/dismiss", "Drop the follow-up, with a reason code",
          lambda cs, tid, b: dismiss_follow_up(cs, tid, reason=b.reason), DismissRequest, optional=True),
)  # fmt: skip


def _add_step_route(step: _Step) -> None:
    def endpoint(thread_id: str, svc: Services, body: Request | None = None) -> ThreadDetail:
        given = body if body is not None or step.body is None else step.body()
        return act(svc, thread_id, lambda cs: step.run(cs, thread_id, given))

    parameters = [
        inspect.Parameter("thread_id", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=ThreadIdPath),
        inspect.Parameter(
            "svc", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Annotated[Services, Depends(services)]
        ),
    ]
    if step.body is not None:
        parameters.append(
            inspect.Parameter(
                "body", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=step.body | None, default=None
            )
            if step.optional
            else inspect.Parameter("body", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=step.body)
        )
    endpoint.__signature__ = inspect.Signature(parameters, return_annotation=ThreadDetail)  # type: ignore[attr-defined]
    endpoint.__name__ = step.name
    router.add_api_route(
        f"/threads/{{thread_id}}/{step.path}", endpoint, methods=["POST"], name=step.name,
        response_model=ThreadDetail, status_code=step.status_code, responses=ERRORS, summary=step.summary,
    )  # fmt: skip


for _step in _STEPS:
    _add_step_route(_step)
