"""``temporal.noop_workflows_per_s``: no-op workflows (four no-op activities each) per second on a dev
server started by the bench (the SDK's stock sandboxed runner, jobctrl passed through; the worker's
own runner of ADR 0381 is measured beside it in the pipeline suite's rounds).

Baseline in the same run and on the same server: the same workflows on the unsandboxed runner
(``temporal.noop_workflows_per_s_unsandboxed``); ``temporal.sandbox_ratio`` is what the sandbox
costs.  The pipeline figure (``pipeline.ratio_vs_noop``) is added at integration against this one.
Scale with ``JOBCTRL_BENCH_TEMPORAL_WORKFLOWS`` (default 40).
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from temporalio import activity, workflow
from temporalio.client import Client
from temporalio.worker import UnsandboxedWorkflowRunner, Worker, WorkflowRunner

from jobctrl.runtime.embedded import DevServer
from jobctrl.runtime.worker import sandbox_runner
from jobctrl.testing.bench.cputree import CpuTree, delta


@dataclass(frozen=True)
class NoopInput:
    n: int


@activity.defn(name="bench_noop")
def bench_noop(params: NoopInput) -> int:
    return params.n + 1


@workflow.defn(name="BenchNoopWorkflow")
class BenchNoopWorkflow:
    @workflow.run
    async def run(self, params: NoopInput) -> int:
        value = params.n
        for _ in range(4):
            value = await workflow.execute_activity(
                "bench_noop", NoopInput(value), result_type=int, start_to_close_timeout=timedelta(seconds=30)
            )
        return value


async def _rate(client: Client, count: int, runner: WorkflowRunner) -> float:
    return (await rate_and_cpu(client, count, runner))[0]


async def rate_and_cpu(client: Client, count: int, runner: WorkflowRunner) -> tuple[float, dict[str, float]]:
    """Workflows per second and the CPU seconds they cost, by process group (``cputree``)."""
    tree = CpuTree()
    queue = f"bench-{uuid.uuid4().hex[:8]}"
    with ThreadPoolExecutor(max_workers=6) as executor:
        async with Worker(
            client,
            task_queue=queue,
            workflows=[BenchNoopWorkflow],
            activities=[bench_noop],
            activity_executor=executor,
            max_concurrent_activities=4,
            workflow_runner=runner,
        ):
            await client.execute_workflow(  # warm-up: sandbox imports, task-queue creation
                BenchNoopWorkflow.run, NoopInput(0), id=f"bench-warm-{queue}", task_queue=queue
            )
            started, cpu = time.perf_counter(), tree.sample()
            await asyncio.gather(
                *(
                    client.execute_workflow(
                        BenchNoopWorkflow.run, NoopInput(n), id=f"bench-{queue}-{n}", task_queue=queue
                    )
                    for n in range(count)
                )
            )
            elapsed = time.perf_counter() - started
            return count / elapsed, delta(cpu, tree.sample())


async def _measure(count: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        async with DevServer.start(Path(tmp) / "bench-temporal.db") as server:
            client = await server.wait_ready()
            baseline = await _rate(client, count, UnsandboxedWorkflowRunner())
            sandboxed = await _rate(client, count, sandbox_runner())
    return sandboxed, baseline


def run(results: dict[str, Any]) -> None:
    count = int(os.environ.get("JOBCTRL_BENCH_TEMPORAL_WORKFLOWS", "40"))
    sandboxed, baseline = asyncio.run(_measure(count))
    results["temporal.noop_workflows_per_s"] = sandboxed
    results["temporal.noop_workflows_per_s_unsandboxed"] = baseline
    results["temporal.sandbox_ratio"] = sandboxed / baseline
