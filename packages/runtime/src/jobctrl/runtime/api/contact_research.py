"""``POST /v1/jobs/{id}/contact-research``: the user starts supervised contact research for a job.

Only the user starts research (there is no schedule).  The sources are the public pages the user
names for this run (they become the run's fetch allowlist; none: nothing is fetched).  A ready worker
and Temporal are checked before anything starts (503); the workflow records the task and its
candidates, which land in review (``ContactResearchTaskNeedsReview``).
"""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends
from pydantic import Field

from jobctrl.orchestration import CONTACT_RESEARCH_WORKFLOW_TYPE as WORKFLOW_TYPE
from jobctrl.orchestration import ContactResearchInput, SettingsStore, contact_research_workflow_id
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.models import Request, Wire, error_responses
from jobctrl.runtime.api.readiness import require_ready_worker
from jobctrl.runtime.api.reads import JobIdPath
from jobctrl.runtime.api.review_decision import current_facts
from jobctrl.runtime.api.services import Services, StoreContext, services
from jobctrl.runtime.api.workflow_control import (
    TemporalUnavailable,
    WorkflowAlreadyRunning,
    WorkflowControl,
)

router = APIRouter(prefix="/v1", tags=["contacts"])
SourceUrl = Annotated[str, Field(pattern=r"^https?://[^\s]{1,1990}$")]


class ContactResearchRequest(Request):
    sources: Annotated[list[SourceUrl], Field(max_length=25)] = []


class ContactResearchStarted(Wire):
    task_id: str
    workflow_id: str


@router.post(
    "/jobs/{job_id}/contact-research",
    response_model=ContactResearchStarted,
    status_code=202,
    responses=error_responses(404, 409, 503),
)
async def start_contact_research(
    job_id: JobIdPath, body: ContactResearchRequest, svc: Annotated[Services, Depends(services)]
) -> ContactResearchStarted:
    task_queue = svc.task_queue or SettingsStore(svc.db, clock=svc.clock).load().task_queue
    return await start_job_research(svc, svc.require_control(), task_queue, job_id, list(body.sources))


async def start_job_research(
    svc: StoreContext, control: WorkflowControl, task_queue: str, job_id: str, sources: list[str]
) -> ContactResearchStarted:
    """Start ``ContactResearchWorkflow`` for the job (the route's and ``jobctrl contacts research``'s
    one path): 404 for an unknown job and 503 without a ready worker, before anything starts."""
    facts = current_facts(svc, job_id)  # 404 for an unknown job
    require_ready_worker(svc.db, svc.clock.now())
    task_id = str(uuid.uuid4())
    workflow_id = contact_research_workflow_id(svc.tenant_id, task_id)
    try:
        await control.start(
            WORKFLOW_TYPE,
            ContactResearchInput(
                task_id=task_id, tenant=svc.tenant_id, employer=facts.employer, job_id=job_id,
                sources=sources,
            ),
            workflow_id=workflow_id,
            task_queue=task_queue,
            once=True,
        )  # fmt: skip
    except WorkflowAlreadyRunning:
        raise ApiError(409, "contact_research_already_running", f"{workflow_id} is already running") from None
    except TemporalUnavailable as exc:
        raise ApiError(503, exc.code, exc.message) from None
    return ContactResearchStarted(task_id=task_id, workflow_id=workflow_id)
