"""Reliability row "kill -9 of the worker and of the projector at random points, N runs" (issue #17).

One dev server, one database, one worker (``jobctrl worker``) and one projector (``jobctrl
projections run``), each its own process.  Run 0 is the control: one Discover of a two-posting board
with nobody killed.  Then N chaos runs, each a Discover of its own two-posting board (its own tenant
and employer): once a run has started, the worker is killed with SIGKILL at a random point and
started again, then the projector likewise; the next run starts at once, so the runs overlap and each
kill lands at a different stage of the runs in flight.  The seed is printed; the same seed replays
the same kill delays.  Every run must complete (bounded deadlines), and then:

* lost events: an event the control recorded that is missing -- per job (discovered, observed,
  enriched, scored, its stages completed or skipped), per run (started, crawled, cohort closed,
  ended) and per workflow (its end) -- 0;
* duplicated events: an event beyond the control's on the same subject, a workflow started or ended
  twice, or one event id twice -- 0;
* the read models the killed projector kept equal a clean rebuild of the log, table by table.

``JOBCTRL_CHAOS_RUNS`` sets N (20 by default, so CI runs >= 20; ``make chaos`` runs 200) and
``JOBCTRL_CHAOS_SEED`` the seed (default: random, printed).
"""

from __future__ import annotations

import asyncio
import os
import random
import time
import uuid
from pathlib import Path

import msgspec
import pytest
from temporalio.client import Client, WorkflowHandle

from jobctrl.discovery.sample_board import SampleJobBoard
from jobctrl.discovery.use_cases.register_sources import register_sources
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import SystemClock
from jobctrl.kernel.store import Database, EventStore, open_database
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.orchestration import save_profile
from jobctrl.orchestration.workflows.discover import DiscoverResult, DiscoverWorkflow, DiscoverWorkflowInput
from jobctrl.orchestration.workflows.ids import (
    discover_workflow_id,
    preparation_idempotency_key,
    preparation_workflow_id,
)
from jobctrl.projections import read_status
from jobctrl.runtime.composition.profiles import to_document
from jobctrl.runtime.composition.root import Composition
from jobctrl.testing.figures import Figures
from jobctrl.testing.runtime.chaos import (
    POSTINGS_PER_RUN,
    Ledger,
    Supervised,
    Zygote,
    chaos_postings,
    wait_for_line,
)
from jobctrl.testing.runtime.read_models import differing_read_models

pytestmark = [pytest.mark.temporal, pytest.mark.integration]
RUNS = int(os.environ.get("JOBCTRL_CHAOS_RUNS", "20"))
SEED = int(os.environ.get("JOBCTRL_CHAOS_SEED", str(random.SystemRandom().randrange(1 << 32))))
#: The random point: a kill lands 0 .. KILL_WINDOW_S after the run started (or the process was ready).
KILL_WINDOW_S = 2.5
READY = "worker on task queue"


async def _start(
    client: Client, queue: str, tenant: str, source_id: str
) -> WorkflowHandle[DiscoverWorkflow, DiscoverResult]:
    return await client.start_workflow(
        DiscoverWorkflow.run,
        DiscoverWorkflowInput(tenant=tenant, source_ids=[source_id], heartbeat_timeout_s=3),
        id=discover_workflow_id(tenant),
        task_queue=queue,
    )


async def _finish(
    client: Client, comp: Composition, tenant: str, handle: WorkflowHandle[DiscoverWorkflow, DiscoverResult]
) -> list[str]:
    """Await the Discover and every preparation it started (bounded: a lost run fails here); the
    run's job ids."""
    result = await asyncio.wait_for(handle.result(), timeout=180)
    assert isinstance(result, DiscoverResult)
    run_id = result.execution.temporal_run_id
    targets = comp.facts.targets(tenant, run_id, "observed_this_run")
    # Each run's cohort is its own board's postings, no other run's (ADR 0295).
    assert len(targets) == result.preparation_workflows_started == POSTINGS_PER_RUN, (tenant, result)
    for t in targets:
        wid = preparation_workflow_id(
            preparation_idempotency_key(tenant, t.job_id, t.kind, t.target_version, t.source_event_id)
        )
        await asyncio.wait_for(client.get_workflow_handle(wid).result(), timeout=180)
    return [t.job_id for t in targets]


