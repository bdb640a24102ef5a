"""Steps for discovery/import_url_prepared.feature: a real worker subprocess on the session's Temporal
dev server, the API in a uvicorn thread, a Workday stand-in on a local port (no internet).  Waits are
bounded polls of a condition, never sleeps before an assert."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import sqlalchemy as sa
import uvicorn
from pytest_bdd import given, parsers, scenarios, then, when
from temporalio.client import Client

from jobctrl.discovery.events import DiscoveryRunStarted
from jobctrl.discovery.sample_board.server import LocalHttpServer
from jobctrl.discovery.sample_board.vendors import install_workday, workday_external_path
from jobctrl.domain_types import registry
from jobctrl.kernel.store import Database, EventStore, open_database
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.orchestration import save_profile
from jobctrl.orchestration.adapters.settings_store import SettingsStore
from jobctrl.orchestration.adapters.tables import create_orchestration_tables
from jobctrl.orchestration.workflows.discover import DiscoverResult
from jobctrl.projections.migrate import migrate
from jobctrl.projections.read_models.applications import application_projections as ap
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.composition.profiles import to_document
from jobctrl.runtime.telemetry.heartbeat import create_table as create_heartbeat_table
from jobctrl.runtime.telemetry.heartbeat import fresh_heartbeats
from jobctrl.testing.runtime.server import shared_dev_server, shared_worker_pycache, worker_bytecode_env
from jobctrl.testing.stored import events_of

from .families.conftest import postings_of

pytestmark = [pytest.mark.temporal, pytest.mark.integration]
scenarios("discovery/import_url_prepared.feature")
T = TypeVar("T")


def until(
    condition: Callable[[], T | None], what: str, *, timeout: float = 120.0, log: Path | None = None
) -> T:
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
class World:
    tmp: Path
    temporal: str
    pycache: Path
    queue: str = field(default_factory=lambda: f"import-{uuid.uuid4().hex[:8]}")
    db: Database | None = None
    worker: subprocess.Popen[bytes] | None = None
    api: str = ""
    vendor: LocalHttpServer | None = None
    posts: list[Any] = field(default_factory=list)
    body: dict[str, Any] = field(default_factory=dict)
    closers: list[Callable[[], None]] = field(default_factory=list)

    @property
    def home(self) -> Path:
        return self.tmp / "home"

    @property
    def log(self) -> Path:
        return self.tmp / "worker.log"

    def the_db(self) -> Database:
        assert self.db is not None
        return self.db

    def temporal_call(self, work: Callable[[Client], Any]) -> Any:
        async def go() -> Any:
            return await work(await Client.connect(self.temporal))

        return asyncio.run(go())


@pytest.fixture
def world(pytestconfig: pytest.Config, tmp_path: Path) -> Iterator[World]:
    w = World(tmp=tmp_path, temporal=shared_dev_server(pytestconfig), pycache=shared_worker_pycache())
    try:
        yield w
    finally:
        if w.worker is not None and w.worker.poll() is None:
            w.worker.send_signal(signal.SIGTERM)
            try:
                w.worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                w.worker.kill()
                w.worker.wait(timeout=10)
        for close in reversed(w.closers):
            close()
        if w.db is not None:
            w.db.dispose()


@given("a JobCtrl home with a saved profile and a running jobctrl worker")
def _home_and_worker(world: World) -> None:
    world.home.mkdir()
    world.db = open_database(f"sqlite:///{world.home / 'jobctrl.db'}")
    store = EventStore(world.db, registry())
    store.create_schema()
    migrate(world.db)
    create_orchestration_tables(world.db)
    create_heartbeat_table(world.db)
    SettingsStore(world.db).update({"min_fit_score": 1.0, "task_queue": world.queue})
    save_profile(store, to_document(dict(SAMPLE_PROFILE)))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEMPORAL_", "JOBCTRL_"))}
    env.update(JOBCTRL_HOME=str(world.home), TEMPORAL_ADDRESS=world.temporal, JOBCTRL_TASK_QUEUE=world.queue)
    env.update(worker_bytecode_env(world.pycache))
    with world.log.open("ab") as out:
        world.worker = subprocess.Popen(
            [str(Path(sys.executable).parent / "jobctrl"), "worker", "--projections"],
            env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    db = world.the_db()
    until(lambda: fresh_heartbeats(db, datetime.now().astimezone()), "a worker heartbeat", log=world.log)


@given("the API on that home and the same Temporal server")
def _api(world: World) -> None:
    config = ApiConfig(
        database_url=f"sqlite:///{world.home / 'jobctrl.db'}", temporal_address=world.temporal,
        task_queue=world.queue, artifacts_root=world.home / "artifacts",
    )  # fmt: skip
    server = uvicorn.Server(uvicorn.Config(create_app(config), host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    until(lambda: server.started, "the API to start", timeout=30)
    world.api = f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"

    def stop() -> None:
        server.should_exit = True
        thread.join(timeout=20)

    world.closers.append(stop)


@given(parsers.parse('a Workday stand-in serving {count:d} postings of "{employer}" as "{token}"'))
def _workday(world: World, count: int, employer: str, token: str) -> None:
    vendor = LocalHttpServer()
    vendor.start()
    world.closers.append(vendor.stop)
    world.vendor, world.posts = vendor, postings_of("workday", employer, count)
    tenant, site = token.split("/")
    install_workday(vendor, vendor.base_url, tenant, site, world.posts)


@when(parsers.parse("the API is sent POST /v1/jobs/import-url for the stand-in's posting {n:d}"))
def _import(world: World, n: int) -> None:
    assert world.vendor is not None
    url = f"https://acme.wd5.myworkdayjobs.com/External{workday_external_path(world.posts[n - 1])}"
    response = httpx.post(
        f"{world.api}/v1/jobs/import-url", json={"url": url, "apiBase": world.vendor.base_url}, timeout=60
    )
    assert response.status_code == 201, response.text
    world.body = response.json()


@then("the answer says the job is new and its preparation started in a Discover run")
def _started(world: World) -> None:
    prep = world.body["preparation"]
    assert world.body["created"] is True and prep["state"] == "started", world.body
    assert prep["workflowId"] == "discover-local" and prep["runId"]


@then("that Discover run completes having crawled no source")
def _completed(world: World) -> None:
    prep = world.body["preparation"]

    async def result(client: Client) -> Any:
        handle = client.get_workflow_handle(
            prep["workflowId"], run_id=prep["runId"], result_type=DiscoverResult
        )
        return await handle.result()

    outcome = world.temporal_call(result)
    assert (outcome.families, outcome.failed_families, outcome.observed_jobs) == ([], [], 0), outcome
    assert outcome.preparation_workflows_started == 1, outcome
    store = EventStore(world.the_db(), registry())
    started = events_of(store, DiscoveryRunStarted)
    assert [(s.run_id, s.source_ids) for s in started] == [(prep["runId"], [])]


@then("the imported job is prepared: scored, with a tailored resume and a cover letter as PDFs")
def _prepared(world: World) -> None:
    job_id = world.body["jobId"]

    def row() -> Any:
        with world.the_db().read() as conn:
            return conn.execute(sa.select(ap).where(ap.c.tenant_id == "local", ap.c.job_id == job_id)).first()

    found = until(lambda: (r := row()) is not None and r.prepared_at is not None and r, "the job prepared",
                  log=world.log)  # fmt: skip
    assert found.prepared_at is not None
    store = EventStore(world.the_db(), registry())
    kinds = {store.registry.decode(r).event_type for r in store.read_all(limit=100_000)}
    assert {"JobScored", "ResumeApproved", "CoverLetterGenerated", "PdfRendered"} <= kinds, sorted(kinds)
