"""``dashboard_projections``: per-tenant counters of facts the log records, one row per metric.

Counters only go up and count facts, not outcomes that a later event may supersede: whether a
workflow or a stage is *running now* is read from ``workflow_run_projections`` and
``job_stage_states`` by ``read_dashboard``, which never reports a stage as running when the run that
owns it is terminal (a stale ``StageStarted`` must not present a dead workflow as alive).
"""

from __future__ import annotations

from typing import Any, get_args

import msgspec
import sqlalchemy as sa
from sqlalchemy import Connection

from jobctrl.apply.events import (
    ApplicationFailed,
    ApplicationSubmitted,
    ApplyRunStarted,
    ApplySubmissionBlocked,
)
from jobctrl.discovery.events import DiscoveryRunCompleted, DiscoveryRunFailed, JobDiscovered
from jobctrl.enrichment.events import EnrichmentFailed, JobEnriched
from jobctrl.kernel.events import DomainEvent
from jobctrl.materials.events import CoverLetterGenerated, PdfRendered, ResumeApproved, ResumeFailed
from jobctrl.orchestration.events import (
    PipelineStepFailed,
    Stage,
    StageBlocked,
    StageCompleted,
    StageExhausted,
    StageFailed,
    StageMarkedStale,
    WorkflowStarted,
)
from jobctrl.projections.model import EventInfo, Fold, Projection, ReadModelTable
from jobctrl.projections.read_models.stage_states import job_stage_states
from jobctrl.projections.read_models.workflow_runs import workflow_run_projections
from jobctrl.projections.schema import metadata
from jobctrl.scoring.events import JobScored

dashboard_projections = sa.Table(
    "dashboard_projections",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("metric", sa.String(80), primary_key=True),
    sa.Column("value", sa.BigInteger, nullable=False),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
)


class CounterRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    metric: str
    value: int
    last_event_position: int
    updated_at: str | None


COUNTERS = ReadModelTable(dashboard_projections, CounterRow)

# Event type → counter name.  Stage events count per stage (``stage_<stage>_<fact>``).
_FIXED_METRICS: dict[type[DomainEvent], str] = {
    JobDiscovered: "jobs_discovered",
    JobEnriched: "enrichments_recorded",
    EnrichmentFailed: "enrichment_failures",
    JobScored: "scores_recorded",
    ResumeApproved: "resumes_approved",
    ResumeFailed: "resume_failures",
    CoverLetterGenerated: "cover_letters_generated",
    PdfRendered: "pdfs_rendered",
    ApplyRunStarted: "apply_runs_started",
    ApplicationSubmitted: "applications_submitted",
    ApplicationFailed: "application_failures",
    ApplySubmissionBlocked: "apply_submissions_blocked",
    DiscoveryRunCompleted: "discovery_runs_completed",
    DiscoveryRunFailed: "discovery_run_failures",
    WorkflowStarted: "workflow_starts",
    PipelineStepFailed: "pipeline_step_failures",
}
_STAGE_FACTS: dict[type[DomainEvent], str] = {
    StageCompleted: "completed",
    StageFailed: "failed",
    StageExhausted: "exhausted",
    StageBlocked: "blocked",
    StageMarkedStale: "marked_stale",
}


def _fixed_key(metric: str) -> Any:
    def key(_event: Any, info: EventInfo) -> tuple[str, str]:
        return (info.tenant_id, metric)

    return key


def _stage_key(fact: str) -> Any:
    # The metric name of each stage, made once, not per event (ADR 0416).
    metrics = {stage: f"stage_{stage}_{fact}" for stage in get_args(Stage)}

    def key(event: Any, info: EventInfo) -> tuple[str, str]:
        stage = event.stage
        return (info.tenant_id, metrics.get(stage) or f"stage_{stage}_{fact}")

    return key


def _counter(key_of: Any) -> Any:
    def apply(row: CounterRow | None, event: Any, info: EventInfo) -> CounterRow:
        tenant, metric = (row.tenant_id, row.metric) if row is not None else key_of(event, info)
        value = row.value if row is not None else 0
        return CounterRow(tenant, metric, value + 1, info.position, info.at)

    return apply


PROJECTION = Projection(
    name="dashboard",
    tables=(COUNTERS,),
    folds=(
        *(Fold(cls, COUNTERS, _fixed_key(m), _counter(_fixed_key(m))) for cls, m in _FIXED_METRICS.items()),
        *(Fold(cls, COUNTERS, _stage_key(f), _counter(_stage_key(f))) for cls, f in _STAGE_FACTS.items()),
    ),
    creates_rows_on=frozenset(cls.event_type for cls in (*_FIXED_METRICS, *_STAGE_FACTS)),
)


class DashboardSummary(msgspec.Struct, frozen=True, rename="camel"):
    counters: dict[str, int]
    workflows_running: int
    workflows_by_status: dict[str, int]
    stages_running: dict[str, int]
    stale_running_stages: int


def read_dashboard(conn: Connection, tenant_id: str = "local") -> DashboardSummary:
    """The dashboard summary.  A stage row still ``running`` whose owning run is terminal is counted
    as stale, not running."""
    counters = {
        m: int(v)
        for m, v in conn.execute(
            sa.select(dashboard_projections.c.metric, dashboard_projections.c.value).where(
                dashboard_projections.c.tenant_id == tenant_id
            )
        )
    }
    runs = workflow_run_projections
    by_status = {
        s: int(n)
        for s, n in conn.execute(
            sa.select(runs.c.status, sa.func.count())
            .where(runs.c.tenant_id == tenant_id)
            .group_by(runs.c.status)
        )
    }
    stages = job_stage_states
    terminal_owner = sa.exists().where(
        runs.c.tenant_id == stages.c.tenant_id,
        runs.c.workflow_id == stages.c.owner_workflow_id,
        runs.c.status != "in_progress",
        sa.or_(runs.c.run_id == stages.c.owner_run_id, stages.c.owner_run_id.is_(None)),
    )
    running: dict[str, int] = {}
    stale = 0
    rows = conn.execute(
        sa.select(stages.c.stage, terminal_owner.label("dead"), sa.func.count())
        .where(stages.c.tenant_id == tenant_id, stages.c.state == "running")
        .group_by(stages.c.stage, sa.literal_column("dead"))
    )
    for stage, dead, count in rows:
        if dead:
            stale += int(count)
        else:
            running[stage] = running.get(stage, 0) + int(count)
    return DashboardSummary(
        counters=counters,
        workflows_running=by_status.get("in_progress", 0),
        workflows_by_status=by_status,
        stages_running=running,
        stale_running_stages=stale,
    )