@pytest.mark.asyncio
@pytest.mark.timeout(600)  # ~2 min on 2 cores; a loaded machine must not turn that into a failure
async def test_kill_9_of_worker_and_projector_loses_and_duplicates_nothing(
    temporal_address: str, tmp_path: Path, figures: Figures
) -> None:
    print(f"chaos: seed {SEED}, {RUNS} runs (JOBCTRL_CHAOS_SEED={SEED} replays the kill delays)")
    rng = random.Random(SEED)
    queue = f"chaos-{uuid.uuid4().hex[:8]}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEMPORAL_", "JOBCTRL_"))}
    env.update(
        JOBCTRL_HOME=str(tmp_path),
        TEMPORAL_ADDRESS=temporal_address,
        JOBCTRL_TASK_QUEUE=queue,
        PYTHONUNBUFFERED="1",
    )
    db = open_database(f"sqlite:///{tmp_path / 'jobctrl.db'}")
    store = EventStore(db, registry())
    postings = [p for run in range(RUNS + 1) for p in chaos_postings(run)]
    zygote = Zygote(env)
    worker = Supervised(zygote, ["worker"], tmp_path / "worker.log")
    projector = Supervised(
        zygote, ["projections", "run", "--poll-interval", "0.05"], tmp_path / "projector.log"
    )
    started = time.monotonic()
    with SampleJobBoard(postings=postings) as board:
        sources = board.sources()
        by_run = {
            run: next(s.source_id for s in sources if s.source_id.endswith(f"-chaos{run}"))
            for run in range(RUNS + 1)
        }
        # The worker registers them from $JOBCTRL_HOME/sources.json at its first start (ADR 0150).
        (tmp_path / "sources.json").write_bytes(msgspec.json.encode(sources))
        comp = Composition.build(db, store, sources=lambda: sources, artifacts_root=tmp_path / "artifacts")
        save_profile(store, to_document(dict(SAMPLE_PROFILE)))
        register_sources(store, sources, clock=SystemClock())
        tenants = [f"c{run}-{uuid.uuid4().hex[:6]}" for run in range(RUNS + 1)]
        try:
            projector.start()
            worker.start()
            wait_for_line(worker, READY, 1, deadline_s=120)
            client = await Client.connect(temporal_address)
            control = await _finish(
                client, comp, tenants[0], await _start(client, queue, tenants[0], by_run[0])
            )
            handles = []
            for run in range(1, RUNS + 1):
                handles.append(await _start(client, queue, tenants[run], by_run[run]))
                at_worker, at_projector = rng.uniform(0, KILL_WINDOW_S), rng.uniform(0, KILL_WINDOW_S / 5)
                await asyncio.sleep(at_worker)
                worker.kill9()
                await asyncio.sleep(at_projector)
                projector.kill9()
                print(f"run {run}: worker killed +{at_worker:.2f} s, projector +{at_projector:.2f} s after")
                await asyncio.to_thread(wait_for_line, worker, READY, worker.kills + 1, 120)
            jobs = [
                j
                for run in range(1, RUNS + 1)
                for j in await _finish(client, comp, tenants[run], handles[run - 1])
            ]
            worker.stop()  # nothing more is written; the projector folds to the head
            await asyncio.to_thread(_await_caught_up, db, projector)
        finally:
            worker.stop()
            projector.stop()
            zygote.close()
            comp.close()
    elapsed = time.monotonic() - started
    ledger = Ledger(store.read_all(limit=10_000_000))
    expected_job, expected_run = ledger.job(control[0]), ledger.run(tenants[0])
    # The control is the whole pipeline: each posting discovered, enriched and scored, the run ended.
    assert ledger.job(control[1]) == expected_job and expected_job["JobScored"] == 1, expected_job
    assert expected_run["DiscoveryRunCompleted"] == 1, expected_run
    for job_id in jobs:
        ledger.compare(expected_job, ledger.job(job_id))
    for tenant in tenants[1:]:
        ledger.compare(expected_run, ledger.run(tenant))
    workflows = ledger.workflows()
    ledger.ids()
    lost, duplicated = ledger.lost, ledger.duplicated
    fresh = open_database(f"sqlite:///{tmp_path / 'clean-rebuild.db'}")
    try:
        differing = differing_read_models(db, fresh)
    finally:
        fresh.dispose()
        db.dispose()
    where = f"kill -9 worker x{worker.kills}, projector x{projector.kills}; {RUNS} runs, {len(jobs)} jobs,"
    where += f" {workflows} workflows"
    figures.record(f"lost events ({where})", lost, goal="0", met=lost == 0)
    figures.record(f"duplicated events ({where})", duplicated, goal="0", met=duplicated == 0)
    figures.record(
        f"read-model tables unequal to a rebuild ({where})", len(differing), goal="0", met=not differing
    )
    figures.record(f"kill -9 chaos runs (seed {SEED}, {elapsed:.0f} s)", RUNS, goal=">= 20", met=RUNS >= 20)
    assert worker.kills == projector.kills == RUNS >= 20
    assert (lost, duplicated, differing) == (0, 0, []), (expected_job, worker.tail(), projector.tail())


def _await_caught_up(db: Database, projector: Supervised) -> None:
    deadline = time.monotonic() + 60
    while True:
        status = read_status(db)
        if status.watermark == status.head:
            return
        assert time.monotonic() < deadline and projector.alive(), (status, projector.tail())
        time.sleep(0.05)
