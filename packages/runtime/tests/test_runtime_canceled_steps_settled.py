"""A canceled (or terminated) Discover run leaves no pipeline step "queued" or "running" for ever
(ADR 0270), on the real dev server with the real discovery activities over a source that holds its
answer until the test releases it.

Two families crawled one at a time: the cancel arrives while the first crawls, so the workflow ends
that step itself (``canceled``) and the second family's step, queued at plan time, is never started.
Before the settle path that row read ``queued`` in the read model and the operations view for ever;
now the reconciler ends it through orchestration's step writer (``PipelineStepFailed``, code
``canceled``, detail ``terminal_reconciliation``), once, and the kept read models equal a rebuild.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from temporalio.client import Client, WorkflowFailureError

from jobctrl.domain_types import registry
from jobctrl.kernel.clock import SystemClock
from jobctrl.kernel.store import Database, EventStore, open_database
from jobctrl.orchestration.domain.workflow_run import WorkflowRun, run_key
from jobctrl.orchestration.workflows.discover import DiscoverWorkflow, DiscoverWorkflowInput
from jobctrl.projections import ProjectionRunner
from jobctrl.projections.read_models.pipeline_steps import pipeline_step_projections
from jobctrl.runtime.api.app import ApiConfig
from jobctrl.runtime.reconcile.runs import ReconcileReport, reconcile_runs
from jobctrl.testing.runtime.harness import Harness
from jobctrl.testing.runtime.held_board import HeldBoard, held_board
from jobctrl.testing.runtime.read_models import differing_read_models
from jobctrl.testing.runtime.scenario import until

from .conftest import run_api

pytestmark = [pytest.mark.temporal, pytest.mark.integration]

HELD, QUEUED = "lever-initech", "smartrecruiters-tailspin"  # families "lever" (first) and "smartrecruiters"


@pytest.fixture
def held(database: Database, harness: Harness, tmp_path: Path) -> Iterator[HeldBoard]:
    with held_board(database, harness.store, tmp_path, (HELD, QUEUED)) as board:
        yield board


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Database]:
    db = open_database(f"sqlite:///{tmp_path / 'fresh.db'}")
    yield db
    db.dispose()


def _steps(db: Database, run_id: str) -> dict[tuple[str, str], tuple[Any, ...]]:
    """(kind, key) -> (status, error code, retryable, detail code) of the run's step rows, folded now."""
    ProjectionRunner(db, registry()).catch_up()
    s = pipeline_step_projections.c
    query = sa.select(s.step_kind, s.item_key, s.status, s.error_code, s.retryable, s.detail_code)
    with db.read() as conn:
        rows = conn.execute(query.where(s.run_id == run_id)).all()
    return {(k, key): tuple(rest) for k, key, *rest in rows}


def _lifecycle(store: EventStore, workflow_id: str, run_id: str) -> str:
    stream = WorkflowRun.stream_id_for(run_key(workflow_id, run_id))
    return ", ".join(r.event_type for r in store.read_stream(stream))


async def _reconcile(client: Client, store: EventStore) -> ReconcileReport:
    ProjectionRunner(store.db, registry()).catch_up()
    return await reconcile_runs(client, store, SystemClock())


def _open(steps: dict[tuple[str, str], tuple[Any, ...]]) -> list[tuple[str, str]]:
    return [k for k, (status, *_) in steps.items() if status in ("queued", "running")]


@pytest.mark.asyncio
async def test_a_canceled_discover_has_its_never_started_steps_settled_by_the_reconciler(
    harness: Harness, held: HeldBoard, db_url: str, fresh: Database
) -> None:
    store, db = harness.store, harness.db
    async with harness.worker(held.comp.activities(), targets=held.comp.facts) as w:
        handle = await w.client.start_workflow(
            DiscoverWorkflow.run,
            DiscoverWorkflowInput(tenant="local", source_ids=[HELD, QUEUED], family_batch_size=1),
            id="discover-local", task_queue=w.task_queue,
        )  # fmt: skip
        await until(lambda: held.asked() >= 1)  # the first family crawls, its answer held
        run_id = handle.result_run_id or ""
        await handle.cancel()
        await until(lambda: "WorkflowCanceled" in _lifecycle(store, "discover-local", run_id))
        with pytest.raises(WorkflowFailureError):
            await handle.result()

        # The gap: the workflow ended the step it had started, never the one still queued.
        before = _steps(db, run_id)
        assert before[("source_family", "lever")][:2] == ("failed", "canceled")
        assert before[("source_family", "smartrecruiters")] == ("queued", None, None, None)

        reports = [await _reconcile(w.client, store) for _ in range(3)]
        held.release.set()

    assert [r.steps_settled for r in reports] == [1, 0, 0]  # once, however often it runs
    await until(lambda: not _open(_steps(db, run_id)), timeout_s=10)
    after = _steps(db, run_id)
    settled = ("failed", "canceled", False, "terminal_reconciliation")
    assert after[("source_family", "smartrecruiters")] == settled
    assert after[("source_family", "lever")] == before[("source_family", "lever")]  # an ended step is kept
    assert all(status in ("succeeded", "failed") for status, *_ in after.values())

    for api in run_api(ApiConfig(database_url=db_url)):
        ops = httpx.get(f"{api.base_url}/v1/pipeline/operations", timeout=10).json()
        runs = httpx.get(f"{api.base_url}/v1/workflow-runs", timeout=10).json()["items"]
    families = ops["sourceFamilies"]
    assert (families["queued"], families["running"], families["failed"]) == (0, 0, 2)
    (run,) = [r for r in runs if r["runId"] == run_id]
    assert (run["status"], run["phase"], run["cancelable"]) == ("canceled", "canceled", False)

    assert differing_read_models(db, fresh) == []  # the incremental fold equals a rebuild of the log
