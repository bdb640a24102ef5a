"""``POST /v1/jobs/{id}/follow-up/snooze``: the user puts off an application's follow-up (ADR 0213).

The follow-up is then not due until the date given (or its own due date, when later).  Apply's
``snooze_follow_up`` records ``ApplicationFollowUpSnoozed``.  An unknown job gives 404, a job with no
follow-up pending gives 409, and a date not in the next 366 days or without a time zone gives 422.
None of them writes anything.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import AwareDatetime

from jobctrl.apply import FollowUpNotPending, InvalidSnooze, snooze_follow_up
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.models import Request, Wire, error_responses
from jobctrl.runtime.api.reads import JobIdPath
from jobctrl.runtime.api.review_decision import current_facts
from jobctrl.runtime.api.services import Services, StoreContext, services

router = APIRouter(prefix="/v1", tags=["applications"])
ERRORS: dict[int | str, dict[str, Any]] = error_responses(404, 409, 422)  # fmt: skip


class SnoozeRequest(Request):
    until: AwareDatetime  # not due before this moment


class FollowUpSnoozed(Wire):
    job_id: str
    snoozed_until: str


def snooze(svc: StoreContext, job_id: str, until: Any) -> FollowUpSnoozed:
    current_facts(svc, job_id)  # 404 for an unknown job, before anything is written
    try:
        stored = snooze_follow_up(
            svc.store, job_id=job_id, until=until, clock=svc.clock, tenant_id=svc.tenant_id
        )
    except InvalidSnooze as exc:
        raise ApiError(422, exc.code, exc.message) from None
    except FollowUpNotPending as exc:
        raise ApiError(409, exc.code, exc.message) from None
    return FollowUpSnoozed(job_id=job_id, snoozed_until=stored)


@router.post(
    "/jobs/{job_id}/follow-up/snooze",
    response_model=FollowUpSnoozed,
    responses=ERRORS,
    summary="Snooze the application's follow-up: not due until the given time",
)
def post_snooze(
    job_id: JobIdPath, body: SnoozeRequest, svc: Annotated[Services, Depends(services)]
) -> FollowUpSnoozed:
    return snooze(svc, job_id, body.until)
