"""Per-stage counts in three scopes, source-family progress and reconciliation progress."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

import msgspec
import sqlalchemy as sa

from jobctrl.projections.read_models.discovery_executions import (
    discovery_execution_jobs,
)
from jobctrl.projections.read_models.stage_counts import job_stage_counts
from jobctrl.projections.read_models.stage_states import job_stage_states
from jobctrl.projections.read_models.workflow_runs import workflow_run_projections
from jobctrl.projections.schema import OPERATIONS_WATERMARK
from jobctrl.projections.watermarks import read_watermark
from jobctrl.runtime.api.operations.execution import _Selected
from jobctrl.runtime.api.operations.models import (
    _COHORT_SCOPE,
    _RECONCILIATION_STEPS,
    SCOPES,
    STAGES,
    StageCounts,
    StepProgress,
    TotalsCache,
)

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


_TOTALS = sa.select(job_stage_counts.c.stage, job_stage_counts.c.state, job_stage_counts.c.row_count).where(
    job_stage_counts.c.tenant_id == sa.bindparam("tenant_id"), job_stage_counts.c.stage.in_(STAGES)
)


def _totals(conn: sa.Connection, tenant_id: str, cache: TotalsCache | None) -> list[tuple[str, str, int]]:
    position = -1
    if cache is not None:
        position = (
            cache.position if cache.position is not None else read_watermark(conn, OPERATIONS_WATERMARK)
        )
    if cache is not None and (hit := cache.get(tenant_id, position)) is not None:
        return hit
    # The fold keeps the row count per (tenant, stage, state) with the rows (ADR 0345): a few rows
    # to read, not a grouped scan over every stage row.
    rows = conn.execute(_TOTALS, {"tenant_id": tenant_id})
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
    # Counted once over the whole table (kept by the fold, ADR 0345), then the selected execution's member
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
