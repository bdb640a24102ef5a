"""The world and background of applications/after_preparation.feature.

Everything on the live path is real: a ``jobctrl worker --projections`` subprocess on the session's
Temporal dev server (it prepares the job with the offline model and Chromium PDFs, runs the apply
workflows and folds the read models), the HTTP API in a uvicorn thread, and a local SMTP server
(aiosmtpd, port 0, STARTTLS + AUTH) that counts.  The job's posting is recorded as discovery publishes
it (``JobDiscovered``); everything after that is the worker's work.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from playwright.sync_api import Browser, Page
from pytest_bdd import given, parsers
from temporalio.client import Client

from jobctrl.apply.domain.job_application import JobApplication
from jobctrl.apply.use_cases._common import jobs as apply_jobs
from jobctrl.discovery.events import JobDiscovered
from jobctrl.kernel.clock import SystemClock, isoformat
from jobctrl.kernel.events import NewEvent
from jobctrl.orchestration.workflows.ids import preparation_idempotency_key, preparation_workflow_id
from jobctrl.orchestration.workflows.preparation import JobPreparationInput, JobPreparationWorkflow
from jobctrl.projections import read_status
from jobctrl.projections.read_models.applications import application_projections as ap
from jobctrl.testing.runtime.live import LiveHome, until
from jobctrl.testing.runtime.server import shared_dev_server, shared_worker_pycache
from jobctrl.testing.smtp_server import CountingSmtpServer, counting_smtp_server

SMTP_USER, SMTP_PASSWORD = "ada", "smtp-secret-for-tests"
DESCRIPTION = (
    "Globex is hiring a Platform Engineer to build our Python and PostgreSQL platform: Kubernetes, "
    "Terraform, observability, CI/CD, and mentoring engineers across data and backend teams."
)


@dataclass
class World(LiveHome):
    queue: str = field(default_factory=lambda: f"after-{uuid.uuid4().hex[:8]}")
    smtp: CountingSmtpServer | None = None
    job: str = ""
    recipient: str = ""
    page: Page | None = None
    browser: Browser | None = None

    def the_smtp(self) -> CountingSmtpServer:
        assert self.smtp is not None
        return self.smtp

    def types(self) -> list[str]:
        return [e.event_type for e in self.the_store().read_all(limit=100_000)]

    def application(self) -> JobApplication | None:
        return apply_jobs(self.the_store(), SystemClock()).load(self.job)

    def row(self) -> Any:
        with self.the_db().read() as conn:
            return conn.execute(
                sa.select(ap).where(ap.c.tenant_id == "local", ap.c.job_id == self.job)
            ).first()

    def spawn_worker(self, env: Mapping[str, str] | None = None) -> None:
        smtp = self.the_smtp()
        super().spawn_worker(
            {"JOBCTRL_SMTP_PASSWORD": SMTP_PASSWORD, "SSL_CERT_FILE": str(smtp.ca_file), **(env or {})}
        )

    def caught_up(self) -> bool:
        status = read_status(self.the_db())
        return status.watermark == status.head


@pytest.fixture(scope="module")
def worker_pycache() -> Path:
    return shared_worker_pycache()


@pytest.fixture
def world(pytestconfig: pytest.Config, tmp_path: Path, worker_pycache: Path) -> Iterator[World]:
    w = World(tmp=tmp_path, temporal=shared_dev_server(pytestconfig), pycache=worker_pycache)
    try:
        yield w
    finally:
        w.close()


# -- background -------------------------------------------------------------------------------------
@given("a local SMTP server with STARTTLS and a login that counts accepted messages")
def _smtp(world: World) -> None:
    stack = ExitStack()
    world.smtp = stack.enter_context(
        counting_smtp_server(world.tmp, username=SMTP_USER, password=SMTP_PASSWORD)
    )
    world.closers.append(stack.close)


@given("a JobCtrl home whose settings send email applications through that server")
def _home(world: World) -> None:
    world.create(
        {
            "smtp_host": "127.0.0.1", "smtp_port": world.the_smtp().port, "smtp_starttls": True,
            "smtp_username": SMTP_USER, "smtp_from": "ada@example.org", "min_fit_score": 1.0,
        }
    )  # fmt: skip


@given("a running jobctrl worker")
def _worker(world: World) -> None:
    world.spawn_worker()


@given(
    parsers.parse(
        'the job "{job}" at "{employer}" for "{role}", applied to by email at "{recipient}",'
        " prepared by the worker"
    )
)
def _prepared(world: World, job: str, employer: str, role: str, recipient: str) -> None:
    world.job, world.recipient = job, recipient
    store = world.the_store()
    discovered = JobDiscovered(
        job_id=job, posting_url=f"https://careers.globex.example/jobs/{job}", source="globex-careers",
        employer=employer,
        metadata={"title": role, "description": DESCRIPTION, "applyUrl": f"mailto:{recipient}"},
        discovered_at=isoformat(SystemClock().now()),
    )  # fmt: skip
    store.append(f"job-{job}", None, [NewEvent.of(discovered, occurred_at=SystemClock().now())])
    key = preparation_idempotency_key("local", job, "score_job", 1, f"after-{job}")

    async def prepare(client: Client) -> Any:
        return await client.execute_workflow(
            JobPreparationWorkflow.run, JobPreparationInput(tenant="local", job_id=job, idempotency_key=key),
            id=preparation_workflow_id(key), task_queue=world.queue, execution_timeout=timedelta(minutes=5),
        )  # fmt: skip

    result = world.temporal_call(prepare)
    assert result.stopped_at is None, result
    until(lambda: (row := world.row()) is not None and row.prepared_at is not None, "the job prepared",
          log=world.log)  # fmt: skip


@given("the API serving the dashboard")
def _api(world: World) -> None:
    world.serve_api()
