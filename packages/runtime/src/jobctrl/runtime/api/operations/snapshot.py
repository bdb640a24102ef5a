"""``read_operations``: the whole snapshot, a pure function of read models and heartbeats."""

from __future__ import annotations

import msgspec
import sqlalchemy as sa

from jobctrl.kernel.clock import isoformat
from jobctrl.projections.recoveries import Coverage, read_coverage
from jobctrl.projections.schema import OPERATIONS_WATERMARK
from jobctrl.projections.watermarks import read_watermark
from jobctrl.runtime.api.operations.eta import _samples, overall_eta, stage_eta
from jobctrl.runtime.api.operations.execution import _Selected, select_execution
from jobctrl.runtime.api.operations.inventory import read_inventory
from jobctrl.runtime.api.operations.models import (
    ETA_ESTIMATOR_VERSION,
    Eta,
    OperationsSnapshot,
    SnapshotInputs,
)
from jobctrl.runtime.api.operations.stages import (
    reconciliation_progress,
    source_family_progress,
    stage_counts,
)

# ---------------------------------------------------------------- the snapshot


def read_operations(conn: sa.Connection, inputs: SnapshotInputs) -> OperationsSnapshot:
    cache = inputs.totals_cache
    if cache is not None:  # one watermark read keys every cached part of this snapshot
        cache.position = read_watermark(conn, OPERATIONS_WATERMARK)
    inv = read_inventory(conn, inputs)
    sel = select_execution(conn, inputs.tenant_id, cache)
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


def _coverage_view(conn: sa.Connection, sel: _Selected | None) -> Coverage | None:
    return None if sel is None else read_coverage(conn, sel.key)
