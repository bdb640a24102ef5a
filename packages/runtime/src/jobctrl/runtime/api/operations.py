"""``GET /v1/pipeline/operations``: the operational read model, from projections and heartbeats only.

``read_operations(conn, inputs)`` is a pure function of the read models (``workflow_run_projections``,
``discovery_execution_jobs``, ``job_stage_states``, ``pipeline_step_projections``,
``discovery_execution_recoveries``) and the ``worker_runtime_heartbeats`` rows, plus the spend flag
and the time passed in ``inputs``.  Nothing is guessed: an inventory that cannot be read fresh is
reported as ``null`` / ``stale`` / ``unavailable``, never as zero (ADR 0065).

``router`` is the FastAPI ``APIRouter`` serving it; the API's composition root mounts it.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

import msgspec
import sqlalchemy as sa
from fastapi import APIRouter, Request, Response

from jobctrl.kernel.clock import Clock, isoformat, parse_instant
from jobctrl.kernel.store import Database
from jobctrl.orchestration.spend.ledger import ledger_with_settings
from jobctrl.orchestration.tables import create_orchestration_tables
from jobctrl.projections.migrate import migrate
from jobctrl.projections.read_models.discovery_executions import (
    discovery_execution_jobs,
    discovery_executions,
)
from jobctrl.projections.read_models.pipeline_steps import pipeline_step_projections
from jobctrl.projections.read_models.stage_states import job_stage_states
from jobctrl.projections.read_models.workflow_runs import workflow_run_projections
from jobctrl.projections.recoveries import ExecutionKey, read_coverage
from jobctrl.projections.schema import OPERATIONS_WATERMARK
from jobctrl.projections.watermarks import read_watermark
from jobctrl.runtime.telemetry.heartbeat import (
    SCHEMA_VERSION,
    STALE_AFTER,
    worker_runtime_heartbeats,
)
from jobctrl.runtime.telemetry.heartbeat import create_table as create_heartbeat_table

ETA_ESTIMATOR_VERSION = "pipeline-eta-v1"
DISCOVER_WORKFLOW_TYPE = "DiscoverWorkflow"
ACTIVE_ITEMS_LIMIT = 20
ETA_WINDOW = timedelta(days=14)
ETA_MAX_SAMPLES = 50
ETA_MIN_SAMPLES = 5
# Per-job stages the snapshot counts (discover is the execution itself; apply is not preparation).
STAGES: tuple[str, ...] = ("enrich", "score", "tailor", "cover")
LLM_STAGES = frozenset({"score", "tailor", "cover"})
SCOPES: tuple[str, ...] = ("current_execution", "execution_sweep", "global_outside_execution")
_COHORT_SCOPE = {"observed_this_run": "current_execution", "existing_backlog": "execution_sweep"}
_TERMINAL_STAGE = frozenset({"succeeded", "skipped", "exhausted", "canceled"})
_FAILED_WORKFLOW = frozenset({"failed", "timed_out", "terminated"})
_SOURCE_KINDS = frozenset({"plan_discovery_sources", "discovery_source_family"})
_ORCHESTRATION_KINDS = frozenset(
    {"discovery_enrichment", "discovery_preparation_fanout", "derive_preparation_targets"}
)
_RECONCILIATION_STEPS = ("enrichment_pass", "preparation_fanout", "existing_backlog_sweep", "pdf_render")

Freshness = Literal["fresh", "stale", "unsupported", "unavailable"]
Phase = Literal["discovering", "draining", "completed", "completed_with_issues", "failed", "canceled"]
EtaStatus = Literal["available", "calibrating", "paused", "stale", "unavailable"]


class _Camel(msgspec.Struct, rename="camel", frozen=True):
    pass


class CohortSummary(_Camel, frozen=True):
    members: int
    planned: int
    not_eligible: int
    pending: int
    failed_plan: int
    terminal: int
    remaining: int


class ExecutionView(_Camel, frozen=True):
    discover_workflow_id: str
    discover_run_id: str | None
    selected_as: Literal["active_or_draining", "latest_terminal"]
    workflow_status: str
    phase: Phase
    membership_closed: bool
    started_at: str | None
    finished_at: str | None
    current_execution: CohortSummary
    swept_existing_backlog: CohortSummary


class StageCounts(_Camel, frozen=True):
    stage: str
    scope: str
    eligible: int = 0
    waiting: int = 0
    processing: int = 0
    succeeded: int = 0
    skipped: int = 0
    blocked: int = 0
    failed: int = 0
    exhausted: int = 0
    canceled: int = 0
    needs_verification: int = 0
    stale: int = 0
    unknown: int = 0
    eta: Eta | None = None

    @property
    def remaining(self) -> int:
        return self.waiting + self.processing + self.unknown


class Eta(_Camel, frozen=True):
    status: EtaStatus
    reason: str | None = None
    low_seconds: int | None = None
    high_seconds: int | None = None
    confidence: Literal["low", "medium", "high"] | None = None
    basis: EtaBasis | None = None


class EtaBasis(_Camel, frozen=True):
    samples: int
    window_days: int
    parallelism: int
    remaining: int


class StepProgress(_Camel, frozen=True):
    step_kind: str
    total: int
    queued: int
    running: int
    succeeded: int
    failed: int
    waiting: int = 0
    unknown: int = 0


class QueueObservation(_Camel, frozen=True):
    """Approximate Temporal task-queue facts (pollers, backlog, rates): infrastructure, not jobs."""

    approximate: bool
    activity_pollers: int | None = None
    backlog_count: int | None = None
    add_rate: float | None = None
    dispatch_rate: float | None = None


class Capacity(_Camel, frozen=True):
    status: Literal["shared_activity_pool", "stale", "unavailable"]
    task_queue: str | None
    slots_configured: int | None
    slots_active: int | None
    slots_available: int | None
    executor_threads: int | None
    workers_fresh: int
    workers_stale: int
    workers_invalid: int
    queue: QueueObservation | None


class ActiveItem(_Camel, frozen=True):
    kind: Literal["resolved_job", "source_family", "orchestration", "unresolved_runtime_activity"]
    activity: str
    workflow_id: str | None
    run_id: str | None
    attempt: int | None
    started_at: float | None


class CoverageView(_Camel, frozen=True):
    status: str
    mode: str
    decoder_version: int
    history_event_id: int | None
    expected_members: int
    expected_steps: int
    persisted_members: int
    persisted_steps: int
    error_code: str | None
    verified: bool


class OperationsSnapshot(_Camel, frozen=True):
    generated_at: str
    eta_estimator_version: str
    freshness: Freshness
    execution: ExecutionView | None
    capacity: Capacity
    source_families: StepProgress | None
    reconciliation: list[StepProgress]
    projection_coverage: CoverageView | None
    stages: list[StageCounts]
    active_stage_counts: dict[str, int] | None
    active_items: list[ActiveItem]
    active_items_total: int | None
    active_items_truncated: bool
    overall_eta: Eta


class TotalsCache:
    """Whole-table stage totals, valid for exactly one position of the ``operations`` watermark.

    The projection runner changes ``job_stage_states`` only in the transaction that advances the
    watermark, so totals read at position P stay exact until the watermark moves; the scan over
    every stage row (the one cost that grows with the whole backlog) is then paid once per advance
    instead of once per read.  Everything else in the snapshot, including the coverage proof, is
    read live on every call.
    """

    def __init__(self) -> None:
        self._key: tuple[str, int] | None = None
        self._totals: list[tuple[str, str, int]] = []

    def get(self, tenant_id: str, position: int) -> list[tuple[str, str, int]] | None:
        return self._totals if self._key == (tenant_id, position) else None

    def put(self, tenant_id: str, position: int, totals: list[tuple[str, str, int]]) -> None:
        self._key, self._totals = (tenant_id, position), totals


@dataclass(frozen=True)
class SnapshotInputs:
    now: datetime
    tenant_id: str = "local"
    db_path: str | None = None  # the runtime identity heartbeats must match; None accepts any
    budget_exceeded: bool = False
    totals_cache: TotalsCache | None = None


# ---------------------------------------------------------------- runtime inventory (heartbeats)


@dataclass
class _Inventory:
    capacity: Capacity
    freshness: Freshness
    active_stage_counts: dict[str, int] | None
    active_items: list[ActiveItem] = field(default_factory=list)
    active_items_total: int | None = None
    truncated: bool = False


def _valid(row: Mapping[str, Any]) -> dict[str, Any] | None:
    """Decode a heartbeat's JSON parts; None when the row is not schema-valid."""
    if row["schema_version"] != SCHEMA_VERSION:
        return None
    try:
        per_kind = json.loads(row["per_kind_json"])
        details = json.loads(row["details_json"])
        queue = json.loads(row["task_queue_json"]) if row["task_queue_json"] else None
        seen = parse_instant(row["last_seen_at"])
    except (ValueError, TypeError):
        return None
    if not isinstance(per_kind, dict) or not isinstance(details, list):
        return None
    return {"per_kind": per_kind, "details": details, "queue": queue, "seen": seen}


