"""Outreach threads, read: ``GET /v1/outreach/threads`` and ``GET /v1/outreach/follow-ups/due``
(ADR 0211), from ``outreach_thread_projections``.

Read only: a thread's draft, its review, the sends the user logged and its follow-up.  There is no
send route: the user copies an approved draft and sends it themselves.
"""

from __future__ import annotations

from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Query

from jobctrl.kernel.clock import isoformat
from jobctrl.projections.read_models.outreach import outreach_thread_projections as ot
from jobctrl.runtime.api.models import ID_PATTERN, Wire
from jobctrl.runtime.api.services import Services, StoreContext, services

router = APIRouter(prefix="/v1/outreach", tags=["contacts"])
_ID = ID_PATTERN


class ThreadView(Wire):
    thread_id: str
    contact_id: str | None
    job_id: str | None
    kind: str | None
    draft_id: str | None
    generation: int | None
    draft_status: str | None
    drafted_at: str | None
    decided_at: str | None
    rejection_reason: str | None
    sends: int
    last_sent_at: str | None
    send_channel: str | None
    follow_up_status: str | None
    follow_up_due_at: str | None
    follow_up_basis: str | None
    follow_up_closed_at: str | None
    replies: int = 0
    last_reply_at: str | None = None


class ThreadList(Wire):
    items: list[ThreadView]
    total: int


def _view(r: Any) -> ThreadView:
    return ThreadView.model_validate(
        {c.name: getattr(r, c.name) for c in ot.columns if c.name in ThreadView.model_fields}
    )


def read_threads(svc: StoreContext, *where: Any, limit: int = 200) -> ThreadList:
    conditions = [ot.c.tenant_id == svc.tenant_id, *where]
    with svc.db.read() as conn:
        total = int(conn.execute(sa.select(sa.func.count()).select_from(ot).where(*conditions)).scalar_one())
        rows = conn.execute(
            sa.select(ot).where(*conditions).order_by(ot.c.updated_at.desc(), ot.c.thread_id).limit(limit)
        ).all()
    return ThreadList(items=[_view(r) for r in rows], total=total)


@router.get(
    "/threads",
    response_model=ThreadList,
    summary="Outreach threads: drafts, reviews, logged sends, follow-ups",
)
def threads(
    svc: Annotated[Services, Depends(services)],
    contact_id: Annotated[str | None, Query(alias="contactId", pattern=_ID)] = None,
    job_id: Annotated[str | None, Query(alias="jobId", pattern=_ID)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> ThreadList:
    where = [
        *([ot.c.contact_id == contact_id] if contact_id else []),
        *([ot.c.job_id == job_id] if job_id else []),
    ]
    return read_threads(svc, *where, limit=limit)


@router.get("/follow-ups/due", response_model=ThreadList, summary="Outreach follow-ups due now")
def follow_ups_due(svc: Annotated[Services, Depends(services)]) -> ThreadList:
    now = isoformat(svc.clock.now())
    return read_threads(svc, ot.c.follow_up_status == "scheduled", ot.c.follow_up_due_at <= now)
