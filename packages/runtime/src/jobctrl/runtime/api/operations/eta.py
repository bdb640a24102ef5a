"""``pipeline-eta-v1``: stage and overall estimates, and the gates that withhold a number."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

import sqlalchemy as sa

from jobctrl.kernel.clock import isoformat
from jobctrl.projections.read_models.stage_states import job_stage_states
from jobctrl.projections.recoveries import Coverage
from jobctrl.runtime.api.operations.execution import _Selected
from jobctrl.runtime.api.operations.inventory import _Inventory
from jobctrl.runtime.api.operations.models import (
    ETA_MAX_SAMPLES,
    ETA_MIN_SAMPLES,
    ETA_WINDOW,
    LLM_STAGES,
    STAGES,
    Eta,
    EtaBasis,
    EtaStatus,
    StageCounts,
)

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
    coverage: Coverage | None,
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
