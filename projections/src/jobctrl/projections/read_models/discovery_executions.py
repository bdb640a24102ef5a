"""``discovery_execution_jobs`` and ``discovery_executions``: Discover execution membership.

One ``discovery_execution_jobs`` row per (tenant, Discover workflow id, Discover run id, job) — the
immutable execution reference plus the member.  The fold keeps the DiscoveryExecution aggregate's
rules even if the log were to say otherwise: a job is a member once; ``existing_backlog`` is promoted
to ``observed_this_run`` by an observation and nothing ever demotes it; a work plan moves from
``pending`` to ``planned`` (required steps + child workflow id), ``not_eligible`` (bounded reason) or
``failed``, a failed plan may be planned again, and a planned or not-eligible plan never changes.

One ``discovery_executions`` row per execution records the closing of its membership (the terminal
preparation fan-out), a fact of the execution rather than of a job; member counts per cohort are a
``GROUP BY`` over ``discovery_execution_jobs`` (kept out of this row so a count can never disagree
with the members).  ``discovery_execution_member_digests`` holds each execution's member-key count
and incremental digest, written by the engine with the member rows (ADR 0132), and
``discovery_execution_member_groups`` its members counted by cohort, plan and stage states, written
by the engine with the member and stage rows (ADR 0445).
"""

from __future__ import annotations

from typing import Any

import msgspec
import sqlalchemy as sa

from jobctrl.discovery.events import (
    CohortKind,
    DiscoveryExecutionMemberLinked,
    DiscoveryExecutionMemberPromoted,
    DiscoveryExecutionMembershipClosed,
    DiscoveryExecutionWorkPlanRecorded,
    WorkPlanState,
)
from jobctrl.kernel.text import bound_text
from jobctrl.projections.keydigest import DigestRow, digest_table, member_term
from jobctrl.projections.model import EventInfo, Fold, KeyDigest, Projection, ReadModelTable
from jobctrl.projections.read_models.member_groups import MEMBER_GROUPS
from jobctrl.projections.schema import execution_key_columns, execution_key_values, metadata
from jobctrl.projections.times import utc_or_none

_FINAL_PLANS: frozenset[WorkPlanState] = frozenset({"planned", "not_eligible"})
_STEP_LIMIT = 16  # the aggregate allows at most five distinct steps; bound what a bad log could say

discovery_execution_jobs = sa.Table(
    "discovery_execution_jobs",
    metadata,
    *execution_key_columns(),
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
    *execution_key_columns(),
    sa.Column("membership_closed", sa.Boolean, nullable=False),
    sa.Column("closed_member_count", sa.Integer, nullable=True),
    sa.Column("closed_at", sa.String(40), nullable=True),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
)

# The count and incremental digest of each execution's member keys (ADR 0132).
discovery_execution_member_digests = digest_table("discovery_execution_member_digests")


class ExecutionJobRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    workflow_id: str
    run_id: str
    job_id: str
    cohort: CohortKind
    linked_at: str | None
    promoted_at: str | None
    plan_state: WorkPlanState
    required_steps_json: str  # JSON list in the plan's order; "[]" unless planned
    child_workflow_id: str | None
    plan_reason: str | None  # bounded code of a not_eligible / failed plan
    plan_recorded_at: str | None
    last_event_position: int
    updated_at: str | None


class ExecutionRow(msgspec.Struct, frozen=True, gc=False):
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
MEMBER_DIGESTS = ReadModelTable(discovery_execution_member_digests, DigestRow)
_encoder = msgspec.json.Encoder()


def _execution_key(event: Any, info: EventInfo) -> tuple[str, str, str]:
    ex = event.execution
    return (ex.tenant_id, ex.workflow_id, ex.temporal_run_id)


def _member_key(event: Any, info: EventInfo) -> tuple[str, str, str, str]:
    ex = event.execution
    return (ex.tenant_id, ex.workflow_id, ex.temporal_run_id, event.job_id)


