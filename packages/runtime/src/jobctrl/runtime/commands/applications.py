"""After preparation, from the terminal: ``jobctrl digest``, ``jobctrl outcome``, ``jobctrl apply``.

The same reads and use cases as the HTTP API (``runtime.api.applications``), straight over the
configured database (ADR 0300).  ``jobctrl apply open JOB_ID`` is the hand-off of a live browser
application the runtime stopped before submitting: where a screen exists (``DISPLAY`` or
``WAYLAND_DISPLAY``) it opens a headed Chromium at the reviewed page and fills the recorded answers,
then waits for the person to submit and close it; otherwise it prints the URL and the answers.
Either way the person then records the submission: ``jobctrl outcome JOB_ID applied``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from datetime import timedelta
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from playwright.sync_api import sync_playwright
from rich.console import Console
from rich.table import Table

from jobctrl.apply import (
    CLASSIFY_JS,
    USER_OUTCOMES,
    USER_WORD,
    InvalidOutcome,
    ManualCompletionPrepared,
    record_outcome,
)
from jobctrl.apply import application_repository as apply_jobs
from jobctrl.contact import PersonalDataVault
from jobctrl.domain_types import registry
from jobctrl.kernel.chromium import CHROMIUM_ARGS, CHROMIUM_PATH
from jobctrl.kernel.clock import SystemClock
from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.kernel.store import EventStore
from jobctrl.orchestration import acknowledge_digest, create_orchestration_tables
from jobctrl.projections.migrate import migrate
from jobctrl.runtime.api.applications import read_digest, read_review_queue
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.follow_up_snooze import snooze
from jobctrl.runtime.api.services import LocalContext
from jobctrl.runtime.api.verification import settle
from jobctrl.runtime.storage import open_configured_database
from jobctrl.runtime.telemetry.heartbeat import create_table as create_heartbeat_table

out = Console()
apply_app = typer.Typer(no_args_is_help=True, help="Review and hand-off of applications.")
TenantOption = Annotated[str, typer.Option(help="the tenant to read and write under")]
T = TypeVar("T")


def context(tenant: str) -> LocalContext:
    db = open_configured_database()
    store = EventStore(db, registry())
    store.create_schema()
    migrate(db)
    create_orchestration_tables(db)  # settings and the spend ledger the digest reads
    PersonalDataVault(db).create_schema()  # the sealed candidates a contact review opens
    create_heartbeat_table(db)  # the worker readiness a research start checks
    return LocalContext(db=db, store=store, clock=SystemClock(), tenant_id=tenant)


def read(tenant: str, query: Callable[[LocalContext], T]) -> T:
    """What ``query`` reads from the tenant's local context, its database closed after."""
    ctx = context(tenant)
    try:
        return query(ctx)
    finally:
        ctx.db.dispose()


def table(title: str, columns: Iterable[str]) -> Table:
    """A terminal table with these column headings."""
    made = Table(title=title)
    for column in columns:
        made.add_column(column)
    return made


def digest(
    acknowledge: Annotated[
        bool, typer.Option("--ack", help="acknowledge it (records DigestReviewed)")
    ] = False,
    tenant: TenantOption = LOCAL_TENANT,
) -> None:
    """The daily digest: new matches, prepared, awaiting review, follow-ups due, spend."""
    ctx = context(tenant)
    try:
        d = read_digest(ctx)
        table = Table(title=f"Digest (since {d.since or 'the beginning'})")
        table.add_column("what")
        table.add_column("count", justify="right")
        for label, value in (
            ("new matches", d.new_matches), ("prepared", d.prepared), ("awaiting review", d.awaiting_review),
            ("follow-ups due", d.follow_ups_due),
        ):  # fmt: skip
            table.add_row(label, str(value))
        table.add_row("spend today", f"${d.spent_usd:.2f} of ${d.budget_usd:.2f}")
        out.print(table)
        if acknowledge:
            event = acknowledge_digest(ctx.store, clock=ctx.clock, tenant_id=tenant)
            out.print(f"acknowledged at {event.acknowledged_at}")
    finally:
        ctx.db.dispose()


def outcome(
    job_id: Annotated[str, typer.Argument(help="the job")],
    what: Annotated[str, typer.Argument(help=" | ".join(USER_OUTCOMES))],
    note: Annotated[str | None, typer.Option(help="a note (only its presence is recorded)")] = None,
    tenant: TenantOption = LOCAL_TENANT,
) -> None:
    """Record what happened to an application (ApplicationOutcomeRecorded)."""
    ctx = context(tenant)
    try:
        event = record_outcome(
            ctx.store, job_id=job_id, outcome=what, note=note, clock=ctx.clock, tenant_id=tenant
        )
    except InvalidOutcome as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None
    finally:
        ctx.db.dispose()
    typer.echo(f"{job_id}: {USER_WORD[event.kind]} recorded ({event.outcome_id})")


