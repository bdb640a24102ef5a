"""``POST /v1/jobs/{id}/apply/verification``: the user settles a run left ``needs_verification``
(ADR 0212).

A run whose submit intent has no result may or may not have submitted; only the person can say.
"It was submitted" records ``ApplicationSubmitted`` and the job counts as applied, so no live claim
ever proceeds again.  "It was not" records ``ApplicationFailed`` (``not_submitted_on_verification``),
and a new live claim may proceed.  Both go through apply's ``settle_verification``.  An unknown job
gives 404; no run awaiting verification, or a second settlement, gives 409.  A refusal writes nothing.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from jobctrl.apply import NothingToVerify, settle_verification
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.models import Request, SafeId, Wire, error_responses
from jobctrl.runtime.api.reads import JobIdPath
from jobctrl.runtime.api.review_decision import current_facts
from jobctrl.runtime.api.services import Services, StoreContext, services

router = APIRouter(prefix="/v1", tags=["applications"])
ERRORS: dict[int | str, dict[str, Any]] = error_responses(404, 409, 422)  # fmt: skip


class VerificationRequest(Request):
    submitted: bool  # the user checked: the application went out (true) or it did not (false)
    run_id: SafeId | None = None  # needed only when several runs await verification


class VerificationSettled(Wire):
    job_id: str
    run_id: str
    submitted: bool
    run_status: str


def settle(svc: StoreContext, job_id: str, *, submitted: bool, run_id: str | None) -> VerificationSettled:
    current_facts(svc, job_id)  # 404 for an unknown job, before anything is written
    try:
        settled_run, status = settle_verification(
            svc.store, job_id=job_id, submitted=submitted, run_id=run_id, clock=svc.clock,
            tenant_id=svc.tenant_id,
        )  # fmt: skip
    except NothingToVerify as exc:
        raise ApiError(409, exc.code, exc.message) from None
    return VerificationSettled(
        job_id=job_id, run_id=settled_run, submitted=submitted, run_status=status.value
    )


@router.post(
    "/jobs/{job_id}/apply/verification",
    response_model=VerificationSettled,
    responses=ERRORS,
    summary="Settle an apply run that needs verification: it was submitted, or it was not",
)
def post_verification(
    job_id: JobIdPath, body: VerificationRequest, svc: Annotated[Services, Depends(services)]
) -> VerificationSettled:
    return settle(svc, job_id, submitted=body.submitted, run_id=body.run_id)