def _queue(raw: Any) -> QueueObservation | None:
    if not isinstance(raw, dict):
        return None
    try:
        return msgspec.convert({**raw, "approximate": True}, QueueObservation)
    except msgspec.ValidationError:
        return None  # an unreadable observation is absent, not zero


def _item_kind(activity: str) -> Literal["source_family", "orchestration", "unresolved_runtime_activity"]:
    if activity in _SOURCE_KINDS:
        return "source_family"
    if activity in _ORCHESTRATION_KINDS:
        return "orchestration"
    # Telemetry never carries a job id (privacy boundary), so per-job work stays unresolved here.
    return "unresolved_runtime_activity"


def _active_item(detail: Any) -> ActiveItem | None:
    if not isinstance(detail, dict) or not isinstance(detail.get("kind"), str):
        return None
    started = detail.get("startedAt")
    attempt = detail.get("attempt")
    return ActiveItem(
        kind=_item_kind(detail["kind"]),
        activity=detail["kind"],
        workflow_id=detail.get("workflowId") if isinstance(detail.get("workflowId"), str) else None,
        run_id=detail.get("runId") if isinstance(detail.get("runId"), str) else None,
        attempt=attempt if isinstance(attempt, int) else None,
        started_at=float(started) if isinstance(started, int | float) else None,
    )


