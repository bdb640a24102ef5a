"""``pipeline_step_projections``: one row per (tenant, Discover workflow id, Discover run id, step
kind, item key), folded from the four ``PipelineStep*`` lifecycle events.

Attempt-aware and idempotent: a higher attempt replaces the row; a late lower attempt is ignored;
within one attempt the first terminal result wins, a queued event never moves a row backwards and
the first start wins.  Details keep only allowlisted codes and bounded counts (privacy by
allowlist: any other code is stored as ``unlisted``, never verbatim).
"""

from __future__ import annotations

from typing import Any, Literal, get_args

import msgspec
import sqlalchemy as sa

from jobctrl.orchestration.events import (
    PipelineStepCompleted,
    PipelineStepFailed,
    PipelineStepQueued,
    PipelineStepStarted,
    StepDetail,
    StepKind,
)
from jobctrl.projections.keydigest import DigestRow, digest_table, step_term
from jobctrl.projections.model import EventInfo, Fold, KeyDigest, Projection, ReadModelTable
from jobctrl.projections.schema import execution_key_columns, execution_key_values, metadata
from jobctrl.projections.times import utc_or_none

StepStatus = Literal["queued", "running", "succeeded", "failed"]
_RANK: dict[StepStatus, int] = {"queued": 0, "running": 1, "succeeded": 2, "failed": 2}

# Detail codes a step may carry into the read model: the union of the codes this project emits
# (orchestration's step reporter uses the step kind itself as the code, so every ``StepKind``) and the
# reference's documented ones, so an imported reference log keeps its details.  Anything else
# becomes UNLISTED_CODE (privacy by allowlist).
EMITTED_CODES: frozenset[str] = frozenset(get_args(StepKind))
REFERENCE_CODES: frozenset[str] = frozenset(
    {
        "source_family",
        "terminal_reconciliation",
        "existing_backlog",
        "source_planning",
        "enrichment_pass",
        "preparation_fanout",
        "existing_backlog_sweep",
        "pdf_render",
        "families_planned",
        "family_completed",
        "family_partial",
        "family_failed",
        "jobs_observed",
        "jobs_enriched",
        "jobs_planned",
        "jobs_not_eligible",
        "workflows_started",
        "backlog_swept",
        "pdfs_rendered",
        "no_work",
        "partial",
        "skipped",
    }
)
STEP_DETAIL_CODES: frozenset[str] = EMITTED_CODES | REFERENCE_CODES
UNLISTED_CODE = "unlisted"
MAX_ITEM_COUNT = 10_000_000

pipeline_step_projections = sa.Table(
    "pipeline_step_projections",
    metadata,
    *execution_key_columns(),
    sa.Column("step_kind", sa.String(40), primary_key=True),
    sa.Column("item_key", sa.String(200), primary_key=True),
    sa.Column("attempt", sa.Integer, nullable=False),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("queued_at", sa.String(40), nullable=True),
    sa.Column("started_at", sa.String(40), nullable=True),
    sa.Column("finished_at", sa.String(40), nullable=True),
    sa.Column("duration_ms", sa.BigInteger, nullable=True),
    sa.Column("error_code", sa.String(80), nullable=True),
    sa.Column("retryable", sa.Boolean, nullable=True),
    sa.Column("detail_code", sa.String(80), nullable=True),
    sa.Column("detail_item_count", sa.BigInteger, nullable=True),
    sa.Column("last_event_id", sa.BigInteger, nullable=False),
    sa.Column("last_updated_at", sa.String(40), nullable=True),
)


class PipelineStepRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    workflow_id: str
    run_id: str
    step_kind: str
    item_key: str
    attempt: int
    status: StepStatus
    queued_at: str | None
    started_at: str | None
    finished_at: str | None
    duration_ms: int | None
    error_code: str | None
    retryable: bool | None
    detail_code: str | None
    detail_item_count: int | None
    last_event_id: int
    last_updated_at: str | None


PIPELINE_STEPS = ReadModelTable(pipeline_step_projections, PipelineStepRow)
StepEvent = PipelineStepQueued | PipelineStepStarted | PipelineStepCompleted | PipelineStepFailed


