"""``POST /v1/jobs/{id}/actions/retry-stage``: reset a failed/blocked stage, optionally run it now.

Order is the invariant (runtime reference §6.2): with ``runAfter`` the stage must support it (400
``unsupported_retry_run_after_stage``), then a worker must be ready (a fresh heartbeat) and Temporal
reachable-by-configuration (503 ``worker_runtime_unavailable`` / ``temporal_unavailable``) — all
BEFORE the reset, so a refused call leaves the stage and the log exactly as they were.  Success is
202 and names the preparation workflow; ``runAfter:false`` is a deliberate local transition (200).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from jobctrl.orchestration import (
    ORDER,
    JobPreparationInput,
    SettingsStore,
    is_retryable,
    kind_of,
    load_job_stages,
    preparation_idempotency_key,
    preparation_workflow_id,
)
from jobctrl.orchestration import PREPARATION_WORKFLOW_TYPE as WORKFLOW_TYPE
from jobctrl.orchestration import retry_stage as retry_job_stage
from jobctrl.orchestration.events import Stage
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.models import RetryStageRequest, RetryStageResult, error_responses
from jobctrl.runtime.api.readiness import require_ready_worker
from jobctrl.runtime.api.reads import JobIdPath
from jobctrl.runtime.api.services import Services, services
from jobctrl.runtime.api.workflow_control import WorkflowControl

router = APIRouter(prefix="/v1", tags=["actions"])

# Stages a JobPreparationWorkflow can run (score → tailor → cover); others are reset-only.
RUN_AFTER_STAGES: frozenset[Stage] = frozenset({"score", "tailor", "cover"})


@router.post(
    "/jobs/{job_id}/actions/retry-stage",
    response_model=RetryStageResult,
    status_code=200,
    responses={
        202: {"model": RetryStageResult, "description": "reset and handed to the worker"},
        **error_responses(400, 404, 409, 503),
    },
)
async def retry_stage(
    job_id: JobIdPath, body: RetryStageRequest, svc: Annotated[Services, Depends(services)]
) -> JSONResponse:
    # The database work runs off the event loop (SSE clients share it).
    result, control, source_version, task_queue = await run_in_threadpool(_check_and_reset, svc, job_id, body)
    if control is None:
        return JSONResponse(result.model_dump(by_alias=True), status_code=200)
    key = preparation_idempotency_key(
        svc.tenant_id, job_id, "retry_stage", None, f"stages-{job_id}-v{source_version}"
    )
    started = await control.start(
        WORKFLOW_TYPE,
        JobPreparationInput(
            tenant=svc.tenant_id,
            job_id=job_id,
            idempotency_key=key,
            steps=list(ORDER[ORDER.index(result.stage) :]),
        ),
        workflow_id=preparation_workflow_id(key),
        task_queue=task_queue,
    )
    result = result.model_copy(update={"workflow_id": started.workflow_id})
    return JSONResponse(result.model_dump(by_alias=True), status_code=202)


def _check_and_reset(
    svc: Services, job_id: str, body: RetryStageRequest
) -> tuple[RetryStageResult, WorkflowControl | None, int, str]:
    """Every refusal is raised before the reset; returns the result, the Temporal port when the stage
    is to run now, the stage stream version after the reset and the task queue."""
    stage: Stage = body.stage
    if body.run_after and stage not in RUN_AFTER_STAGES:
        raise ApiError(400, "unsupported_retry_run_after_stage", f"{stage} cannot be run after a retry")
    loaded = load_job_stages(svc.store, job_id, clock=svc.clock)
    if loaded.version == 0:
        raise ApiError(404, "job_not_found", f"job {job_id} has no stage history")
    current = loaded.state(stage)
    if not is_retryable(current):
        raise ApiError(
            409, "stage_not_retryable", f"{stage} is {kind_of(current)}; only failed or blocked stages retry"
        )
    control = None
    task_queue = ""
    if body.run_after:
        require_ready_worker(svc.db, svc.clock.now())  # 503 before anything is reset
        control = svc.require_control()
        task_queue = SettingsStore(svc.db, clock=svc.clock).load().task_queue
    # The use case re-decides against a fresh load and saves with compare-and-swap.
    after = retry_job_stage(svc.store, job_id, stage, clock=svc.clock)
    result = RetryStageResult(
        job_id=job_id, stage=stage, state=kind_of(after.state(stage)), run_after=body.run_after,
        workflow_id=None,
    )  # fmt: skip
    return result, control, after.version, task_queue
