"""``pipeline.jobs_per_s``: sample-board jobs per second through Discover → enrich → score → tailor →
cover → PDF on the offline provider (one worker, real activities, Chromium), and
``pipeline.ratio_vs_noop`` against the no-op workflows of ``temporal.noop_workflows_per_s`` (four
no-op activities each, the SDK's stock sandboxed runner) on the same dev server.  The same no-op
workflows on the worker's own runner (ADR 0381, which the pipeline runs on) are a third subject of
the rounds: ``pipeline.ratio_vs_noop_worker_runner``, the ratio against the baseline's best runner.

Interleaved rounds (ADR 0230, ADR 0382): the sample board's sources are cut into ``rounds`` slices
(``JOBCTRL_BENCH_ROUNDS``, default 4), and each round discovers and prepares one slice on the same
worker, store and dev server, paired with a round of no-op workflows measured next to it (A B, B A,
…).  ``pipeline.jobs_per_s`` is the median of the rounds' rates, ``pipeline.ratio_vs_noop`` the
median of the per-round ratios; every job of the board goes through once, as in one big run.

``pipeline.workflow_task_max_s`` and ``pipeline.workflow_tasks_over_1s`` are read from every round's
preparations' histories on the dev server (each workflow task's started → completed event times; the
aim is no task over 1 s, ADR 0361); ``pipeline.slow_workflow_tasks`` names the slowest few (workflow,
the task's started event id, the events it scheduled, seconds), ADR 0384.

``pipeline.cpu_ms_per_job[.<group>]`` and ``pipeline.noop_cpu_ms_per_workflow[.<group>]`` give the CPU of
a job and of a stock no-op workflow by process (the bench, the dev server, Chromium, its node driver:
``cputree``), and ``pipeline.cpu_ratio_vs_noop`` their ratio, which bounds the wall ratio on a machine
whose cores are full (ADR 0430).

A job counts when its preparation ended (PDFs, or ``not_eligible``).  ``JOBCTRL_BENCH_PIPELINE_MIN_SCORE``
(default 1, so nearly every job goes through to PDFs) sets eligibility; ``JOBCTRL_BENCH_PIPELINE_JOBS``
(default 1,000) sizes the sample board (``scaled_postings``: the sample's 69 postings plus synthetic
employers, every one a distinct job); ``JOBCTRL_BENCH_TEMPORAL_WORKFLOWS`` (default 40) the no-op
rounds.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from temporalio.api.enums.v1 import EventType
from temporalio.client import Client

from jobctrl.discovery import SourceConfig, register_sources
from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.discovery.sample_board.postings import scaled_postings
from jobctrl.domain_types import registry
from jobctrl.kernel.store import EventStore, open_database
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.runtime.composition.root import Composition
from jobctrl.runtime.embedded import DevServer, local_runtime
from jobctrl.runtime.pipeline import run_pipeline, save_profile
from jobctrl.runtime.settings import FixedSettings, RuntimeSettings
from jobctrl.runtime.workflow_runner import sandbox_runner, worker_runner
from jobctrl.testing.bench.cputree import GROUPS, CpuTree, delta
from jobctrl.testing.bench.method import Samples, interleave_async, load_average, rounds
from jobctrl.testing.bench.temporal import rate_and_cpu

_SCHEDULED, _STARTED, _COMPLETED = (
    EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
    EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED,
    EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
)

_SERVER_EVENTS = (
    EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED,
    EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
    EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED,
)


@dataclass(frozen=True)
class TaskTiming:
    """One workflow task: started → completed seconds, what woke it and what it did."""

    seconds: float
    workflow_id: str
    started_event_id: int
    woken_by: str  # the event before its WorkflowTaskScheduled (an activity's completion, …)
    then: str  # the events its completion wrote (markers, scheduled activities, the close)

    def describe(self) -> str:
        return f"{self.workflow_id}#{self.started_event_id} {self.woken_by} → {self.then} {self.seconds:.2f}s"


def _name(event_type: int) -> str:
    return EventType.Name(event_type).removeprefix("EVENT_TYPE_").lower()  # type: ignore[arg-type]


async def _workflow_task_timings(
    client: Client, task_queue: str, workflow_type: str = "JobPreparationWorkflow"
) -> list[TaskTiming]:
    """Every workflow task of the queue's workflows of the type, from their histories."""
    timings: list[TaskTiming] = []
    query = f"TaskQueue = '{task_queue}' AND WorkflowType = '{workflow_type}'"
    async for execution in client.list_workflows(query):
        events = list(
            (await client.get_workflow_handle(execution.id, run_id=execution.run_id).fetch_history()).events
        )
        started: tuple[float, int, str] | None = None
        for i, event in enumerate(events):
            if event.event_type == _STARTED:
                woken = next(
                    (_name(e.event_type) for e in reversed(events[:i]) if e.event_type not in (_SCHEDULED,)),
                    "start",
                )
                started = (event.event_time.ToDatetime().timestamp(), event.event_id, woken)
            elif event.event_type == _COMPLETED and started is not None:
                after = []
                for e in events[i + 1 :]:
                    # The completion's commands come right after it; the server's own events after
                    # them (an activity's start, the next task) are not this task's.
                    if e.event_type == _SCHEDULED or e.event_type in _SERVER_EVENTS:
                        break
                    after.append(_name(e.event_type))
                timings.append(
                    TaskTiming(
                        event.event_time.ToDatetime().timestamp() - started[0],
                        execution.id, started[1], started[2], ",".join(after) or "-",
                    )
                )  # fmt: skip
                started = None
    return timings


