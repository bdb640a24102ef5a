"""``contact_projections`` and ``contact_research_task_projections``.

Contact rows carry only what the list needs and no personal values (the events carry none either):
employer, job, role, attribute counts.  ``ContactDeleted`` removes the row, so a rebuild after an
erasure holds no trace of the person.  Research tasks follow started → needs review → completed or
failed; a terminal task is never reopened by a late report.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
import sqlalchemy as sa

from jobctrl.contact.events import (
    ContactAttributeRecorded,
    ContactCandidateProposed,
    ContactCandidateRejected,
    ContactCreated,
    ContactDeleted,
    ContactResearchSourceAttempted,
    ContactResearchTaskCompleted,
    ContactResearchTaskFailed,
    ContactResearchTaskNeedsReview,
    ContactResearchTaskStarted,
    ContactUpdated,
    WarmIntroIdentified,
)
from jobctrl.kernel.text import bound_text, bounded_code
from jobctrl.projections.model import DELETED, EventInfo, Fold, Projection, ReadModelTable
from jobctrl.projections.schema import metadata
from jobctrl.projections.times import utc_or_none

TaskStatus = Literal["running", "needs_review", "completed", "failed"]

contact_projections = sa.Table(
    "contact_projections",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("contact_id", sa.String(200), primary_key=True),
    sa.Column("employer", sa.String(200), nullable=True),
    sa.Column("job_id", sa.String(200), nullable=True),
    sa.Column("role", sa.String(40), nullable=False),
    sa.Column("attributes", sa.Integer, nullable=False),
    sa.Column("confirmed_attributes", sa.Integer, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=True),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
    # WarmIntroIdentified (ADR 0275, p0011): how many warm paths to this contact, the latest's basis
    sa.Column("warm_intros", sa.Integer, nullable=False, server_default="0"),
    sa.Column("last_warm_intro_basis", sa.String(64), nullable=True),
    sa.Column("last_warm_intro_at", sa.String(40), nullable=True),
)

contact_research_task_projections = sa.Table(
    "contact_research_task_projections",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("task_id", sa.String(200), primary_key=True),
    sa.Column("employer", sa.String(200), nullable=True),
    sa.Column("job_id", sa.String(200), nullable=True),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("candidates", sa.Integer, nullable=False),
    sa.Column("confirmed", sa.Integer, nullable=True),
    sa.Column("error_class", sa.String(80), nullable=True),
    sa.Column("retryable", sa.Boolean, nullable=True),
    sa.Column("sources_attempted", sa.Integer, nullable=False),
    sa.Column("sources_refused", sa.Integer, nullable=False),
    sa.Column("started_at", sa.String(40), nullable=True),
    sa.Column("finished_at", sa.String(40), nullable=True),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
)


class ContactRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    contact_id: str
    employer: str | None
    job_id: str | None
    role: str
    attributes: int
    confirmed_attributes: int
    created_at: str | None
    last_event_position: int
    updated_at: str | None
    warm_intros: int = 0
    last_warm_intro_basis: str | None = None
    last_warm_intro_at: str | None = None


class ResearchTaskRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    task_id: str
    employer: str | None
    job_id: str | None
    status: TaskStatus
    candidates: int
    confirmed: int | None
    error_class: str | None
    retryable: bool | None
    sources_attempted: int
    sources_refused: int  # robots, rate limit, budget, manual capture or rejected: not read
    started_at: str | None
    finished_at: str | None
    last_event_position: int
    updated_at: str | None


_READ_OUTCOMES = frozenset({"allowed", "no_candidates"})  # the source was fetched and read

CONTACTS = ReadModelTable(contact_projections, ContactRow)
TASKS = ReadModelTable(contact_research_task_projections, ResearchTaskRow)


def _contact_key(event: Any, info: EventInfo) -> tuple[str, str]:
    return (info.tenant_id, event.contact_id)


def _task_key(event: Any, info: EventInfo) -> tuple[str, str]:
    return (info.tenant_id, event.task_id)


def _stamp(info: EventInfo) -> dict[str, Any]:
    return {"last_event_position": info.position, "updated_at": info.at}


def on_contact_created(row: ContactRow | None, event: ContactCreated, info: EventInfo) -> ContactRow:
    if row is not None:
        return row
    return ContactRow(
        tenant_id=info.tenant_id,
        contact_id=event.contact_id,
        employer=bound_text(event.employer, 200) if event.employer else None,
        job_id=event.job_id,
        role=event.role,
        attributes=0,
        confirmed_attributes=0,
        created_at=utc_or_none(event.created_at),
        **_stamp(info),
    )


def on_contact_updated(row: ContactRow | None, event: ContactUpdated, info: EventInfo) -> ContactRow | None:
    return None if row is None else msgspec.structs.replace(row, **_stamp(info))


def on_attribute(
    row: ContactRow | None, event: ContactAttributeRecorded, info: EventInfo
) -> ContactRow | None:
    if row is None:
        return row
    return msgspec.structs.replace(
        row,
        attributes=row.attributes + 1,
        confirmed_attributes=row.confirmed_attributes + (1 if event.user_confirmed else 0),
        **_stamp(info),
    )


def on_warm_intro(row: ContactRow | None, event: WarmIntroIdentified, info: EventInfo) -> ContactRow | None:
    if row is None:
        return row  # a deleted (or unknown) contact keeps no trace
    return msgspec.structs.replace(
        row, warm_intros=row.warm_intros + 1,
        last_warm_intro_basis=bounded_code(event.match_basis, fallback="other"),
        last_warm_intro_at=utc_or_none(event.identified_at), **_stamp(info),
    )  # fmt: skip


def on_contact_deleted(row: ContactRow | None, event: ContactDeleted, info: EventInfo) -> Any:
    return DELETED  # erasure: no row, and a rebuild after the key is forgotten recreates none


def _task(row: ResearchTaskRow | None, event: Any, info: EventInfo, **changes: Any) -> ResearchTaskRow:
    if row is None:
        row = TASKS.blank(
            tenant_id=info.tenant_id,
            task_id=event.task_id,
            status="running",
            candidates=0,
            sources_attempted=0,
            sources_refused=0,
            last_event_position=info.position,
        )
    return msgspec.structs.replace(row, **changes, **_stamp(info))


def _terminal(row: ResearchTaskRow | None) -> bool:
    return row is not None and row.status in ("completed", "failed")


def on_task_started(row: ResearchTaskRow | None, event: ContactResearchTaskStarted, info: EventInfo) -> Any:
    if row is not None and row.started_at is not None:
        return row
    employer = bound_text(event.employer, 200) if event.employer else None
    return _task(
        row, event, info, employer=employer, job_id=event.job_id, started_at=utc_or_none(event.started_at)
    )


def on_candidate(row: ResearchTaskRow | None, event: ContactCandidateProposed, info: EventInfo) -> Any:
    if _terminal(row):
        return row
    return _task(row, event, info, candidates=(row.candidates if row else 0) + 1)


def on_candidate_rejected(
    row: ResearchTaskRow | None, event: ContactCandidateRejected, info: EventInfo
) -> Any:
    # The decision itself is read from the task's stream (the review); the row only moves on.
    return row if row is None else _task(row, event, info)


def on_needs_review(
    row: ResearchTaskRow | None, event: ContactResearchTaskNeedsReview, info: EventInfo
) -> Any:
    if _terminal(row):
        return row
    return _task(row, event, info, status="needs_review", candidates=event.candidate_count)


def on_task_completed(
    row: ResearchTaskRow | None, event: ContactResearchTaskCompleted, info: EventInfo
) -> Any:
    if _terminal(row):
        return row
    return _task(
        row,
        event,
        info,
        status="completed",
        confirmed=event.confirmed_count,
        finished_at=utc_or_none(event.completed_at),
    )


def on_task_failed(row: ResearchTaskRow | None, event: ContactResearchTaskFailed, info: EventInfo) -> Any:
    if _terminal(row):
        return row
    return _task(
        row,
        event,
        info,
        status="failed",
        error_class=bound_text(event.error_class, 80),
        retryable=event.retryable,
        finished_at=utc_or_none(event.failed_at),
    )


def on_source_attempted(
    row: ResearchTaskRow | None, event: ContactResearchSourceAttempted, info: EventInfo
) -> Any:
    # Counts only: the URL looked at stays in the log (the row holds no source addresses).
    refused = 0 if event.outcome in _READ_OUTCOMES else 1
    return _task(
        row,
        event,
        info,
        sources_attempted=(row.sources_attempted if row else 0) + 1,
        sources_refused=(row.sources_refused if row else 0) + refused,
    )


CONTACTS_PROJECTION = Projection(
    name="contacts",
    tables=(CONTACTS,),
    folds=(
        Fold(ContactCreated, CONTACTS, _contact_key, on_contact_created),
        Fold(ContactUpdated, CONTACTS, _contact_key, on_contact_updated),
        Fold(ContactAttributeRecorded, CONTACTS, _contact_key, on_attribute),
        Fold(WarmIntroIdentified, CONTACTS, _contact_key, on_warm_intro),
        Fold(ContactDeleted, CONTACTS, _contact_key, on_contact_deleted),
    ),
    # Not self-healed: an empty table is legitimate once every contact was deleted.
    creates_rows_on=frozenset(),
)

TASKS_PROJECTION = Projection(
    name="contact_research_tasks",
    tables=(TASKS,),
    folds=(
        Fold(ContactResearchTaskStarted, TASKS, _task_key, on_task_started),
        Fold(ContactCandidateProposed, TASKS, _task_key, on_candidate),
        Fold(ContactResearchTaskNeedsReview, TASKS, _task_key, on_needs_review),
        Fold(ContactCandidateRejected, TASKS, _task_key, on_candidate_rejected),
        Fold(ContactResearchTaskCompleted, TASKS, _task_key, on_task_completed),
        Fold(ContactResearchTaskFailed, TASKS, _task_key, on_task_failed),
        Fold(ContactResearchSourceAttempted, TASKS, _task_key, on_source_attempted),
    ),
    creates_rows_on=frozenset({"ContactResearchTaskStarted"}),
)
