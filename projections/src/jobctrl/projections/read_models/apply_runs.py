"""``apply_run_projections``: one row per (tenant, apply run), folded from the Apply events.

The row carries no personal data: an email candidate is recorded only as a flag (never its
recipient, subject or body), a failure only as a bounded code taken from the result, and run events
only as a count plus the last event kind when it is a safe code.  The first terminal result of a
run wins (``ApplySubmissionBlocked`` — a human must act before any submission — is terminal too:
status ``manual``, with its reason as the result code); an intent
without a result is shown as ``needs_verification`` by the reader, not guessed.
``ApplicationIdentityClaimed`` stamps the run with the time its employer+role identity was reserved
and whether a repeat-application override was used (never the identity digest itself).
"""

from __future__ import annotations

import re
from typing import Any, Literal

import msgspec
import sqlalchemy as sa

from jobctrl.apply.events import (
    ApplicationFailed,
    ApplicationIdentityClaimed,
    ApplicationSubmitted,
    ApplyRunEventRecorded,
    ApplyRunStarted,
    ApplySubmissionBlocked,
    ApplySubmitIntended,
    EmailApplicationCandidateRecorded,
)
from jobctrl.kernel.text import bound_text
from jobctrl.projections.model import EventInfo, Fold, Projection, ReadModelTable
from jobctrl.projections.schema import metadata
from jobctrl.projections.times import utc_or_none

ApplyStatus = Literal["running", "succeeded", "failed", "manual"]
_SAFE_CODE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")

apply_run_projections = sa.Table(
    "apply_run_projections",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("run_id", sa.String(200), primary_key=True),
    sa.Column("job_id", sa.String(200), nullable=True),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("result_code", sa.String(64), nullable=True),
    sa.Column("dry_run", sa.Boolean, nullable=True),
    sa.Column("worker_id", sa.String(200), nullable=True),
    sa.Column("model", sa.String(200), nullable=True),
    sa.Column("submit_intended_at", sa.String(40), nullable=True),
    sa.Column("email_candidate", sa.Boolean, nullable=False),
    sa.Column("run_events", sa.Integer, nullable=False),
    sa.Column("last_event_kind", sa.String(64), nullable=True),
    sa.Column("started_at", sa.String(40), nullable=True),
    sa.Column("finished_at", sa.String(40), nullable=True),
    sa.Column("verification_confidence", sa.Float, nullable=True),
    sa.Column("identity_claimed_at", sa.String(40), nullable=True),
    sa.Column("repeat_override", sa.Boolean, nullable=True),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
)


class ApplyRunRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    run_id: str
    job_id: str | None
    status: ApplyStatus
    result_code: str | None
    dry_run: bool | None
    worker_id: str | None
    model: str | None
    submit_intended_at: str | None
    email_candidate: bool
    run_events: int
    last_event_kind: str | None
    started_at: str | None
    finished_at: str | None
    verification_confidence: float | None
    identity_claimed_at: str | None
    repeat_override: bool | None
    last_event_position: int
    updated_at: str | None


APPLY_RUNS = ReadModelTable(apply_run_projections, ApplyRunRow)


def safe_code(value: Any) -> str | None:
    return value if isinstance(value, str) and _SAFE_CODE.fullmatch(value) else None


def _key(event: Any, info: EventInfo) -> tuple[str, str]:
    return (info.tenant_id, event.run_id)


def _next(row: ApplyRunRow | None, event: Any, info: EventInfo, **changes: Any) -> ApplyRunRow:
    if row is None:
        row = APPLY_RUNS.blank(
            tenant_id=info.tenant_id,
            run_id=event.run_id,
            job_id=getattr(event, "job_id", None),
            status="running",
            email_candidate=False,
            run_events=0,
            last_event_position=info.position,
        )
    return msgspec.structs.replace(row, last_event_position=info.position, updated_at=info.at, **changes)


