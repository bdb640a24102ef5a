"""``discovery_run_projections``: one row per (tenant, discovery run) with its progress and outcome.

Progress is monotonic as on the DiscoveryRun aggregate: ``progress_total`` never shrinks,
``progress_completed`` never goes back and never exceeds the total, and a report with total 0 changes
nothing.  The first terminal event (completed or failed) wins; a duplicate or late one is ignored.
A run interrupted before its families reported (ADR 0079) is ``failed`` with the reason as its only
error class and no failed source.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
import sqlalchemy as sa

from jobctrl.discovery.events import (
    DiscoveryRunCompleted,
    DiscoveryRunFailed,
    DiscoveryRunProgressRecorded,
    DiscoveryRunStarted,
)
from jobctrl.kernel.text import bound_text
from jobctrl.projections.model import EventInfo, Fold, Projection, ReadModelTable
from jobctrl.projections.schema import metadata
from jobctrl.projections.times import utc_or_none

RunStatus = Literal["running", "completed", "failed"]
_MAX_ERROR_CLASSES = 20

discovery_run_projections = sa.Table(
    "discovery_run_projections",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("run_id", sa.String(200), primary_key=True),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("source_count", sa.Integer, nullable=True),
    sa.Column("progress_completed", sa.Integer, nullable=False),
    sa.Column("progress_total", sa.Integer, nullable=False),
    sa.Column("total_jobs", sa.Integer, nullable=True),
    sa.Column("new_jobs", sa.Integer, nullable=True),
    sa.Column("existing_jobs", sa.Integer, nullable=True),
    sa.Column("observed_jobs", sa.Integer, nullable=True),
    sa.Column("duplicate_jobs", sa.Integer, nullable=True),
    sa.Column("rejected_duplicates", sa.Integer, nullable=True),
    sa.Column("error_classes_json", sa.Text, nullable=False),
    sa.Column("failed_source_id", sa.String(200), nullable=True),
    sa.Column("retryable", sa.Boolean, nullable=True),
    sa.Column("started_at", sa.String(40), nullable=True),
    sa.Column("finished_at", sa.String(40), nullable=True),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
)


class DiscoveryRunRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    run_id: str
    status: RunStatus
    source_count: int | None
    progress_completed: int
    progress_total: int
    total_jobs: int | None
    new_jobs: int | None
    existing_jobs: int | None
    observed_jobs: int | None
    duplicate_jobs: int | None
    rejected_duplicates: int | None
    error_classes_json: str  # sorted, bounded codes
    failed_source_id: str | None
    retryable: bool | None
    started_at: str | None
    finished_at: str | None
    last_event_position: int
    updated_at: str | None


DISCOVERY_RUNS = ReadModelTable(discovery_run_projections, DiscoveryRunRow)
_encoder = msgspec.json.Encoder()


def _key(event: Any, info: EventInfo) -> tuple[str, str]:
    return (info.tenant_id, event.run_id)


def _next(row: DiscoveryRunRow | None, event: Any, info: EventInfo, **changes: Any) -> DiscoveryRunRow:
    if row is None:
        row = DISCOVERY_RUNS.blank(
            tenant_id=info.tenant_id,
            run_id=event.run_id,
            status="running",
            progress_completed=0,
            progress_total=0,
            error_classes_json="[]",
            last_event_position=info.position,
        )
    return msgspec.structs.replace(row, last_event_position=info.position, updated_at=info.at, **changes)


def on_started(row: DiscoveryRunRow | None, event: DiscoveryRunStarted, info: EventInfo) -> DiscoveryRunRow:
    if row is not None and row.started_at is not None:
        return row
    return _next(
        row, event, info, source_count=len(set(event.source_ids)), started_at=utc_or_none(event.started_at)
    )


def on_progress(
    row: DiscoveryRunRow | None, event: DiscoveryRunProgressRecorded, info: EventInfo
) -> DiscoveryRunRow | None:
    if event.total <= 0:
        return row  # a progress-silent report
    before_completed = row.progress_completed if row is not None else 0
    before_total = row.progress_total if row is not None else 0
    total = max(before_total, event.total)
    completed = min(max(before_completed, event.completed), total)
    if row is not None and (completed, total) == (before_completed, before_total):
        return row
    return _next(row, event, info, progress_completed=completed, progress_total=total)


def on_completed(
    row: DiscoveryRunRow | None, event: DiscoveryRunCompleted, info: EventInfo
) -> DiscoveryRunRow:
    if row is not None and row.status != "running":
        return row  # the first terminal event wins
    counts = event.counts
    classes = sorted({bound_text(c, 80) for c in event.error_classes})[:_MAX_ERROR_CLASSES]
    return _next(
        row,
        event,
        info,
        status="completed",
        total_jobs=counts.total,
        new_jobs=counts.new_jobs,
        existing_jobs=counts.existing_jobs,
        observed_jobs=counts.observed_jobs,
        duplicate_jobs=counts.duplicate_jobs,
        rejected_duplicates=counts.rejected_duplicates,
        error_classes_json=_encoder.encode(classes).decode(),
        finished_at=utc_or_none(event.completed_at),
    )


def on_failed(row: DiscoveryRunRow | None, event: DiscoveryRunFailed, info: EventInfo) -> DiscoveryRunRow:
    if row is not None and row.status != "running":
        return row
    return _next(
        row,
        event,
        info,
        status="failed",
        error_classes_json=_encoder.encode([bound_text(event.error_class, 80)]).decode(),
        # An empty sourceId: the run was interrupted (canceled, terminated, timed out), no source failed.
        failed_source_id=bound_text(event.source_id, 200) or None,
        retryable=event.retryable,
        finished_at=utc_or_none(event.failed_at),
    )


PROJECTION = Projection(
    name="discovery_runs",
    tables=(DISCOVERY_RUNS,),
    folds=(
        Fold(DiscoveryRunStarted, DISCOVERY_RUNS, _key, on_started),
        Fold(DiscoveryRunProgressRecorded, DISCOVERY_RUNS, _key, on_progress),
        Fold(DiscoveryRunCompleted, DISCOVERY_RUNS, _key, on_completed),
        Fold(DiscoveryRunFailed, DISCOVERY_RUNS, _key, on_failed),
    ),
    creates_rows_on=frozenset({"DiscoveryRunStarted", "DiscoveryRunCompleted", "DiscoveryRunFailed"}),
)
