"""``discovery_execution_jobs``: one row per (tenant, Discover workflow id, Temporal run id, job id).

STAND-IN: the projections engineer (I3) owns this fold; this minimal version exists so the
operations reader and the recovery checkpoint (``jobctrl.projections.recoveries``) can be tested
on real folded events.  On merge, I3's fold wins; the operations reader needs only the columns
below (tenant_id, workflow_id, run_id, job_id, cohort, work_plan_state, required_steps_json).

Rules: a link creates the row once (a second link of the same job changes nothing, so it can never
create a second membership or demote a current one); a promotion moves ``existing_backlog`` to
``observed_this_run``; a work plan records its state, steps, child workflow and bounded reason.
"""

from __future__ import annotations

from typing import Any

import msgspec
import sqlalchemy as sa

from jobctrl.discovery.events import (
    DiscoveryExecutionMemberLinked,
    DiscoveryExecutionMemberPromoted,
    DiscoveryExecutionWorkPlanRecorded,
)
from jobctrl.kernel.text import bounded_code
from jobctrl.projections.model import EventInfo, Fold, Projection, ReadModelTable
from jobctrl.projections.schema import metadata

discovery_execution_jobs = sa.Table(
    "discovery_execution_jobs",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("workflow_id", sa.String(200), primary_key=True),
    sa.Column("run_id", sa.String(200), primary_key=True),
    sa.Column("job_id", sa.String(200), primary_key=True),
    sa.Column("cohort", sa.String(30), nullable=False),
    sa.Column("work_plan_state", sa.String(20), nullable=False),
    sa.Column("required_steps_json", sa.Text, nullable=False),
    sa.Column("child_workflow_id", sa.String(200), nullable=True),
    sa.Column("reason_code", sa.String(80), nullable=True),
    sa.Column("linked_at", sa.String(40), nullable=True),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Index("ix_discovery_execution_jobs_job", "tenant_id", "job_id"),
)


class ExecutionMemberRow(msgspec.Struct, frozen=True):
    tenant_id: str
    workflow_id: str
    run_id: str
    job_id: str
    cohort: str
    work_plan_state: str
    required_steps_json: str
    child_workflow_id: str | None
    reason_code: str | None
    linked_at: str | None
    last_event_position: int


EXECUTION_MEMBERS = ReadModelTable(discovery_execution_jobs, ExecutionMemberRow)
_encoder = msgspec.json.Encoder()


def _key(event: Any, info: EventInfo) -> tuple[str, str, str, str]:
    ex = event.execution
    return (ex.tenant_id, ex.workflow_id, ex.temporal_run_id, event.job_id)


def on_linked(
    row: ExecutionMemberRow | None, event: DiscoveryExecutionMemberLinked, info: EventInfo
) -> ExecutionMemberRow | None:
    if row is not None:
        return row  # one membership per job; a repeated link never demotes or duplicates
    ex = event.execution
    return ExecutionMemberRow(
        tenant_id=ex.tenant_id,
        workflow_id=ex.workflow_id,
        run_id=ex.temporal_run_id,
        job_id=event.job_id,
        cohort=event.cohort,
        work_plan_state="pending",
        required_steps_json="[]",
        child_workflow_id=None,
        reason_code=None,
        linked_at=info.at,
        last_event_position=info.position,
    )


def on_promoted(
    row: ExecutionMemberRow | None, event: DiscoveryExecutionMemberPromoted, info: EventInfo
) -> ExecutionMemberRow | None:
    if row is None or row.cohort == "observed_this_run":
        return row
    return msgspec.structs.replace(row, cohort="observed_this_run", last_event_position=info.position)


def on_plan(
    row: ExecutionMemberRow | None, event: DiscoveryExecutionWorkPlanRecorded, info: EventInfo
) -> ExecutionMemberRow | None:
    if row is None:
        return row  # a plan for a job that was never linked is not membership
    return msgspec.structs.replace(
        row,
        work_plan_state=event.state,
        required_steps_json=_encoder.encode(list(event.required_steps)).decode(),
        child_workflow_id=event.child_workflow_id,
        reason_code=bounded_code(event.reason_code) if event.reason_code else None,
        last_event_position=info.position,
    )


PROJECTION = Projection(
    name="execution_members",
    tables=(EXECUTION_MEMBERS,),
    folds=(
        Fold(DiscoveryExecutionMemberLinked, EXECUTION_MEMBERS, _key, on_linked),
        Fold(DiscoveryExecutionMemberPromoted, EXECUTION_MEMBERS, _key, on_promoted),
        Fold(DiscoveryExecutionWorkPlanRecorded, EXECUTION_MEMBERS, _key, on_plan),
    ),
    creates_rows_on=frozenset({"DiscoveryExecutionMemberLinked"}),
)