def database_identity(db: Database) -> str:
    """The ``db_path`` a worker of this database writes into its heartbeat (see ``worker.py``)."""
    url = db.engine.url
    return (url.database or "") if db.is_sqlite else url.render_as_string(hide_password=True)


def _same_database(recorded: str, expected: str) -> bool:
    if recorded == expected:
        return True
    if "://" in recorded or "://" in expected or not recorded or not expected:
        return False  # server URLs compare exactly; a file path compares by its resolved location
    return Path(recorded).resolve() == Path(expected).resolve()


def read_inventory(conn: sa.Connection, inputs: SnapshotInputs) -> _Inventory:
    rows = [dict(r) for r in conn.execute(sa.select(worker_runtime_heartbeats)).mappings()]
    if inputs.db_path is not None:
        # Only workers of this installation: the same (resolved) database identity.
        rows = [r for r in rows if _same_database(r["db_path"], inputs.db_path)]
    decoded = [(r, _valid(r)) for r in rows]
    valid = [(r, d) for r, d in decoded if d is not None]
    invalid = len(decoded) - len(valid)
    if not valid:
        cap = Capacity("unavailable", None, None, None, None, None, 0, 0, invalid, None)
        # Rows this reader cannot interpret (another schema version) are "unsupported", not absent.
        return _Inventory(cap, "unsupported" if invalid else "unavailable", None, [], None, False)
    # The task queue named by the newest matching heartbeat; workers on other queues are not ours.
    newest = max(valid, key=lambda rd: rd[1]["seen"])
    queue_name = newest[0]["task_queue"]
    on_queue = [(r, d) for r, d in valid if r["task_queue"] == queue_name]
    fresh = [(r, d) for r, d in on_queue if inputs.now - d["seen"] <= STALE_AFTER]
    stale_count = len(on_queue) - len(fresh)
    if not fresh:
        cap = Capacity("stale", queue_name, None, None, None, None, 0, stale_count, invalid, None)
        return _Inventory(cap, "stale", None, [], None, False)
    configured = sum(int(r["configured_slots"]) for r, _ in fresh)
    active = sum(int(r["active_count"]) for r, _ in fresh)
    per_kind: Counter[str] = Counter()
    items: list[ActiveItem] = []
    total, truncated = 0, False
    for r, d in fresh:
        per_kind.update({str(k): int(v) for k, v in d["per_kind"].items() if isinstance(v, int)})
        items.extend(i for i in (_active_item(x) for x in d["details"]) if i is not None)
        total += int(r["details_total"])
        truncated = truncated or bool(r["details_truncated"])
    items.sort(key=lambda i: (i.started_at is None, i.started_at or 0.0))
    truncated = truncated or total > ACTIVE_ITEMS_LIMIT or len(items) > ACTIVE_ITEMS_LIMIT
    newest_fresh = max(fresh, key=lambda rd: rd[1]["seen"])[1]["queue"]
    cap = Capacity(
        status="shared_activity_pool",
        task_queue=queue_name,
        slots_configured=configured,
        slots_active=active,
        slots_available=max(0, configured - active),
        executor_threads=sum(int(r["executor_threads"]) for r, _ in fresh),
        workers_fresh=len(fresh),
        workers_stale=stale_count,
        workers_invalid=invalid,
        queue=_queue(newest_fresh),
    )
    return _Inventory(
        cap, "fresh", dict(sorted(per_kind.items())), items[:ACTIVE_ITEMS_LIMIT], total, truncated
    )


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

    @property
    def terminal(self) -> bool:
        if self.plan == "not_eligible":
            return True
        if self.plan != "planned":
            return False  # pending and failed plans do not mean the job needs no work
        return all(self.states.get(st) in _TERMINAL_STAGE for st in self.required)


