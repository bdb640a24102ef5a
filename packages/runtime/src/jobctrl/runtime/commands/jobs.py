"""``jobctrl jobs add URL [--api-base URL] [--format json]``: one job from a pasted URL (ADR 0220).

The URL's family is recognised (Greenhouse, Lever, Ashby, Workday, SmartRecruiters, Workable,
Recruitee, Personio; any other page is read for schema.org ``JobPosting`` data), the posting is
fetched through the politeness gateway and recorded on the path every discovered posting takes, so a
job we already have is answered, not duplicated.  A refusal exits 2 with its code and writes nothing.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict
from typing import Annotated

import typer
from rich.console import Console

from jobctrl.domain_types import registry
from jobctrl.kernel.clock import SystemClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration import SettingsStore, create_orchestration_tables
from jobctrl.projections.migrate import migrate
from jobctrl.runtime.api.workflow_control import TemporalWorkflowControl
from jobctrl.runtime.composition.import_url import PreparationStart, import_job_from_url, start_preparation
from jobctrl.runtime.composition.root import honest_user_agent
from jobctrl.runtime.config import load_config
from jobctrl.runtime.storage import open_configured_database

app = typer.Typer(no_args_is_help=True, help="Add one job from its posting URL.")
out = Console()
err = Console(stderr=True)


@app.command("add")
def add(
    url: Annotated[str, typer.Argument(help="The posting's URL (an ATS posting or any careers page).")],
    api_base: Annotated[
        str | None, typer.Option("--api-base", help="Where the family's API lives instead of the vendor.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Fetch one posting, dedupe it against the jobs we have, and record it."""
    db = open_configured_database()
    store = EventStore(db, registry())
    store.create_schema()
    migrate(db)
    create_orchestration_tables(db)  # the settings table holds the configured crawl user agent
    clock = SystemClock()
    try:
        agent = honest_user_agent(SettingsStore(db, clock=clock).load())
        imported = asyncio.run(
            import_job_from_url(store, url, clock=clock, user_agent=agent, api_base=api_base)
        )
        preparation = asyncio.run(_prepare(db, imported.job_id, clock)) if imported.created else None
    except JobCtrlError as exc:
        err.print(f"[red]✗[/] {exc.code}: {exc.message}", markup=True, highlight=False)
        raise typer.Exit(2) from None
    finally:
        db.dispose()
    if as_json:
        typer.echo(
            json.dumps(asdict(imported) | {"preparation": asdict(preparation) if preparation else None})
        )
        return
    verb = "added" if imported.created else f"already known ({imported.verdict})"
    out.print(f"{imported.job_id} {verb}: {imported.title} at {imported.employer} ({imported.family})")
    if preparation is not None and preparation.state == "started":
        out.print(f"preparing it now: Discover run {preparation.workflow_id} {preparation.run_id}")
    elif preparation is not None:
        out.print(f"queued for the next Discover run ({preparation.reason})")


async def _prepare(db: Database, job_id: str, clock: SystemClock) -> PreparationStart:
    """Through the configured Temporal server (``[temporal] address``), when there is one."""
    address = load_config().temporal.address
    control = TemporalWorkflowControl(address, load_config().temporal.namespace) if address else None
    return await start_preparation(db, control, job_id, clock=clock)