def _stamp(info: EventInfo) -> dict[str, Any]:
    return {"last_event_position": info.position, "updated_at": info.at}


# -- members --------------------------------------------------------------------------------------
def on_linked(
    row: ExecutionJobRow | None, event: DiscoveryExecutionMemberLinked, info: EventInfo
) -> ExecutionJobRow:
    if row is not None:  # never a second membership; a link can only promote, never demote
        if row.cohort == "existing_backlog" and event.cohort == "observed_this_run":
            return msgspec.structs.replace(
                row, cohort="observed_this_run", promoted_at=utc_or_none(event.linked_at), **_stamp(info)
            )
        return row
    return EXECUTION_JOBS.blank(
        **execution_key_values(event.execution),
        job_id=event.job_id,
        cohort=event.cohort,
        linked_at=utc_or_none(event.linked_at),
        plan_state="pending",
        required_steps_json="[]",
        **_stamp(info),
    )


def on_promoted(
    row: ExecutionJobRow | None, event: DiscoveryExecutionMemberPromoted, info: EventInfo
) -> ExecutionJobRow | None:
    if row is None or row.cohort == "observed_this_run":
        return row  # only a backlog member is promoted; nothing creates a membership here
    return msgspec.structs.replace(
        row, cohort="observed_this_run", promoted_at=utc_or_none(event.promoted_at), **_stamp(info)
    )


def on_plan(
    row: ExecutionJobRow | None, event: DiscoveryExecutionWorkPlanRecorded, info: EventInfo
) -> ExecutionJobRow | None:
    if row is None or row.plan_state in _FINAL_PLANS:
        return row  # a plan for a non-member, or after a final plan, changes nothing
    planned = event.state == "planned"
    steps = [bound_text(s, 40) for s in event.required_steps[:_STEP_LIMIT]] if planned else []
    reason = None if planned or event.reason_code is None else bound_text(event.reason_code, 80)
    return msgspec.structs.replace(
        row,
        plan_state=event.state,
        required_steps_json=_encoder.encode(steps).decode(),
        child_workflow_id=bound_text(event.child_workflow_id, 200)
        if planned and event.child_workflow_id
        else None,
        plan_reason=reason,
        plan_recorded_at=utc_or_none(event.recorded_at),
        **_stamp(info),
    )


# -- executions -----------------------------------------------------------------------------------
def _execution(row: ExecutionRow | None, event: Any, info: EventInfo) -> ExecutionRow:
    if row is not None:
        return row
    return EXECUTIONS.blank(
        **execution_key_values(event.execution),
        membership_closed=False,
        **_stamp(info),
    )


def on_closed(
    row: ExecutionRow | None, event: DiscoveryExecutionMembershipClosed, info: EventInfo
) -> ExecutionRow:
    current = _execution(row, event, info)
    if current.membership_closed:
        return current  # the first close wins
    return msgspec.structs.replace(
        current,
        membership_closed=True,
        closed_member_count=event.member_count,
        closed_at=utc_or_none(event.closed_at),
        **_stamp(info),
    )


PROJECTION = Projection(
    name="discovery_executions",
    tables=(EXECUTION_JOBS, EXECUTIONS, MEMBER_DIGESTS, MEMBER_GROUPS),
    folds=(
        Fold(DiscoveryExecutionMemberLinked, EXECUTION_JOBS, _member_key, on_linked),
        Fold(DiscoveryExecutionMemberPromoted, EXECUTION_JOBS, _member_key, on_promoted),
        Fold(DiscoveryExecutionWorkPlanRecorded, EXECUTION_JOBS, _member_key, on_plan),
        Fold(DiscoveryExecutionMembershipClosed, EXECUTIONS, _execution_key, on_closed),
    ),
    creates_rows_on=frozenset({"DiscoveryExecutionMemberLinked", "DiscoveryExecutionMembershipClosed"}),
    key_digests=(KeyDigest(EXECUTION_JOBS.name, MEMBER_DIGESTS, lambda key: member_term(key[3])),),
)
