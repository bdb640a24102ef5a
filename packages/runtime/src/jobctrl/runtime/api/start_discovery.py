"""``POST /v1/discovery/runs``: start the DiscoverWorkflow (deterministic id ``discover-{tenant}``).

A worker must be ready (fresh heartbeat) or the answer is 503 ``worker_runtime_unavailable`` and
nothing is started; an open Discover run is a 409 ``workflow_already_running``.  The recovery gate of
the operations spec: while the runtime inventory of this installation reports work in its slots
(``activeItemsTotal > 0``), or cannot report it (``null``), the answer is 409
``active_work_remaining`` and nothing is started (ADR 0134).  The run's own
lifecycle facts are recorded by the worker (``record_workflow_started``), not here.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from jobctrl.orchestration import DISCOVER_WORKFLOW_TYPE as WORKFLOW_TYPE
from jobctrl.orchestration import DiscoverWorkflowInput, SettingsStore, discover_workflow_id
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.models import DiscoveryRunRequest, StartedRun, error_responses
from jobctrl.runtime.api.operations import SnapshotInputs, database_identity, read_inventory
from jobctrl.runtime.api.readiness import require_ready_worker
from jobctrl.runtime.api.services import Services, services

router = APIRouter(prefix="/v1", tags=["actions"])


def _active_items_total(svc: Services) -> int | None:
    """``activeItemsTotal`` of the operations snapshot: fresh workers of this database only."""
    now = svc.clock.now()
    with svc.db.read() as conn:
        inputs = SnapshotInputs(now=now, tenant_id=svc.tenant_id, db_path=database_identity(svc.db))
        return read_inventory(conn, inputs).active_items_total


@router.post(
    "/discovery/runs",
    response_model=StartedRun,
    status_code=202,
    responses=error_responses(409, 503),
)
async def start_discovery(
    svc: Annotated[Services, Depends(services)], body: DiscoveryRunRequest | None = None
) -> JSONResponse:
    request = body or DiscoveryRunRequest()
    await run_in_threadpool(require_ready_worker, svc.db, svc.clock.now())
    active = await run_in_threadpool(_active_items_total, svc)
    if active != 0:
        raise ApiError(
            409,
            "active_work_remaining",
            "the runtime inventory is unavailable"
            if active is None
            else f"{active} activities are still running; a new Discover run waits until none is",
        )
    control = svc.require_control()
    task_queue = (await run_in_threadpool(SettingsStore(svc.db, clock=svc.clock).load)).task_queue
    started = await control.start(
        WORKFLOW_TYPE,
        DiscoverWorkflowInput(
            tenant=svc.tenant_id,
            source_ids=list(request.source_ids),
            limit=request.limit,
            min_score=request.min_score,
        ),
        workflow_id=discover_workflow_id(svc.tenant_id),
        task_queue=task_queue,
    )
    result = StartedRun(workflow_id=started.workflow_id, run_id=started.run_id)
    return JSONResponse(result.model_dump(by_alias=True), status_code=202)
