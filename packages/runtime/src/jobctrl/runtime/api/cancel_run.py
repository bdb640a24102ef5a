"""``POST /v1/workflow-runs/{id}/actions/cancel``: stop an in-progress Discover execution.

Allowed only for a Discover run whose workflow status is in_progress and whose durable phase is
discovering or draining (a closed run still saying draining is refused, 409 ``run_not_cancelable``).
Temporal is asked first (exactly the recorded run of the deterministic workflow id); only then is
``WorkflowCancellationRequested`` recorded, once per run, by orchestration's
``request_workflow_cancellation``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from jobctrl.orchestration import request_workflow_cancellation
from jobctrl.runtime.api.discover_phase import Phase, is_cancelable
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.models import CancelAccepted, error_responses
from jobctrl.runtime.api.operations.execution import run_phase
from jobctrl.runtime.api.reads import RunIdPath, load_run
from jobctrl.runtime.api.services import Services, services

router = APIRouter(prefix="/v1", tags=["actions"])


@router.post(
    "/workflow-runs/{workflow_id}/actions/cancel",
    response_model=CancelAccepted,
    status_code=202,
    responses=error_responses(404, 409, 503),
)
async def cancel_run(workflow_id: RunIdPath, svc: Annotated[Services, Depends(services)]) -> JSONResponse:
    row, phase = await run_in_threadpool(_load_with_phase, svc, workflow_id)
    if not is_cancelable(row.workflow_type, row.status, phase):
        raise ApiError(
            409,
            "run_not_cancelable",
            f"{row.workflow_type} is {row.status} in phase {phase}; only an in-progress Discover run "
            "that is discovering or draining can be canceled",
        )
    control = svc.require_control()
    await control.cancel(workflow_id, row.run_id)
    recorded = await run_in_threadpool(
        request_workflow_cancellation,
        svc.store,
        workflow_id=workflow_id,
        run_id=row.run_id,
        workflow_type=row.workflow_type,
        tenant_id=svc.tenant_id,
        now=svc.clock.now(),
    )
    body = CancelAccepted(workflow_id=workflow_id, run_id=row.run_id, cancel_recorded=recorded)
    return JSONResponse(body.model_dump(by_alias=True), status_code=202)


def _load_with_phase(svc: Services, workflow_id: str) -> tuple[Any, Phase | None]:
    with svc.db.read() as conn:
        row = load_run(conn, svc.tenant_id, workflow_id)
        return row, run_phase(conn, row)