def _member_groups_query() -> sa.Select[Any]:
    m = discovery_execution_jobs.c
    joined: sa.FromClause = discovery_execution_jobs
    state_columns = []
    for stage in STAGES:  # one primary-key probe per member and stage
        s = job_stage_states.alias(f"s_{stage}")
        joined = joined.outerjoin(
            s, sa.and_(s.c.tenant_id == m.tenant_id, s.c.job_id == m.job_id, s.c.stage == stage)
        )
        state_columns.append(s.c.state.label(f"state_{stage}"))
    keys = [m.cohort, m.plan_state, m.required_steps_json, *state_columns]
    return (
        sa.select(*keys, sa.func.count().label("n"))
        .select_from(joined)
        .where(_of_execution(discovery_execution_jobs))
        .group_by(*keys)
    )


_MEMBER_GROUPS = _member_groups_query()


def _member_groups(conn: sa.Connection, ex: ExecutionKey) -> list[_MemberGroup]:
    """The execution's members counted by (cohort, plan, required stages, state per stage)."""
    rows = conn.execute(_MEMBER_GROUPS, _execution_params(ex))
    parsed: dict[str, tuple[str, ...]] = {}  # most members share one of a few step lists
    groups = []
    for cohort, plan, steps_json, *states, n in rows:
        if (steps := parsed.get(steps_json)) is None:
            steps = parsed[steps_json] = tuple(st for st in json.loads(steps_json) if st in STAGES)
        by_stage = {st: state for st, state in zip(STAGES, states, strict=True) if state is not None}
        groups.append(_MemberGroup(cohort, plan, steps, by_stage, int(n)))
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


def _closed_fact(conn: sa.Connection, ex: ExecutionKey) -> bool:
    return bool(conn.execute(_CLOSED, _execution_params(ex)).scalar())


def _steps(conn: sa.Connection, ex: ExecutionKey) -> list[tuple[str, str]]:
    return [(str(k), str(s)) for k, s in conn.execute(_STEPS, _execution_params(ex))]


def _phase(workflow_status: str, closed: bool, summaries: Sequence[CohortSummary], issues: bool) -> Phase:
    remaining = sum(c.remaining for c in summaries)
    if workflow_status == "in_progress":
        return "draining" if closed else "discovering"  # closed: no new members, work runs out
    if workflow_status == "canceled":
        return "canceled"
    if workflow_status in _FAILED_WORKFLOW:
        return "failed"
    # A successful workflow stays draining while either cohort still has unresolved work.
    if remaining > 0:
        return "draining"
    return "completed_with_issues" if issues else "completed"


@dataclass
class _Selected:
    key: ExecutionKey
    view: ExecutionView
    groups: list[_MemberGroup]
    steps: list[tuple[str, str]]
    families_planned: int


def _build_execution(
    conn: sa.Connection, row: Any, selected_as: Literal["active_or_draining", "latest_terminal"]
) -> _Selected:
    key = ExecutionKey(row.tenant_id, row.workflow_id, row.run_id or "")
    groups = _member_groups(conn, key)
    steps = _steps(conn, key)
    # Membership is closed by the terminal preparation_fanout step (or its recorded closing fact).
    closed = _closed_fact(conn, key) or any(
        k == "preparation_fanout" and s in ("succeeded", "failed") for k, s in steps
    )
    current = _cohort(g for g in groups if g.cohort == "observed_this_run")
    swept = _cohort(g for g in groups if g.cohort == "existing_backlog")
    issues = (
        any(s == "failed" for _, s in steps)
        or current.failed_plan + swept.failed_plan > 0
        or any(g.states.get(st) in ("exhausted", "canceled") for g in groups for st in g.required)
    )
    phase = _phase(row.status, closed, (current, swept), issues)
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


