"""Kill -9 the worker (or the dev server) mid-run, start another: the same Discover run completes,
every preparation the fan-out started completes, no fact is recorded twice, and the read models equal
a clean rebuild.  The run is started with a 6 s heartbeat timeout so the killed worker's activities
are retried in seconds (the default is 2 minutes).

Each worker runs with ``--projections``: the projection runner folds in the worker's own process, so
the kill -9 hits it mid-fold too, and the restarted worker's runner resumes from the watermark.  After
the last worker stopped (its runner caught up to the log head), the read models are compared table by
table with a rebuild of the copied log in a fresh database."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from temporalio.client import Client, WorkflowHandle

from jobctrl.discovery import SourceConfig
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
from jobctrl.runtime.embedded import DevServer
from jobctrl.testing.runtime.read_models import differing_read_models
from jobctrl.testing.runtime.server import shared_worker_pycache, worker_bytecode_env

pytestmark = [pytest.mark.temporal, pytest.mark.integration]
ONCE_PER_JOB = ("JobScored", "ResumeApproved", "CoverLetterGenerated", "JobEnriched")


def _spawn(env: dict[str, str], log: Path, address: str | None = None) -> subprocess.Popen[bytes]:
    """``jobctrl worker --projections`` (on ``address`` when given, else the env's TEMPORAL_ADDRESS)."""
    child_env = env if address is None else {**env, "TEMPORAL_ADDRESS": address}
    with log.open("ab") as out:
        return subprocess.Popen(
            [str(Path(sys.executable).parent / "jobctrl"), "worker", "--projections"],
            env=child_env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def _seed(store: EventStore, sources: list[SourceConfig]) -> None:
    """The sample profile saved and ``sources`` registered, as ``jobctrl init`` and ``sources add`` do."""
    save_profile(store, to_document(dict(SAMPLE_PROFILE)))
    register_sources(store, sources, clock=SystemClock())


async def _start_discover(
    client: Client, tenant: str, sources: list[SourceConfig], queue: str
) -> WorkflowHandle[DiscoverWorkflow, DiscoverResult]:
    return await client.start_workflow(
        DiscoverWorkflow.run,
        DiscoverWorkflowInput(
            tenant=tenant, source_ids=[s.source_id for s in sources], heartbeat_timeout_s=6
        ),
        id=discover_workflow_id(tenant),
        task_queue=queue,
    )


def _assert_read_models_equal_a_clean_rebuild(db: Database, tmp_path: Path) -> None:
    status = read_status(db)  # the last worker's runner caught up when it stopped
    log_tail = (tmp_path / "worker.log").read_text()[-2000:]
    assert status.head > 0 and status.watermark == status.head and status.skipped == 0, (status, log_tail)
    rows = {t.table: t.rows for t in status.tables}
    assert rows["job_list_projections"] > 0 and rows["job_stage_states"] > 0, rows
    fresh = open_database(f"sqlite:///{tmp_path / 'clean-rebuild.db'}")
    try:
        assert differing_read_models(db, fresh) == []
    finally:
        fresh.dispose()


@pytest.mark.asyncio
async def test_killed_worker_restarts_and_the_same_runs_complete_without_duplicates(
    temporal_address: str, tmp_path: Path
) -> None:
    tenant, queue = f"k{uuid.uuid4().hex[:8]}", f"kill-{uuid.uuid4().hex[:8]}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEMPORAL_", "JOBCTRL_"))}
    env.update(JOBCTRL_HOME=str(tmp_path), TEMPORAL_ADDRESS=temporal_address, JOBCTRL_TASK_QUEUE=queue)
    env.update(worker_bytecode_env(shared_worker_pycache()))
    db = open_database(f"sqlite:///{tmp_path / 'jobctrl.db'}")
    store = EventStore(db, registry())
    log = tmp_path / "worker.log"
    with SampleJobBoard() as board:
        sources = [s for s in board.sources() if s.source_id in ("lever-initech", "ashby-hooli")]
        (tmp_path / "sources.json").write_bytes(msgspec.json.encode(sources))
        comp = Composition.build(db, store, sources=lambda: sources, artifacts_root=tmp_path / "artifacts")
        _seed(store, sources)
        worker = _spawn(env, log)
        try:
            client = await Client.connect(temporal_address)
            handle = await _start_discover(client, tenant, sources, queue)
            run_id = handle.result_run_id
            # Kill once preparations are under way (a Score stage has started), not before.
            await _wait_for_first_score(store, lambda: worker.poll() is None, log)
            worker.send_signal(signal.SIGKILL)
            worker.wait(timeout=10)
            completed_at_kill = len(store.read_all(limit=100_000, types=["WorkflowCompleted"]))
            worker = _spawn(env, log)

            result: DiscoverResult = await asyncio.wait_for(handle.result(), timeout=60)
            assert result.execution.temporal_run_id == run_id  # the same run, not a new one
            targets = comp.facts.targets(tenant, run_id, "observed_this_run")
            assert len(targets) == result.preparation_workflows_started > 0
            for t in targets:
                key = preparation_idempotency_key(
                    tenant, t.job_id, t.kind, t.target_version, t.source_event_id
                )
                prep = client.get_workflow_handle(preparation_workflow_id(key))
                await asyncio.wait_for(prep.result(), timeout=60)
        finally:
            worker.send_signal(signal.SIGTERM)
            worker.wait(timeout=30)
            comp.close()

    _assert_each_fact_once(store, completed_at_kill)
    _assert_read_models_equal_a_clean_rebuild(db, tmp_path)
    db.dispose()


