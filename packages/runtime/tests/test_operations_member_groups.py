"""The execution's members are counted by the database in groups (ADR 0076); the snapshot built from
those groups equals a member-by-member count of the same rows, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import random
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest
import sqlalchemy as sa

from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore
from jobctrl.projections.groupcount import refill
from jobctrl.projections.read_models.discovery_executions import discovery_execution_jobs
from jobctrl.projections.read_models.member_groups import discovery_execution_member_groups
from jobctrl.projections.read_models.member_groups import refill as refill_groups
from jobctrl.projections.read_models.stage_states import STAGE_GROUPS, job_stage_states
from jobctrl.projections.read_models.workflow_runs import workflow_run_projections
from jobctrl.projections.recoveries import ExecutionKey
from jobctrl.runtime.api.operations import (
    _STATE_BUCKET,
    STAGES,
    CohortSummary,
    SnapshotInputs,
    _member_groups,
    ensure_operations_schema,
    read_operations,
)

pytestmark = pytest.mark.both_databases
NOW = datetime(2026, 3, 2, 12, tzinfo=UTC)
WF, RUN = "discover-local", "11111111-1111-4111-8111-111111111111"
KEY = ExecutionKey("local", WF, RUN)
COHORT_SCOPE = {"observed_this_run": "current_execution", "existing_backlog": "execution_sweep"}
STATES = (
    "pending", "queued", "running", "succeeded", "failed", "exhausted", "blocked", "skipped", "stale",
    "canceled",
)  # fmt: skip
REQUIRED: tuple[list[str], ...] = (
    ["enrich", "score"],
    ["enrich", "score", "tailor", "cover"],
    ["discover", "enrich"],
    [],
)
PLANS = ("planned", "planned", "pending", "not_eligible", "failed")
OWNERS = ("wf-open", "wf-closed", None, "wf-missing")
TERMINAL = {"succeeded", "skipped", "exhausted", "canceled"}


def _row(table: sa.Table, **values: Any) -> dict[str, Any]:
    """A full row: NOT NULL columns nobody named get a neutral value of their type."""
    out: dict[str, Any] = {}
    for c in table.columns:
        if c.name in values or c.nullable:
            out[c.name] = values.get(c.name)
        elif isinstance(c.type, sa.Boolean):
            out[c.name] = False
        elif isinstance(c.type, sa.Integer):
            out[c.name] = 0
        else:
            out[c.name] = "[]" if c.name.endswith("_json") else ""
    return out


def _run(workflow_id: str, wf_type: str, status: str, position: int, run_id: str | None) -> dict[str, Any]:
    return _row(
        workflow_run_projections,
        tenant_id="local",
        workflow_id=workflow_id,
        workflow_type=wf_type,
        run_id=run_id,
        status=status,
        last_event_position=position,
    )


def _seed(
    db: Database, rng: random.Random, status: str, kept: str = "none"
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    runs = [
        _run(WF, "DiscoverWorkflow", status, 10, RUN),
        _run("wf-open", "PrepareJobWorkflow", "in_progress", 5, "r-open"),
        _run("wf-closed", "PrepareJobWorkflow", "succeeded", 6, "r-closed"),
    ]
    members: list[dict[str, Any]] = []
    stages: list[dict[str, Any]] = []

    def stage_rows(job: str, states: dict[str, str]) -> None:
        for stage, state in states.items():
            owner = rng.choice(OWNERS) if state == "running" else None
            stages.append(
                _row(
                    job_stage_states,
                    tenant_id="local",
                    job_id=job,
                    stage=stage,
                    state=state,
                    attempts=1,
                    next_action="none",
                    owner_workflow_id=owner,
                    last_event_position=1,
                )
            )

    def random_states() -> dict[str, str]:  # a missing stage is a gap for a planned member
        return {st: rng.choice(STATES) for st in (*STAGES, "apply") if rng.random() >= 0.35}

    # Members come in clones of a random template, so groups hold several members each.
    for i in range(30):
        cohort, plan = rng.choice(list(COHORT_SCOPE)), rng.choice(PLANS)
        required, states = json.dumps(rng.choice(REQUIRED)), random_states()
        for k in range(rng.randint(1, 6)):
            job = f"m-{i}-{k}"
            members.append(
                _row(
                    discovery_execution_jobs,
                    tenant_id="local",
                    workflow_id=WF,
                    run_id=RUN,
                    job_id=job,
                    cohort=cohort,
                    plan_state=plan,
                    required_steps_json=required,
                    last_event_position=1,
                )
            )
            stage_rows(job, states)
    for i in range(40):
        stage_rows(f"x-{i}", random_states())
    with db.write() as conn:
        conn.execute(sa.insert(workflow_run_projections), runs)
        conn.execute(sa.insert(discovery_execution_jobs), members)
        conn.execute(sa.insert(job_stage_states), stages)
        refill(conn, STAGE_GROUPS, job_stage_states)  # the counts the fold keeps with the rows
        if kept != "none":  # the member groups the fold keeps (ADR 0445)
            refill_groups(conn, discovery_execution_jobs, job_stage_states, discovery_execution_member_groups)
        if kept == "wrong":  # one group counts a member too many: the snapshot must not use them
            g = discovery_execution_member_groups.c
            one = sa.select(g.cohort).where(g.member_count > 0).limit(1).scalar_subquery()
            some = sa.select(sa.func.min(g.plan_state)).where(g.cohort == one).scalar_subquery()
            conn.execute(
                sa.update(discovery_execution_member_groups)
                .where(g.cohort == one, g.plan_state == some)
                .values(member_count=g.member_count + 1)
            )
    return members, stages


def _expected(
    members: list[dict[str, Any]], stages: list[dict[str, Any]]
) -> tuple[dict[str, CohortSummary], dict[tuple[str, str], dict[str, int]]]:
    """Member by member, row by row, straight from the rules of ADR 0065."""
    state_of = {(r["job_id"], r["stage"]): r["state"] for r in stages}
    cohort_of = {m["job_id"]: m["cohort"] for m in members}
    owner_status = {"wf-open": "in_progress", "wf-closed": "succeeded"}
    summaries = {}
    for cohort in COHORT_SCOPE:
        ms = [m for m in members if m["cohort"] == cohort]
        plans = Counter(m["plan_state"] for m in ms)

        def terminal(m: dict[str, Any]) -> bool:
            if m["plan_state"] == "not_eligible":
                return True
            required = [st for st in json.loads(m["required_steps_json"]) if st in STAGES]
            return m["plan_state"] == "planned" and all(
                state_of.get((m["job_id"], st)) in TERMINAL for st in required
            )

        done = sum(1 for m in ms if terminal(m))
        summaries[cohort] = CohortSummary(
            members=len(ms),
            planned=plans["planned"],
            not_eligible=plans["not_eligible"],
            pending=plans["pending"],
            failed_plan=plans["failed"],
            terminal=done,
            remaining=len(ms) - done,
        )
    counts: dict[tuple[str, str], Counter[str]] = {}
    for r in stages:
        if r["stage"] not in STAGES:
            continue
        member_cohort = cohort_of.get(r["job_id"])
        c = counts.setdefault(
            (r["stage"], COHORT_SCOPE[member_cohort] if member_cohort else "global_outside_execution"),
            Counter(),
        )
        c["eligible"] += 1
        bucket = _STATE_BUCKET.get(r["state"], "unknown")
        if r["state"] == "running":  # no fresh inventory in this test
            owner = owner_status.get(r["owner_workflow_id"])
            bucket = "needsVerification" if owner is not None and owner != "in_progress" else "stale"
        c[bucket] += 1
    for m in members:
        scope = COHORT_SCOPE[m["cohort"]]
        if m["plan_state"] == "pending" and (m["job_id"], "enrich") not in state_of:
            c = counts.setdefault(("enrich", scope), Counter())
            c["waiting"] += 1
            c["eligible"] += 1
        elif m["plan_state"] == "planned":
            for st in json.loads(m["required_steps_json"]):
                if st in STAGES and (m["job_id"], st) not in state_of:
                    c = counts.setdefault((st, scope), Counter())
                    c["unknown"] += 1
                    c["eligible"] += 1
    return summaries, {k: {n: v for n, v in c.items() if v} for k, c in counts.items()}


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("status", ["in_progress", "succeeded"])
@pytest.mark.parametrize("kept", ["none", "exact", "wrong"])
def test_grouped_member_counts_equal_a_member_by_member_count(
    database: Database, seed: int, status: str, kept: str
) -> None:
    """Whether the kept member groups (ADR 0445) are exact, missing, or do not add up to the
    members (then they are not used), the snapshot counts every member."""
    EventStore(database, registry()).create_schema()
    ensure_operations_schema(database)
    members, stages = _seed(database, random.Random(seed), status, kept)
    with database.read() as conn:
        snap = read_operations(conn, SnapshotInputs(now=NOW))
    summaries, counts = _expected(members, stages)
    assert snap.execution is not None and snap.execution.discover_workflow_id == WF
    assert snap.execution.current_execution == summaries["observed_this_run"]
    assert snap.execution.swept_existing_backlog == summaries["existing_backlog"]
    got = {}
    for c in snap.stages:
        fields = msgspec.structs.asdict(msgspec.structs.replace(c, eta=None))
        wire = {  # the camelCase names the expectation uses for the two renamed buckets
            ("needsVerification" if k == "needs_verification" else k): v
            for k, v in fields.items()
            if k not in ("stage", "scope", "eta") and v
        }
        if wire:
            got[(c.stage, c.scope)] = wire
    assert got == counts


def test_members_sharing_plan_and_states_come_back_as_one_group(database: Database) -> None:
    EventStore(database, registry()).create_schema()
    ensure_operations_schema(database)
    rows = [
        _row(
            discovery_execution_jobs,
            tenant_id="local",
            workflow_id=WF,
            run_id=RUN,
            job_id=f"j-{i}",
            cohort="observed_this_run",
            plan_state="planned",
            required_steps_json='["enrich","score"]',
            last_event_position=1,
        )
        for i in range(300)
    ]
    done = [
        _row(
            job_stage_states,
            tenant_id="local",
            job_id=f"j-{i}",
            stage="enrich",
            state="succeeded",
            attempts=1,
            next_action="none",
            last_event_position=1,
        )
        for i in range(0, 300, 2)
    ]
    with database.write() as conn:
        conn.execute(sa.insert(discovery_execution_jobs), rows)
        conn.execute(sa.insert(job_stage_states), done)
    with database.read() as conn:
        groups = _member_groups(conn, KEY)
    # 300 members, two distinct (plan, required, states) combinations: two rows reach Python.
    got = sorted(((dict(g.states), g.count) for g in groups), key=lambda sc: len(sc[0]))
    assert got == [({}, 150), ({"enrich": "succeeded"}, 150)]
    assert all(g.required == ("enrich", "score") and not g.terminal for g in groups)