def _key(event: Any, info: EventInfo) -> tuple[str, str, str, str, str]:
    ex = event.execution
    return (ex.tenant_id, ex.workflow_id, ex.temporal_run_id, event.step_kind, event.item_key)


def allowlisted_detail(detail: StepDetail | None) -> tuple[str | None, int | None]:
    if detail is None:
        return None, None
    code = detail.code if detail.code in STEP_DETAIL_CODES else UNLISTED_CODE
    count = detail.item_count
    if count is not None and not 0 <= count <= MAX_ITEM_COUNT:
        count = None
    return code, count


def _fresh(event: StepEvent, info: EventInfo) -> PipelineStepRow:
    return PIPELINE_STEPS.blank(
        **execution_key_values(event.execution),
        step_kind=event.step_kind,
        item_key=event.item_key,
        attempt=event.attempt,
        status="queued",
        last_event_id=info.position,
        last_updated_at=info.at,
    )


def _transition(row: PipelineStepRow, event: StepEvent) -> PipelineStepRow:
    """The row after ``event`` of the same attempt (the caller has ruled out ignored events)."""
    if isinstance(event, PipelineStepQueued):
        return msgspec.structs.replace(row, queued_at=row.queued_at or utc_or_none(event.queued_at))
    if isinstance(event, PipelineStepStarted):
        return msgspec.structs.replace(row, status="running", started_at=utc_or_none(event.started_at))
    if isinstance(event, PipelineStepCompleted):
        return msgspec.structs.replace(
            row,
            status="succeeded",
            finished_at=utc_or_none(event.completed_at),
            duration_ms=event.duration_ms,
        )
    return msgspec.structs.replace(
        row,
        status="failed",
        finished_at=utc_or_none(event.failed_at),
        duration_ms=event.duration_ms,
        error_code=event.error_code,
        retryable=event.retryable,
    )


def _is_ignored(row: PipelineStepRow, event: StepEvent) -> bool:
    if event.attempt != row.attempt:
        return event.attempt < row.attempt  # a late lower attempt; a higher one replaces the row
    if _RANK[row.status] == 2:
        return True  # within one attempt the first terminal result wins
    if isinstance(event, PipelineStepQueued):
        return row.queued_at is not None  # never moves a row backwards; may only fill queued_at
    if isinstance(event, PipelineStepStarted):
        return row.status == "running"  # the first start wins
    return False


def on_step(row: PipelineStepRow | None, event: StepEvent, info: EventInfo) -> PipelineStepRow | None:
    if row is not None and _is_ignored(row, event):
        return row
    base = _fresh(event, info) if row is None or event.attempt > row.attempt else row
    new = _transition(base, event)
    code, count = allowlisted_detail(event.detail)
    return msgspec.structs.replace(
        new,
        # Detail merge: a detail present on the event replaces what it names; absent keeps the old.
        detail_code=code if code is not None else new.detail_code,
        detail_item_count=count if count is not None else new.detail_item_count,
        last_event_id=info.position,
        last_updated_at=info.at,
    )


# The count and incremental digest of each execution's step keys (ADR 0132).
pipeline_step_key_digests = digest_table("pipeline_step_key_digests")
STEP_DIGESTS = ReadModelTable(pipeline_step_key_digests, DigestRow)

PROJECTION = Projection(
    name="pipeline_steps",
    tables=(PIPELINE_STEPS, STEP_DIGESTS),
    folds=tuple(
        Fold(cls, PIPELINE_STEPS, _key, on_step)
        for cls in (PipelineStepQueued, PipelineStepStarted, PipelineStepCompleted, PipelineStepFailed)
    ),
    creates_rows_on=frozenset(
        {"PipelineStepQueued", "PipelineStepStarted", "PipelineStepCompleted", "PipelineStepFailed"}
    ),
    key_digests=(KeyDigest(PIPELINE_STEPS.name, STEP_DIGESTS, lambda key: step_term(key[3], key[4])),),
)