def select_execution(conn: sa.Connection, tenant_id: str) -> _Selected | None:
    """The active or draining Discover execution, else the latest terminal one."""
    rows = conn.execute(_EXECUTIONS, {"tenant_id": tenant_id}).all()
    if not rows:
        return None
    latest: _Selected | None = None
    for i, row in enumerate(rows):
        if i > 0 and (row.status == "canceled" or row.status in _FAILED_WORKFLOW):
            continue  # never discovering/draining, and not the newest: no need to build it
        sel = _build_execution(conn, row, "active_or_draining")
        if sel.view.phase in ("discovering", "draining"):
            return sel
        latest = latest or sel
    assert latest is not None  # rows[0] is always built
    latest.view = msgspec.structs.replace(latest.view, selected_as="latest_terminal")
    return latest


# ---------------------------------------------------------------- per-stage counts in three scopes

_STATE_BUCKET = {
    "pending": "waiting",
    "running": "processing",
    "succeeded": "succeeded",
    "skipped": "skipped",
    "blocked": "blocked",
    "failed": "failed",
    "exhausted": "exhausted",
    "canceled": "canceled",
    "queued": "waiting",  # dispatched to Temporal but not started: still waiting for a slot
    "stale": "stale",  # a succeeded output that no longer matches its inputs
}


def _totals(conn: sa.Connection, tenant_id: str, cache: TotalsCache | None) -> list[tuple[str, str, int]]:
    position = read_watermark(conn, OPERATIONS_WATERMARK) if cache is not None else -1
    if cache is not None and (hit := cache.get(tenant_id, position)) is not None:
        return hit
    s = job_stage_states.c
    rows = conn.execute(
        sa.select(s.stage, s.state, sa.func.count())
        .where(s.tenant_id == tenant_id, s.stage.in_(STAGES))
        .group_by(s.stage, s.state)
    )
    totals = [(str(stage), str(state), int(n)) for stage, state, n in rows]
    if cache is not None:
        cache.put(tenant_id, position, totals)
    return totals


def _running_query() -> sa.Select[Any]:
    s, w, m = job_stage_states.c, workflow_run_projections.c, discovery_execution_jobs.c
    return (
        sa.select(s.stage, m.cohort, w.status)
        .select_from(
            job_stage_states.outerjoin(
                workflow_run_projections,
                sa.and_(w.tenant_id == s.tenant_id, w.workflow_id == s.owner_workflow_id),
            ).outerjoin(
                discovery_execution_jobs,
                sa.and_(
                    m.tenant_id == s.tenant_id,
                    m.workflow_id == sa.bindparam("workflow_id"),
                    m.run_id == sa.bindparam("run_id"),
                    m.job_id == s.job_id,
                ),
            )
        )
        .where(s.tenant_id == sa.bindparam("tenant_id"), s.state == "running", s.stage.in_(STAGES))
    )


_RUNNING = _running_query()


