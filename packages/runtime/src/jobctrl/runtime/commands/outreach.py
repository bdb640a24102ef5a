"""``jobctrl outreach``: write to a confirmed contact from the terminal (ADR 0275, 0276).

``draft CONTACT_ID`` asks the configured model (offline by default) for a message under the
truthfulness gate; ``show``/``list`` read threads; ``revise``, ``approve``, ``reject``, ``sent``,
``reply``, ``follow-up``, ``follow-up-done`` and ``follow-up-dismiss`` are the thread's steps.  Each
takes the same path as its API route, so a refusal is the same typed error and writes nothing.
Nothing here sends a message: ``sent`` records that you sent the approved text yourself.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError
from rich.console import Console

from jobctrl.contact import (
    ContactServices,
    approve_outreach,
    complete_follow_up,
    dismiss_follow_up,
    log_outreach_send,
    record_outreach_reply,
    reject_outreach,
    revise_outreach,
    schedule_follow_up,
)
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.projections.read_models.outreach import outreach_thread_projections as ot
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.outreach import read_threads
from jobctrl.runtime.api.outreach_threads import (
    DismissRequest,
    DraftRequest,
    FollowUpRequest,
    RejectRequest,
    ReplyRequest,
    ReviseRequest,
    SentRequest,
    ThreadDetail,
    VersionRequest,
    act,
    contact_services,
    start_draft,
    thread_detail,
)
from jobctrl.runtime.api.services import LocalContext
from jobctrl.runtime.commands.applications import context, read, table

out = Console(width=max(Console().width, 200))
app = typer.Typer(no_args_is_help=True, help="Outreach to confirmed contacts: draft, review, log sends.")
TenantOption = Annotated[str, typer.Option(help="the tenant to read and write under")]
ThreadArg = Annotated[str, typer.Argument(help="the outreach thread id (see: jobctrl outreach list)")]
DraftOption = Annotated[str, typer.Option("--draft", help="the draft id under review (see: show)")]
GenerationOption = Annotated[int, typer.Option("--generation", help="the draft generation you read")]
AtOption = Annotated[
    datetime | None, typer.Option("--at", help="when (ISO 8601, UTC if no zone); default: now")
]


def _utc(value: datetime | None) -> datetime | None:
    return value if value is None or value.tzinfo else value.replace(tzinfo=UTC)


def _print(detail: ThreadDetail) -> None:
    out.print(f"thread {detail.thread_id}  contact {detail.contact_id}  job {detail.job_id or '-'}")
    out.print(
        f"draft {detail.draft_id or '-'} generation {detail.generation}: {detail.draft_status or '-'}"
        f"  sends {detail.sends}  follow-up {detail.follow_up_status or '-'} {detail.follow_up_due_at or ''}"
    )
    if detail.subject is not None:
        out.print(f"Subject: {detail.subject}\n\n{detail.body}\n", markup=False, highlight=False)
    elif detail.draft_id is not None:
        out.print("(the message can no longer be read: the contact was deleted)")
    for r in detail.replies:
        out.print(f"reply {r.received_at} by {r.channel}: {r.note or '(no note)'}", markup=False)


def _run(tenant: str, step: Callable[[LocalContext], ThreadDetail]) -> None:
    ctx = context(tenant)
    try:
        detail = step(ctx)
    except ApiError as exc:
        typer.echo(f"{exc.code}: {exc.message}", err=True)
        for path, reason in exc.fields or []:
            typer.echo(f"  {path}: {reason}", err=True)
        raise typer.Exit(1 if exc.status in (404, 409) else 2) from None
    except ValidationError as exc:
        typer.echo(f"invalid_request: {exc.errors()[0].get('msg', 'invalid')}", err=True)
        raise typer.Exit(2) from None
    finally:
        ctx.db.dispose()
    _print(detail)


def _step(tenant: str, thread_id: str, fn: Callable[[ContactServices], object]) -> None:
    _run(tenant, lambda ctx: act(ctx, thread_id, fn))


@app.command("draft")
def draft(
    contact_id: Annotated[str, typer.Argument(help="the confirmed contact")],
    job: Annotated[str | None, typer.Option("--job", help="the job the message is about")] = None,
    role: Annotated[str | None, typer.Option(help="the role (default: the job's title)")] = None,
    employer: Annotated[str | None, typer.Option(help="the employer (default: the job's)")] = None,
    point: Annotated[list[str] | None, typer.Option("--point", help="a point to make (repeat)")] = None,
    tenant: TenantOption = LOCAL_TENANT,
) -> None:
    """Ask the model for a draft; a claim your profile does not support is refused."""
    _run(
        tenant,
        lambda ctx: start_draft(
            ctx,
            DraftRequest(contact_id=contact_id, job_id=job, role=role, employer=employer, points=point or []),
        ),
    )


@app.command("show")
def show(thread_id: ThreadArg, tenant: TenantOption = LOCAL_TENANT) -> None:
    """One thread: its draft, review, sends, replies and follow-up."""
    _run(tenant, lambda ctx: thread_detail(contact_services(ctx), thread_id))


@app.command("list")
def list_threads(
    contact: Annotated[str | None, typer.Option("--contact", help="only this contact's")] = None,
    tenant: TenantOption = LOCAL_TENANT,
) -> None:
    """Outreach threads (from the read model)."""
    found = read(tenant, lambda ctx: read_threads(ctx, *([ot.c.contact_id == contact] if contact else [])))
    columns = ("thread", "contact", "job", "draft", "sends", "replies", "follow-up")
    shown = table(f"Outreach threads ({found.total})", columns)
    for t in found.items:
        draft = f"{t.draft_status or '-'} (g{t.generation or 0})"
        due = f"{t.follow_up_status or '-'} {t.follow_up_due_at or ''}"
        shown.add_row(
            t.thread_id, t.contact_id or "", t.job_id or "", draft, str(t.sends), str(t.replies), due
        )
    out.print(shown)


@app.command("revise")
def revise(
    thread_id: ThreadArg,
    subject: Annotated[str, typer.Option(help="the subject line")],
    body_file: Annotated[Path, typer.Option("--body-file", help="a file holding the edited message")],
    tenant: TenantOption = LOCAL_TENANT,
) -> None:
    """Edit the draft by hand (a new generation, back in review)."""
    text = body_file.read_text(encoding="utf-8")
    req = ReviseRequest(subject=subject, body=text)

    _step(tenant, thread_id, lambda cs: revise_outreach(cs, thread_id, subject=req.subject, body=req.body))


@app.command("approve")
def approve(
    thread_id: ThreadArg,
    draft_id: DraftOption,
    generation: GenerationOption,
    tenant: TenantOption = LOCAL_TENANT,
) -> None:
    """Approve the exact draft version you read."""

    req = VersionRequest(draft_id=draft_id, generation=generation)
    _step(
        tenant,
        thread_id,
        lambda cs: approve_outreach(cs, thread_id, draft_id=req.draft_id, generation=req.generation),
    )


@app.command("reject")
def reject(
    thread_id: ThreadArg,
    draft_id: DraftOption,
    generation: GenerationOption,
    reason: Annotated[str, typer.Option(help="a reason code")] = "not_right",
    tenant: TenantOption = LOCAL_TENANT,
) -> None:
    """Reject the draft version under review."""

    req = RejectRequest(draft_id=draft_id, generation=generation, reason=reason)
    _step(
        tenant,
        thread_id,
        lambda cs: reject_outreach(
            cs, thread_id, draft_id=req.draft_id, generation=req.generation, reason=req.reason
        ),
    )


@app.command("sent")
def sent(
    thread_id: ThreadArg,
    channel: Annotated[str, typer.Option(help="how you sent it (email, linkedin_message, ...)")],
    at: AtOption = None,
    tenant: TenantOption = LOCAL_TENANT,
) -> None:
    """Record that you sent the approved draft yourself (JobCtrl never sends it)."""

    req = SentRequest(channel=channel, sent_at=_utc(at))
    _step(
        tenant,
        thread_id,
        lambda cs: log_outreach_send(cs, thread_id, channel=req.channel, sent_at=req.sent_at),
    )


@app.command("reply")
def reply(
    thread_id: ThreadArg,
    channel: Annotated[str, typer.Option(help="how they answered")],
    note: Annotated[str | None, typer.Option(help="what they said (kept sealed)")] = None,
    at: AtOption = None,
    tenant: TenantOption = LOCAL_TENANT,
) -> None:
    """Record, by hand, that the contact replied."""

    req = ReplyRequest(channel=channel, received_at=_utc(at), note=note)
    _step(
        tenant, thread_id,
        lambda cs: record_outreach_reply(
            cs, thread_id, channel=req.channel, received_at=req.received_at, note=req.note
        ),
    )  # fmt: skip


@app.command("follow-up")
def follow_up(
    thread_id: ThreadArg,
    in_days: Annotated[
        int, typer.Option("--in-days", min=0, max=365, help="due this many days from now")
    ] = 7,
    tenant: TenantOption = LOCAL_TENANT,
) -> None:
    """Set (or move) the thread's follow-up reminder."""

    req = FollowUpRequest(due_at=datetime.now(UTC) + timedelta(days=in_days))
    _step(tenant, thread_id, lambda cs: schedule_follow_up(cs, thread_id, due_at=req.due_at, basis=req.basis))


@app.command("follow-up-done")
def follow_up_done(thread_id: ThreadArg, tenant: TenantOption = LOCAL_TENANT) -> None:
    """Mark the follow-up done."""

    _step(tenant, thread_id, lambda cs: complete_follow_up(cs, thread_id))


@app.command("follow-up-dismiss")
def follow_up_dismiss(
    thread_id: ThreadArg,
    reason: Annotated[str, typer.Option(help="a reason code")] = "not_needed",
    tenant: TenantOption = LOCAL_TENANT,
) -> None:
    """Drop the follow-up."""

    req = DismissRequest(reason=reason)
    _step(tenant, thread_id, lambda cs: dismiss_follow_up(cs, thread_id, reason=req.reason))
