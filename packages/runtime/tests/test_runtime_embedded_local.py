"""An in-process server + worker (what ``make demo`` uses) runs a workflow end to end."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from jobctrl.domain_types import registry
from jobctrl.kernel.store import EventStore, open_database
from jobctrl.orchestration.adapters.spend_ledger import ledger_with_settings
from jobctrl.orchestration.adapters.tables import create_orchestration_tables
from jobctrl.orchestration.workflows import ContactResearchInput, ContactResearchWorkflow
from jobctrl.runtime.embedded import local_runtime
from jobctrl.runtime.settings import FixedSettings, RuntimeSettings
from jobctrl.runtime.telemetry.heartbeat import worker_runtime_heartbeats
from jobctrl.testing.runtime.fakes import FakeContexts

pytestmark = [pytest.mark.temporal, pytest.mark.integration]


@pytest.mark.asyncio
async def test_local_runtime_runs_a_workflow_and_stops_its_server(tmp_path: Path) -> None:
    db = open_database(f"sqlite:///{tmp_path / 'jobctrl.db'}")
    store = EventStore(db, registry())
    store.create_schema()
    create_orchestration_tables(db)
    async with local_runtime(
        db=db,
        store=store,
        settings=FixedSettings(RuntimeSettings(worker_activity_slots=2)),
        spend=ledger_with_settings(db),
        overrides=FakeContexts().activities(),
        server_db_file=tmp_path / "temporal.db",
    ) as runtime:
        result = await runtime.client.execute_workflow(
            ContactResearchWorkflow.run,
            ContactResearchInput(task_id="t1"),
            id="contact-research-local-t1",
            task_queue=runtime.worker.task_queue,
        )
        server = runtime.server
    assert result.candidates == 2
    assert server is not None and server.process.poll() is not None
    with db.read() as conn:
        assert conn.execute(select(worker_runtime_heartbeats.c.configured_slots)).scalar_one() == 2
    assert [e.event_type for e in store.read_all()] == ["WorkflowStarted", "WorkflowCompleted"]
    db.dispose()
