"""A Discover run that dies mid-family still ends its DiscoveryRun with exactly one terminal fact
(ADR 0079), on the real dev server with the real discovery activities over a source that holds its
answer until the test releases it.

* terminated: Temporal runs none of the workflow's code, so the describe-based reconciler closes the
  run (``reconciled_terminated``, under the run's own tenant) and its execution's membership
  (``interrupted_reconciled_terminated``, ADR 0083) -- once, however often it runs; the dead run's
  late family cannot link members to it, and a rerun is unaffected;
* canceled: the workflow's own cancel path closes the run (``canceled``) and the membership
  (``interrupted_canceled``) before ``WorkflowCanceled``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from temporalio.client import Client, WorkflowFailureError

from jobctrl.discovery.events import (
    DiscoveryExecutionMembershipClosed,
    DiscoveryRunCompleted,
    DiscoveryRunFailed,
    DiscoveryRunStarted,
)
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import Clock, SystemClock
from jobctrl.kernel.events import DomainEvent
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration.domain.workflow_run import WorkflowRun, run_key
from jobctrl.orchestration.workflows.discover import DiscoverResult, DiscoverWorkflow, DiscoverWorkflowInput
from jobctrl.projections import ProjectionRunner
from jobctrl.projections.read_models.discovery_runs import discovery_run_projections
from jobctrl.runtime.reconcile.runs import ReconcileReport, reconcile_runs
from jobctrl.testing.runtime.harness import Harness
from jobctrl.testing.runtime.held_board import HeldBoard, held_board
from jobctrl.testing.runtime.scenario import until

pytestmark = [pytest.mark.temporal, pytest.mark.integration]

SOURCE = "lever-initech"
TERMINAL = (DiscoveryRunCompleted, DiscoveryRunFailed)


@pytest.fixture
def held(database: Database, harness: Harness, tmp_path: Path) -> Iterator[HeldBoard]:
    with held_board(database, harness.store, tmp_path, (SOURCE,)) as board:
        yield board


def _decoded(store: EventStore) -> list[DomainEvent]:
    return [store.registry.decode(e) for e in store.read_all(limit=100_000)]


def _terminals(store: EventStore, run_id: str) -> list[DomainEvent]:
    return [e for e in _decoded(store) if isinstance(e, TERMINAL) and e.run_id == run_id]


def _lifecycle(store: EventStore, workflow_id: str, run_id: str) -> str:
    return ", ".join(
        r.event_type for r in store.read_stream(WorkflowRun.stream_id_for(run_key(workflow_id, run_id)))
    )


async def _reconcile(client: Client, store: EventStore, clock: Clock) -> ReconcileReport:
    """The reconciler over the read model the projection runner keeps current (as ``serve`` does)."""
    ProjectionRunner(store.db, registry()).catch_up()
    return await reconcile_runs(client, store, clock)


def _run_row(db: Database, run_id: str) -> tuple[object, ...]:
    """(tenant, status, error classes, failed source) of the run in ``discovery_run_projections``."""
    ProjectionRunner(db, registry()).catch_up()
    t = discovery_run_projections
    query = sa.select(t.c.tenant_id, t.c.status, t.c.error_classes_json, t.c.failed_source_id)
    with db.read() as conn:
        return tuple(conn.execute(query.where(t.c.run_id == run_id)).one())


def _closes(store: EventStore, run_id: str) -> list[tuple[str, DiscoveryExecutionMembershipClosed]]:
    """(tenant, event) of every membership close of the execution of ``run_id``."""
    rows = store.read_all(limit=100_000, types=["DiscoveryExecutionMembershipClosed"])
    decoded = [(r.tenant_id, store.registry.decode(r)) for r in rows]
    return [
        (tenant, e)
        for tenant, e in decoded
        if isinstance(e, DiscoveryExecutionMembershipClosed) and e.execution.temporal_run_id == run_id
    ]


def _linked(store: EventStore, run_id: str) -> int:
    rows = store.read_all(limit=100_000, types=["DiscoveryExecutionMemberLinked"])
    return sum(run_id.encode() in r.payload for r in rows)


def _late_family_observed(store: EventStore, run_id: str) -> bool:
    """The terminated run's family activity got its answer after all and recorded what it saw (its
    members it may no longer link: the membership is closed)."""
    rows = store.read_all(limit=100_000, types=["JobSourceObserved"])
    return sum(run_id.encode() in r.payload for r in rows) >= 7


@pytest.mark.asyncio
async def test_a_terminated_discover_is_closed_once_by_the_reconciler_and_a_rerun_is_unaffected(
    harness: Harness, held: HeldBoard
) -> None:
    store, clock = harness.store, SystemClock()
    async with harness.worker(held.comp.activities(), targets=held.comp.facts) as w:
        first = await w.client.start_workflow(
            DiscoverWorkflow.run, DiscoverWorkflowInput(tenant="acme", source_ids=[SOURCE]),
            id="discover-acme", task_queue=w.task_queue,
        )  # fmt: skip
        await until(lambda: held.asked() >= 1)  # the family is crawling, its answer held
        run_id = first.result_run_id or ""
        assert [e for e in _decoded(store) if isinstance(e, DiscoveryRunStarted) and e.run_id == run_id]
        await first.terminate("killed mid-family by the test")

        reports = [await _reconcile(w.client, store, clock) for _ in range(3)]
        assert [r.discovery_runs_closed for r in reports] == [1, 0, 0]
        assert _lifecycle(store, "discover-acme", run_id) == "WorkflowStarted, WorkflowTerminated"
        (ended,) = _terminals(store, run_id)
        assert isinstance(ended, DiscoveryRunFailed)
        assert (ended.error_class, ended.source_id, ended.retryable) == ("reconciled_terminated", "", True)
        ((tenant, closed),) = _closes(store, run_id)
        assert (tenant, closed.reason_code, closed.member_count) == (
            "acme", "interrupted_reconciled_terminated", 0,
        )  # fmt: skip

        # The held answer arrives for the dead run's family; it must not reopen or move the closed run
        # nor join its closed membership.
        held.release.set()
        await until(lambda: _late_family_observed(store, run_id))
        second = await w.client.start_workflow(
            DiscoverWorkflow.run, DiscoverWorkflowInput(tenant="acme", source_ids=[SOURCE]),
            id="discover-acme", task_queue=w.task_queue,
        )  # fmt: skip
        result: DiscoverResult = await second.result()
        rerun = second.result_run_id or ""
        again = await _reconcile(w.client, store, clock)

    assert rerun != run_id and result.observed_jobs == 7 and not result.failed_families
    assert again.discovery_runs_closed == 0 and again.settled == 0
    assert _lifecycle(store, "discover-acme", rerun) == "WorkflowStarted, WorkflowCompleted"
    (done,) = _terminals(store, rerun)
    assert isinstance(done, DiscoveryRunCompleted) and done.error_classes == []
    assert len(_terminals(store, run_id)) == 1  # still exactly one for the terminated run
    assert len(_closes(store, run_id)) == 1 and _linked(store, run_id) == 0
    assert [e.reason_code for _, e in _closes(store, rerun)] == [None]  # the rerun's fan-out closed it
    assert _run_row(store.db, run_id) == (
        "acme", "failed", '["reconciled_terminated"]', None,
    )  # fmt: skip
    assert _run_row(store.db, rerun)[1] == "completed"


@pytest.mark.asyncio
async def test_a_canceled_discover_closes_its_run_on_its_own_cancel_path(
    harness: Harness, held: HeldBoard
) -> None:
    store = harness.store
    async with harness.worker(held.comp.activities(), targets=held.comp.facts) as w:
        handle = await w.client.start_workflow(
            DiscoverWorkflow.run, DiscoverWorkflowInput(tenant="local", source_ids=[SOURCE]),
            id="discover-local", task_queue=w.task_queue,
        )  # fmt: skip
        await until(lambda: held.asked() >= 1)
        run_id = handle.result_run_id or ""
        await handle.cancel()
        await until(lambda: "WorkflowCanceled" in _lifecycle(store, "discover-local", run_id))
        # The run is closed in Temporal too before its worker goes: a run left open on the shared dev
        # server would be attached to by any later `discover-local` start (USE_EXISTING).
        with pytest.raises(WorkflowFailureError):
            await handle.result()
        # Nothing is left for the reconciler: the workflow recorded both terminal facts itself.
        report = await _reconcile(w.client, store, SystemClock())
        held.release.set()

    assert report.discovery_runs_closed == 0
    assert _lifecycle(store, "discover-local", run_id) == "WorkflowStarted, WorkflowCanceled"
    (ended,) = _terminals(store, run_id)
    assert isinstance(ended, DiscoveryRunFailed)
    assert (ended.error_class, ended.source_id, ended.retryable) == ("canceled", "", False)
    ((tenant, closed),) = _closes(store, run_id)
    assert (tenant, closed.reason_code) == ("local", "interrupted_canceled")
    # The DiscoveryRun and the membership were closed before the workflow's own terminal fact.
    rows = store.read_all(
        limit=100_000, types=["DiscoveryRunFailed", "DiscoveryExecutionMembershipClosed", "WorkflowCanceled"]
    )
    assert [r.event_type for r in rows] == [
        "DiscoveryRunFailed", "DiscoveryExecutionMembershipClosed", "WorkflowCanceled",
    ]  # fmt: skip
