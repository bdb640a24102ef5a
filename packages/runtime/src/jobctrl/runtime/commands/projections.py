"""``jobctrl projections rebuild|status|dump|run``: operate the read models folded from job_events."""

from __future__ import annotations

import signal
import threading
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from jobctrl.domain_types import registry
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore
from jobctrl.projections.coverage import OPERATIONS
from jobctrl.projections.dump import dump_json
from jobctrl.projections.healing import verify_projections
from jobctrl.projections.rebuild import rebuild
from jobctrl.projections.runner import ProjectionRunner
from jobctrl.projections.status import read_status
from jobctrl.runtime.storage import open_configured_database

app = typer.Typer(no_args_is_help=True, help="Rebuild, inspect and run the read-model projections.")
err = Console(stderr=True)


class DumpFormat(StrEnum):
    json = "json"


def _fail(exc: JobCtrlError) -> typer.Exit:
    err.print(f"[red]✗[/] {exc.code}: {exc.message}")
    return typer.Exit(2)


@app.command("rebuild")
def rebuild_command(
    projection: Annotated[
        list[str] | None,
        typer.Option("--projection", "-p", help="Rebuild only this projection (repeatable)."),
    ] = None,
    batch_size: Annotated[int, typer.Option("--batch-size", min=1, max=100_000)] = 5000,
) -> None:
    """Rebuild read models from the log, transactionally (a failure leaves the old ones intact)."""
    db = open_configured_database()
    EventStore(db, registry()).create_schema()
    try:
        with Progress(
            TextColumn("[bold]rebuild"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err
        ) as bar:
            task = bar.add_task("rebuild", total=None)

            def progress(position: int, target: int) -> None:
                bar.update(task, completed=position, total=max(target, 1))

            result = rebuild(db, registry(), projection or None, batch_size=batch_size, progress=progress)
    except JobCtrlError as exc:
        raise _fail(exc) from None
    finally:
        db.dispose()
    err.print(
        f"[green]✓[/] rebuilt {', '.join(result.projections)} up to position {result.position} "
        f"({result.events} events folded, {result.skipped} skipped)"
    )


@app.command("status")
def status_command(
    verify: Annotated[
        bool,
        typer.Option(
            "--verify",
            help="Also check every projection for lost rows (row counters, key counts and digests); "
            "exit 1 when something is wrong (the next start rebuilds it).",
        ),
    ] = False,
) -> None:
    """Head, watermark, lag, rows per read-model table and skipped events."""
    db = open_configured_database()
    EventStore(db, registry()).create_schema()
    try:
        status = read_status(db)
        findings = (
            verify_projections(db, OPERATIONS, watermark=status.watermark_name, deep=True) if verify else []
        )
    finally:
        db.dispose()
    console = Console()
    summary = Table(title=f"projections (watermark {status.watermark_name!r})")
    for column in ("head", "watermark", "lag", "skipped events"):
        summary.add_column(column, justify="right")
    summary.add_row(str(status.head), str(status.watermark), str(status.lag), str(status.skipped))
    console.print(summary)
    tables = Table(title="read models")
    tables.add_column("projection")
    tables.add_column("table")
    tables.add_column("rows", justify="right")
    for t in status.tables:
        tables.add_row(t.projection, t.table, str(t.rows))
    console.print(tables)
    if status.recent_skipped:
        skipped = Table(title="latest skipped events")
        for column in ("position", "eventType", "reason"):
            skipped.add_column(column)
        for s in status.recent_skipped:
            skipped.add_row(str(s.position), s.event_type, s.reason)
        console.print(skipped)
    if status.leftover_shadows:
        console.print(
            "[yellow]leftover rebuild tables[/] (a rebuild did not finish; dropped at the next start): "
            + ", ".join(status.leftover_shadows)
        )
    if verify:
        if not findings:
            console.print(
                "[green]✓[/] verified: every projection holds the rows its counters and digests say"
            )
            return
        found = Table(title="projections with lost rows (rebuilt at the next start)")
        for column in ("projection", "table", "check", "expected", "found"):
            found.add_column(column)
        for f in findings:
            found.add_row(f.projection, f.table, f.reason, str(f.expected or ""), str(f.found or ""))
        console.print(found)
        raise typer.Exit(1)


@app.command("dump")
def dump_command(
    name: Annotated[str, typer.Argument(help="A read-model table (or single-table projection) name.")],
    output_format: Annotated[DumpFormat, typer.Option("--format")] = DumpFormat.json,
) -> None:
    """Print a read model's rows as a JSON array (camelCase keys, primary-key order)."""
    del output_format  # JSON is the only format
    db = open_configured_database()
    try:
        typer.echo(dump_json(db, name))
    except JobCtrlError as exc:
        raise _fail(exc) from None
    finally:
        db.dispose()


@app.command("run")
def run_command(
    batch_size: Annotated[int, typer.Option("--batch-size", min=1, max=100_000)] = 2000,
    poll_interval: Annotated[float, typer.Option("--poll-interval", min=0.01, max=60.0)] = 0.5,
) -> None:
    """Fold the log and keep following it until SIGINT/SIGTERM (finishes the current batch first)."""
    db = open_configured_database()
    EventStore(db, registry()).create_schema()
    stop = threading.Event()

    def _stop(_signum: int, _frame: Any) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    runner = ProjectionRunner(db, registry(), batch_size=batch_size, poll_interval=poll_interval)
    healed = runner.prepare()
    if healed:
        err.print(f"[yellow]healed[/] {', '.join(healed)} (rows were missing below the watermark)")
    try:
        runner.run(stop)
    finally:
        db.dispose()
    err.print(f"stopped after {runner.stats.events} events ({runner.stats.skipped} skipped)")