@apply_app.command("review")
def review(tenant: TenantOption = LOCAL_TENANT) -> None:
    """Prepared jobs awaiting an apply decision, with what the gate says."""
    queue = read(tenant, lambda ctx: read_review_queue(ctx, 200))
    shown = table(f"Apply review ({queue.total})", ("job", "employer", "title", "fit", "apply by", "gate"))
    for item in queue.items:
        shown.add_row(
            item.job_id, item.employer, item.title or "", f"{item.fit_score or 0:.1f}", item.apply_by or "",
            item.gate_reason or "ready",
        )  # fmt: skip
    out.print(shown)


@apply_app.command("verify")
def verify(
    job_id: Annotated[str, typer.Argument(help="the job whose apply run needs verification")],
    submitted: Annotated[
        bool, typer.Option("--submitted/--not-submitted", help="did the application go out?")
    ],
    run: Annotated[str | None, typer.Option(help="the run, when several need verification")] = None,
    tenant: TenantOption = LOCAL_TENANT,
) -> None:
    """Settle a run left needs_verification: it was submitted, or it was not (then it may be retried)."""
    ctx = context(tenant)
    try:
        settled = settle(ctx, job_id, submitted=submitted, run_id=run)
    except ApiError as exc:
        typer.echo(f"{exc.code}: {exc.message}", err=True)
        raise typer.Exit(1) from None
    finally:
        ctx.db.dispose()
    said = "submitted" if submitted else "not submitted"
    typer.echo(f"{job_id}: run {settled.run_id} settled as {said} ({settled.run_status})")


@apply_app.command("snooze")
def snooze_command(
    job_id: Annotated[str, typer.Argument(help="the application whose follow-up to put off")],
    days: Annotated[int, typer.Option(min=1, max=366, help="not due for this many days from now")],
    tenant: TenantOption = LOCAL_TENANT,
) -> None:
    """Snooze an application's follow-up: it is not due until then."""
    ctx = context(tenant)
    try:
        done = snooze(ctx, job_id, ctx.clock.now() + timedelta(days=days))
    except ApiError as exc:
        typer.echo(f"{exc.code}: {exc.message}", err=True)
        raise typer.Exit(1 if exc.status in (404, 409) else 2) from None
    finally:
        ctx.db.dispose()
    typer.echo(f"{job_id}: follow-up snoozed until {done.snoozed_until}")


def _handoff(tenant: str, job_id: str) -> ManualCompletionPrepared | None:
    ctx = context(tenant)
    try:
        app = apply_jobs(ctx.store, ctx.clock, tenant).load(job_id)
    finally:
        ctx.db.dispose()
    return None if app is None else app.latest_handoff


def _has_screen() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


@apply_app.command("open")
def open_handoff(
    job_id: Annotated[str, typer.Argument(help="the job handed off for manual completion")],
    tenant: TenantOption = LOCAL_TENANT,
    print_only: Annotated[bool, typer.Option("--print", help="print the answers even with a screen")] = False,
) -> None:
    """Finish a handed-off browser application yourself."""
    handoff = _handoff(tenant, job_id)
    if handoff is None:
        typer.echo(f"{job_id} has no application waiting for manual completion", err=True)
        raise typer.Exit(1)
    if print_only or not _has_screen():
        typer.echo(f"Open: {handoff.application_url}")
        for answer in handoff.answers:
            typer.echo(f"  {answer.field}: {answer.value}")
        typer.echo(f"  resume: {handoff.resume_pdf_path}")
        typer.echo(f"Then record it: jobctrl outcome {job_id} applied")
        return
    _open_headed(handoff)
    typer.echo(f"Submitted? Record it: jobctrl outcome {job_id} applied")


def _open_headed(handoff: ManualCompletionPrepared) -> None:
    """A headed Chromium at the reviewed page with the answers typed in; the person submits."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM_PATH, args=list(CHROMIUM_ARGS), headless=False
        )
        page = browser.new_page()
        page.goto(handoff.application_url)
        page.evaluate(CLASSIFY_JS)
        for answer in handoff.answers:
            field = page.locator(f'[data-jobctrl-field="{answer.field}"]').first
            if field.count():
                field.fill(answer.value)
        resume = page.locator('[data-jobctrl-field="resume"]').first
        if resume.count() and Path(handoff.resume_pdf_path).exists():
            resume.set_input_files(handoff.resume_pdf_path)
        page.wait_for_event("close", timeout=0)
        browser.close()
