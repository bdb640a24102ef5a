"""Discover execution selection, member groups, cohorts and phase."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import msgspec
import sqlalchemy as sa

from jobctrl.projections.read_models.discovery_executions import (
    discovery_execution_jobs,
    discovery_executions,
)
from jobctrl.projections.read_models.discovery_runs import discovery_run_projections
from jobctrl.projections.read_models.member_groups import NO_ROW, discovery_execution_member_groups
from jobctrl.projections.read_models.pipeline_steps import pipeline_step_projections
from jobctrl.projections.read_models.stage_states import job_stage_states
from jobctrl.projections.read_models.workflow_runs import workflow_run_projections
from jobctrl.projections.recoveries import ExecutionKey
from jobctrl.runtime.api.discover_phase import DISCOVER_WORKFLOW_TYPE, Phase, discover_phase
from jobctrl.runtime.api.operations.models import (
    _FAILED_WORKFLOW,
    _TERMINAL_STAGE,
    STAGES,
    CohortSummary,
    ExecutionView,
    RunProgress,
    TotalsCache,
)
from jobctrl.scoring.activities import NO_REQUIREMENTS

# ---------------------------------------------------------------- execution selection and phase


def _of_execution(table: sa.Table) -> sa.ColumnElement[bool]:
    c = table.c
    return sa.and_(
        c.tenant_id == sa.bindparam("tenant_id"),
        c.workflow_id == sa.bindparam("workflow_id"),
        c.run_id == sa.bindparam("run_id"),
    )


def _execution_params(ex: ExecutionKey) -> dict[str, str]:
    return {"tenant_id": ex.tenant_id, "workflow_id": ex.workflow_id, "run_id": ex.run_id}


@dataclass(frozen=True)
class _MemberGroup:
    """Members of one execution sharing cohort, plan, required stages and the state of each stage.

    The grouping is done by the database (one row per distinct combination, a handful in practice),
    so the snapshot's Python work is independent of the number of members (ADR 0076).
    """

    cohort: str
    plan: str
    required: tuple[str, ...]
    states: Mapping[str, str]  # stage -> state, only for stages that have a row
    count: int
    score_cancel_code: str | None = None  # why a canceled Score row was settled (ADR 0071)

    @property
    def terminal(self) -> bool:
        if self.plan == "not_eligible":
            return True
        if self.plan != "planned":
            return False  # pending and failed plans do not mean the job needs no work
        return all(self.states.get(st) in _TERMINAL_STAGE for st in self.required)

    @property
    def has_issue(self) -> bool:
        """An exhausted or canceled required stage, except the Score row a not-eligible job settles
        as canceled (``no_requirements``, ADR 0071): skipping the rest is the clean end of the chain."""
        for st in self.required:
            state = self.states.get(st)
            if state == "exhausted":
                return True
            if state == "canceled" and not (st == "score" and self.score_cancel_code == NO_REQUIREMENTS):
                return True
        return False


def _member_groups_query() -> sa.Select[Any]:
    m = discovery_execution_jobs.c
    joined: sa.FromClause = discovery_execution_jobs
    state_columns = []
    cancel_code: sa.ColumnElement[Any] | None = None
    for stage in STAGES:  # one primary-key probe per member and stage
        s = job_stage_states.alias(f"s_{stage}")
        joined = joined.outerjoin(
            s, sa.and_(s.c.tenant_id == m.tenant_id, s.c.job_id == m.job_id, s.c.stage == stage)
        )
        state_columns.append(s.c.state.label(f"state_{stage}"))
        if stage == "score":
            cancel_code = sa.case((s.c.state == "canceled", s.c.reason), else_=sa.null())
    assert cancel_code is not None
    keys = [m.cohort, m.plan_state, m.required_steps_json, *state_columns, cancel_code.label("score_cancel")]
    return (
        sa.select(*keys, sa.func.count().label("n"))
        .select_from(joined)
        .where(_of_execution(discovery_execution_jobs))
        .group_by(*keys)
    )


_MEMBER_GROUPS = _member_groups_query()
_g = discovery_execution_member_groups.c
_KEPT_GROUPS = sa.select(
    _g.cohort,
    _g.plan_state,
    _g.required_steps_json,
    *(_g[f"state_{stage}"] for stage in STAGES),
    _g.score_cancel,
    _g.member_count,
).where(_of_execution(discovery_execution_member_groups))
_MEMBER_COUNT = (
    sa.select(sa.func.count())
    .select_from(discovery_execution_jobs)
    .where(_of_execution(discovery_execution_jobs))
)


def _member_groups(conn: sa.Connection, ex: ExecutionKey) -> list[_MemberGroup]:
    """The execution's members counted by (cohort, plan, required stages, state per stage).

    Read from the groups the fold keeps (ADR 0445): a few rows, not a probe per member and stage.
    Kept groups that do not add up to the execution's member rows are not trusted: the groups are
    then counted from the members themselves (the same answer the kept rows owe)."""
    params = _execution_params(ex)
    kept = [
        (cohort, plan, steps, *(None if state == NO_ROW else state for state in states), cancel or None, n)
        for cohort, plan, steps, *states, cancel, n in conn.execute(_KEPT_GROUPS, params)
    ]
    if sum(int(row[-1]) for row in kept) != int(conn.execute(_MEMBER_COUNT, params).scalar_one()):
        kept = [tuple(row) for row in conn.execute(_MEMBER_GROUPS, params)]
    parsed: dict[str, tuple[str, ...]] = {}  # most members share one of a few step lists
    groups = []
    for cohort, plan, steps_json, *states, score_cancel, n in kept:
        if (steps := parsed.get(steps_json)) is None:
            steps = parsed[steps_json] = tuple(st for st in json.loads(steps_json) if st in STAGES)
        by_stage = {st: state for st, state in zip(STAGES, states, strict=True) if state is not None}
        groups.append(_MemberGroup(cohort, plan, steps, by_stage, int(n), score_cancel))
    return groups


def _cached_member_groups(
    conn: sa.Connection, ex: ExecutionKey, cache: TotalsCache | None
) -> list[_MemberGroup]:
    """The member groups, reused while the operations watermark stays put (ADR 0237)."""
    if cache is None or cache.position is None:
        return _member_groups(conn, ex)
    key = (ex.tenant_id, ex.workflow_id, ex.run_id)
    groups: list[_MemberGroup] | None = cache.groups(key, cache.position)
    if groups is None:
        groups = _member_groups(conn, ex)
        cache.put_groups(key, cache.position, groups)
    return groups


def _cohort(groups: Iterable[_MemberGroup]) -> CohortSummary:
    gs = list(groups)
    plans: Counter[str] = Counter()
    for g in gs:
        plans[g.plan] += g.count
    members = sum(g.count for g in gs)
    terminal = sum(g.count for g in gs if g.terminal)
    return CohortSummary(
        members=members,
        planned=plans["planned"],
        not_eligible=plans["not_eligible"],
        pending=plans["pending"],
        failed_plan=plans["failed"],
        terminal=terminal,
        remaining=members - terminal,
    )


# Statements are built once (the snapshot is polled); only their parameters change per read.
_CLOSED = sa.select(discovery_executions.c.membership_closed).where(_of_execution(discovery_executions))
_STEPS = sa.select(pipeline_step_projections.c.step_kind, pipeline_step_projections.c.status).where(
    _of_execution(pipeline_step_projections)
)


_RUN_PROGRESS = sa.select(
    discovery_run_projections.c.progress_completed, discovery_run_projections.c.progress_total
).where(
    discovery_run_projections.c.tenant_id == sa.bindparam("tenant_id"),
    discovery_run_projections.c.run_id == sa.bindparam("run_id"),
)


def _run_progress(conn: sa.Connection, ex: ExecutionKey) -> RunProgress | None:
    """The execution's DiscoveryRun spine (the run is keyed by the Temporal run id)."""
    row = conn.execute(_RUN_PROGRESS, {"tenant_id": ex.tenant_id, "run_id": ex.run_id}).first()
    if row is None or row.progress_total <= 0:
        return None
    return RunProgress(int(row.progress_completed), int(row.progress_total))


