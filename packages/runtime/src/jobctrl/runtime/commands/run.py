"""``jobctrl run``: your own search, end to end, on the embedded runtime.

Discover runs on the sources you added (``jobctrl sources add``), the matches are enriched, scored
against your saved profile (``jobctrl profile import``) and prepared (tailored resume, cover letter,
PDFs) by the configured model (``[llm]`` in ``config.toml``, or ``JOBCTRL_LLM_*``), on the same runtime
as ``jobctrl demo``: SQLite and the embedded Temporal dev server under ``$JOBCTRL_HOME`` (or
``TEMPORAL_ADDRESS``), one in-process worker, the projection runner following the log.  Nothing is
applied to.  The summary lists the scored jobs and where each one's PDFs are.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

import typer
from rich.console import Console
from rich.table import Table

from jobctrl.domain_types import registry
from jobctrl.kernel.clock import SystemClock
from jobctrl.kernel.store import Database, EventStore
from jobctrl.kernel.store.database import jobctrl_home
from jobctrl.materials import ArtifactKind
from jobctrl.orchestration import load_profile
from jobctrl.runtime.commands.demo import top_matches
from jobctrl.runtime.commands.progress import phase_bars
from jobctrl.runtime.composition.root import Composition
from jobctrl.runtime.composition.sources import import_legacy_sources, registry_catalog
from jobctrl.runtime.config import JobctrlConfig, load_config
from jobctrl.runtime.embedded import local_runtime
from jobctrl.runtime.following import following_projections
from jobctrl.runtime.pipeline import PipelineReport, run_pipeline
from jobctrl.runtime.settings import EnvSettings
from jobctrl.runtime.storage import open_configured_database

console = Console()
PHASES = {
    "discover": "Discover on your sources",
    "prepare": "Score and prepare → PDFs",
}  # nothing is applied to


@dataclass
class RunOutcome:
    report: PipelineReport
    comp: Composition
    seconds: float


async def run_search(
    db: Database, config: JobctrlConfig, *, quiet: bool = False, freeze_startup: bool = False
) -> RunOutcome:
    """The library entry of ``jobctrl run``; ``freeze_startup``: the command's own process (ADR 0426)."""
    store = EventStore(db, registry())
    catalog = registry_catalog(store)
    sources = list(catalog())
    comp = Composition.build(db, store, sources=catalog, config=config)
    began = time.monotonic()
    try:
        with following_projections(db), phase_bars(PHASES, console, quiet=quiet) as tick:
            async with local_runtime(
                db=db, store=store, settings=EnvSettings(), spend=comp.spend, overrides=comp.activities(),
                targets=comp.facts, address=config.temporal.address,
                server_db_file=jobctrl_home() / "temporal" / "dev-server.db",
                task_queue=config.temporal.task_queue, freeze_startup=freeze_startup,
            ) as rt:  # fmt: skip
                report = await run_pipeline(
                    rt.client, comp, task_queue=rt.worker.task_queue, profile=None, sources=sources,
                    top_n=0, progress=tick,
                )  # fmt: skip
    finally:
        comp.close()
    return RunOutcome(report, comp, time.monotonic() - began)


def print_summary(outcome: RunOutcome) -> None:
    comp, report = outcome.comp, outcome.report
    table = Table(title="Scored jobs (best first)")
    for column in ("fit", "role", "employer", "job id", "PDFs"):
        table.add_column(column)
    ready: list[tuple[str, str, str, str]] = []
    for job_id, title, employer, fit in top_matches(comp.db, "local", 50):
        ids = comp.facts.pdf_ids(job_id)
        table.add_row(f"{fit:.0f}", title or "", employer, job_id, "yes" if ids else "no")
        if ids:
            resume = str(comp.artifacts.path_of(ids[0], ArtifactKind.RESUME_PDF))
            cover = str(comp.artifacts.path_of(ids[1], ArtifactKind.COVER_LETTER_PDF))
            ready.append((f"{title} at {employer}", job_id, resume, cover))
    console.print(table)
    for what, job_id, resume, cover in ready:  # one unwrapped line each, so paths can be copied
        console.print(f"{what} ({job_id}):", soft_wrap=True)
        console.print(f"  resume {resume}", soft_wrap=True)
        console.print(f"  cover letter {cover}", soft_wrap=True)
        console.print(f"  jobctrl materials export {job_id} DIR", soft_wrap=True)
    spend = comp.ledger.status()
    console.print(
        f"{report.discover.observed_jobs} postings observed; {len(report.prepared)} prepared, "
        f"{len(report.not_eligible)} below your minimum fit, {len(report.failed)} failed; "
        f"model {comp.llm.model}, spend today ${spend.spent_usd:.4f} ({spend.calls} calls); "
        f"{outcome.seconds:.1f} s"
    )
    console.print(f"materials are under {comp.artifacts.root}", soft_wrap=True)
    for job_id, reason in list(report.failed.items())[:5]:
        console.print(f"[yellow]failed[/yellow] {job_id}: {reason}")


def run() -> None:
    """Discover on your sources and prepare the matches (scores, tailored resumes, cover letters, PDFs)."""
    logging.getLogger("temporalio").setLevel(logging.ERROR)
    config = load_config()  # validated by the CLI callback already; this is the same value
    db = open_configured_database(config)
    try:
        store = EventStore(db, registry())
        store.create_schema()
        import_legacy_sources(store, jobctrl_home(), clock=SystemClock())
        if not list(registry_catalog(store)()):
            typer.echo("no sources yet: add one with `jobctrl sources add greenhouse <board>`", err=True)
            raise typer.Exit(2)
        if load_profile(store).profile_version == 0:
            typer.echo("no profile yet: import one with `jobctrl profile import resume.json`", err=True)
            raise typer.Exit(2)
        console.print(
            f"model: {config.llm.provider} {config.llm.effective_model}; data under {jobctrl_home()}"
        )
        outcome = asyncio.run(run_search(db, config, freeze_startup=True))
        print_summary(outcome)
    finally:
        db.dispose()
