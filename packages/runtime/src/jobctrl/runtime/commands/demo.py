"""``jobctrl demo``: the whole pipeline on the embedded defaults, end to end, with a Rich summary.

SQLite under ``$JOBCTRL_HOME`` (default ``~/.jobctrl``), the embedded Temporal dev server (its database
file there too), one in-process worker with the real activities, the offline LLM, and the sample job
board on a fixed local port (``JOBCTRL_SAMPLE_BOARD_PORT``, default 47801) so posting URLs, and with
them job identities, are the same on every run.  Running it twice is safe: every id is deterministic,
so the second run re-attaches to what the first one did.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections import Counter
from dataclasses import dataclass

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from jobctrl.discovery.events import JobDiscovered
from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.domain_types import registry
from jobctrl.kernel.errors import ConfigurationError
from jobctrl.kernel.store import Database, EventStore, open_database
from jobctrl.kernel.store.database import jobctrl_home
from jobctrl.materials.artifacts import ArtifactKind
from jobctrl.materials.sample import SAMPLE_PROFILE
from jobctrl.orchestration.stages import limits
from jobctrl.orchestration.stages.states import kind_of
from jobctrl.orchestration.workflows.ids import TASK_QUEUE
from jobctrl.runtime.composition.root import Composition
from jobctrl.runtime.embedded import local_runtime
from jobctrl.runtime.pipeline import PipelineReport, run_pipeline
from jobctrl.runtime.settings import EnvSettings

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


async def run_demo(
    db: Database,
    *,
    board: SampleJobBoard,
    top_n: int = 3,
    quiet: bool = False,
    source_ids: list[str] | None = None,
    tenant: str = "local",
    task_queue: str = TASK_QUEUE,
) -> DemoOutcome:
    """The library entry of ``jobctrl demo`` (tests run it on a subset of the board)."""
    store = EventStore(db, registry())
    sources = [s for s in board.sources() if not source_ids or s.source_id in source_ids]
    comp = Composition.build(db, store, sources=lambda: sources)
    began = time.monotonic()
    temporal_db = jobctrl_home() / "temporal" / "dev-server.db"
    try:
        with Progress(
            SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TimeElapsedColumn(), console=console, disable=quiet,
        ) as bars:  # fmt: skip
            tasks: dict[str, TaskID] = {}

            def tick(phase: str, done: int, total: int) -> None:
                if phase not in tasks:
                    tasks[phase] = bars.add_task(PHASES[phase], total=max(total, 1))
                bars.update(tasks[phase], completed=done, total=max(total, 1))

            async with local_runtime(
                db=db, store=store, settings=EnvSettings(), spend=comp.spend, overrides=comp.activities(),
                targets=comp.facts, address=os.environ.get("TEMPORAL_ADDRESS") or None,
                server_db_file=temporal_db, task_queue=task_queue,
            ) as rt:  # fmt: skip
                report = await run_pipeline(
                    rt.client, comp, task_queue=rt.worker.task_queue, profile=SAMPLE_PROFILE,
                    sources=sources, top_n=top_n, progress=tick, tenant=tenant,
                )  # fmt: skip
    finally:
        comp.close()
    return DemoOutcome(report, comp, time.monotonic() - began, str(temporal_db))


def _job_ids(store: EventStore) -> list[str]:
    ids: list[str] = []
    for stored in store.read_all(limit=1_000_000, types=[JobDiscovered.event_type]):
        event = store.registry.decode(stored)
        assert isinstance(event, JobDiscovered)
        ids.append(event.job_id)
    return ids


def print_summary(outcome: DemoOutcome, top_n: int) -> None:
    comp, report = outcome.comp, outcome.report
    jobs = _job_ids(comp.store)
    per_stage: dict[str, Counter[str]] = {stage: Counter() for stage in limits.STAGES if stage != "discover"}
    for job_id in jobs:
        stages = comp.tracker.service.load(job_id)
        for stage, counter in per_stage.items():
            counter[kind_of(stages.state(stage))] += 1  # type: ignore[arg-type]
    kinds = sorted({k for c in per_stage.values() for k in c})
    table = Table(title=f"{len(jobs)} jobs per stage")
    table.add_column("stage")
    for kind in kinds:
        table.add_column(kind, justify="right")
    for stage, counter in per_stage.items():
        table.add_row(stage, *(str(counter.get(k, 0)) for k in kinds))
    console.print(table)

    scored = sorted(((comp.facts._fit(j), j) for j in jobs), key=lambda t: (-(t[0] or 0), t[1]))
    top = Table(title=f"Top {top_n} matches")
    for column in ("fit", "role", "employer", "PDFs", "dry run"):
        top.add_column(column)
    for fit, job_id in [s for s in scored if s[0] is not None][:top_n]:
        found = comp.facts.discovered(job_id)
        top.add_row(
            f"{fit:.0f}",
            str(found.metadata.get("title", "")) if found else "",
            found.employer if found else "",
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
    db = open_database()
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
            outcome = asyncio.run(run_demo(db, board=board, top_n=top))
        finally:
            board.stop()
        print_summary(outcome, top)
    finally:
        db.dispose()
