"""``workflow_run_projections``: one row per (tenant, workflow id), the latest run of that workflow.

Fold rules (runtime reference §1.5, operations spec "Projection Recovery"):
* ``WorkflowStarted`` opens the row; a start of a *new* run id reopens it (the old run id is kept in
  ``previous_run_ids`` so a late event of that older run is recognised and ignored).
* The first terminal event of the current run wins; later terminal events change nothing.
* ``reconciled_not_found`` is a provisional verdict: only a marked recovery start of that exact run
  (``recoveredFromMissingHistory``) reopens the row; the false terminal stays in the timeline.
* The timeline keeps the last ``TIMELINE_LIMIT`` lifecycle entries plus an exact total.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import msgspec
import sqlalchemy as sa

from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.text import bound_text
from jobctrl.orchestration.events import (
    CLOSING_STATUS,
    RUN_ROW_EVENTS,
    WorkflowCancellationRequested,
    WorkflowClosed,
    WorkflowStarted,
)
from jobctrl.projections.model import EventInfo, Fold, Projection, ReadModelTable
from jobctrl.projections.schema import metadata
from jobctrl.projections.times import utc_or_none

RunStatus = Literal["in_progress", "succeeded", "failed", "canceled", "timed_out", "terminated"]
TIMELINE_LIMIT = 50
PREVIOUS_RUNS_LIMIT = 20
INPUT_SUMMARY_LIMIT = 2000
RECONCILED_NOT_FOUND = "reconciled_not_found"

workflow_run_projections = sa.Table(
    "workflow_run_projections",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("workflow_id", sa.String(200), primary_key=True),
    sa.Column("workflow_type", sa.String(100), nullable=False),
    sa.Column("run_id", sa.String(200), nullable=True),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("started_at", sa.String(40), nullable=True),
    sa.Column("finished_at", sa.String(40), nullable=True),
    sa.Column("error_code", sa.String(80), nullable=True),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("duration_ms", sa.BigInteger, nullable=True),
    sa.Column("error_message", sa.String(500), nullable=True),
    sa.Column("retryable", sa.Boolean, nullable=True),
    sa.Column("cancel_requested_at", sa.String(40), nullable=True),
    sa.Column("recovered", sa.Boolean, nullable=False),
    sa.Column("input_summary_json", sa.Text, nullable=False),
    sa.Column("previous_run_ids_json", sa.Text, nullable=False),
    sa.Column("timeline_json", sa.Text, nullable=False),
    sa.Column("timeline_total", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
    # Who asked for the cancel (the request's ``requestedBy``), beside when (p0010).
    sa.Column("cancel_requested_by", sa.String(80), nullable=True),
)


class WorkflowRunRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    workflow_id: str
    workflow_type: str
    run_id: str | None
    status: RunStatus
    started_at: str | None
    finished_at: str | None
    error_code: str | None
    last_event_position: int
    duration_ms: int | None
    error_message: str | None
    retryable: bool | None
    cancel_requested_at: str | None
    recovered: bool
    input_summary_json: str
    previous_run_ids_json: str
    timeline_json: str
    timeline_total: int
    updated_at: str | None
    cancel_requested_by: str | None = None  # a (re)started run has no cancel request yet

    @property
    def is_terminal(self) -> bool:
        return self.status != "in_progress"


class TimelineEntry(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    kind: Literal["started", "recovered", "reopened", "cancel_requested", "closed"]
    position: int
    run_id: str | None = None
    status: str | None = None
    at: str | None = None
    error_code: str | None = None


WORKFLOW_RUNS = ReadModelTable(workflow_run_projections, WorkflowRunRow)
_timeline_decoder = msgspec.json.Decoder(list[TimelineEntry])
_runs_decoder = msgspec.json.Decoder(list[str])
_encoder = msgspec.json.Encoder(order="sorted")


def _key(event: Any, info: EventInfo) -> tuple[str, str]:
    return (info.tenant_id, event.workflow_id)


def _first(event: Any, info: EventInfo, entry: TimelineEntry, **values: Any) -> WorkflowRunRow:
    """The row a workflow's first lifecycle event opens: its timeline holds that event's entry."""
    return WORKFLOW_RUNS.blank(
        tenant_id=info.tenant_id,
        workflow_id=event.workflow_id,
        workflow_type=event.workflow_type,
        run_id=entry.run_id,
        recovered=False,
        previous_run_ids_json="[]",
        timeline_json=_encoder.encode([entry]).decode(),
        timeline_total=1,
        last_event_position=info.position,
        updated_at=info.at,
        **values,
    )


def _with_entry(row: WorkflowRunRow, info: EventInfo, entry: TimelineEntry, **changes: Any) -> WorkflowRunRow:
    """``row`` with ``changes``, ``entry`` appended to its bounded timeline, and the event's stamp."""
    timeline = _timeline_decoder.decode(row.timeline_json)
    timeline.append(entry)
    return msgspec.structs.replace(
        row,
        **changes,
        last_event_position=info.position,
        timeline_json=_encoder.encode(timeline[-TIMELINE_LIMIT:]).decode(),
        timeline_total=row.timeline_total + 1,
        updated_at=info.at,
    )


# What a run (re)opened by a start no longer has: the outcome of the run before.
_REOPENED: dict[str, Any] = {
    "status": "in_progress",
    "finished_at": None,
    "error_code": None,
    "error_message": None,
    "retryable": None,
    "duration_ms": None,
}


