"""``job_stage_states``: one row per (tenant, job, stage), a pure fold of the typed ``Stage*`` events.

The Orchestration aggregate enforces which transitions are legal; this fold only records what the
events say, in log order.  The owner of a running stage is the workflow id / run id / attempt in the
metadata of its ``StageStarted`` event (durability pattern 4: every running write carries its owner).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
import sqlalchemy as sa

from jobctrl.kernel.text import bound_text
from jobctrl.orchestration.events import (
    Stage,
    StageBlocked,
    StageCanceled,
    StageCompleted,
    StageExhausted,
    StageFailed,
    StageReset,
    StageSkipped,
    StageStarted,
)
from jobctrl.projections.model import EventInfo, Fold, Projection, ReadModelTable
from jobctrl.projections.schema import metadata
from jobctrl.projections.times import utc_or_none

StageState = Literal[
    "pending", "running", "succeeded", "failed", "exhausted", "blocked", "skipped", "canceled"
]
NextAction = Literal["run", "await_result", "retry", "reset_required", "await_upstream", "none"]

# Attempt limits per stage (runtime reference §1.3); discover has no per-job attempt budget.
MAX_ATTEMPTS: dict[str, int | None] = {
    "discover": None,
    "enrich": 5,
    "score": 3,
    "tailor": 5,
    "cover": 5,
    "apply": 3,
}

job_stage_states = sa.Table(
    "job_stage_states",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("job_id", sa.String(200), primary_key=True),
    sa.Column("stage", sa.String(20), primary_key=True),
    sa.Column("state", sa.String(20), nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("max_attempts", sa.Integer, nullable=True),
    sa.Column("started_at", sa.String(40), nullable=True),
    sa.Column("finished_at", sa.String(40), nullable=True),
    sa.Column("duration_ms", sa.BigInteger, nullable=True),
    sa.Column("error_code", sa.String(80), nullable=True),
    sa.Column("retryable", sa.Boolean, nullable=True),
    sa.Column("blocked_by_json", sa.Text, nullable=False),
    sa.Column("skip_reason", sa.String(500), nullable=True),
    sa.Column("next_action", sa.String(20), nullable=False),
    sa.Column("owner_workflow_id", sa.String(200), nullable=True),
    sa.Column("owner_run_id", sa.String(200), nullable=True),
    sa.Column("owner_attempt", sa.Integer, nullable=True),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
)


class StageStateRow(msgspec.Struct, frozen=True):
    tenant_id: str
    job_id: str
    stage: Stage
    state: StageState
    attempts: int
    max_attempts: int | None
    started_at: str | None
    finished_at: str | None
    duration_ms: int | None
    error_code: str | None
    retryable: bool | None
    blocked_by_json: str
    skip_reason: str | None
    next_action: NextAction
    owner_workflow_id: str | None
    owner_run_id: str | None
    owner_attempt: int | None
    last_event_position: int
    updated_at: str | None


STAGE_STATES = ReadModelTable(job_stage_states, StageStateRow)
_encoder = msgspec.json.Encoder()


def _key(event: Any, info: EventInfo) -> tuple[str, str, str]:
    return (info.tenant_id, event.job_id, event.stage)


def _next(row: StageStateRow | None, event: Any, info: EventInfo, **changes: Any) -> StageStateRow:
    """``row`` (or a fresh pending row) with ``changes`` and the event's position and time: one copy."""
    if row is None:
        row = StageStateRow(
            tenant_id=info.tenant_id,
            job_id=event.job_id,
            stage=event.stage,
            state="pending",
            attempts=0,
            max_attempts=MAX_ATTEMPTS[event.stage],
            started_at=None,
            finished_at=None,
            duration_ms=None,
            error_code=None,
            retryable=None,
            blocked_by_json="[]",
            skip_reason=None,
            next_action="run",
            owner_workflow_id=None,
            owner_run_id=None,
            owner_attempt=None,
            last_event_position=info.position,
            updated_at=None,
        )
    return msgspec.structs.replace(row, last_event_position=info.position, updated_at=info.at, **changes)


