"""``jobctrl materials export JOB_ID DIR``: copy a job's current resume and cover-letter PDFs out.

The PDFs are read through the artifact store, which verifies each against its recorded sha256 (a
mismatch refuses it), and written as ``<job>-resume.pdf`` and ``<job>-cover-letter.pdf``.  A job
without both rendered PDFs exits 2 and writes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from jobctrl.domain_types import registry
from jobctrl.kernel.clock import SystemClock
from jobctrl.kernel.errors import JobCtrlError
from jobctrl.kernel.store import EventStore
from jobctrl.kernel.store.database import jobctrl_home
from jobctrl.materials import ArtifactKind, ArtifactStore, PageSize
from jobctrl.orchestration import StageTrackerService
from jobctrl.runtime.composition.facts import JobFacts
from jobctrl.runtime.config import load_config
from jobctrl.runtime.storage import open_configured_database

app = typer.Typer(no_args_is_help=True, help="Your tailored materials.")


@app.command("export")
def export(
    job_id: Annotated[str, typer.Argument(help="The job whose PDFs to export.")],
    directory: Annotated[Path, typer.Argument(help="Where to write them (created if missing).")],
) -> None:
    """Write the job's current resume and cover-letter PDFs into DIR."""
    config = load_config()
    db = open_configured_database(config)
    try:
        store = EventStore(db, registry())
        store.create_schema()
        clock = SystemClock()
        artifacts = ArtifactStore(jobctrl_home() / "artifacts")
        facts = JobFacts(
            store, artifacts=artifacts, tracker=StageTrackerService(store, clock=clock), clock=clock,
            min_score=int(config.apply.min_fit_score), paper_size=PageSize(config.materials.paper_size),
        )  # fmt: skip
        ids = facts.pdf_ids(job_id)
        if ids is None:
            typer.echo(f"job {job_id!r} has no rendered resume and cover letter; nothing written", err=True)
            raise typer.Exit(2)
        try:
            resume = artifacts.get(ids[0], ArtifactKind.RESUME_PDF)[1]
            cover = artifacts.get(ids[1], ArtifactKind.COVER_LETTER_PDF)[1]
        except JobCtrlError as exc:
            typer.echo(f"{exc.code}: {exc.message}; nothing written", err=True)
            raise typer.Exit(2) from None
    finally:
        db.dispose()
    directory.mkdir(parents=True, exist_ok=True)
    for name, data in ((f"{job_id}-resume.pdf", resume), (f"{job_id}-cover-letter.pdf", cover)):
        (directory / name).write_bytes(data)
        typer.echo(str(directory / name))