def _input_summary(summary: dict[str, Any]) -> str:
    encoded = _encoder.encode(summary).decode()
    # Bounded: an oversized summary is replaced by an explicit marker, never cut mid-JSON.
    return encoded if len(encoded) <= INPUT_SUMMARY_LIMIT else '{"truncated":true}'


def on_started(row: WorkflowRunRow | None, event: WorkflowStarted, info: EventInfo) -> WorkflowRunRow | None:
    at = utc_or_none(event.started_at)
    run_id = event.temporal_run_id
    if row is None:
        entry = TimelineEntry(kind="started", position=info.position, run_id=run_id, at=at)
        return _first(
            event,
            info,
            entry,
            status="in_progress",
            started_at=at,
            input_summary_json=_input_summary(event.input_summary),
        )
    previous = _runs_decoder.decode(row.previous_run_ids_json)
    if run_id is not None and run_id in previous:
        return row  # a late start of a run this workflow has already moved past
    same_run = run_id is None or row.run_id is None or run_id == row.run_id
    if same_run and not row.is_terminal:
        # A second marker of the open run (dispatch-time row, then the worker's own): fill gaps only.
        if row.run_id is not None and row.started_at is not None:
            return row
        return msgspec.structs.replace(
            row,
            run_id=row.run_id or run_id,
            started_at=row.started_at or at,
            last_event_position=info.position,
            updated_at=info.at,
        )
    if same_run and run_id is not None and row.is_terminal:
        if not (event.recovered_from_missing_history and row.error_code == RECONCILED_NOT_FOUND):
            return row  # the first terminal of a run wins; only a marked recovery may reopen it
        entry = TimelineEntry(kind="recovered", position=info.position, run_id=run_id, at=at)
        return _with_entry(row, info, entry, **_REOPENED, recovered=True)
    # A new run of the same workflow id reopens the row.
    if row.run_id is not None:
        previous = [*previous, row.run_id][-PREVIOUS_RUNS_LIMIT:]
    return _with_entry(
        row,
        info,
        TimelineEntry(kind="reopened", position=info.position, run_id=run_id, at=at),
        **_REOPENED,
        workflow_type=event.workflow_type,
        run_id=run_id,
        started_at=at,
        cancel_requested_at=None,
        recovered=False,
        input_summary_json=_input_summary(event.input_summary),
        previous_run_ids_json=_encoder.encode(previous).decode(),
    )


def on_cancel_requested(
    row: WorkflowRunRow | None, event: WorkflowCancellationRequested, info: EventInfo
) -> WorkflowRunRow | None:
    if row is None or row.is_terminal or row.cancel_requested_at is not None:
        return row
    if event.temporal_run_id is not None and row.run_id is not None and event.temporal_run_id != row.run_id:
        return row  # aimed at another run: a cancel is scoped to its run
    at = utc_or_none(event.requested_at)
    return _with_entry(
        row,
        info,
        TimelineEntry(kind="cancel_requested", position=info.position, run_id=row.run_id, at=at),
        cancel_requested_at=at or info.at,
        cancel_requested_by=bound_text(event.requested_by, 80) or None,
    )


def closer(status: RunStatus) -> Any:
    def on_closed(
        row: WorkflowRunRow | None, event: WorkflowClosed, info: EventInfo
    ) -> WorkflowRunRow | None:
        run_id = event.temporal_run_id
        at = utc_or_none(event.finished_at)
        error_code = getattr(event, "error_code", None)
        message = getattr(event, "error_message", None)
        entry = TimelineEntry(
            kind="closed", position=info.position, run_id=run_id, status=status, at=at, error_code=error_code
        )
        outcome = {
            "status": status,
            "finished_at": at,
            "duration_ms": event.duration_ms,
            "error_code": error_code,
            "error_message": bound_text(message, 500) if message else None,
            "retryable": getattr(event, "retryable", None),
        }
        if row is None:  # the start marker never arrived; the run still shows, closed
            return _first(event, info, entry, input_summary_json="{}", **outcome)
        if row.is_terminal:
            return row  # first terminal wins
        if run_id is not None and row.run_id is not None and run_id != row.run_id:
            return row  # a terminal event of an older (or unknown) run never closes the current one
        return _with_entry(row, info, entry, run_id=row.run_id or run_id, **outcome)

    return on_closed


Apply = Callable[[WorkflowRunRow | None, Any, EventInfo], WorkflowRunRow | None]

# The lifecycle rules, event by event: the latest-run table folds them, and so does the per-run
# history (``workflow_run_history``).
LIFECYCLE: tuple[tuple[type[DomainEvent], Apply], ...] = (
    (WorkflowStarted, on_started),
    (WorkflowCancellationRequested, on_cancel_requested),
    *((event, closer(status)) for event, status in CLOSING_STATUS.items()),
)
CREATES_ROWS_ON = frozenset(e.event_type for e in RUN_ROW_EVENTS)

PROJECTION = Projection(
    name="workflow_runs",
    tables=(WORKFLOW_RUNS,),
    folds=tuple(Fold(event, WORKFLOW_RUNS, _key, apply) for event, apply in LIFECYCLE),
    creates_rows_on=CREATES_ROWS_ON,
)
