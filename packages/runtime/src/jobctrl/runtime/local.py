"""Server + worker for one process tree, for ``make demo`` and tools.

``local_runtime(...)`` gives an in-process worker (an asyncio task) on the embedded dev server, or on
``address`` when given; ``spawn_worker(...)`` runs ``jobctrl worker`` as a subprocess pointed at a
server this process started.  Both stop only what they started.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from temporalio.client import Client

from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration.workflows.ids import TASK_QUEUE
from jobctrl.runtime.activities import ActivityFn
from jobctrl.runtime.activities.ports import SpendStatusPort
from jobctrl.runtime.embedded import DevServer
from jobctrl.runtime.settings import SettingsSource
from jobctrl.runtime.worker import WorkerRuntime


@dataclass
class LocalRuntime:
    client: Client
    worker: WorkerRuntime
    server: DevServer | None

    @property
    def address(self) -> str | None:
        return self.server.address if self.server else None


@asynccontextmanager
async def local_runtime(
    *,
    db: Database,
    store: EventStore,
    settings: SettingsSource,
    spend: SpendStatusPort,
    overrides: Iterable[ActivityFn] = (),
    address: str | None = None,
    namespace: str = "default",
    task_queue: str = TASK_QUEUE,
    server_db_file: Path | None = None,
) -> AsyncIterator[LocalRuntime]:
    server: DevServer | None = None
    if address is None:
        server = DevServer.launch(server_db_file, namespace=namespace)
    try:
        client = (
            await server.wait_ready() if server else await Client.connect(address or "", namespace=namespace)
        )
        runtime = WorkerRuntime(
            client=client, db=db, store=store, settings=settings, spend=spend,
            task_queue=task_queue, namespace=namespace, overrides=overrides,
        )  # fmt: skip
        task = asyncio.create_task(runtime.run())
        ready = asyncio.create_task(runtime.ready.wait())
        await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            ready.cancel()
            task.result()  # start-up failed: raise its error
        try:
            yield LocalRuntime(client, runtime, server)
        finally:
            runtime.stop()
            with suppress(asyncio.CancelledError):
                await task
    finally:
        if server is not None:
            server.stop()


def spawn_worker(
    address: str, *, env: Mapping[str, str] | None = None, log: Path | None = None
) -> subprocess.Popen[bytes]:
    """``jobctrl worker`` as a child process on ``address``; the caller terminates it (SIGTERM)."""
    child_env = dict(os.environ if env is None else env)
    child_env["TEMPORAL_ADDRESS"] = address
    jobctrl = Path(sys.executable).parent / "jobctrl"
    out = log.open("ab") if log else subprocess.DEVNULL
    try:
        return subprocess.Popen([str(jobctrl), "worker"], env=child_env, stdout=out, stderr=subprocess.STDOUT)
    finally:
        if log:
            out.close()  # type: ignore[union-attr]
