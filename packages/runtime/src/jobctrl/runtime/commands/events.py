"""``jobctrl events import FILE`` / ``export FILE``: the log in and out as JSON Lines (ADR 0111)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from jobctrl.domain_types import registry
from jobctrl.kernel.store import EventStore
from jobctrl.projections.importing import export_file, import_file
from jobctrl.runtime.storage import open_configured_database

app = typer.Typer(no_args_is_help=True, help="Move events in and out of the log.")
err = Console(stderr=True)
SHOWN_REJECTIONS = 50


@app.command("import")
def import_command(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, readable=True)],
) -> None:
    """Append each line's {eventType, tenantId, occurredAt, payload} in file order, all or nothing.

    Exit 2, with nothing written, when any line is rejected (each named with its line number)."""
    db = open_configured_database()
    store = EventStore(db, registry())
    store.create_schema()
    try:
        report = import_file(store, file)
    finally:
        db.dispose()
    for rejected in report.rejected[:SHOWN_REJECTIONS]:
        err.print(f"[red]rejected[/] line {rejected.line}: {rejected.reason}")
    if len(report.rejected) > SHOWN_REJECTIONS:
        err.print(f"… and {len(report.rejected) - SHOWN_REJECTIONS} more rejected lines")
    typer.echo(
        f"imported {report.imported}, already present {report.already_present}, "
        f"rejected {len(report.rejected)}, unknown keys dropped {report.unknown_keys_dropped}"
    )
    if report.rejected:
        err.print("[red]nothing was imported[/]: the file is imported whole or not at all")
        raise typer.Exit(2)


@app.command("export")
def export_command(file: Annotated[Path, typer.Argument(dir_okay=False, writable=True)]) -> None:
    """Write every event, in log order, as import reads it (with its eventId and metadata)."""
    db = open_configured_database()
    store = EventStore(db, registry())
    store.create_schema()
    try:
        count = export_file(store, file)
    finally:
        db.dispose()
    typer.echo(f"exported {count} events to {file}")