def _closed_fact(conn: sa.Connection, ex: ExecutionKey) -> bool:
    return bool(conn.execute(_CLOSED, _execution_params(ex)).scalar())


def _steps(conn: sa.Connection, ex: ExecutionKey) -> list[tuple[str, str]]:
    return [(str(k), str(s)) for k, s in conn.execute(_STEPS, _execution_params(ex))]


@dataclass(frozen=True)
class ExecutionFacts:
    """What the phase of one exact Discover execution is computed from (durable read models only)."""

    groups: list[_MemberGroup]
    steps: list[tuple[str, str]]
    closed: bool
    current: CohortSummary
    swept: CohortSummary

    @property
    def issues(self) -> bool:
        return self.current.failed_plan + self.swept.failed_plan > 0 or any(g.has_issue for g in self.groups)

    def phase(self, row: Any) -> Phase | None:
        return discover_phase(
            row.status,
            row.error_code,
            self.steps,
            closed=self.closed,
            remaining=self.current.remaining + self.swept.remaining,
            issues=self.issues,
        )


def execution_facts(
    conn: sa.Connection, key: ExecutionKey, cache: TotalsCache | None = None
) -> ExecutionFacts:
    groups = _cached_member_groups(conn, key, cache)
    steps = _steps(conn, key)
    # Membership is closed by the terminal preparation_fanout step (or its recorded closing fact).
    closed = _closed_fact(conn, key) or any(
        k == "preparation_fanout" and s in ("succeeded", "failed") for k, s in steps
    )
    current = _cohort(g for g in groups if g.cohort == "observed_this_run")
    swept = _cohort(g for g in groups if g.cohort == "existing_backlog")
    return ExecutionFacts(groups, steps, closed, current, swept)


