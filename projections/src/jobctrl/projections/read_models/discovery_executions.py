"""``discovery_execution_jobs`` (members) and ``discovery_executions`` (membership closure).

STAND-IN, to be replaced on merge by the projections engineer's (I3) module of the same path: same
tables and columns, minimal folds, so the operations reader and the recovery checkpoint can be
tested on real folded events in this branch.  The operations side reads only: tenant_id,
workflow_id, run_id, job_id, cohort, plan_state, required_steps_json; and membership_closed.

Rules kept: a job is a member once (a repeated link only promotes existing_backlog, never demotes);
a plan for a non-member changes nothing; a planned or not-eligible plan is final; the first close
of a membership wins.
"""

from __future__ import annotations

from typing import Any

import msgspec
import sqlalchemy as sa

from jobctrl.discovery.events import (
    DiscoveryExecutionMemberLinked,
    DiscoveryExecutionMemberPromoted,
    DiscoveryExecutionMembershipClosed,
    DiscoveryExecutionWorkPlanRecorded,
)
from jobctrl.kernel.text import bounded_code
from jobctrl.projections.model import EventInfo, Fold, Projection, ReadModelTable
from jobctrl.projections.schema import metadata
from jobctrl.projections.times import utc_or_none

discovery_execution_jobs = sa.Table(
    "discovery_execution_jobs",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("workflow_id", sa.String(200), primary_key=True),
    sa.Column("run_id", sa.String(200), primary_key=True),
    sa.Column("job_id", sa.String(200), primary_key=True),
    sa.Column("cohort", sa.String(20), nullable=False),
    sa.Column("linked_at", sa.String(40), nullable=True),
    sa.Column("promoted_at", sa.String(40), nullable=True),
    sa.Column("plan_state", sa.String(20), nullable=False),
    sa.Column("required_steps_json", sa.Text, nullable=False),
    sa.Column("child_workflow_id", sa.String(200), nullable=True),
    sa.Column("plan_reason", sa.String(80), nullable=True),
    sa.Column("plan_recorded_at", sa.String(40), nullable=True),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
)

discovery_executions = sa.Table(
    "discovery_executions",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("workflow_id", sa.String(200), primary_key=True),
    sa.Column("run_id", sa.String(200), primary_key=True),
    sa.Column("membership_closed", sa.Boolean, nullable=False),
    sa.Column("closed_member_count", sa.Integer, nullable=True),
    sa.Column("closed_at", sa.String(40), nullable=True),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
)


class ExecutionJobRow(msgspec.Struct, frozen=True):
    tenant_id: str
    workflow_id: str
    run_id: str
    job_id: str
    cohort: str
    linked_at: str | None
    promoted_at: str | None
    plan_state: str
    required_steps_json: str
    child_workflow_id: str | None
    plan_reason: str | None
    plan_recorded_at: str | None
    last_event_position: int
    updated_at: str | None


class ExecutionRow(msgspec.Struct, frozen=True):
    tenant_id: str
    workflow_id: str
    run_id: str
    membership_closed: bool
    closed_member_count: int | None
    closed_at: str | None
    last_event_position: int
    updated_at: str | None


EXECUTION_JOBS = ReadModelTable(discovery_execution_jobs, ExecutionJobRow)
EXECUTIONS = ReadModelTable(discovery_executions, ExecutionRow)
_encoder = msgspec.json.Encoder()


def _member_key(event: Any, info: EventInfo) -> tuple[str, str, str, str]:
    ex = event.execution
    return (ex.tenant_id, ex.workflow_id, ex.temporal_run_id, event.job_id)


def _execution_key(event: Any, info: EventInfo) -> tuple[str, str, str]:
    ex = event.execution
    return (ex.tenant_id, ex.workflow_id, ex.temporal_run_id)


def on_linked(
    row: ExecutionJobRow | None, event: DiscoveryExecutionMemberLinked, info: EventInfo
) -> ExecutionJobRow:
    if row is not None:
        if row.cohort == "existing_backlog" and event.cohort == "observed_this_run":
            return msgspec.structs.replace(
                row, cohort="observed_this_run", last_event_position=info.position, updated_at=info.at
            )
        return row
    ex = event.execution
    return ExecutionJobRow(
        tenant_id=ex.tenant_id,
        workflow_id=ex.workflow_id,
        run_id=ex.temporal_run_id,
        job_id=event.job_id,
        cohort=event.cohort,
        linked_at=utc_or_none(event.linked_at),
        promoted_at=None,
        plan_state="pending",
        required_steps_json="[]",
        child_workflow_id=None,
        plan_reason=None,
        plan_recorded_at=None,
        last_event_position=info.position,
        updated_at=info.at,
    )


def on_promoted(
    row: ExecutionJobRow | None, event: DiscoveryExecutionMemberPromoted, info: EventInfo
) -> ExecutionJobRow | None:
    if row is None or row.cohort == "observed_this_run":
        return row
    return msgspec.structs.replace(
        row,
        cohort="observed_this_run",
        promoted_at=utc_or_none(event.promoted_at),
        last_event_position=info.position,
        updated_at=info.at,
    )


def on_plan(
    row: ExecutionJobRow | None, event: DiscoveryExecutionWorkPlanRecorded, info: EventInfo
) -> ExecutionJobRow | None:
    if row is None or row.plan_state in ("planned", "not_eligible"):
        return row
    planned = event.state == "planned"
    return msgspec.structs.replace(
        row,
        plan_state=event.state,
        required_steps_json=_encoder.encode(list(event.required_steps) if planned else []).decode(),
        child_workflow_id=event.child_workflow_id if planned else None,
        plan_reason=None if planned or event.reason_code is None else bounded_code(event.reason_code),
        plan_recorded_at=utc_or_none(event.recorded_at),
        last_event_position=info.position,
        updated_at=info.at,
    )


def on_closed(
    row: ExecutionRow | None, event: DiscoveryExecutionMembershipClosed, info: EventInfo
) -> ExecutionRow:
    if row is not None and row.membership_closed:
        return row  # the first close wins
    ex = event.execution
    return ExecutionRow(
        tenant_id=ex.tenant_id,
        workflow_id=ex.workflow_id,
        run_id=ex.temporal_run_id,
        membership_closed=True,
        closed_member_count=event.member_count,
        closed_at=utc_or_none(event.closed_at),
        last_event_position=info.position,
        updated_at=info.at,
    )


PROJECTION = Projection(
    name="discovery_executions",
    tables=(EXECUTION_JOBS, EXECUTIONS),
    folds=(
        Fold(DiscoveryExecutionMemberLinked, EXECUTION_JOBS, _member_key, on_linked),
        Fold(DiscoveryExecutionMemberPromoted, EXECUTION_JOBS, _member_key, on_promoted),
        Fold(DiscoveryExecutionWorkPlanRecorded, EXECUTION_JOBS, _member_key, on_plan),
        Fold(DiscoveryExecutionMembershipClosed, EXECUTIONS, _execution_key, on_closed),
    ),
    creates_rows_on=frozenset({"DiscoveryExecutionMemberLinked", "DiscoveryExecutionMembershipClosed"}),
)
