"""Steps for discovery/import_url_prepared.feature: a real worker subprocess on the session's Temporal
dev server, the API in a uvicorn thread, a Workday stand-in on a local port (no internet).  Waits are
bounded polls of a condition, never sleeps before an assert."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from pytest_bdd import given, parsers, scenarios, then, when
from temporalio.client import Client

from jobctrl.discovery.events import DiscoveryRunStarted
from jobctrl.discovery.sample_board.server import LocalHttpServer
from jobctrl.discovery.sample_board.vendors import install_workday, workday_external_path
from jobctrl.orchestration.workflows.discover import DiscoverResult
from jobctrl.projections.read_models.applications import application_projections as ap
from jobctrl.testing.runtime.live import LiveHome, until
from jobctrl.testing.runtime.server import shared_dev_server, shared_worker_pycache
from jobctrl.testing.stored import events_of

from .families.stand_ins import postings_of

pytestmark = [pytest.mark.temporal, pytest.mark.integration]
scenarios("discovery/import_url_prepared.feature")


@dataclass
class World(LiveHome):
    queue: str = field(default_factory=lambda: f"import-{uuid.uuid4().hex[:8]}")
    vendor: LocalHttpServer | None = None
    posts: list[Any] = field(default_factory=list)
    body: dict[str, Any] = field(default_factory=dict)


@pytest.fixture
def world(pytestconfig: pytest.Config, tmp_path: Path) -> Iterator[World]:
    w = World(tmp=tmp_path, temporal=shared_dev_server(pytestconfig), pycache=shared_worker_pycache())
    try:
        yield w
    finally:
        w.close()


@given("a JobCtrl home with a saved profile and a running jobctrl worker")
def _home_and_worker(world: World) -> None:
    world.create({"min_fit_score": 1.0})
    world.spawn_worker()


@given("the API on that home and the same Temporal server")
def _api(world: World) -> None:
    world.serve_api()


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
    started = events_of(world.the_store(), DiscoveryRunStarted)
    assert [(s.run_id, s.source_ids) for s in started] == [(prep["runId"], [])]


@then("the imported job is prepared: scored, with a tailored resume and a cover letter as PDFs")
def _prepared(world: World) -> None:
    job_id = world.body["jobId"]

    def row() -> Any:
        with world.the_db().read() as conn:
            return conn.execute(sa.select(ap).where(ap.c.tenant_id == "local", ap.c.job_id == job_id)).first()

    found = until(lambda: (r := row()) is not None and r.prepared_at is not None and r, "the job prepared",
                  timeout=120, log=world.log)  # fmt: skip
    assert found.prepared_at is not None
    store = world.the_store()
    kinds = {store.registry.decode(r).event_type for r in store.read_all(limit=100_000)}
    assert {"JobScored", "ResumeApproved", "CoverLetterGenerated", "PdfRendered"} <= kinds, sorted(kinds)
