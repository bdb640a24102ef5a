"""``pipeline.jobs_per_s``: sample-board jobs per second through Discover → enrich → score → tailor →
cover → PDF on the offline provider (one worker, real activities, Chromium), and
``pipeline.ratio_vs_noop`` against ``temporal.noop_workflows_per_s`` measured in the same run on the
same dev server, before and after the pipeline and averaged (a no-op workflow with four no-op
activities; a job's preparation is one workflow with five step activities, plus its share of Discover).

``pipeline.workflow_task_max_s`` and ``pipeline.workflow_tasks_over_1s`` are read from the
preparations' histories on the dev server (each workflow task's started → completed event times;
the aim is no task over 1 s, ADR 0361).

A job counts when its preparation ended (PDFs, or ``not_eligible``).  ``JOBCTRL_BENCH_PIPELINE_MIN_SCORE``
(default 1, so nearly every job goes through to PDFs) sets eligibility; ``JOBCTRL_BENCH_PIPELINE_JOBS``
(default 1,000) sizes the sample board (``scaled_postings``: the sample's 69 postings plus synthetic
employers, every one a distinct job).
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from temporalio.api.enums.v1 import EventType
from temporalio.client import Client

from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.discovery.sample_board.postings import scaled_postings
from jobctrl.domain_types import registry
from jobctrl.kernel.store import EventStore, open_database
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.runtime.composition.root import Composition
from jobctrl.runtime.embedded import DevServer, local_runtime
from jobctrl.runtime.pipeline import run_pipeline
from jobctrl.runtime.settings import FixedSettings, RuntimeSettings
from jobctrl.runtime.worker import sandbox_runner
from jobctrl.testing.bench.temporal import _rate

_STARTED, _COMPLETED = (
    EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED,
    EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
)


async def _workflow_task_durations(
    client: Client, task_queue: str, workflow_type: str = "JobPreparationWorkflow"
) -> list[float]:
    """Every workflow task's started → completed seconds, over the queue's workflows of the type."""
    durations: list[float] = []
    query = f"TaskQueue = '{task_queue}' AND WorkflowType = '{workflow_type}'"
    async for execution in client.list_workflows(query):
        history = await client.get_workflow_handle(execution.id, run_id=execution.run_id).fetch_history()
        started: float | None = None
        for event in history.events:
            if event.event_type == _STARTED:
                started = event.event_time.ToDatetime().timestamp()
            elif event.event_type == _COMPLETED and started is not None:
                durations.append(event.event_time.ToDatetime().timestamp() - started)
                started = None
    return durations


async def _measure(
    min_score: int, noop_count: int, postings: int
) -> tuple[float, float, int, int, float, float, list[float]]:
    with tempfile.TemporaryDirectory() as tmp:
        async with DevServer.start(Path(tmp) / "bench-temporal.db") as server:
            client = await server.wait_ready()
            noop_before = await _rate(client, noop_count, sandbox_runner())
            db = open_database(f"sqlite:///{tmp}/bench.db")
            store = EventStore(db, registry())
            with SampleJobBoard(postings=scaled_postings(postings)) as board:
                sources = board.sources()
                comp = Composition.build(
                    db,
                    store,
                    sources=lambda: sources,
                    artifacts_root=Path(tmp) / "artifacts",
                    min_score=min_score,
                )
                try:
                    async with local_runtime(
                        db=db, store=store, settings=FixedSettings(RuntimeSettings(worker_activity_slots=4)),
                        spend=comp.spend, overrides=comp.activities(), targets=comp.facts,
                        address=server.address, task_queue=f"bench-{uuid.uuid4().hex[:8]}",
                    ) as rt:  # fmt: skip
                        started = time.perf_counter()
                        marks: dict[str, float] = {}

                        def progress(phase: str, done: int, total: int) -> None:
                            if phase == "discover" and done == total:
                                marks["discovered"] = time.perf_counter() - started

                        report = await run_pipeline(
                            rt.client, comp, task_queue=rt.worker.task_queue, profile=SAMPLE_PROFILE,
                            sources=sources, top_n=0, progress=progress,
                        )  # fmt: skip
                        elapsed = time.perf_counter() - started
                        durations = await _workflow_task_durations(rt.client, rt.worker.task_queue)
                finally:
                    comp.close()
                    db.dispose()
            # The baseline on both sides of the measured run (A B A, ADR 0230): a load change during
            # the pipeline moves both halves of the ratio's denominator alike.
            noop = (noop_before + await _rate(client, noop_count, sandbox_runner())) / 2
    jobs = len(report.prepared) + len(report.not_eligible)
    return jobs / elapsed, noop, len(report.prepared), jobs, marks.get("discovered", 0.0), elapsed, durations


def run(results: dict[str, Any]) -> None:
    min_score = int(os.environ.get("JOBCTRL_BENCH_PIPELINE_MIN_SCORE", "1"))
    noop_count = int(os.environ.get("JOBCTRL_BENCH_TEMPORAL_WORKFLOWS", "40"))
    postings = int(os.environ.get("JOBCTRL_BENCH_PIPELINE_JOBS", "1000"))
    jobs_per_s, noop, prepared, jobs, discover_s, total_s, durations = asyncio.run(
        _measure(min_score, noop_count, postings)
    )
    results["pipeline.discover_s"] = discover_s
    results["pipeline.total_s"] = total_s
    results["pipeline.jobs_per_s"] = jobs_per_s
    results["pipeline.jobs"] = jobs
    results["pipeline.jobs_to_pdf"] = prepared
    results["pipeline.noop_workflows_per_s_same_run"] = noop
    results["pipeline.ratio_vs_noop"] = jobs_per_s / noop
    results["pipeline.workflow_task_max_s"] = max(durations, default=0.0)
    results["pipeline.workflow_tasks_over_1s"] = sum(1 for d in durations if d > 1.0)
    results["pipeline.workflow_tasks"] = len(durations)
