"""``outreach_thread_projections``: one row per outreach thread, its current draft and its follow-up
(ADR 0211).

A thread's draft moves needs_review → approved → sent, or → rejected; a newer generation (a revision
or a new draft) goes back to needs_review, since an edit must pass review again, and a late decision
on an older generation changes nothing.  A send is only ever logged by the user (there is no send
path), so ``sends`` counts the user's attestations.  The follow-up is scheduled → completed or
dismissed; a reminder scheduled for a thread whose draft is not folded yet still gets its row.  Rows
hold ids, codes and times: no names, addresses or message text.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
import sqlalchemy as sa

from jobctrl.contact.events import (
    FollowUpCompleted,
    FollowUpDismissed,
    FollowUpScheduled,
    OutreachDraftApproved,
    OutreachDraftGenerated,
    OutreachDraftRejected,
    OutreachDraftRevised,
    OutreachReplyRecorded,
    OutreachSendLogged,
)
from jobctrl.kernel.text import bound_text
from jobctrl.projections.model import EventInfo, Fold, Projection, ReadModelTable
from jobctrl.projections.schema import metadata
from jobctrl.projections.times import utc_or_none

DraftStatus = Literal["needs_review", "approved", "rejected", "sent"]
FollowUpStatus = Literal["scheduled", "completed", "dismissed"]

outreach_thread_projections = sa.Table(
    "outreach_thread_projections",
    metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("thread_id", sa.String(200), primary_key=True),
    sa.Column("contact_id", sa.String(200), nullable=True),
    sa.Column("job_id", sa.String(200), nullable=True),
    sa.Column("kind", sa.String(20), nullable=True),
    sa.Column("draft_id", sa.String(200), nullable=True),
    sa.Column("generation", sa.Integer, nullable=True),
    sa.Column("draft_status", sa.String(20), nullable=True),
    sa.Column("drafted_at", sa.String(40), nullable=True),
    sa.Column("decided_at", sa.String(40), nullable=True),
    sa.Column("rejection_reason", sa.String(80), nullable=True),
    sa.Column("sends", sa.Integer, nullable=False),
    sa.Column("last_sent_at", sa.String(40), nullable=True),
    sa.Column("send_channel", sa.String(40), nullable=True),
    sa.Column("follow_up_status", sa.String(20), nullable=True),
    sa.Column("follow_up_due_at", sa.String(40), nullable=True),
    sa.Column("follow_up_basis", sa.String(40), nullable=True),
    sa.Column("follow_up_closed_at", sa.String(40), nullable=True),
    sa.Column("last_event_position", sa.BigInteger, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=True),
    # OutreachReplyRecorded (ADR 0275, p0011): replies the user recorded by hand
    sa.Column("replies", sa.Integer, nullable=False, server_default="0"),
    sa.Column("last_reply_at", sa.String(40), nullable=True),
)


class ThreadRow(msgspec.Struct, frozen=True, gc=False):
    tenant_id: str
    thread_id: str
    contact_id: str | None
    job_id: str | None
    kind: str | None
    draft_id: str | None
    generation: int | None
    draft_status: DraftStatus | None
    drafted_at: str | None
    decided_at: str | None
    rejection_reason: str | None
    sends: int
    last_sent_at: str | None
    send_channel: str | None
    follow_up_status: FollowUpStatus | None
    follow_up_due_at: str | None
    follow_up_basis: str | None
    follow_up_closed_at: str | None
    last_event_position: int
    updated_at: str | None
    replies: int = 0
    last_reply_at: str | None = None


THREADS = ReadModelTable(outreach_thread_projections, ThreadRow)


def _key(event: Any, info: EventInfo) -> tuple[str, str]:
    return (info.tenant_id, event.thread_id)


def _next(row: ThreadRow | None, event: Any, info: EventInfo, **changes: Any) -> ThreadRow:
    if row is None:
        row = THREADS.blank(
            tenant_id=info.tenant_id, thread_id=event.thread_id, sends=0, last_event_position=info.position
        )
    return msgspec.structs.replace(row, last_event_position=info.position, updated_at=info.at, **changes)


def _older(row: ThreadRow | None, generation: int) -> bool:
    return row is not None and row.generation is not None and generation < row.generation


def _current(row: ThreadRow | None, draft_id: str, generation: int) -> bool:
    return row is not None and row.draft_id == draft_id and row.generation == generation


def on_generated(row: ThreadRow | None, event: OutreachDraftGenerated, info: EventInfo) -> ThreadRow | None:
    if _older(row, event.generation) or (row is not None and _current(row, event.draft_id, event.generation)):
        return row  # an older or repeated generation changes nothing
    return _next(
        row, event, info, contact_id=event.contact_id, job_id=event.job_id, kind=event.kind,
        draft_id=event.draft_id, generation=event.generation, draft_status="needs_review",
        drafted_at=utc_or_none(event.generated_at), decided_at=None, rejection_reason=None,
    )  # fmt: skip


def on_revised(row: ThreadRow | None, event: OutreachDraftRevised, info: EventInfo) -> ThreadRow | None:
    if row is None or _older(row, event.generation) or _current(row, event.draft_id, event.generation):
        return row
    return _next(
        row, event, info, draft_id=event.draft_id, generation=event.generation, draft_status="needs_review",
        drafted_at=utc_or_none(event.revised_at), decided_at=None, rejection_reason=None,
    )  # fmt: skip


def on_approved(row: ThreadRow | None, event: OutreachDraftApproved, info: EventInfo) -> ThreadRow | None:
    if (
        not _current(row, event.draft_id, event.generation)
        or row is None
        or row.draft_status != "needs_review"
    ):
        return row  # only the draft in review can be approved
    return _next(row, event, info, draft_status="approved", decided_at=utc_or_none(event.approved_at))


def on_rejected(row: ThreadRow | None, event: OutreachDraftRejected, info: EventInfo) -> ThreadRow | None:
    if (
        not _current(row, event.draft_id, event.generation)
        or row is None
        or row.draft_status != "needs_review"
    ):
        return row
    return _next(
        row, event, info, draft_status="rejected", decided_at=utc_or_none(event.rejected_at),
        rejection_reason=bound_text(event.reason, 80),
    )  # fmt: skip


def on_send_logged(row: ThreadRow | None, event: OutreachSendLogged, info: EventInfo) -> ThreadRow | None:
    if row is None or row.draft_id != event.draft_id or row.draft_status not in ("approved", "sent"):
        return row  # the user attests sending an approved draft only
    return _next(
        row, event, info, draft_status="sent", sends=row.sends + 1, last_sent_at=utc_or_none(event.sent_at),
        send_channel=bound_text(event.channel, 40),
    )  # fmt: skip


def on_reply(row: ThreadRow | None, event: OutreachReplyRecorded, info: EventInfo) -> ThreadRow | None:
    if row is None or row.sends == 0:
        return row  # a reply answers a logged send
    return _next(row, event, info, replies=row.replies + 1, last_reply_at=utc_or_none(event.received_at))


def on_follow_up(row: ThreadRow | None, event: FollowUpScheduled, info: EventInfo) -> ThreadRow:
    return _next(
        row, event, info, job_id=(row.job_id if row and row.job_id else event.job_id),
        follow_up_status="scheduled", follow_up_due_at=utc_or_none(event.due_at),
        follow_up_basis=bound_text(event.basis, 40), follow_up_closed_at=None,
    )  # fmt: skip


def _close_follow_up(
    row: ThreadRow | None, event: Any, info: EventInfo, status: FollowUpStatus, at: str
) -> ThreadRow | None:
    """A scheduled follow-up closes once: completed or dismissed."""
    if row is None or row.follow_up_status != "scheduled":
        return row
    return _next(row, event, info, follow_up_status=status, follow_up_closed_at=utc_or_none(at))


def on_follow_up_completed(
    row: ThreadRow | None, event: FollowUpCompleted, info: EventInfo
) -> ThreadRow | None:
    return _close_follow_up(row, event, info, "completed", event.completed_at)


def on_follow_up_dismissed(
    row: ThreadRow | None, event: FollowUpDismissed, info: EventInfo
) -> ThreadRow | None:
    return _close_follow_up(row, event, info, "dismissed", event.dismissed_at)


PROJECTION = Projection(
    name="outreach_threads",
    tables=(THREADS,),
    folds=(
        Fold(OutreachDraftGenerated, THREADS, _key, on_generated),
        Fold(OutreachDraftRevised, THREADS, _key, on_revised),
        Fold(OutreachDraftApproved, THREADS, _key, on_approved),
        Fold(OutreachDraftRejected, THREADS, _key, on_rejected),
        Fold(OutreachSendLogged, THREADS, _key, on_send_logged),
        Fold(OutreachReplyRecorded, THREADS, _key, on_reply),
        Fold(FollowUpScheduled, THREADS, _key, on_follow_up),
        Fold(FollowUpCompleted, THREADS, _key, on_follow_up_completed),
        Fold(FollowUpDismissed, THREADS, _key, on_follow_up_dismissed),
    ),
    creates_rows_on=frozenset({"OutreachDraftGenerated", "FollowUpScheduled"}),
)
