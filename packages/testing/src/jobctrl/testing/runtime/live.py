"""A live JobCtrl home for end-to-end features: a SQLite home with the product's schema, settings and
the sample profile; a real ``jobctrl worker --projections`` subprocess on the session's Temporal dev
server; the HTTP API in a uvicorn thread (port 0).  Waits are bounded polls of a condition
(:func:`until`), never sleeps before an assert.  A feature's world extends :class:`LiveHome` with what
its scenarios add (an SMTP server, a vendor stand-in, a browser page)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import uvicorn
from temporalio.client import Client

from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore, open_database
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.orchestration import save_profile
from jobctrl.orchestration.adapters.settings_store import SettingsStore
from jobctrl.orchestration.adapters.tables import create_orchestration_tables
from jobctrl.projections.migrate import migrate
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.composition.profiles import to_document
from jobctrl.runtime.telemetry.heartbeat import create_table as create_heartbeat_table
from jobctrl.runtime.telemetry.heartbeat import fresh_heartbeats

from .server import worker_bytecode_env

T = TypeVar("T")


def until(
    condition: Callable[[], T | None], what: str, *, timeout: float = 90.0, log: Path | None = None
) -> T:
    """Poll ``condition`` until it returns something truthy, within ``timeout`` seconds; on a timeout
    the assertion carries the tail of ``log`` (the worker's output)."""
    deadline = time.monotonic() + timeout
    while True:
        found = condition()
        if found:
            return found
        if time.monotonic() > deadline:
            tail = log.read_text()[-3000:] if log is not None and log.exists() else ""
            raise AssertionError(f"timed out waiting for {what}\n{tail}")
        time.sleep(0.1)


@dataclass
class LiveHome:
    tmp: Path
    temporal: str
    pycache: Path
    queue: str = field(default_factory=lambda: f"live-{uuid.uuid4().hex[:8]}")
    db: Database | None = None
    store: EventStore | None = None
    worker: subprocess.Popen[bytes] | None = None
    api: str = ""
    closers: list[Callable[[], None]] = field(default_factory=list)

    @property
    def home(self) -> Path:
        return self.tmp / "home"

    @property
    def log(self) -> Path:
        return self.tmp / "worker.log"

    @property
    def database_url(self) -> str:
        return f"sqlite:///{self.home / 'jobctrl.db'}"

    def the_db(self) -> Database:
        assert self.db is not None
        return self.db

    def the_store(self) -> EventStore:
        assert self.store is not None
        return self.store

    def create(self, settings: Mapping[str, Any]) -> None:
        """The home as ``jobctrl init`` leaves it: the log, the read models, the orchestration and
        heartbeat tables, ``settings`` (plus this world's task queue) and the sample profile."""
        self.home.mkdir()
        self.db = open_database(self.database_url)
        self.store = EventStore(self.db, registry())
        self.store.create_schema()
        migrate(self.db)
        create_orchestration_tables(self.db)
        create_heartbeat_table(self.db)
        SettingsStore(self.db).update({**settings, "task_queue": self.queue})
        save_profile(self.store, to_document(dict(SAMPLE_PROFILE)))

    def spawn_worker(self, env: Mapping[str, str] | None = None) -> None:
        """Start ``jobctrl worker --projections`` on this home and wait for its first heartbeat."""
        full = {k: v for k, v in os.environ.items() if not k.startswith(("TEMPORAL_", "JOBCTRL_"))}
        full.update(
            JOBCTRL_HOME=str(self.home), TEMPORAL_ADDRESS=self.temporal, JOBCTRL_TASK_QUEUE=self.queue
        )
        full.update(env or {})
        full.update(worker_bytecode_env(self.pycache))
        with self.log.open("ab") as out:
            self.worker = subprocess.Popen(
                [str(Path(sys.executable).parent / "jobctrl"), "worker", "--projections"],
                env=full, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        db = self.the_db()
        until(
            lambda: fresh_heartbeats(db, datetime.now().astimezone()),
            "a worker heartbeat",
            timeout=120,
            log=self.log,
        )

    def stop_worker(self) -> None:
        """SIGTERM the worker (SIGKILL if it has not stopped within 30 s)."""
        if self.worker is not None and self.worker.poll() is None:
            self.worker.send_signal(signal.SIGTERM)
            try:
                self.worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.worker.kill()
                self.worker.wait(timeout=10)
        self.worker = None

    def serve_api(self) -> None:
        """The HTTP API on this home and the same Temporal server, in a uvicorn thread on a free port."""
        config = ApiConfig(
            database_url=self.database_url, temporal_address=self.temporal,
            task_queue=self.queue, artifacts_root=self.home / "artifacts",
        )  # fmt: skip
        server = uvicorn.Server(
            uvicorn.Config(create_app(config), host="127.0.0.1", port=0, log_level="warning")
        )
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        until(lambda: server.started, "the API to start", timeout=30)
        self.api = f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"

        def stop() -> None:
            server.should_exit = True
            thread.join(timeout=20)

        self.closers.append(stop)

    def temporal_call(self, work: Callable[[Client], Any]) -> Any:
        """Run ``work`` with a client of the session's Temporal server, on a thread of its own (a
        Playwright sync API may hold an event loop on this one)."""

        async def go() -> Any:
            return await work(await Client.connect(self.temporal))

        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, go()).result()

    def close(self) -> None:
        """Stop the worker, then everything the scenario opened (last first), then the database."""
        self.stop_worker()
        for close in reversed(self.closers):
            close()
        if self.db is not None:
            self.db.dispose()
