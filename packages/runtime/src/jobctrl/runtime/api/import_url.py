"""``POST /v1/jobs/import-url``: one job from a pasted URL (ADR 0220).

Body ``{url, apiBase?}``.  201 with the job when it is new, 200 when the posting was a job we already
had.  Refusals write nothing: 422 ``unsupported_url`` / ``not_a_posting`` / ``robots_disallowed`` /
``unsafe_destination`` / ``request_budget_exhausted``, 502 ``posting_unreachable``.  The fetch runs
on the event loop through the politeness gateway; the recording runs off it.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from jobctrl.discovery import PostingUnreachable, fetch_posting, import_posting
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.orchestration import SettingsStore
from jobctrl.politeness import PolitenessGateway
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.models import ErrorBody, Request, Wire
from jobctrl.runtime.api.services import Services, services
from jobctrl.runtime.composition.import_url import loopback_policy_for
from jobctrl.runtime.composition.root import honest_user_agent

router = APIRouter(prefix="/v1", tags=["jobs"])
REFUSED: dict[int | str, dict[str, Any]] = {422: {"model": ErrorBody}, 502: {"model": ErrorBody}}


class ImportUrlBody(Request):
    url: str = Field(min_length=1, max_length=2000)
    api_base: str | None = Field(default=None, max_length=2000)


class ImportedJob(Wire):
    job_id: str
    created: bool
    verdict: str
    family: str
    source_id: str
    title: str
    employer: str


@router.post("/jobs/import-url", response_model=ImportedJob, status_code=201, responses=REFUSED)
async def import_url(body: ImportUrlBody, svc: Annotated[Services, Depends(services)]) -> JSONResponse:
    settings = await run_in_threadpool(SettingsStore(svc.db, clock=svc.clock).load)
    try:
        async with PolitenessGateway(honest_user_agent(settings)) as gateway:
            fetched = await fetch_posting(
                gateway, body.url, api_base=body.api_base,
                policy_override=loopback_policy_for(body.url, body.api_base),
            )  # fmt: skip
        imported = await run_in_threadpool(
            lambda: import_posting(svc.store, fetched, url=body.url, clock=svc.clock, tenant_id=svc.tenant_id)
        )
    except PostingUnreachable as exc:
        raise ApiError(502, exc.code, exc.message) from None
    except JobCtrlError as exc:
        if exc.code == "storage_unavailable":
            raise
        raise ApiError(422, exc.code, exc.message) from None
    payload = ImportedJob(
        job_id=imported.job_id, created=imported.created, verdict=imported.verdict, family=imported.family,
        source_id=imported.source_id, title=imported.title, employer=imported.employer,
    ).model_dump(by_alias=True)  # fmt: skip
    return JSONResponse(payload, status_code=201 if imported.created else 200)