def _assert_each_fact_once(store: EventStore, completed_at_kill: int) -> None:
    events = store.read_all(limit=1_000_000)
    assert completed_at_kill < sum(e.event_type == "WorkflowCompleted" for e in events)  # killed mid-run
    assert len({e.event_id for e in events}) == len(events)
    for event_type in ONCE_PER_JOB:
        per_job = Counter(e.stream_id for e in events if e.event_type == event_type)
        assert all(n == 1 for n in per_job.values()), (event_type, per_job)
    pdfs = Counter(e.stream_id for e in events if e.event_type == "PdfRendered")
    assert pdfs and all(n == 2 for n in pdfs.values()), pdfs
    terminals = Counter(
        (e.stream_id, e.event_type) for e in events if e.event_type in ("WorkflowCompleted", "WorkflowFailed")
    )
    assert all(n == 1 for n in terminals.values()), terminals


async def _wait_for_first_score(store: EventStore, alive: Callable[[], bool], log: Path) -> None:
    deadline = time.monotonic() + 60
    while not store.read_all(limit=10, types=["JobScored"]):
        assert time.monotonic() < deadline and alive(), log.read_text()[-2000:]
        await asyncio.sleep(0.05)


@pytest.mark.asyncio
async def test_dev_server_killed_and_restarted_from_its_file_the_same_runs_complete(tmp_path: Path) -> None:
    tenant, queue = f"s{uuid.uuid4().hex[:8]}", f"srv-{uuid.uuid4().hex[:8]}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEMPORAL_", "JOBCTRL_"))}
    env.update(JOBCTRL_HOME=str(tmp_path), JOBCTRL_TASK_QUEUE=queue)
    env.update(worker_bytecode_env(shared_worker_pycache()))
    db = open_database(f"sqlite:///{tmp_path / 'jobctrl.db'}")
    store = EventStore(db, registry())
    log, history = tmp_path / "worker.log", tmp_path / "temporal" / "history.db"
    server = DevServer.launch(history)
    with SampleJobBoard() as board:
        sources = [s for s in board.sources() if s.source_id in ("lever-initech", "ashby-hooli")]
        (tmp_path / "sources.json").write_bytes(msgspec.json.encode(sources))
        comp = Composition.build(db, store, sources=lambda: sources, artifacts_root=tmp_path / "artifacts")
        _seed(store, sources)
        worker: subprocess.Popen[bytes] | None = None
        try:
            client = await server.wait_ready()
            worker = _spawn(env, log, server.address)
            handle = await _start_discover(client, tenant, sources, queue)
            run_id = handle.result_run_id
            await _wait_for_first_score(store, lambda: worker is not None and worker.poll() is None, log)
            server.process.kill()  # the server dies mid-run (kill -9); its file is all that is left
            server.process.wait(timeout=10)
            worker.send_signal(signal.SIGKILL)
            worker.wait(timeout=10)
            completed_at_kill = len(store.read_all(limit=100_000, types=["WorkflowCompleted"]))

            server = DevServer.launch(history)  # same file, new ports
            client = await server.wait_ready()
            worker = _spawn(env, log, server.address)
            result: DiscoverResult = await asyncio.wait_for(
                client.get_workflow_handle_for(
                    DiscoverWorkflow.run, discover_workflow_id(tenant), run_id=run_id
                ).result(),
                timeout=90,
            )
            assert result.execution.temporal_run_id == run_id
            targets = comp.facts.targets(tenant, run_id, "observed_this_run")
            assert len(targets) == result.preparation_workflows_started > 0
            for t in targets:
                key = preparation_idempotency_key(
                    tenant, t.job_id, t.kind, t.target_version, t.source_event_id
                )
                await asyncio.wait_for(
                    client.get_workflow_handle(preparation_workflow_id(key)).result(), timeout=60
                )
        finally:
            if worker is not None:
                worker.send_signal(signal.SIGTERM)
                worker.wait(timeout=30)
            server.stop()
            comp.close()
    _assert_each_fact_once(store, completed_at_kill)
    _assert_read_models_equal_a_clean_rebuild(db, tmp_path)
    db.dispose()
