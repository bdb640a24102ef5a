"""``jobctrl schemas generate|check``: the registry's generated artefacts."""

from __future__ import annotations

import typer
from rich.console import Console

from jobctrl.domain_types import registry
from jobctrl.domain_types.schemas import EVENTS_DIR, SchemaParityError, check, generate

app = typer.Typer(
    no_args_is_help=True, help="Generate and check JSON Schemas, registry.json and TypeScript types."
)
console = Console(stderr=True)


@app.command("generate")
def generate_command() -> None:
    """Write the artefacts for every registered event type."""
    try:
        written = generate(registry())
    except SchemaParityError as exc:
        for problem in exc.problems:
            console.print(f"[red]✗[/] {problem}")
        raise typer.Exit(1) from None
    console.print(f"{len(written)} file(s) written under {EVENTS_DIR}")


@app.command("check")
def check_command() -> None:
    """Fail if the artefacts are stale or the registry broke the append-only rule."""
    try:
        check(registry())
    except SchemaParityError as exc:
        for problem in exc.problems:
            console.print(f"[red]✗[/] {problem}")
        raise typer.Exit(1) from None
    console.print(f"[green]✓[/] {len(registry())} event types, generated artefacts are current")
