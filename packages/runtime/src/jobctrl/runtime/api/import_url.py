"""``POST /v1/jobs/import-url``: one job from a pasted URL (ADR 0220).

Body ``{url, apiBase?}``.  201 with the job when it is new, 200 when the posting was a job we already
had.  A new job's ``preparation`` says whether a Discover run was started to prepare it now, or why it
is queued for the next run (ADR 0286).  Refusals write nothing: 422 ``unsupported_url`` /
``not_a_posting`` / ``robots_disallowed`` / ``unsafe_destination`` / ``request_budget_exhausted``,
502 ``posting_unreachable``.  The fetch runs on the event loop through the politeness gateway; the
recording runs off it.
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
from jobctrl.runtime.api.models import Request, Wire, error_responses
from jobctrl.runtime.api.services import Services, services
from jobctrl.runtime.composition.import_url import loopback_policy_for, start_preparation
from jobctrl.runtime.composition.root import honest_user_agent

router = APIRouter(prefix="/v1", tags=["jobs"])
REFUSED: dict[int | str, dict[str, Any]] = error_responses(422, 502)


class ImportUrlBody(Request):
    url: str = Field(min_length=1, max_length=2000)
    api_base: str | None = Field(default=None, max_length=2000)


class Preparation(Wire):
    """``started``: a Discover run was started for the job (its workflow and run ids); ``queued``: no
    worker could take it now (``reason``), the next Discover run prepares it; ``not_needed``: the
    posting was a job we already had, prepared with the runs that found it."""

    state: str
    reason: str | None = None
    workflow_id: str | None = None
    run_id: str | None = None


class ImportedJob(Wire):
    job_id: str
    created: bool
    verdict: str
    family: str
    source_id: str
    title: str
    employer: str
    preparation: Preparation


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
    preparation = (
        await _prepare(svc, imported.job_id) if imported.created else Preparation(state="not_needed")
    )
    payload = ImportedJob(
        job_id=imported.job_id, created=imported.created, verdict=imported.verdict, family=imported.family,
        source_id=imported.source_id, title=imported.title, employer=imported.employer,
        preparation=preparation,
    ).model_dump(by_alias=True)  # fmt: skip
    return JSONResponse(payload, status_code=201 if imported.created else 200)


async def _prepare(svc: Services, job_id: str) -> Preparation:
    started = await start_preparation(svc.db, svc.control, job_id, clock=svc.clock, tenant_id=svc.tenant_id)
    return Preparation(
        state=started.state, reason=started.reason, workflow_id=started.workflow_id, run_id=started.run_id
    )