def run_phase(conn: sa.Connection, row: Any) -> Phase | None:
    """The phase of one workflow-run row (None for a run that is not a Discover execution)."""
    if row.workflow_type != DISCOVER_WORKFLOW_TYPE:
        return None
    key = ExecutionKey(row.tenant_id, row.workflow_id, row.run_id or "")
    return execution_facts(conn, key).phase(row)


@dataclass
class _Selected:
    key: ExecutionKey
    view: ExecutionView
    groups: list[_MemberGroup]
    steps: list[tuple[str, str]]
    families_planned: int


def _build_execution(
    conn: sa.Connection,
    row: Any,
    selected_as: Literal["active_or_draining", "latest_terminal"],
    cache: TotalsCache | None = None,
) -> _Selected:
    key = ExecutionKey(row.tenant_id, row.workflow_id, row.run_id or "")
    facts = execution_facts(conn, key, cache)
    groups, steps, closed, current, swept = (
        facts.groups,
        facts.steps,
        facts.closed,
        facts.current,
        facts.swept,
    )
    phase = facts.phase(row)
    view = ExecutionView(
        discover_workflow_id=row.workflow_id,
        discover_run_id=row.run_id,
        selected_as=selected_as,
        workflow_status=row.status,
        phase=phase,
        membership_closed=closed,
        started_at=row.started_at,
        finished_at=row.finished_at,
        current_execution=current,
        swept_existing_backlog=swept,
        progress=_run_progress(conn, key),
    )
    return _Selected(key, view, groups, steps, _read_families_planned(conn, key))


_EXECUTIONS = (
    sa.select(workflow_run_projections)
    .where(
        workflow_run_projections.c.tenant_id == sa.bindparam("tenant_id"),
        workflow_run_projections.c.workflow_type == DISCOVER_WORKFLOW_TYPE,
        workflow_run_projections.c.run_id.is_not(None),
    )
    .order_by(workflow_run_projections.c.last_event_position.desc())
)


def select_execution(
    conn: sa.Connection, tenant_id: str, cache: TotalsCache | None = None
) -> _Selected | None:
    """The active or draining Discover execution, else the latest terminal one."""
    rows = conn.execute(_EXECUTIONS, {"tenant_id": tenant_id}).all()
    if not rows:
        return None
    latest: _Selected | None = None
    for i, row in enumerate(rows):
        if i > 0 and (row.status == "canceled" or row.status in _FAILED_WORKFLOW):
            continue  # never discovering/draining, and not the newest: no need to build it
        sel = _build_execution(conn, row, "active_or_draining", cache)
        if sel.view.phase in ("discovering", "draining"):
            return sel
        latest = latest or sel
    assert latest is not None  # rows[0] is always built
    latest.view = msgspec.structs.replace(latest.view, selected_as="latest_terminal")
    return latest


_FAMILIES_PLANNED = sa.select(sa.func.max(pipeline_step_projections.c.detail_item_count)).where(
    _of_execution(pipeline_step_projections),
    pipeline_step_projections.c.step_kind == "source_planning",
    pipeline_step_projections.c.status == "succeeded",
    # The planner's count: "source_planning" as this project's step reporter codes it, or the
    # reference's "families_planned".
    pipeline_step_projections.c.detail_code.in_(("source_planning", "families_planned")),
)


def _read_families_planned(conn: sa.Connection, ex: ExecutionKey) -> int:
    """The source-planning step's ``families_planned`` count; 0 before planning succeeded."""
    count = conn.execute(_FAMILIES_PLANNED, _execution_params(ex)).scalar()
    return int(count or 0)
