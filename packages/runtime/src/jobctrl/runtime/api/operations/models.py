"""The operations snapshot's wire model (camelCase msgspec structs), its constants and inputs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

import msgspec

from jobctrl.projections.recoveries import Coverage
from jobctrl.runtime.api.discover_phase import Phase

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


class RunProgress(_Camel, frozen=True):
    """The DiscoveryRun's spine (families + 2): what the Discover progress bar shows."""

    completed: int
    total: int


class ExecutionView(_Camel, frozen=True):
    discover_workflow_id: str
    discover_run_id: str | None
    selected_as: Literal["active_or_draining", "latest_terminal"]
    workflow_status: str
    phase: Phase | None  # None: a provisional reconciled_not_found verdict
    membership_closed: bool
    started_at: str | None
    finished_at: str | None
    current_execution: CohortSummary
    swept_existing_backlog: CohortSummary
    progress: RunProgress | None = None


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


class OperationsSnapshot(_Camel, frozen=True):
    generated_at: str
    eta_estimator_version: str
    freshness: Freshness
    execution: ExecutionView | None
    capacity: Capacity
    source_families: StepProgress | None
    reconciliation: list[StepProgress]
    projection_coverage: Coverage | None
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
    read live on every call.  An execution's member groups (a grouped read over its members' stage
    rows, written in the same transactions) are kept the same way, per execution (ADR 0237).
    """

    def __init__(self) -> None:
        self._key: tuple[str, int] | None = None
        self._totals: list[tuple[str, str, int]] = []
        self._groups: dict[tuple[str, ...], tuple[int, Any]] = {}
        self.position: int | None = None  # the watermark as the current snapshot read it

    def get(self, tenant_id: str, position: int) -> list[tuple[str, str, int]] | None:
        return self._totals if self._key == (tenant_id, position) else None

    def put(self, tenant_id: str, position: int, totals: list[tuple[str, str, int]]) -> None:
        self._key, self._totals = (tenant_id, position), totals

    def groups(self, key: tuple[str, ...], position: int) -> Any:
        """An execution's member groups read at ``position`` (ADR 0237), or None."""
        hit = self._groups.get(key)
        return hit[1] if hit is not None and hit[0] == position else None

    def put_groups(self, key: tuple[str, ...], position: int, groups: Any) -> None:
        if len(self._groups) > 16:  # a handful of executions are ever selected; stay bounded
            self._groups.clear()
        self._groups[key] = (position, groups)


@dataclass(frozen=True)
class SnapshotInputs:
    now: datetime
    tenant_id: str = "local"
    db_path: str | None = None  # the runtime identity heartbeats must match; None accepts any
    budget_exceeded: bool = False
    totals_cache: TotalsCache | None = None
