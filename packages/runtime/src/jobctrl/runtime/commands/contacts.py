"""``jobctrl contacts``: supervised contact research and its review, from the terminal (ADR 0210).

``research JOB_ID --source URL`` starts ``ContactResearchWorkflow`` through the real Temporal adapter,
on the same path as ``POST /v1/jobs/{id}/contact-research`` (a running ``jobctrl worker`` does the
research); ``list`` and ``show`` read the results; ``confirm`` and ``reject`` decide on one candidate
through contact's use cases, like the API.  Nothing here sends anything to a contact.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

import typer
from rich.console import Console

from jobctrl.kernel.ids import LOCAL_TENANT
from jobctrl.orchestration import SettingsStore
from jobctrl.runtime.api.contact_research import start_job_research
from jobctrl.runtime.api.contacts import decide, list_research, research_detail
from jobctrl.runtime.api.errors import ApiError
from jobctrl.runtime.api.readiness import WorkerRuntimeUnavailable
from jobctrl.runtime.api.workflow_control import TemporalWorkflowControl
from jobctrl.runtime.commands.applications import context, read, table
from jobctrl.runtime.embedded import find_dev_server
from jobctrl.runtime.settings import TemporalTarget

out = Console(width=max(Console().width, 200))  # ids are copied from here: never truncated
app = typer.Typer(no_args_is_help=True, help="Supervised contact research and its review.")
TenantOption = Annotated[str, typer.Option(help="the tenant to read and write under")]
TaskArg = Annotated[str, typer.Argument(help="the research task id")]
CandidateArg = Annotated[str, typer.Argument(help="the candidate id (see: jobctrl contacts show TASK)")]


def _refused(exc: ApiError) -> typer.Exit:
    typer.echo(f"{exc.code}: {exc.message}", err=True)
    return typer.Exit(1 if exc.status in (404, 409) else 2 if exc.status == 422 else 3)


@app.command("research")
def research(
    job_id: Annotated[str, typer.Argument(help="the job whose employer to research")],
    source: Annotated[
        list[str] | None,
        typer.Option("--source", help="a public page to read (repeat); none: nothing is fetched"),
    ] = None,
    tenant: TenantOption = LOCAL_TENANT,
) -> None:
    """Start supervised research for a job's employer; its candidates land in review."""
    sources = list(source or [])
    bad = [s for s in sources if not s.startswith(("http://", "https://")) or len(s) > 1990]
    if bad or len(sources) > 25:
        typer.echo(f"invalid sources (at most 25 http(s) addresses): {bad or sources}", err=True)
        raise typer.Exit(2)
    target = TemporalTarget.from_env()
    address = target.address or find_dev_server()
    if address is None:
        typer.echo("no Temporal server: start `jobctrl worker` (or set TEMPORAL_ADDRESS)", err=True)
        raise typer.Exit(3)
    ctx = context(tenant)
    try:
        queue = target.task_queue or SettingsStore(ctx.db, clock=ctx.clock).load().task_queue
        control = TemporalWorkflowControl(address, target.namespace)
        started = asyncio.run(start_job_research(ctx, control, queue, job_id, sources))
    except ApiError as exc:
        raise _refused(exc) from None
    except WorkerRuntimeUnavailable as exc:
        typer.echo(f"{exc.code}: {exc.message}; start `jobctrl worker`", err=True)
        raise typer.Exit(3) from None
    finally:
        ctx.db.dispose()
    typer.echo(f"research task {started.task_id} started ({started.workflow_id})")
    typer.echo(f"Review it: jobctrl contacts show {started.task_id}")


@app.command("list")
def list_tasks(
    job: Annotated[str | None, typer.Option("--job", help="only this job's research")] = None,
    tenant: TenantOption = LOCAL_TENANT,
) -> None:
    """Research tasks and their results."""
    found = read(tenant, lambda ctx: list_research(ctx, job_id=job, limit=200))
    columns = ("task", "job", "employer", "status", "candidates", "confirmed", "sources read/refused")
    shown = table(f"Contact research ({found.total})", columns)
    for t in found.items:
        shown.add_row(
            t.task_id, t.job_id or "", t.employer or "", t.status, str(t.candidates),
            "" if t.confirmed is None else str(t.confirmed),
            f"{t.sources_attempted - t.sources_refused}/{t.sources_refused}",
        )  # fmt: skip
    out.print(shown)


@app.command("show")
def show(task_id: TaskArg, tenant: TenantOption = LOCAL_TENANT) -> None:
    """One research task and its candidates, to confirm or reject."""
    try:
        detail = read(tenant, lambda ctx: research_detail(ctx, task_id))
    except ApiError as exc:
        raise _refused(exc) from None
    columns = ("candidate", "status", "name", "title", "role", "confidence", "source")
    shown = table(f"Task {task_id}: {detail.task.status}", columns)
    for c in detail.candidates:
        shown.add_row(
            c.candidate_id, c.status, c.name or "", c.title or "", c.role, f"{c.confidence:.2f}", c.source_ref
        )
    out.print(shown)


@app.command("confirm")
def confirm(task_id: TaskArg, candidate_id: CandidateArg, tenant: TenantOption = LOCAL_TENANT) -> None:
    """Confirm a candidate: they become a contact."""
    ctx = context(tenant)
    try:
        decision = decide(ctx, task_id, candidate_id, confirm=True)
    except ApiError as exc:
        raise _refused(exc) from None
    finally:
        ctx.db.dispose()
    typer.echo(f"{candidate_id}: confirmed, contact {decision.contact_id}")


@app.command("reject")
def reject(
    task_id: TaskArg,
    candidate_id: CandidateArg,
    reason: Annotated[str, typer.Option(help="a reason code")] = "not_relevant",
    tenant: TenantOption = LOCAL_TENANT,
) -> None:
    """Reject a candidate: never a contact, and their data is forgotten."""
    ctx = context(tenant)
    try:
        decide(ctx, task_id, candidate_id, confirm=False, reason=reason)
    except ApiError as exc:
        raise _refused(exc) from None
    finally:
        ctx.db.dispose()
    typer.echo(f"{candidate_id}: rejected")