def stage_counts(
    conn: sa.Connection,
    tenant_id: str,
    sel: _Selected | None,
    inventory_fresh: bool,
    cache: TotalsCache | None = None,
) -> list[StageCounts]:
    counts: dict[tuple[str, str], Counter[str]] = {(st, sc): Counter() for st in STAGES for sc in SCOPES}
    # Counted once over the whole table (an index-only scan), then the selected execution's member
    # groups (counted by the database) are moved into their cohort's scope.  The scope split costs
    # one grouped read over the execution's members, not a pass over the whole backlog.
    for stage, state, n in _totals(conn, tenant_id, cache):
        c = counts[(stage, "global_outside_execution")]
        c[_STATE_BUCKET.get(state, "unknown")] += int(n)
        c["eligible"] += int(n)
    if sel is not None:
        for g in sel.groups:
            inside_scope = _COHORT_SCOPE[g.cohort]
            for stage, state in g.states.items():
                bucket = _STATE_BUCKET.get(state, "unknown")
                outside, inside = counts[(stage, "global_outside_execution")], counts[(stage, inside_scope)]
                outside[bucket] -= g.count
                outside["eligible"] -= g.count
                inside[bucket] += g.count
                inside["eligible"] += g.count
    # Running rows whose owning workflow is closed need verification; with no fresh inventory a
    # running row cannot be confirmed live, so it is stale.  Both are taken out of processing.
    # Running rows are bounded by worker slots; the cohort of a member's row comes with it.
    ex = sel.key if sel is not None else None
    running = conn.execute(
        _RUNNING,
        {
            "tenant_id": tenant_id,
            "workflow_id": ex.workflow_id if ex else None,
            "run_id": ex.run_id if ex else None,
        },
    )
    for stage, cohort, owner_status in running:
        c = counts[(stage, _COHORT_SCOPE[cohort] if cohort is not None else "global_outside_execution")]
        if owner_status is not None and owner_status != "in_progress":
            c["processing"] -= 1
            c["needsVerification"] += 1
        elif not inventory_fresh:
            c["processing"] -= 1
            c["stale"] += 1
    # Members without a stage row: pre-dispatch waiting, or a genuine projection gap (unknown).
    if sel is not None:
        for g in sel.groups:
            scope = _COHORT_SCOPE[g.cohort]
            if g.plan == "pending" and "enrich" not in g.states:
                counts[("enrich", scope)]["waiting"] += g.count
                counts[("enrich", scope)]["eligible"] += g.count
            elif g.plan == "planned":
                for st in g.required:
                    if st not in g.states:
                        counts[(st, scope)]["unknown"] += g.count
                        counts[(st, scope)]["eligible"] += g.count
    out = []
    for (stage, scope), c in counts.items():
        out.append(
            StageCounts(
                stage=stage,
                scope=scope,
                eligible=c["eligible"],
                waiting=c["waiting"],
                processing=c["processing"],
                succeeded=c["succeeded"],
                skipped=c["skipped"],
                blocked=c["blocked"],
                failed=c["failed"],
                exhausted=c["exhausted"],
                canceled=c["canceled"],
                needs_verification=c["needsVerification"],
                stale=c["stale"],
                unknown=c["unknown"],
            )
        )
    return out


# ---------------------------------------------------------------- source families and reconciliation


def _progress(kind: str, statuses: Iterable[str]) -> StepProgress:
    c = Counter(statuses)
    return StepProgress(
        step_kind=kind,
        total=sum(c.values()),
        queued=c["queued"],
        running=c["running"],
        succeeded=c["succeeded"],
        failed=c["failed"],
    )


def source_family_progress(sel: _Selected) -> StepProgress:
    families = [s for k, s in sel.steps if k == "source_family"]
    progress = _progress("source_family", families)
    planned = len(families)
    # A planned family with no lifecycle yet is waiting while the workflow runs, unknown after.
    gap = max(0, sel.families_planned - planned)
    if sel.view.workflow_status == "in_progress":
        return msgspec.structs.replace(progress, total=progress.total + gap, waiting=gap)
    return msgspec.structs.replace(progress, total=progress.total + gap, unknown=gap)


def reconciliation_progress(sel: _Selected) -> list[StepProgress]:
    return [_progress(kind, (s for k, s in sel.steps if k == kind)) for kind in _RECONCILIATION_STEPS]


# ---------------------------------------------------------------- ETA (pipeline-eta-v1)


_SAMPLES = (
    sa.select(job_stage_states.c.duration_ms)
    .where(
        job_stage_states.c.tenant_id == sa.bindparam("tenant_id"),
        job_stage_states.c.stage == sa.bindparam("stage"),
        job_stage_states.c.state == "succeeded",
        job_stage_states.c.duration_ms.is_not(None),
        job_stage_states.c.finished_at >= sa.bindparam("since"),
    )
    .order_by(job_stage_states.c.finished_at.desc())
    .limit(ETA_MAX_SAMPLES)
)


def _samples(conn: sa.Connection, tenant_id: str, now: datetime) -> dict[str, list[int]]:
    """Newest successful canonical stage durations per stage, 14-day window, at most 50 each."""
    since = isoformat(now - ETA_WINDOW)
    out: dict[str, list[int]] = {}
    for stage in STAGES:  # each an index range (tenant, stage, state, finished_at) read backwards
        params = {"tenant_id": tenant_id, "stage": stage, "since": since}
        rows = conn.execute(_SAMPLES, params).scalars()
        out[stage] = [int(d) for d in rows if d is not None and d >= 0]
    return out