def _slices(sources: Sequence[SourceConfig], n: int) -> list[list[SourceConfig]]:
    """``n`` contiguous slices of the sources, as even in count as they divide."""
    size, extra = divmod(len(sources), n)
    out, at = [], 0
    for i in range(n):
        end = at + size + (1 if i < extra else 0)
        out.append(list(sources[at:end]))
        at = end
    return [s for s in out if s]


@dataclass
class _Rounds:
    jobs: int = 0
    prepared: int = 0
    discover_s: float = 0.0
    total_s: float = 0.0
    loads: list[str] | None = None
    # CPU seconds by process group (``cputree``): the pipeline rounds' and the stock no-op rounds'
    cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(GROUPS, 0.0))
    noop_cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(GROUPS, 0.0))
    noops: int = 0


def _add(into: dict[str, float], more: dict[str, float]) -> None:
    for group, seconds in more.items():
        into[group] = into.get(group, 0.0) + seconds


async def _measure(
    min_score: int, noop_count: int, postings: int, n_rounds: int
) -> tuple[_Rounds, Samples, list[TaskTiming]]:
    tally = _Rounds(loads=[])
    with tempfile.TemporaryDirectory() as tmp:
        async with DevServer.start(Path(tmp) / "bench-temporal.db") as server:
            client = await server.wait_ready()
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
                        freeze_startup=True,  # as `jobctrl run` does; the suite has a process of its own
                    ) as rt:  # fmt: skip
                        # Set up once, untimed: the profile and every source (each round discovers
                        # its own slice of them).
                        await asyncio.to_thread(save_profile, comp, SAMPLE_PROFILE)
                        await asyncio.to_thread(register_sources, comp.store, sources, clock=comp.clock)
                        slices = _slices(sources, n_rounds)

                        async def pipeline_round(r: int) -> float:
                            assert tally.loads is not None
                            tally.loads.append(" ".join(f"{x:.2f}" for x in load_average()))
                            tree = CpuTree()
                            started, cpu = time.perf_counter(), tree.sample()
                            marks: dict[str, float] = {}

                            def progress(phase: str, done: int, total: int) -> None:
                                if phase == "discover" and done == total:
                                    marks["discovered"] = time.perf_counter() - started

                            report = await run_pipeline(
                                rt.client, comp, task_queue=rt.worker.task_queue, profile=None,
                                sources=slices[r], top_n=0, progress=progress,
                            )  # fmt: skip
                            elapsed = time.perf_counter() - started
                            _add(tally.cpu, delta(cpu, tree.sample()))
                            jobs = len(report.prepared) + len(report.not_eligible)
                            tally.jobs += jobs
                            tally.prepared += len(report.prepared)
                            tally.discover_s += marks.get("discovered", 0.0)
                            tally.total_s += elapsed
                            return jobs / elapsed

                        async def noop_round(_r: int) -> float:
                            rate, cpu = await rate_and_cpu(client, noop_count, sandbox_runner())
                            _add(tally.noop_cpu, cpu)
                            tally.noops += noop_count
                            return rate

                        async def noop_worker_runner_round(_r: int) -> float:
                            return (
                                await rate_and_cpu(client, noop_count, worker_runner(client.data_converter))
                            )[0]

                        subjects = {
                            "pipeline": pipeline_round,
                            "noop": noop_round,
                            "noop_worker_runner": noop_worker_runner_round,
                        }
                        samples = await interleave_async(subjects, len(slices))
                        timings = await _workflow_task_timings(rt.client, rt.worker.task_queue)
                finally:
                    comp.close()
                    db.dispose()
    return tally, samples, timings


