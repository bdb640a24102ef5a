"""``jobctrl demo``: the whole pipeline on the embedded defaults, end to end, with a Rich summary.

SQLite under ``$JOBCTRL_HOME`` (default ``~/.jobctrl``), the embedded Temporal dev server (its database
file there too), one in-process worker with the real activities, the offline LLM, and the sample job
board on a fixed local port (``JOBCTRL_SAMPLE_BOARD_PORT``, default 47801) so posting URLs, and with
them job identities, are the same on every run.  Running it twice is safe: every id is deterministic,
so the second run re-attaches to what the first one did.

The read models are kept current the way every runtime keeps them: the one projection runner
(``jobctrl.projections.ProjectionRunner``) follows the log in a background thread while the pipeline
runs, is stopped after it, and a last catch-up brings the watermark to the log head.  The summary is
read from those read models (``job_stage_states``, ``job_list_projections``), so what it shows is what
``jobctrl serve`` and ``jobctrl projections status`` show afterwards.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections import Counter
from dataclasses import dataclass

import sqlalchemy as sa
import typer
from rich.console import Console
from rich.table import Table

from jobctrl.discovery import SampleJobBoard
from jobctrl.domain_types import registry
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.kernel.store import Database, EventStore
from jobctrl.kernel.store.database import jobctrl_home
from jobctrl.materials import SAMPLE_PROFILE, ArtifactKind
from jobctrl.orchestration import STAGES, TASK_QUEUE
from jobctrl.projections import ProjectionStatus, read_status
from jobctrl.projections.read_models.job_list import job_list_projections
from jobctrl.projections.read_models.stage_states import job_stage_states
from jobctrl.runtime.commands.progress import phase_bars
from jobctrl.runtime.composition.root import Composition
from jobctrl.runtime.embedded import local_runtime
from jobctrl.runtime.following import following_projections
from jobctrl.runtime.pipeline import PipelineReport, run_pipeline
from jobctrl.runtime.reconcile.coverage import reconcile_coverage
from jobctrl.runtime.settings import EnvSettings, SavedSettings
from jobctrl.runtime.storage import open_configured_database

console = Console()
DEFAULT_BOARD_PORT = 47801
PHASES = {
    "discover": "Discover over the sample board",
    "prepare": "Prepare jobs → PDFs",
    "apply": "Dry-run apply",
}


@dataclass
class DemoOutcome:
    report: PipelineReport
    comp: Composition
    seconds: float
    temporal_db: str
    tenant: str
    projections: ProjectionStatus


async def run_demo(
    db: Database,
    *,
    board: SampleJobBoard,
    top_n: int = 3,
    quiet: bool = False,
    source_ids: list[str] | None = None,
    tenant: str = "local",
    task_queue: str = TASK_QUEUE,
    freeze_startup: bool = False,
) -> DemoOutcome:
    """The library entry of ``jobctrl demo`` (tests run it on a subset of the board); the command's
    own process freezes its start-up heap once the worker is built (``freeze_startup``, ADR 0426)."""
    store = EventStore(db, registry())
    sources = [s for s in board.sources() if not source_ids or s.source_id in source_ids]
    comp = Composition.build(db, store, sources=lambda: sources)
    began = time.monotonic()
    temporal_db = jobctrl_home() / "temporal" / "dev-server.db"
    try:
        with following_projections(db), phase_bars(PHASES, console, quiet=quiet) as tick:
            async with local_runtime(
                db=db, store=store, settings=SavedSettings(db, EnvSettings()), spend=comp.spend,
                overrides=comp.activities(),
                targets=comp.facts, address=os.environ.get("TEMPORAL_ADDRESS") or None,
                server_db_file=temporal_db, task_queue=task_queue, freeze_startup=freeze_startup,
            ) as rt:  # fmt: skip
                report = await run_pipeline(
                    rt.client, comp, task_queue=rt.worker.task_queue, profile=SAMPLE_PROFILE,
                    sources=sources, top_n=top_n, progress=tick, tenant=tenant,
                )  # fmt: skip
    finally:
        comp.close()
    # The read models are at the log head: the run's coverage checkpoint is earned now (ADR 0132).
    reconcile_coverage(store, comp.clock)
    status = read_status(db)
    return DemoOutcome(report, comp, time.monotonic() - began, str(temporal_db), tenant, status)


def stage_counts(db: Database, tenant: str) -> tuple[int, dict[str, Counter[str]]]:
    """(jobs listed, stage → state → jobs) from the read models ``job_list_projections`` and
    ``job_stage_states``; a listed job without a row for a stage counts as ``pending``."""
    per_stage: dict[str, Counter[str]] = {stage: Counter() for stage in STAGES if stage != "discover"}
    jl, ss = job_list_projections, job_stage_states
    with db.read() as conn:
        jobs = int(
            conn.execute(
                sa.select(sa.func.count())
                .select_from(jl)
                .where(jl.c.tenant_id == tenant, sa.not_(jl.c.deleted))
            ).scalar_one()
        )
        rows = conn.execute(
            sa.select(ss.c.stage, ss.c.state, sa.func.count())
            .where(ss.c.tenant_id == tenant)
            .group_by(ss.c.stage, ss.c.state)
        ).all()
    for stage, state, n in rows:
        if stage in per_stage:
            per_stage[stage][state] += int(n)
    for counter in per_stage.values():
        missing = jobs - sum(counter.values())
        if missing > 0:
            counter["pending"] += missing
    return jobs, per_stage


def top_matches(db: Database, tenant: str, n: int) -> list[tuple[str, str | None, str, float]]:
    """The best-scored visible jobs from ``job_list_projections`` (fit descending, then job id)."""
    jl = job_list_projections
    with db.read() as conn:
        return [
            (str(r[0]), r[1], str(r[2]), float(r[3]))
            for r in conn.execute(
                sa.select(jl.c.job_id, jl.c.title, jl.c.employer, jl.c.fit_score)
                .where(
                    jl.c.tenant_id == tenant,
                    jl.c.fit_score.is_not(None),
                    sa.not_(jl.c.deleted),
                    sa.not_(jl.c.hidden),
                )
                .order_by(jl.c.fit_score.desc(), jl.c.job_id)
                .limit(n)
            )
        ]


def print_summary(outcome: DemoOutcome, top_n: int) -> None:
    comp, report = outcome.comp, outcome.report
    jobs, per_stage = stage_counts(comp.db, outcome.tenant)
    kinds = sorted({k for c in per_stage.values() for k in c})
    table = Table(title=f"{jobs} jobs per stage")
    table.add_column("stage")
    for kind in kinds:
        table.add_column(kind, justify="right")
    for stage, counter in per_stage.items():
        table.add_row(stage, *(str(counter.get(k, 0)) for k in kinds))
    console.print(table)

    top = Table(title=f"Top {top_n} matches")
    for column in ("fit", "role", "employer", "PDFs", "dry run"):
        top.add_column(column)
    for job_id, title, employer, fit in top_matches(comp.db, outcome.tenant, top_n):
        top.add_row(
            f"{fit:.0f}",
            title or "",
            employer,
            "yes" if comp.facts.pdf_ready(job_id) else "no",
            report.dry_runs.get(job_id, "-"),
        )
    console.print(top)

    spend = comp.ledger.status()
    pdfs = [
        str(comp.artifacts.path_of(ids[0], ArtifactKind.RESUME_PDF))
        for j in report.prepared
        if (ids := comp.facts.pdf_ids(j)) is not None
    ]
    facts = Table(title="Run", show_header=False)
    facts.add_row(
        "prepared / not eligible / failed",
        f"{len(report.prepared)} / {len(report.not_eligible)} / {len(report.failed)}",
    )
    facts.add_row("dry-run applies (submits)", f"{len(report.dry_runs)} ({report.submitted})")
    facts.add_row(
        "LLM spend today", f"${spend.spent_usd:.4f} of ${spend.budget_usd:.2f} ({spend.calls} calls)"
    )
    facts.add_row("event store", comp.db.engine.url.render_as_string(hide_password=True))
    facts.add_row("Temporal history", outcome.temporal_db)
    facts.add_row("artifacts", str(comp.artifacts.root))
    for path in pdfs[:3]:
        facts.add_row("resume PDF", path)
    p = outcome.projections
    facts.add_row(
        "read models",
        f"watermark {p.watermark} of head {p.head} (lag {p.lag}, {p.skipped} skipped events)",
    )
    facts.add_row("look further", "jobctrl serve → http://127.0.0.1:8787/ ; jobctrl projections status")
    facts.add_row("wall time", f"{outcome.seconds:.1f} s")
    console.print(facts)
    for job_id, reason in list(report.failed.items())[:5]:
        console.print(f"[yellow]failed[/yellow] {job_id}: {reason}")


def demo(
    top: int = typer.Option(3, "--top", help="How many top matches get a dry-run apply."),
) -> None:
    """Run the whole pipeline on the sample board (embedded Temporal, offline LLM) and summarize it."""
    logging.getLogger("temporalio").setLevel(logging.ERROR)  # per-job failures are in the summary
    port = int(os.environ.get("JOBCTRL_SAMPLE_BOARD_PORT", str(DEFAULT_BOARD_PORT)))
    db = open_configured_database()
    try:
        board = SampleJobBoard(port=port)
        try:
            board.start()
        except OSError as exc:
            raise ConfigurationError(
                f"the sample board cannot listen on 127.0.0.1:{port} ({exc.strerror}); "
                "set JOBCTRL_SAMPLE_BOARD_PORT to a free port (keep it fixed: job identities follow the URLs)"
            ) from exc
        try:
            console.print(f"sample job board at {board.base_url}; data under {jobctrl_home()}")
            outcome = asyncio.run(run_demo(db, board=board, top_n=top, freeze_startup=True))
        finally:
            board.stop()
        print_summary(outcome, top)
    finally:
        db.dispose()