def _quantile(values: Sequence[int], q: float) -> float:
    ordered = sorted(values)
    idx = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return float(ordered[idx])


def _confidence(n: int) -> Literal["low", "medium", "high"]:
    return "high" if n >= ETA_MAX_SAMPLES else "medium" if n >= 20 else "low"


@dataclass(frozen=True)
class _Gate:
    """Why no number may be given, checked in this order; None means a number may be shown."""

    status: EtaStatus
    reason: str


def _runtime_gate(inv: _Inventory, budget_exceeded: bool, needs_llm: bool) -> _Gate | None:
    if inv.freshness == "stale":
        return _Gate("stale", "telemetry_stale")
    if inv.freshness != "fresh" or not inv.capacity.slots_configured:
        return _Gate("paused", "worker_unavailable")
    if budget_exceeded and needs_llm:
        return _Gate("paused", "budget_exceeded")
    return None


def stage_eta(c: StageCounts, samples: Sequence[int], inv: _Inventory, budget_exceeded: bool) -> Eta:
    remaining = c.remaining
    if remaining == 0:
        if c.blocked > 0:
            return Eta("paused", "blocked")
        return Eta("available", None, 0, 0, _confidence(len(samples)), EtaBasis(len(samples), 14, 0, 0))
    gate = _runtime_gate(inv, budget_exceeded, c.stage in LLM_STAGES)
    if gate is not None:
        return Eta(gate.status, gate.reason)
    if not inv.capacity.slots_active:
        return Eta("paused", "no_dispatch")
    if len(samples) < ETA_MIN_SAMPLES:
        return Eta("calibrating", "insufficient_samples")
    parallel = max(1, int(inv.capacity.slots_configured or 1))
    rounds = math.ceil(remaining / parallel)
    low = math.floor(rounds * _quantile(samples, 0.25) / 1000)
    high = math.ceil(rounds * _quantile(samples, 0.9) / 1000)
    return Eta(
        "available",
        None,
        low,
        high,
        _confidence(len(samples)),
        EtaBasis(len(samples), 14, parallel, remaining),
    )


def overall_eta(
    sel: _Selected | None,
    stages: Sequence[StageCounts],
    inv: _Inventory,
    coverage: CoverageView | None,
    budget_exceeded: bool,
) -> Eta:
    if sel is None:
        return Eta("unavailable", "no_execution")
    selected = [c for c in stages if c.scope != "global_outside_execution"]
    remaining = [c for c in selected if c.remaining > 0]
    gate = _runtime_gate(inv, budget_exceeded, any(c.stage in LLM_STAGES for c in remaining))
    if gate is not None:
        return Eta(gate.status, gate.reason)
    if coverage is None or coverage.status != "ready":
        return Eta("unavailable", "coverage_not_ready")
    if not sel.view.membership_closed:
        return Eta("unavailable", "membership_open")
    outside = [c for c in stages if c.scope == "global_outside_execution"]
    backlog = inv.capacity.queue.backlog_count if inv.capacity.queue else None
    # Dormant rows outside the execution are not contention; running ones, a queue backlog or a
    # truncated inventory are demand this estimator cannot bound.
    if inv.truncated or any(c.processing > 0 for c in outside) or (isinstance(backlog, int) and backlog > 0):
        return Eta("unavailable", "contention_unbounded")
    if not remaining:
        if any(c.blocked for c in selected):
            return Eta("paused", "blocked")
        return Eta("available", None, 0, 0, "high", None)
    etas = [c.eta for c in remaining]
    for e in etas:
        if e is None or e.status != "available":
            return e if e is not None else Eta("unavailable", "no_stage_eta")
    lows = [e.low_seconds or 0 for e in etas if e is not None]
    highs = [e.high_seconds or 0 for e in etas if e is not None]
    confs = [e.confidence for e in etas if e is not None and e.confidence]
    worst: Literal["low", "medium", "high"] = (
        "low" if "low" in confs else "medium" if "medium" in confs else "high"
    )
    # Stages pipeline per job, so the slowest stage bounds from below and their sum from above.
    return Eta("available", None, max(lows), sum(highs), worst, None)


# ---------------------------------------------------------------- the snapshot


