"""Read routes over the projections: jobs, one job, workflow runs, one run.

Everything here reads read models only (``job_list_projections``, ``job_detail_projections``,
``job_stage_states``, ``workflow_run_projections``, ``workflow_run_history``,
``pipeline_step_projections``); nothing writes.

A workflow id's latest run is ``GET /v1/workflow-runs/{id}``; every run of it (a rerun of Discover keeps
the deterministic id and gets a new run id) is listed by ``GET /v1/workflow-runs/{id}/runs`` and
reached by ``GET /v1/workflow-runs/{id}?runId=`` (ADR 0271).  Only the latest run can be canceled
(the cancel route addresses the workflow id), so only its summary may say ``cancelable``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated, Any, cast

import msgspec
import sqlalchemy as sa
from fastapi import APIRouter, Depends, Path, Query, Response
from sqlalchemy.engine import Connection

from jobctrl.kernel.stages import STAGES, Stage
from jobctrl.projections.read_models.dashboard import read_dashboard
from jobctrl.projections.read_models.job_detail import job_detail_projections
from jobctrl.projections.read_models.job_list import job_list_projections
from jobctrl.projections.read_models.pipeline_steps import pipeline_step_projections
from jobctrl.projections.read_models.stage_states import job_stage_states
from jobctrl.projections.read_models.workflow_run_history import workflow_run_history
from jobctrl.projections.read_models.workflow_runs import workflow_run_projections
from jobctrl.runtime.api.discover_phase import is_cancelable
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.models import (
    ID_PATTERN,
    JobDetail,
    JobPage,
    JobSummary,
    StageStateView,
    TimelineItem,
    WorkflowRunDetail,
    WorkflowRunPage,
    WorkflowRunSummary,
    error_responses,
)
from jobctrl.runtime.api.operations.execution import run_phase
from jobctrl.runtime.api.services import Services, services

JobIdPath = Annotated[str, Path(pattern=ID_PATTERN, description="the job id")]
RunIdPath = Annotated[str, Path(pattern=ID_PATTERN, description="the workflow id")]
TemporalRunId = Annotated[
    str | None,
    Query(
        alias="runId",
        pattern=ID_PATTERN,
        description="one run of the workflow id (default: its latest run)",
    ),
]
NOT_FOUND: dict[int | str, dict[str, Any]] = error_responses(404)

router = APIRouter(prefix="/v1", tags=["read"])

jl, jd, ss, wr, ps = (
    job_list_projections, job_detail_projections, job_stage_states, workflow_run_projections,
    pipeline_step_projections,
)  # fmt: skip

# The job's current stage is the furthest pipeline stage that has a row it reached: a ``skipped`` row
# (the stages a not-eligible job never runs, ADR 0071) is not reached, so such a job reads "score".
_ordinal = sa.case({name: i for i, name in enumerate(STAGES)}, value=ss.c.stage, else_=-1)


def _current_stage_subquery(tenant_id: str) -> Any:
    return (
        sa.select(ss.c.job_id, sa.func.max(_ordinal).label("ordinal"))
        .where(ss.c.tenant_id == tenant_id, ss.c.state != "skipped")
        .group_by(ss.c.job_id)
        .subquery("current_stage")
    )


def _summary(row: Any, stage_states: dict[tuple[str, str], str]) -> JobSummary:
    ordinal = row.ordinal
    stage = STAGES[ordinal] if ordinal is not None and ordinal >= 0 else None
    return JobSummary(
        job_id=row.job_id,
        title=row.title,
        employer=row.employer,
        source=row.source,
        location=row.location,
        fit_score=row.fit_score,
        fit_band=row.fit_band,
        keywords=json.loads(row.keywords_json),
        active_state=row.active_state,
        hidden=row.hidden,
        current_stage=stage,
        current_stage_state=None if stage is None else stage_states.get((row.job_id, stage)),
        discovered_at=row.discovered_at,
        updated_at=row.updated_at,
    )


def _states_for(conn: Connection, tenant_id: str, job_ids: Sequence[str]) -> dict[tuple[str, str], str]:
    if not job_ids:
        return {}
    rows = conn.execute(
        sa.select(ss.c.job_id, ss.c.stage, ss.c.state).where(
            ss.c.tenant_id == tenant_id, ss.c.job_id.in_(list(job_ids))
        )
    ).all()
    return {(r.job_id, r.stage): r.state for r in rows}


@router.get("/jobs", response_model=JobPage, summary="List jobs (from job_list_projections)")
def list_jobs(
    svc: Annotated[Services, Depends(services)],
    stage: Annotated[Stage | None, Query(description="the job's current (furthest) stage")] = None,
    min_score: Annotated[float | None, Query(alias="minScore", ge=0, le=10)] = None,
    employer: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    q: Annotated[
        str | None, Query(min_length=1, max_length=200, description="text in title or employer")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> JobPage:
    current = _current_stage_subquery(svc.tenant_id)
    where: list[Any] = [jl.c.tenant_id == svc.tenant_id, sa.not_(jl.c.deleted), sa.not_(jl.c.hidden)]
    if stage is not None:
        where.append(current.c.ordinal == STAGES.index(stage))
    if min_score is not None:
        where.append(jl.c.fit_score >= min_score)
    if employer is not None:
        where.append(sa.func.lower(jl.c.employer) == employer.lower())
    if q is not None:
        pattern = "%" + q.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        where.append(
            sa.or_(
                sa.func.lower(jl.c.title).like(pattern, escape="\\"),
                sa.func.lower(jl.c.employer).like(pattern, escape="\\"),
            )
        )
    joined = jl.outerjoin(current, current.c.job_id == jl.c.job_id)
    with svc.db.read() as conn:
        total = conn.execute(sa.select(sa.func.count()).select_from(joined).where(*where)).scalar_one()
        rows = conn.execute(
            sa.select(jl, current.c.ordinal)
            .select_from(joined)
            .where(*where)
            .order_by(jl.c.discovered_at.desc(), jl.c.job_id)
            .limit(limit)
            .offset(offset)
        ).all()
        states = _states_for(conn, svc.tenant_id, [r.job_id for r in rows])
    return JobPage(items=[_summary(r, states) for r in rows], total=total, limit=limit, offset=offset)


@router.get("/jobs/{job_id}", response_model=JobDetail, responses=NOT_FOUND, summary="One job")
def get_job(job_id: JobIdPath, svc: Annotated[Services, Depends(services)]) -> JobDetail:
    current = _current_stage_subquery(svc.tenant_id)
    with svc.db.read() as conn:
        row = conn.execute(
            sa.select(jl, current.c.ordinal)
            .select_from(jl.outerjoin(current, current.c.job_id == jl.c.job_id))
            .where(jl.c.tenant_id == svc.tenant_id, jl.c.job_id == job_id)
        ).first()
        if row is None:
            raise ApiError(404, "job_not_found", f"no job {job_id}")
        detail = conn.execute(
            sa.select(jd).where(jd.c.tenant_id == svc.tenant_id, jd.c.job_id == job_id)
        ).first()
        stage_rows = conn.execute(
            sa.select(ss).where(ss.c.tenant_id == svc.tenant_id, ss.c.job_id == job_id)
        ).all()
    states = {(r.job_id, r.stage): r.state for r in stage_rows}
    stages = sorted(
        (
            StageStateView(
                stage=r.stage,
                state=r.state,
                attempts=r.attempts,
                max_attempts=r.max_attempts,
                error_code=r.error_code,
                next_action=r.next_action,
                blocked_by=json.loads(r.blocked_by_json),
                updated_at=r.updated_at,
            )
            for r in stage_rows
        ),
        key=lambda s: STAGES.index(s.stage),
    )
    return JobDetail(
        job=_summary(row, states),
        posting_url=detail.posting_url if detail else None,
        canonical_url=detail.canonical_url if detail else None,
        description=detail.description if detail else None,
        application_url=detail.application_url if detail else None,
        score_version=detail.score_version if detail else None,
        score_confidence=detail.score_confidence if detail else None,
        stages=stages,
    )


def _run_summary(conn: Connection, row: Any, *, latest: bool = True) -> WorkflowRunSummary:
    phase = run_phase(conn, row)
    return WorkflowRunSummary(
        workflow_id=row.workflow_id,
        workflow_type=row.workflow_type,
        run_id=row.run_id,
        status=row.status,
        phase=phase,
        cancelable=latest and is_cancelable(row.workflow_type, row.status, phase),
        cancel_requested_at=row.cancel_requested_at,
        cancel_requested_by=row.cancel_requested_by,
        started_at=row.started_at,
        finished_at=row.finished_at,
        error_code=row.error_code,
    )


def load_run(conn: Connection, tenant_id: str, workflow_id: str) -> Any:
    row = conn.execute(
        sa.select(wr).where(wr.c.tenant_id == tenant_id, wr.c.workflow_id == workflow_id)
    ).first()
    if row is None:
        raise ApiError(404, "workflow_run_not_found", f"no workflow run {workflow_id}")
    return row


@router.get("/workflow-runs", response_model=WorkflowRunPage, summary="Workflow runs, newest first")
def list_runs(
    svc: Annotated[Services, Depends(services)],
    workflow_type: Annotated[str | None, Query(alias="workflowType", min_length=1, max_length=100)] = None,
    status: Annotated[
        str | None, Query(pattern="^(in_progress|succeeded|failed|canceled|timed_out|terminated)$")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> WorkflowRunPage:
    where: list[Any] = [wr.c.tenant_id == svc.tenant_id]
    if workflow_type is not None:
        where.append(wr.c.workflow_type == workflow_type)
    if status is not None:
        where.append(wr.c.status == status)
    with svc.db.read() as conn:
        total = conn.execute(sa.select(sa.func.count()).select_from(wr).where(*where)).scalar_one()
        rows = conn.execute(
            sa.select(wr)
            .where(*where)
            .order_by(wr.c.last_event_position.desc(), wr.c.workflow_id)
            .limit(limit)
            .offset(offset)
        ).all()
        items = [_run_summary(conn, r) for r in rows]
    return WorkflowRunPage(items=items, total=total, limit=limit, offset=offset)


def _latest_run_id(conn: Connection, tenant_id: str, workflow_id: str) -> str | None:
    where = (wr.c.tenant_id == tenant_id, wr.c.workflow_id == workflow_id)
    run_id: str | None = conn.execute(sa.select(wr.c.run_id).where(*where)).scalar_one_or_none()
    return run_id


def load_run_of(conn: Connection, tenant_id: str, workflow_id: str, run_id: str) -> Any:
    h = workflow_run_history
    row = conn.execute(
        sa.select(h).where(h.c.tenant_id == tenant_id, h.c.workflow_id == workflow_id, h.c.run_id == run_id)
    ).first()
    if row is None:
        raise ApiError(404, "workflow_run_not_found", f"no run {run_id} of workflow {workflow_id}")
    return row


@router.get(
    "/workflow-runs/{workflow_id}/runs",
    response_model=WorkflowRunPage,
    responses=NOT_FOUND,
    summary="Every run of one workflow id, newest first",
)
def list_runs_of(
    workflow_id: RunIdPath,
    svc: Annotated[Services, Depends(services)],
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> WorkflowRunPage:
    h = workflow_run_history
    where = (h.c.tenant_id == svc.tenant_id, h.c.workflow_id == workflow_id)
    with svc.db.read() as conn:
        total = conn.execute(sa.select(sa.func.count()).select_from(h).where(*where)).scalar_one()
        if total == 0:
            raise ApiError(404, "workflow_run_not_found", f"no workflow run {workflow_id}")
        latest = _latest_run_id(conn, svc.tenant_id, workflow_id)
        rows = conn.execute(
            sa.select(h)
            .where(*where)
            .order_by(h.c.last_event_position.desc(), h.c.run_id)
            .limit(limit)
            .offset(offset)
        ).all()
        items = [_run_summary(conn, r, latest=r.run_id == (latest or "")) for r in rows]
    return WorkflowRunPage(items=items, total=total, limit=limit, offset=offset)


@router.get(
    "/workflow-runs/{workflow_id}", response_model=WorkflowRunDetail, responses=NOT_FOUND, summary="One run"
)
def get_run(
    workflow_id: RunIdPath, svc: Annotated[Services, Depends(services)], run_id: TemporalRunId = None
) -> WorkflowRunDetail:
    with svc.db.read() as conn:
        if run_id is None:
            row = load_run(conn, svc.tenant_id, workflow_id)
            summary = _run_summary(conn, row)
        else:
            row = load_run_of(conn, svc.tenant_id, workflow_id, run_id)
            latest = _latest_run_id(conn, svc.tenant_id, workflow_id)
            summary = _run_summary(conn, row, latest=run_id == latest)
    return WorkflowRunDetail(
        **summary.model_dump(),
        duration_ms=row.duration_ms,
        error_message=row.error_message,
        retryable=row.retryable,
        recovered=row.recovered,
        input_summary=cast(dict[str, Any], json.loads(row.input_summary_json)),
        timeline=[TimelineItem.model_validate(t) for t in json.loads(row.timeline_json)],
        timeline_total=row.timeline_total,
    )


@router.get(
    "/dashboard/summary",
    response_class=Response,
    summary="The dashboard read model (dashboard_projections + live run and stage counts)",
)
def dashboard_summary(svc: Annotated[Services, Depends(services)]) -> Response:
    with svc.db.read() as conn:
        summary = read_dashboard(conn, svc.tenant_id)
    return Response(content=msgspec.json.encode(summary), media_type="application/json")
