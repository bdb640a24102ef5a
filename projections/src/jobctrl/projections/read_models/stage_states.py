"""``job_stage_states``: one row per (tenant, job, stage), a pure fold of ALL typed ``Stage*`` events.

The JobStages aggregate (orchestration) enforces which transitions are legal; this fold only records
what the events say, in log order, with the same values the aggregate's own fold
(``jobctrl.orchestration.domain.stages.fold``) derives — a property test folds random valid histories both
ways and compares.  Attempt counting follows the transition table: a reset from Failed keeps the count
unless ``resetAttempts``; a reset from Exhausted, Canceled or Stale starts again at zero; an unblock
restores the count carried by the event.

The owner of a running stage is the ``owner`` of its v2 ``StageStarted`` payload; v1 events (no owner
in the payload) fall back to the workflow id / run id / attempt of the event metadata (durability
pattern 4: every running write carries its owner).

``job_stage_counts`` (its table in ``stage_counts``) holds the number of rows per (tenant, stage,
state), kept by the engine in the same write as the rows (a ``GroupCount``, ADR 0345), so the
operations snapshot's totals read a few rows instead of grouping every stage row.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
import sqlalchemy as sa

from jobctrl.kernel.text import bound_text
from jobctrl.orchestration.domain.stages.limits import MAX_ATTEMPTS
from jobctrl.orchestration.events import Stage
from jobctrl.orchestration.events import stages as ev
from jobctrl.projections.model import EventInfo, Fold, GroupCount, Projection, ReadModelTable
from jobctrl.projections.read_models.stage_counts import STAGE_COUNTS
from jobctrl.projections.schema import metadata
from jobctrl.projections.times import utc_or_none

StageStateName = Literal[
    "pending",
    "queued",
    "running",
    "succeeded",
    "failed",
    "exhausted",
    "blocked",
    "skipped",
    "stale",
    "canceled",
]
# What the pipeline should do next with the row (derived here; the aggregate keeps no such column).
NextAction = Literal[
    "run", "await_start", "await_result", "retry", "reset_required", "await_upstream", "none"
]

job_stage_states = sa.Table(
    "job_stage_states",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("job_id", sa.String(200), primary_key=True),
    sa.Column("stage", sa.String(20), primary_key=True),
    sa.Column("state", sa.String(20), nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("max_attempts", sa.Integer, nullable=True),
    sa.Column("queued_at", sa.String(40), nullable=True),
    sa.Column("started_at", sa.String(40), nullable=True),
    sa.Column("finished_at", sa.String(40), nullable=True),
    sa.Column("duration_ms", sa.BigInteger, nullable=True),
    sa.Column("error_code", sa.String(80), nullable=True),
    sa.Column("error_message", sa.String(500), nullable=True),
    sa.Column("retryable", sa.Boolean, nullable=True),
    sa.Column("blocked_by_json", sa.Text, nullable=False),
    sa.Column("reason", sa.String(500), nullable=True),
    sa.Column("next_action", sa.String(20), nullable=False),
    sa.Column("owner_workflow_id", sa.String(200), nullable=True),
    sa.Column("owner_run_id", sa.String(200), nullable=True),
    sa.Column("owner_attempt", sa.Integer, nullable=True),
    sa.Column("baseline_version", sa.Integer, nullable=True),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
)


class StageStateRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    job_id: str
    stage: Stage
    state: StageStateName
    attempts: int
    max_attempts: int | None
    queued_at: str | None
    started_at: str | None
    finished_at: str | None  # also the cancel time of a canceled row
    duration_ms: int | None
    error_code: str | None  # failed / exhausted / blocked rows
    error_message: str | None
    retryable: bool | None
    blocked_by_json: str  # JSON list, in the event's order
    reason: str | None  # the reason of a skipped, stale or canceled row
    next_action: NextAction
    owner_workflow_id: str | None
    owner_run_id: str | None
    owner_attempt: int | None
    baseline_version: int | None
    last_event_position: int
    updated_at: str | None


STAGE_STATES = ReadModelTable(job_stage_states, StageStateRow)


def _stage_group(row: StageStateRow) -> tuple[str, str, str]:
    return (row.tenant_id, row.stage, row.state)


STAGE_GROUPS = GroupCount(STAGE_STATES.name, STAGE_COUNTS, _stage_group)
_encoder = msgspec.json.Encoder()


def _key(event: Any, info: EventInfo) -> tuple[str, str, str]:
    return (info.tenant_id, event.job_id, event.stage)


def _limit(stage: Stage) -> int:
    return MAX_ATTEMPTS[stage]


# A new row before its first event: ``blank``'s row (ADR 0330), made once; each new row replaces only
# the columns its event names (ADR 0416).
_PENDING = STAGE_STATES.blank(
    tenant_id="",
    job_id="",
    stage="discover",
    state="pending",
    attempts=0,
    max_attempts=_limit("discover"),
    blocked_by_json="[]",
    next_action="run",
    last_event_position=0,
)


def _fresh(event: Any, info: EventInfo) -> StageStateRow:
    stage = event.stage
    return msgspec.structs.replace(
        _PENDING,
        tenant_id=info.tenant_id,
        job_id=event.job_id,
        stage=stage,
        max_attempts=_limit(stage),
        last_event_position=info.position,
    )


def _moved(
    row: StageStateRow,
    info: EventInfo,
    state: StageStateName,
    next_action: NextAction,
    attempts: int,
    max_attempts: int | None,
    started_at: str | None,
    owner: StageStateRow,
    queued_at: str | None = None,
    finished_at: str | None = None,
    duration_ms: int | None = None,
    error_code: str | None = None,
    error_message: str | None = None,
    retryable: bool | None = None,
    blocked_by_json: str = "[]",
    reason: str | None = None,
) -> StageStateRow:
    """``row`` moved to ``state`` at the event's position and time, built positionally (ADR 0352):
    the columns that belong to one state only (``queued_at`` … ``reason``) are the given ones or
    cleared, and the owner's columns are ``owner``'s (``row`` to keep them, ``_UNOWNED`` to clear)."""
    return StageStateRow(
        row.tenant_id,
        row.job_id,
        row.stage,
        state,
        attempts,
        max_attempts,
        queued_at,
        started_at,
        finished_at,
        duration_ms,
        error_code,
        error_message,
        retryable,
        blocked_by_json,
        reason,
        next_action,
        owner.owner_workflow_id,
        owner.owner_run_id,
        owner.owner_attempt,
        owner.baseline_version,
        info.position,
        info.at,
    )


# The owner's columns of a row that leaves its owner behind (pending, canceled).
_UNOWNED = StageStateRow(
    "", "", "discover", "pending", 0, None, *(None,) * 7, "[]", None, "run", *(None,) * 4, 0, None
)


def _pending(row: StageStateRow | None, event: Any, info: EventInfo, attempts: int) -> StageStateRow:
    r = _fresh(event, info) if row is None else row
    return _moved(r, info, "pending", "run", attempts, _limit(event.stage), None, _UNOWNED)


def on_enqueued(row: StageStateRow | None, event: ev.StageEnqueued, info: EventInfo) -> StageStateRow:
    r = _fresh(event, info) if row is None else row
    queued_at = utc_or_none(event.queued_at)
    return _moved(r, info, "queued", "await_start", r.attempts, r.max_attempts, r.started_at, r, queued_at)


def on_started(row: StageStateRow | None, event: ev.StageStarted, info: EventInfo) -> StageStateRow:
    r = _fresh(event, info) if row is None else row
    owner = event.owner
    workflow_id: str | None
    run_id: str | None
    attempt: int | None
    if owner is not None:
        workflow_id, run_id, attempt = owner.workflow_id, owner.temporal_run_id, owner.attempt
    else:  # a v1 event: the owner is only in the metadata
        meta = info.meta
        workflow_id, run_id, attempt = meta.workflow_id, meta.run_id, meta.attempt
    return StageStateRow(
        r.tenant_id,
        r.job_id,
        r.stage,
        "running",
        event.attempt_number,
        r.max_attempts,
        None,
        utc_or_none(event.started_at),
        None,
        None,
        None,
        None,
        None,
        "[]",
        None,
        "await_result",
        workflow_id,
        run_id,
        attempt,
        event.baseline_version,
        info.position,
        info.at,
    )


def on_completed(row: StageStateRow | None, event: ev.StageCompleted, info: EventInfo) -> StageStateRow:
    r = _fresh(event, info) if row is None else row
    finished_at = utc_or_none(event.finished_at)
    return _moved(
        r,
        info,
        "succeeded",
        "none",
        r.attempts,
        r.max_attempts,
        r.started_at,
        r,
        finished_at=finished_at,
        duration_ms=event.duration_ms,
    )


def on_failed(row: StageStateRow | None, event: ev.StageFailed, info: EventInfo) -> StageStateRow:
    r = _fresh(event, info) if row is None else row
    attempts = max(row.attempts if row is not None else 0, event.attempt_number)
    limit = _limit(event.stage)
    next_action: NextAction = "retry" if event.retryable and attempts < limit else "reset_required"
    return _moved(
        r,
        info,
        "failed",
        next_action,
        attempts,
        limit,
        r.started_at,
        r,
        finished_at=info.at,
        error_code=event.error_code,
        error_message=event.error_message,
        retryable=event.retryable,
    )


def on_exhausted(row: StageStateRow | None, event: ev.StageExhausted, info: EventInfo) -> StageStateRow:
    # Nothing is cleared: the failure's code and message stay on the row (as on the aggregate's Exhausted).
    r = _fresh(event, info) if row is None else row
    return _moved(
        r,
        info,
        "exhausted",
        "reset_required",
        event.attempt_count,
        event.max_attempts,
        r.started_at,
        r,
        r.queued_at,
        r.finished_at,
        r.duration_ms,
        r.error_code,
        r.error_message,
        False,
        r.blocked_by_json,
        r.reason,
    )


def on_reset(row: StageStateRow | None, event: ev.StageReset, info: EventInfo) -> StageStateRow:
    # Only Failed -> Pending may keep its count; Exhausted/Canceled/Stale -> Pending start at zero.
    keep = row is not None and row.state == "failed" and not event.reset_attempts
    return _pending(row, event, info, row.attempts if keep and row is not None else 0)


def on_blocked(row: StageStateRow | None, event: ev.StageBlocked, info: EventInfo) -> StageStateRow:
    r = _fresh(event, info) if row is None else row
    return _moved(
        r,
        info,
        "blocked",
        "await_upstream",
        r.attempts,
        r.max_attempts,
        r.started_at,
        r,
        error_code=event.error_code,
        error_message=event.error_message,
        blocked_by_json=_encoder.encode(list(event.blocked_by)).decode(),
    )


def on_unblocked(row: StageStateRow | None, event: ev.StageUnblocked, info: EventInfo) -> StageStateRow:
    return _pending(row, event, info, event.attempt_count)


def on_skipped(row: StageStateRow | None, event: ev.StageSkipped, info: EventInfo) -> StageStateRow:
    r = _fresh(event, info) if row is None else row
    reason = bound_text(event.reason, 500)
    return _moved(r, info, "skipped", "none", r.attempts, r.max_attempts, r.started_at, r, reason=reason)


def on_canceled(row: StageStateRow | None, event: ev.StageCanceled, info: EventInfo) -> StageStateRow:
    r = _fresh(event, info) if row is None else row
    reason = None if event.reason is None else bound_text(event.reason, 500)
    finished_at = utc_or_none(event.canceled_at)
    return _moved(
        r,
        info,
        "canceled",
        "reset_required",
        r.attempts,
        r.max_attempts,
        r.started_at,
        _UNOWNED,
        finished_at=finished_at,
        reason=reason,
    )


def on_marked_stale(row: StageStateRow | None, event: ev.StageMarkedStale, info: EventInfo) -> StageStateRow:
    r = _fresh(event, info) if row is None else row
    return _moved(
        r, info, "stale", "reset_required", r.attempts, r.max_attempts, r.started_at, r, reason=event.reason
    )


_FOLDS = (
    Fold(ev.StageEnqueued, STAGE_STATES, _key, on_enqueued),
    Fold(ev.StageStarted, STAGE_STATES, _key, on_started),
    Fold(ev.StageCompleted, STAGE_STATES, _key, on_completed),
    Fold(ev.StageFailed, STAGE_STATES, _key, on_failed),
    Fold(ev.StageExhausted, STAGE_STATES, _key, on_exhausted),
    Fold(ev.StageReset, STAGE_STATES, _key, on_reset),
    Fold(ev.StageBlocked, STAGE_STATES, _key, on_blocked),
    Fold(ev.StageUnblocked, STAGE_STATES, _key, on_unblocked),
    Fold(ev.StageSkipped, STAGE_STATES, _key, on_skipped),
    Fold(ev.StageCanceled, STAGE_STATES, _key, on_canceled),
    Fold(ev.StageMarkedStale, STAGE_STATES, _key, on_marked_stale),
)

PROJECTION = Projection(
    name="stage_states",
    tables=(STAGE_STATES, STAGE_COUNTS),
    folds=_FOLDS,
    creates_rows_on=frozenset(f.event.event_type for f in _FOLDS),
    group_counts=(STAGE_GROUPS,),
)