def read_operations(conn: sa.Connection, inputs: SnapshotInputs) -> OperationsSnapshot:
    inv = read_inventory(conn, inputs)
    sel = select_execution(conn, inputs.tenant_id)
    stages = stage_counts(conn, inputs.tenant_id, sel, inv.freshness == "fresh", inputs.totals_cache)
    samples = _samples(conn, inputs.tenant_id, inputs.now)
    coverage = _coverage_view(conn, sel)
    # While the selected run's history is being restored its scoped counts are provisional, so
    # their ranges are withheld; runtime facts and the global scope stay visible.
    restoring = coverage is not None and coverage.status in ("recovering", "retrying")
    stages = [
        msgspec.structs.replace(
            c,
            eta=Eta("unavailable", "coverage_recovering")
            if restoring and c.scope != "global_outside_execution"
            else stage_eta(c, samples[c.stage], inv, inputs.budget_exceeded),
        )
        for c in stages
    ]
    return OperationsSnapshot(
        generated_at=isoformat(inputs.now),
        eta_estimator_version=ETA_ESTIMATOR_VERSION,
        freshness=inv.freshness,
        execution=sel.view if sel else None,
        capacity=inv.capacity,
        source_families=source_family_progress(sel) if sel else None,
        reconciliation=reconciliation_progress(sel) if sel else [],
        projection_coverage=coverage,
        stages=stages,
        active_stage_counts=inv.active_stage_counts,
        active_items=inv.active_items,
        active_items_total=inv.active_items_total,
        active_items_truncated=inv.truncated,
        overall_eta=overall_eta(sel, stages, inv, coverage, inputs.budget_exceeded),
    )


_FAMILIES_PLANNED = sa.select(sa.func.max(pipeline_step_projections.c.detail_item_count)).where(
    _of_execution(pipeline_step_projections),
    pipeline_step_projections.c.step_kind == "source_planning",
    pipeline_step_projections.c.status == "succeeded",
    pipeline_step_projections.c.detail_code == "families_planned",
)


def _read_families_planned(conn: sa.Connection, ex: ExecutionKey) -> int:
    """The source-planning step's ``families_planned`` count; 0 before planning succeeded."""
    count = conn.execute(_FAMILIES_PLANNED, _execution_params(ex)).scalar()
    return int(count or 0)


def _coverage_view(conn: sa.Connection, sel: _Selected | None) -> CoverageView | None:
    if sel is None:
        return None
    cov = read_coverage(conn, sel.key)
    if cov is None:
        return None
    return CoverageView(
        status=cov.status,
        mode=cov.mode,
        decoder_version=cov.decoder_version,
        history_event_id=cov.history_event_id,
        expected_members=cov.expected_members,
        expected_steps=cov.expected_steps,
        persisted_members=cov.persisted_members,
        persisted_steps=cov.persisted_steps,
        error_code=cov.error_code,
        verified=cov.verified,
    )


_encoder = msgspec.json.Encoder()
router = APIRouter()


def budget_blocked(db: Database, clock: Clock | None = None) -> bool:
    """Work that spends LLM budget is blocked while today's spend ledger is at its ceiling."""
    return ledger_with_settings(db, clock=clock).status().exceeded


def ensure_operations_schema(db: Database) -> None:
    """Migrate-before-use for the tables the snapshot reads (idempotent)."""
    migrate(db)
    create_heartbeat_table(db)
    create_orchestration_tables(db)


@router.get("/v1/pipeline/operations", response_class=Response)
async def pipeline_operations(request: Request) -> Response:
    """The operations snapshot (spec "Pipeline Operations Snapshot"; runtime reference §6.4)."""
    db = request.app.state.services.db
    tenant_id = request.app.state.services.tenant_id
    state = request.app.state
    cache = getattr(state, "operations_totals_cache", None)
    if cache is None:
        cache = state.operations_totals_cache = TotalsCache()

    def build() -> bytes:
        if not getattr(state, "operations_schema_ready", False):
            ensure_operations_schema(db)
            state.operations_schema_ready = True
        now = datetime.now(UTC)
        budget = budget_blocked(db)
        with db.read() as conn:
            inputs = SnapshotInputs(
                now=now, tenant_id=tenant_id, db_path=database_identity(db), budget_exceeded=budget,
                totals_cache=cache,
            )  # fmt: skip
            snap = read_operations(conn, inputs)
        return _encoder.encode(snap)

    body = await asyncio.to_thread(build)
    return Response(content=body, media_type="application/json")