def on_started(row: StageStateRow | None, event: StageStarted, info: EventInfo) -> StageStateRow:
    meta = info.meta
    return _next(
        row,
        event,
        info,
        state="running",
        attempts=event.attempt_number,
        started_at=utc_or_none(event.started_at),
        finished_at=None,
        duration_ms=None,
        error_code=None,
        retryable=None,
        blocked_by_json="[]",
        skip_reason=None,
        next_action="await_result",
        owner_workflow_id=meta.workflow_id,
        owner_run_id=meta.run_id,
        owner_attempt=meta.attempt,
    )


def on_completed(row: StageStateRow | None, event: StageCompleted, info: EventInfo) -> StageStateRow:
    return _next(
        row,
        event,
        info,
        state="succeeded",
        finished_at=utc_or_none(event.finished_at),
        duration_ms=event.duration_ms,
        error_code=None,
        retryable=None,
        next_action="none",
    )


def on_failed(row: StageStateRow | None, event: StageFailed, info: EventInfo) -> StageStateRow:
    attempts = max(row.attempts if row is not None else 0, event.attempt_number)
    limit = MAX_ATTEMPTS[event.stage] if row is None else row.max_attempts
    budget_left = limit is None or attempts < limit
    return _next(
        row,
        event,
        info,
        state="failed",
        attempts=attempts,
        finished_at=info.at,
        error_code=event.error_code,
        retryable=event.retryable,
        next_action="retry" if event.retryable and budget_left else "reset_required",
    )


def on_exhausted(row: StageStateRow | None, event: StageExhausted, info: EventInfo) -> StageStateRow:
    return _next(
        row,
        event,
        info,
        state="exhausted",
        attempts=event.attempt_count,
        max_attempts=event.max_attempts,
        retryable=False,
        next_action="reset_required",
    )


def on_reset(row: StageStateRow | None, event: StageReset, info: EventInfo) -> StageStateRow:
    attempts = 0 if event.reset_attempts or row is None else row.attempts
    return _next(
        row,
        event,
        info,
        state="pending",
        attempts=attempts,
        max_attempts=MAX_ATTEMPTS[event.stage],
        finished_at=None,
        duration_ms=None,
        error_code=None,
        retryable=None,
        blocked_by_json="[]",
        skip_reason=None,
        next_action="run",
        owner_workflow_id=None,
        owner_run_id=None,
        owner_attempt=None,
    )


def on_blocked(row: StageStateRow | None, event: StageBlocked, info: EventInfo) -> StageStateRow:
    return _next(
        row,
        event,
        info,
        state="blocked",
        blocked_by_json=_encoder.encode(sorted(set(event.blocked_by))).decode(),
        next_action="await_upstream",
    )


def on_skipped(row: StageStateRow | None, event: StageSkipped, info: EventInfo) -> StageStateRow:
    return _next(
        row, event, info, state="skipped", skip_reason=bound_text(event.reason, 500), next_action="none"
    )


def on_canceled(row: StageStateRow | None, event: StageCanceled, info: EventInfo) -> StageStateRow:
    return _next(
        row,
        event,
        info,
        state="canceled",
        finished_at=utc_or_none(event.canceled_at),
        next_action="run",
        owner_workflow_id=None,
        owner_run_id=None,
        owner_attempt=None,
    )


PROJECTION = Projection(
    name="stage_states",
    tables=(STAGE_STATES,),
    folds=(
        Fold(StageStarted, STAGE_STATES, _key, on_started),
        Fold(StageCompleted, STAGE_STATES, _key, on_completed),
        Fold(StageFailed, STAGE_STATES, _key, on_failed),
        Fold(StageExhausted, STAGE_STATES, _key, on_exhausted),
        Fold(StageReset, STAGE_STATES, _key, on_reset),
        Fold(StageBlocked, STAGE_STATES, _key, on_blocked),
        Fold(StageSkipped, STAGE_STATES, _key, on_skipped),
        Fold(StageCanceled, STAGE_STATES, _key, on_canceled),
    ),
    creates_rows_on=frozenset(
        {
            "StageStarted",
            "StageCompleted",
            "StageFailed",
            "StageExhausted",
            "StageReset",
            "StageBlocked",
            "StageSkipped",
            "StageCanceled",
        }
    ),
)