def on_started(row: ApplyRunRow | None, event: ApplyRunStarted, info: EventInfo) -> ApplyRunRow:
    if row is not None and row.started_at is not None:
        return row
    return _next(
        row,
        event,
        info,
        job_id=event.job_id,
        dry_run=event.dry_run,
        worker_id=bound_text(event.worker_id, 200),
        model=bound_text(event.model, 200),
        started_at=utc_or_none(event.started_at),
    )


def on_intended(row: ApplyRunRow | None, event: ApplySubmitIntended, info: EventInfo) -> ApplyRunRow:
    if row is not None and row.submit_intended_at is not None:
        return row
    return _next(row, event, info, submit_intended_at=utc_or_none(event.intended_at))


def on_run_event(row: ApplyRunRow | None, event: ApplyRunEventRecorded, info: EventInfo) -> ApplyRunRow:
    count = row.run_events if row is not None else 0
    return _next(row, event, info, run_events=count + 1, last_event_kind=safe_code(event.event.get("kind")))


def on_email_candidate(
    row: ApplyRunRow | None, event: EmailApplicationCandidateRecorded, info: EventInfo
) -> ApplyRunRow:
    return _next(row, event, info, email_candidate=True)


def on_submitted(row: ApplyRunRow | None, event: ApplicationSubmitted, info: EventInfo) -> ApplyRunRow:
    if row is not None and row.status != "running":
        return row  # the first terminal result wins
    return _next(
        row,
        event,
        info,
        status="succeeded",
        result_code="submitted",
        finished_at=utc_or_none(event.applied_at),
        verification_confidence=event.verification_confidence,
    )


def on_failed(row: ApplyRunRow | None, event: ApplicationFailed, info: EventInfo) -> ApplyRunRow:
    if row is not None and row.status != "running":
        return row
    code = safe_code(event.result.get("code")) or safe_code(event.result.get("reason")) or "unclassified"
    return _next(row, event, info, status="failed", result_code=code, finished_at=info.at)


def on_blocked(row: ApplyRunRow | None, event: ApplySubmissionBlocked, info: EventInfo) -> ApplyRunRow:
    if row is not None and row.status != "running":
        return row
    return _next(
        row,
        event,
        info,
        status="manual",
        result_code=event.reason,
        finished_at=utc_or_none(event.blocked_at),
    )


def on_identity_claimed(
    row: ApplyRunRow | None, event: ApplicationIdentityClaimed, info: EventInfo
) -> ApplyRunRow:
    if row is not None and row.identity_claimed_at is not None:
        return row  # one claim per run
    return _next(
        row,
        event,
        info,
        identity_claimed_at=utc_or_none(event.claimed_at),
        repeat_override=event.override_id is not None,
    )


PROJECTION = Projection(
    name="apply_runs",
    tables=(APPLY_RUNS,),
    folds=(
        Fold(ApplyRunStarted, APPLY_RUNS, _key, on_started),
        Fold(ApplySubmitIntended, APPLY_RUNS, _key, on_intended),
        Fold(ApplyRunEventRecorded, APPLY_RUNS, _key, on_run_event),
        Fold(EmailApplicationCandidateRecorded, APPLY_RUNS, _key, on_email_candidate),
        Fold(ApplicationSubmitted, APPLY_RUNS, _key, on_submitted),
        Fold(ApplicationFailed, APPLY_RUNS, _key, on_failed),
        Fold(ApplySubmissionBlocked, APPLY_RUNS, _key, on_blocked),
        Fold(ApplicationIdentityClaimed, APPLY_RUNS, _key, on_identity_claimed),
    ),
    creates_rows_on=frozenset(
        {
            "ApplyRunStarted",
            "ApplySubmitIntended",
            "ApplicationSubmitted",
            "ApplicationFailed",
            "ApplySubmissionBlocked",
            "ApplicationIdentityClaimed",
        }
    ),
)
