"""``jobctrl sources add|list|remove``: the sources Discover runs (ADR 0150).

``add KIND TOKEN_OR_URL [--name N] [--api-base URL]`` registers a source through the source registry
(``--api-base`` points the family at another host, e.g. a local server standing in for the vendor);
``list [--format json]`` shows the sources added and not removed; ``remove ID`` removes one.  Bad
input exits 2 with the reason and writes nothing.  A legacy ``$JOBCTRL_HOME/sources.json`` is
imported (once) before any of them runs.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict
from enum import StrEnum
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from jobctrl.discovery import add_source, list_sources, remove_source
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import SystemClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.store.database import jobctrl_home
from jobctrl.runtime.composition.sources import import_legacy_sources
from jobctrl.runtime.config import load_config
from jobctrl.runtime.storage import open_configured_database

app = typer.Typer(no_args_is_help=True, help="Add, list and remove the sources Discover runs.")
out = Console()
err = Console(stderr=True)


class ListFormat(StrEnum):
    table = "table"
    json = "json"


def _fail(exc: JobCtrlError) -> typer.Exit:
    err.print(f"[red]✗[/] {exc.code}: {exc.message}", markup=True, highlight=False)
    return typer.Exit(2)


def _open() -> EventStore:
    # The configuration's ``[storage] database_url`` (env overrides it), like every other command.
    db = open_configured_database()
    store = EventStore(db, registry())
    store.create_schema()
    return store


def _run(action: Callable[[EventStore], None]) -> None:
    store = _open()
    try:
        import_legacy_sources(store, jobctrl_home(), clock=SystemClock())
        action(store)
    except JobCtrlError as exc:
        raise _fail(exc) from None
    finally:
        store.db.dispose()


@app.command("add")
def add(
    kind: Annotated[str, typer.Argument(help="greenhouse, lever, ashby, careers, workday, ... (see list).")],
    token_or_url: Annotated[str, typer.Argument(help="The board token, or the board's careers URL.")],
    name: Annotated[str | None, typer.Option("--name", help="The employer's name.")] = None,
    api_base: Annotated[
        str | None, typer.Option("--api-base", help="Where the family's API lives instead of the vendor.")
    ] = None,
    keyword: Annotated[
        list[str] | None, typer.Option("--keyword", help="Broad boards: a search term (repeatable).")
    ] = None,
    location: Annotated[
        list[str] | None, typer.Option("--location", help="Broad boards: a location (repeatable).")
    ] = None,
    results: Annotated[
        int | None, typer.Option("--results", help="Broad boards: results wanted per site and search.")
    ] = None,
    hours_old: Annotated[
        int | None, typer.Option("--hours-old", help="Broad boards: only postings this many hours old.")
    ] = None,
) -> None:
    """Add a source; Discover crawls it from the next run on."""

    def action(store: EventStore) -> None:
        added = add_source(
            store, kind, token_or_url, name=name, api_base=api_base, clock=SystemClock(),
            keywords=keyword or (), locations=location or (), results_wanted=results, hours_old=hours_old,
        )  # fmt: skip
        verb = "added" if added.created else "already present"
        view = added.source
        if view.family == "jobspy":
            out.print(f"{view.source_id} {verb} (broad boards {view.board}; robots: {view.robots})")
            if not load_config().discovery.broad_boards:
                out.print(
                    "broad boards are off: set [discovery] broad_boards = true, or JOBCTRL_BROAD_BOARDS=1"
                )
            return
        out.print(f"{view.source_id} {verb} ({view.family}, {view.base_url})")

    _run(action)


@app.command("list")
def list_command(
    fmt: Annotated[ListFormat, typer.Option("--format", help="table or json.")] = ListFormat.table,
) -> None:
    """The sources added and not removed, with their registry state."""

    def action(store: EventStore) -> None:
        views = list_sources(store)
        if fmt is ListFormat.json:
            typer.echo(json.dumps([asdict(v) | {"robots": v.robots} for v in views], indent=2))
            return
        table = Table("id", "kind", "board", "name", "state", "robots", "api base")
        for v in views:
            table.add_row(v.source_id, v.family, v.board, v.name, v.state, v.robots, v.base_url)
        out.print(table)

    _run(action)


@app.command("remove")
def remove(source_id: Annotated[str, typer.Argument(help="The source's id (see list).")]) -> None:
    """Remove a source: Discover stops crawling it; its jobs stay."""

    def action(store: EventStore) -> None:
        removed = remove_source(store, source_id, clock=SystemClock())
        out.print(f"{source_id} {'removed' if removed else 'was already removed'}")

    _run(action)