def run(results: dict[str, Any]) -> None:
    min_score = int(os.environ.get("JOBCTRL_BENCH_PIPELINE_MIN_SCORE", "1"))
    noop_count = int(os.environ.get("JOBCTRL_BENCH_TEMPORAL_WORKFLOWS", "40"))
    postings = int(os.environ.get("JOBCTRL_BENCH_PIPELINE_JOBS", "1000"))
    tally, samples, timings = asyncio.run(_measure(min_score, noop_count, postings, rounds(4)))
    pipeline, noop = samples.by_subject["pipeline"], samples.by_subject["noop"]
    durations = [t.seconds for t in timings]
    results["pipeline.rounds"] = len(pipeline)
    results["pipeline.round_load_averages"] = " | ".join(tally.loads or [])
    results["pipeline.round_jobs_per_s"] = " ".join(f"{x:.3f}" for x in pipeline)
    results["pipeline.round_noop_per_s"] = " ".join(f"{x:.2f}" for x in noop)
    results["pipeline.discover_s"] = tally.discover_s
    results["pipeline.total_s"] = tally.total_s
    results["pipeline.jobs_per_s"] = samples.median("pipeline")
    results["pipeline.jobs_per_s_overall"] = tally.jobs / tally.total_s if tally.total_s else 0.0
    results["pipeline.jobs"] = tally.jobs
    results["pipeline.jobs_to_pdf"] = tally.prepared
    results["pipeline.noop_workflows_per_s_same_run"] = samples.median("noop")
    results["pipeline.ratio_vs_noop"] = samples.ratio("pipeline", "noop")
    # The same no-op workflows on the worker's own runner (ADR 0381), which the pipeline runs on.
    results["pipeline.noop_worker_runner_per_s_same_run"] = samples.median("noop_worker_runner")
    results["pipeline.ratio_vs_noop_worker_runner"] = samples.ratio("pipeline", "noop_worker_runner")
    # Where a job's CPU goes against a no-op workflow's, by process (ADR 0430): on a machine whose
    # cores are full both rates are set by CPU per unit, so these bound the ratio.
    for group in GROUPS:
        results[f"pipeline.cpu_ms_per_job.{group}"] = 1000 * tally.cpu[group] / max(tally.jobs, 1)
        results[f"pipeline.noop_cpu_ms_per_workflow.{group}"] = (
            1000 * tally.noop_cpu[group] / max(tally.noops, 1)
        )
    job_cpu, noop_cpu = (
        sum(tally.cpu.values()) / max(tally.jobs, 1),
        sum(tally.noop_cpu.values()) / max(tally.noops, 1),
    )
    results["pipeline.cpu_ms_per_job"] = 1000 * job_cpu
    results["pipeline.noop_cpu_ms_per_workflow"] = 1000 * noop_cpu
    results["pipeline.cpu_ratio_vs_noop"] = noop_cpu / job_cpu if job_cpu else 0.0
    results["pipeline.workflow_task_max_s"] = max(durations, default=0.0)
    results["pipeline.workflow_tasks_over_1s"] = sum(1 for d in durations if d > 1.0)
    results["pipeline.workflow_tasks"] = len(durations)
    slow = sorted(timings, key=lambda t: -t.seconds)[:5]
    results["pipeline.slow_workflow_tasks"] = " | ".join(t.describe() for t in slow if t.seconds > 1.0)
