"""``jobctrl init`` and ``jobctrl config show``: the configuration file and where each value comes from."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from jobctrl.kernel.store.database import jobctrl_home
from jobctrl.runtime.config import TEMPLATE, InvalidConfiguration, JobctrlConfig, describe, load_config
from jobctrl.runtime.config.model import config_path

app = typer.Typer(no_args_is_help=True, help="The configuration ($JOBCTRL_HOME/config.toml).")


def fail(exc: InvalidConfiguration) -> typer.Exit:
    """Print every problem (key path, reason, where the value came from) and exit 2."""
    typer.echo("invalid configuration:", err=True)
    for problem in exc.problems:
        typer.echo(f"  {problem.render()}", err=True)
    return typer.Exit(2)


def checked_config() -> JobctrlConfig:
    """The effective configuration, or exit 2 before anything starts."""
    try:
        return load_config()
    except InvalidConfiguration as exc:
        raise fail(exc) from None


def init(
    force: bool = typer.Option(False, "--force", help="Overwrite an existing config.toml."),
) -> None:
    """Create $JOBCTRL_HOME with a commented config.toml (the offline defaults)."""
    path = Path(config_path())
    if path.exists() and not force:
        typer.echo(f"{path} exists; keeping it (use --force to overwrite)")
        checked_config()
        return
    jobctrl_home().mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(TEMPLATE, encoding="utf-8")
    tmp.replace(path)
    typer.echo(f"wrote {path}")
    typer.echo(
        "next: jobctrl profile import resume.json ; jobctrl sources add greenhouse <board> ; jobctrl run"
    )


@app.command("show")
def show(
    output: str = typer.Option("table", "--format", help="table or json"),
) -> None:
    """Print the effective configuration: each key, its value and its origin (env, file, default)."""
    try:
        entries = describe()
    except InvalidConfiguration as exc:
        raise fail(exc) from None
    if output == "json":
        typer.echo(
            json.dumps(
                {e.path: {"value": e.value, "origin": e.origin, "source": e.source} for e in entries},
                indent=2,
                default=str,
            )
        )
        return
    if output != "table":
        typer.echo("--format must be table or json", err=True)
        raise typer.Exit(2)
    table = Table(title=f"configuration ({config_path()})")
    for column in ("key", "value", "origin"):
        table.add_column(column)
    for e in entries:
        origin = e.origin if e.origin != "env" else f"env {e.source}"
        table.add_row(e.path, json.dumps(e.value, default=str), origin)
    Console(width=160).print(table)
