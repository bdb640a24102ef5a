"""The ``jobctrl`` command line: the CLI composition root.

Sub-command groups live in their own modules and are mounted here; nothing is wired at import time
beyond building the Typer tree.
"""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperGroup

from jobctrl.kernel.errors import StorageUnavailable
from jobctrl.runtime.commands import (
    applications,
    config,
    contacts,
    demo,
    events,
    jobs,
    materials,
    outreach,
    profile,
    projections,
    run,
    schemas,
    scores,
    serve,
    sources,
    worker,
)
from jobctrl.runtime.config import InvalidConfiguration

STORAGE_EXIT = 3


class _FailClosed(TyperGroup):
    """Any command whose database is missing, replaced, read-only, full or unreachable exits 3 with
    the reason and what to do, never a traceback (ADR 0102).  A command that opens the configured
    database on an invalid configuration exits 2 naming each bad key, like the validated ones (ADR 0300)."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except InvalidConfiguration as exc:
            raise config.fail(exc) from None
        except StorageUnavailable as exc:
            typer.echo(f"storage unavailable ({exc.reason}): {exc.message}", err=True)
            raise typer.Exit(STORAGE_EXIT) from None


app = typer.Typer(
    cls=_FailClosed,
    no_args_is_help=True,
    add_completion=False,
    help="JobCtrl: the durable job-search pipeline.",
)
# Commands that start something validate the configuration first (exit 2 naming each bad key).
CONFIGURED = frozenset({"demo", "serve", "worker", "run", "profile", "materials", "sources", "jobs"})


@app.callback()
def _validate(ctx: typer.Context) -> None:
    if ctx.invoked_subcommand in CONFIGURED:
        ctx.obj = config.checked_config()


app.add_typer(schemas.app, name="schemas")
app.add_typer(config.app, name="config")
app.add_typer(profile.app, name="profile")
app.add_typer(materials.app, name="materials")
app.command("init")(config.init)
app.add_typer(projections.app, name="projections")
app.add_typer(events.app, name="events")
app.add_typer(sources.app, name="sources")
app.add_typer(scores.app, name="scores")
app.add_typer(jobs.app, name="jobs")
app.command("demo")(demo.demo)
app.command("run")(run.run)
app.command("serve")(serve.serve)
app.command("worker")(worker.worker)
app.add_typer(applications.apply_app, name="apply")
app.command("digest")(applications.digest)
app.command("outcome")(applications.outcome)
app.add_typer(contacts.app, name="contacts")
app.add_typer(outreach.app, name="outreach")


def main() -> None:
    app()
