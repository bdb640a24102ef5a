"""The ``apply_run_projections`` fold: one row per apply run, a pure function of apply events.

The projection runner (``jobctrl.projections``) owns the table, the watermark and rebuilds; this module
owns the meaning of apply events for the read model, so the rule lives beside the events.  Rows carry
no email addresses, subjects or bodies (only event kinds and codes).  The first terminal result of a
run wins, except that a run needing verification is settled by the user's resolution.
``job_title``/``job_employer`` are not apply facts; the runner fills them from job read models.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

import msgspec

from jobctrl.apply.events import (
    ApplicationFailed,
    ApplicationSubmitted,
    ApplyRunEventRecorded,
    ApplyRunStarted,
    ApplySubmissionBlocked,
    ApplySubmitIntended,
    EmailApplicationCandidateRecorded,
)
from jobctrl.apply.run_events import (
    DryRunCompleted,
    ManualCompletionPrepared,
    decode_failure,
    decode_run_event,
)
from jobctrl.kernel.events import DomainEvent

RUN_EVENTS: tuple[type[DomainEvent], ...] = (
    ApplyRunStarted,
    ApplySubmitIntended,
    ApplyRunEventRecorded,
    EmailApplicationCandidateRecorded,
    ApplicationSubmitted,
    ApplicationFailed,
    ApplySubmissionBlocked,
)
RowStatus = Literal["running", "dry_run_completed", "succeeded", "failed", "manual", "needs_verification"]
_TERMINAL: frozenset[RowStatus] = frozenset({"succeeded", "failed", "manual", "dry_run_completed"})


class TimelineEntry(msgspec.Struct, frozen=True, rename="camel"):
    event_type: str
    occurred_at: str
    code: str | None = None


class ApplyRunRow(msgspec.Struct, kw_only=True, rename="camel"):
    run_id: str
    tenant_id: str
    job_id: str
    job_title: str | None = None
    job_employer: str | None = None
    status: RowStatus = "running"
    result: str | None = None
    dry_run: bool
    worker_id: str
    model: str
    started_at: str
    finished_at: str | None = None
    duration_ms: int | None = None
    events: list[TimelineEntry] = msgspec.field(default_factory=list)


def _ms_between(start: str, end: str) -> int | None:
    try:
        delta = datetime.fromisoformat(end.replace("Z", "+00:00")) - datetime.fromisoformat(
            start.replace("Z", "+00:00")
        )
    except ValueError:
        return None
    return max(0, int(delta.total_seconds() * 1000))


def _finish(
    row: ApplyRunRow, status: RowStatus, result: str, at: str, *, settles_verification: bool = False
) -> None:
    if row.status in _TERMINAL or (row.status == "needs_verification" and not settles_verification):
        return  # the first terminal result wins
    row.status = status
    row.result = result
    row.finished_at = at
    row.duration_ms = _ms_between(row.started_at, at)


def fold(rows: dict[str, ApplyRunRow], event: DomainEvent, *, tenant_id: str, occurred_at: str) -> None:
    """Apply one event to ``rows`` (keyed by run id).  Events of unknown runs are ignored."""
    if isinstance(event, ApplyRunStarted):
        rows.setdefault(
            event.run_id,
            ApplyRunRow(
                run_id=event.run_id,
                tenant_id=tenant_id,
                job_id=event.job_id,
                dry_run=event.dry_run,
                worker_id=event.worker_id,
                model=event.model,
                started_at=event.started_at,
                events=[TimelineEntry(event.event_type, occurred_at)],
            ),
        )
        return
    run_id = getattr(event, "run_id", None)
    row = rows.get(run_id) if isinstance(run_id, str) else None
    if row is None or not isinstance(event, RUN_EVENTS):
        return
    code: str | None = None
    if isinstance(event, ApplyRunEventRecorded):
        body = decode_run_event(event.event)
        if isinstance(body, DryRunCompleted):
            code = f"coverage_{body.coverage}"
            _finish(row, "dry_run_completed", code, occurred_at)
        elif isinstance(body, ManualCompletionPrepared):
            code = "needs_manual_completion"
        else:
            code = body.code
            if row.status == "running":
                row.status = "needs_verification"
                row.result = body.cause
    elif isinstance(event, ApplicationSubmitted):
        _finish(row, "succeeded", "applied", occurred_at, settles_verification=True)
    elif isinstance(event, ApplicationFailed):
        code = decode_failure(event.result).code
        _finish(row, "failed", code, occurred_at, settles_verification=True)
    elif isinstance(event, ApplySubmissionBlocked):
        code = event.reason
        _finish(row, "manual", event.reason, occurred_at)
    row.events.append(TimelineEntry(event.event_type, occurred_at, code))


def events_json(row: ApplyRunRow) -> str:
    return msgspec.json.encode(row.events).decode()
