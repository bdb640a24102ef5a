"""Steps for applications/after_preparation.feature.

Everything on the live path is real: a ``jobctrl worker --projections`` subprocess on the session's
Temporal dev server (it prepares the job with the offline model and Chromium PDFs, runs the apply
workflows and folds the read models), the HTTP API in a uvicorn thread, the review page in headless
Chromium driven by Playwright, and a local SMTP server (aiosmtpd, port 0, STARTTLS + AUTH) that counts.
The job's posting is recorded as discovery publishes it (``JobDiscovered``); everything after that is
the worker's work.  Waits are bounded polls of a condition, never sleeps before an assert.
"""

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
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email import message_from_bytes
from email import policy as email_policy
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import sqlalchemy as sa
import uvicorn
from playwright.sync_api import Browser, Page, sync_playwright
from pytest_bdd import given, parsers, scenarios, then, when
from temporalio.client import Client

from jobctrl.apply.adapters.browser import launch_chromium
from jobctrl.apply.domain.errors import ClaimRefused
from jobctrl.apply.domain.facts import ClaimPolicy
from jobctrl.apply.domain.job_application import JobApplication, RunStatus
from jobctrl.apply.use_cases._common import jobs as apply_jobs
from jobctrl.apply.use_cases.claim_apply import claim_apply
from jobctrl.discovery.events import JobDiscovered
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock, SystemClock, isoformat
from jobctrl.kernel.events import NewEvent
from jobctrl.kernel.store import Database, EventStore, open_database
from jobctrl.materials.domain.sample import SAMPLE_PROFILE
from jobctrl.orchestration import save_profile
from jobctrl.orchestration.adapters.settings_store import SettingsStore
from jobctrl.orchestration.adapters.tables import create_orchestration_tables
from jobctrl.orchestration.workflows.ids import (
    apply_workflow_id,
    preparation_idempotency_key,
    preparation_workflow_id,
)
from jobctrl.orchestration.workflows.preparation import JobPreparationInput, JobPreparationWorkflow
from jobctrl.projections import read_status
from jobctrl.projections.migrate import migrate
from jobctrl.projections.read_models.applications import application_projections as ap
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.api.applications import due_follow_ups
from jobctrl.runtime.api.review_decision import current_facts
from jobctrl.runtime.api.services import LocalContext
from jobctrl.runtime.composition.profiles import to_document
from jobctrl.runtime.telemetry.heartbeat import create_table as create_heartbeat_table
from jobctrl.runtime.telemetry.heartbeat import fresh_heartbeats
from jobctrl.testing.runtime.read_models import differing_read_models
from jobctrl.testing.runtime.server import shared_dev_server, shared_worker_pycache, worker_bytecode_env
from jobctrl.testing.smtp_server import CountingSmtpServer, counting_smtp_server

pytestmark = [pytest.mark.temporal, pytest.mark.integration]
scenarios("applications/after_preparation.feature")

T = TypeVar("T")
SMTP_USER, SMTP_PASSWORD = "ada", "smtp-secret-for-tests"
DESCRIPTION = (
    "Globex is hiring a Platform Engineer to build our Python and PostgreSQL platform: Kubernetes, "
    "Terraform, observability, CI/CD, and mentoring engineers across data and backend teams."
)


def until(
    condition: Callable[[], T | None], what: str, *, timeout: float = 90.0, log: Path | None = None
) -> T:
    """Poll ``condition`` until it returns something truthy, within ``timeout`` seconds."""
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
    queue: str = field(default_factory=lambda: f"after-{uuid.uuid4().hex[:8]}")
    smtp: CountingSmtpServer | None = None
    db: Database | None = None
    store: EventStore | None = None
    worker: subprocess.Popen[bytes] | None = None
    api: str = ""
    job: str = ""
    recipient: str = ""
    page: Page | None = None
    browser: Browser | None = None
    closers: list[Callable[[], None]] = field(default_factory=list)

    @property
    def home(self) -> Path:
        return self.tmp / "home"

    @property
    def log(self) -> Path:
        return self.tmp / "worker.log"

    def the_store(self) -> EventStore:
        assert self.store is not None
        return self.store

    def the_db(self) -> Database:
        assert self.db is not None
        return self.db

    def the_smtp(self) -> CountingSmtpServer:
        assert self.smtp is not None
        return self.smtp

    def types(self) -> list[str]:
        return [e.event_type for e in self.the_store().read_all(limit=100_000)]

    def application(self) -> JobApplication | None:
        return apply_jobs(self.the_store(), SystemClock()).load(self.job)

    def row(self) -> Any:
        with self.the_db().read() as conn:
            return conn.execute(sa_select_row(self.job)).first()

    def spawn_worker(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TEMPORAL_", "JOBCTRL_"))}
        smtp = self.the_smtp()
        env.update(
            JOBCTRL_HOME=str(self.home), TEMPORAL_ADDRESS=self.temporal, JOBCTRL_TASK_QUEUE=self.queue,
            JOBCTRL_SMTP_PASSWORD=SMTP_PASSWORD, SSL_CERT_FILE=str(smtp.ca_file),
        )  # fmt: skip
        env.update(worker_bytecode_env(self.pycache))
        with self.log.open("ab") as out:
            self.worker = subprocess.Popen(
                [str(Path(sys.executable).parent / "jobctrl"), "worker", "--projections"],
                env=env, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        db = self.the_db()
        until(lambda: fresh_heartbeats(db, datetime.now().astimezone()), "a worker heartbeat", log=self.log)

    def stop_worker(self) -> None:
        if self.worker is not None and self.worker.poll() is None:
            self.worker.send_signal(signal.SIGTERM)
            try:
                self.worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.worker.kill()
                self.worker.wait(timeout=10)
        self.worker = None

    def temporal_call(self, work: Callable[[Client], Any]) -> Any:
        async def go() -> Any:
            client = await Client.connect(self.temporal)
            return await work(client)

        # On a thread of its own: Playwright's sync API keeps an event loop on this one.
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, go()).result()

    def caught_up(self) -> bool:
        status = read_status(self.the_db())
        return status.watermark == status.head


def sa_select_row(job_id: str) -> Any:
    return sa.select(ap).where(ap.c.tenant_id == "local", ap.c.job_id == job_id)


@pytest.fixture(scope="module")
def worker_pycache() -> Path:
    return shared_worker_pycache()


@pytest.fixture
def world(pytestconfig: pytest.Config, tmp_path: Path, worker_pycache: Path) -> Iterator[World]:
    w = World(tmp=tmp_path, temporal=shared_dev_server(pytestconfig), pycache=worker_pycache)
    try:
        yield w
    finally:
        w.stop_worker()
        for close in reversed(w.closers):
            close()
        if w.db is not None:
            w.db.dispose()


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
    world.home.mkdir()
    world.db = open_database(f"sqlite:///{world.home / 'jobctrl.db'}")
    world.store = EventStore(world.db, registry())
    world.store.create_schema()
    migrate(world.db)
    create_orchestration_tables(world.db)
    create_heartbeat_table(world.db)
    SettingsStore(world.db).update(
        {
            "smtp_host": "127.0.0.1", "smtp_port": world.the_smtp().port, "smtp_starttls": True,
            "smtp_username": SMTP_USER, "smtp_from": "ada@example.org", "min_fit_score": 1.0,
            "task_queue": world.queue,
        }
    )  # fmt: skip
    save_profile(world.store, to_document(dict(SAMPLE_PROFILE)))


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
    config = ApiConfig(
        database_url=f"sqlite:///{world.home / 'jobctrl.db'}", temporal_address=world.temporal,
        task_queue=world.queue, artifacts_root=world.home / "artifacts",
    )  # fmt: skip
    app = create_app(config)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    until(lambda: server.started, "the API to start", timeout=30)
    port = server.servers[0].sockets[0].getsockname()[1]
    world.api = f"http://127.0.0.1:{port}"

    def stop() -> None:
        server.should_exit = True
        thread.join(timeout=20)

    world.closers.append(stop)


# -- the dashboard ----------------------------------------------------------------------------------
@when("the user opens the review page in Chromium")
def _open(world: World) -> None:
    playwright = sync_playwright().start()
    world.closers.append(playwright.stop)
    world.browser = launch_chromium(playwright)
    world.closers.append(world.browser.close)
    world.page = world.browser.new_page(viewport={"width": 1200, "height": 1400})
    world.page.goto(f"{world.api}/review")
    world.page.wait_for_selector(f'[data-job="{world.job}"]', timeout=30_000)


def _card(world: World) -> Any:
    assert world.page is not None
    return world.page.locator(f'#queue [data-job="{world.job}"]')


@then("the page shows the job with its scores, its resume and cover letter, and why it cannot be sent yet")
def _shows(world: World) -> None:
    card = _card(world)
    assert "Platform Engineer · Globex" in card.locator("h3").inner_text()
    assert "fit " in card.inner_text() and "apply by email" in card.inner_text()
    assert card.locator('[data-role="reasons"] li').count() >= 1  # the score's reasons, in words
    assert card.locator('[data-role="gate"]').inner_text() == (
        "Not approved yet: approve submitting this application."
    )
    for role in ("resume", "cover"):
        frame = card.locator(f'iframe[data-role="{role}"]')
        until(partial(frame.get_attribute, "data-loaded"), f"the {role} PDF to load", timeout=30)
        assert frame.get_attribute("data-loaded") == "application/pdf"
    # The viewer's pages are not in the DOM: the words of the same PDFs are shown beside them.
    expected = {"resume": str(SAMPLE_PROFILE["name"]), "cover": "Globex"}
    for role, words in expected.items():
        shown = card.locator(f'pre[data-role="{role}-text"]')
        until(partial(shown.get_attribute, "data-loaded"), f"the {role} text to load", timeout=30)
        assert shown.is_visible() and shown.get_attribute("data-loaded") != "error", shown.inner_text()
        assert words in shown.inner_text() and "page 1 of" in shown.inner_text(), shown.inner_text()
    assert world.page is not None
    world.page.screenshot(path=str(world.tmp / "review-before.png"), full_page=True)


@when(parsers.parse('the user clicks "{label}"'))
def _click(world: World, label: str) -> None:
    card = _card(world)
    card.get_by_role("button", name=label, exact=True).click()
    until(lambda: card.locator('[data-role="result"]').get_attribute("data-state"), "the decision answer",
          timeout=30)  # fmt: skip
    assert card.locator('[data-role="result"]').get_attribute("data-state") == "started", card.locator(
        '[data-role="result"]'
    ).inner_text()


@then(parsers.parse('the dry run completes and records the email to "{recipient}" without sending anything'))
def _dry_run_done(world: World, recipient: str) -> None:
    def done() -> JobApplication | None:
        app = world.application()
        return app if app is not None and app.runs_with(RunStatus.DRY_RUN_COMPLETED) else None

    app = until(done, "the dry run to complete", log=world.log)
    candidate = app.state.email_candidate
    assert candidate is not None and candidate.recipient == recipient
    assert world.the_smtp().accepted == [] and "ApplySubmitIntended" not in world.types()


@when('the user reloads the review page and clicks "Approve"')
def _approve(world: World) -> None:
    assert world.page is not None
    world.page.reload()
    card = _card(world)
    until(lambda: "dry run completed" in card.inner_text(), "the page to show the dry run", timeout=30)
    _click(world, "Approve")
    world.page.screenshot(path=str(world.tmp / "review-approved.png"), full_page=True)


@then(
    parsers.parse(
        'the SMTP server has accepted exactly 1 message, to "{recipient}", with the resume attached'
    )
)
def _sent_once(world: World, recipient: str) -> None:
    smtp = world.the_smtp()
    until(lambda: "ApplicationSubmitted" in world.types(), "the application to be submitted", log=world.log)

    async def finished(client: Client) -> Any:
        return await client.get_workflow_handle(apply_workflow_id("local", world.job)).result()

    world.temporal_call(finished)  # the live workflow is over: nothing more can be sent by it
    assert len(smtp.accepted) == 1
    envelope = smtp.accepted[0]
    assert envelope.rcpt_tos == [recipient] and smtp.logins == [SMTP_USER]
    mail = message_from_bytes(envelope.original_content or b"", policy=email_policy.default)
    names = [part.get_filename() for part in mail.iter_attachments()]
    assert names == ["resume.pdf"]
    types = world.types()
    assert types.count("ApplySubmitIntended") == 1 and types.count("ApplicationSubmitted") == 1
    assert types.index("ApplySubmitIntended") < types.index("ApplicationSubmitted")


def _due_at(world: World, days_later: float) -> list[str]:
    row = until(lambda: (r := world.row()) is not None and r.applied_at is not None and r, "applied_at",
                log=world.log)  # fmt: skip
    applied = datetime.fromisoformat(row.applied_at.replace("Z", "+00:00"))
    ctx = LocalContext(
        db=world.the_db(), store=world.the_store(), clock=FixedClock(applied + timedelta(days=days_later))
    )
    return [item.job_id for item in due_follow_ups(ctx)[1]]


@then(parsers.parse("the application's follow-up falls due {days:d} days after it was sent"))
def _falls_due(world: World, days: int) -> None:
    assert _due_at(world, days - 0.01) == []
    assert _due_at(world, days) == [world.job]


@when(parsers.parse('the user records the outcome "{outcome}"'))
def _outcome(world: World, outcome: str) -> None:
    response = httpx.post(f"{world.api}/v1/jobs/{world.job}/outcomes", json={"outcome": outcome}, timeout=30)
    assert response.status_code == 201, response.text
    until(lambda: (r := world.row()) is not None and r.settled_at is not None, "the outcome folded",
          log=world.log)  # fmt: skip


@then("the application's follow-up is no longer due")
def _no_longer_due(world: World) -> None:
    assert _due_at(world, 30) == []
    due = httpx.get(f"{world.api}/v1/follow-ups/due", timeout=30).json()
    assert world.job not in [i["jobId"] for i in due["items"]]


@then(parsers.parse('the pipeline shows the job under "{stage}"'))
def _pipeline(world: World, stage: str) -> None:
    body = httpx.get(f"{world.api}/v1/applications/pipeline", timeout=30).json()
    assert [(i["jobId"], i["stage"]) for i in body["items"]] == [(world.job, stage)]
    assert world.page is not None
    world.page.reload()
    world.page.wait_for_selector(f'#pipeline [data-stage="{stage}"]', timeout=30_000)
    world.page.screenshot(path=str(world.tmp / "review-after.png"), full_page=True)


@then("every read model equals a clean rebuild of the log")
def _rebuild(world: World) -> None:
    until(world.caught_up, "the worker's runner to reach the head", log=world.log)
    world.stop_worker()  # its runner caught up and stopped: the tables are final
    fresh = open_database(f"sqlite:///{world.tmp / 'clean-rebuild.db'}")
    try:
        assert differing_read_models(world.the_db(), fresh) == []
    finally:
        fresh.dispose()


# -- the kill ---------------------------------------------------------------------------------------
@given("the SMTP server holds the next send before any message is handed over")
def _hold(world: World) -> None:
    world.the_smtp().hold()


def _decide(world: World, body: dict[str, Any]) -> dict[str, Any]:
    response = httpx.post(f"{world.api}/v1/jobs/{world.job}/apply-review/decision", json=body, timeout=60)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


@when("the user approves a dry run and then the application through the API")
def _approve_by_api(world: World) -> None:
    [item] = httpx.get(f"{world.api}/v1/apply/review", timeout=30).json()["items"]
    target = {k: item[k] for k in ("materialsGeneration", "profileVersion", "applicationUrl")}
    assert _decide(world, {"decision": "approve_dry_run", **target})["workflowId"]
    _dry_run_done(world, world.recipient)

    async def dry_finished(client: Client) -> Any:
        return await client.get_workflow_handle(apply_workflow_id("local", world.job)).result()

    world.temporal_call(dry_finished)
    [item] = httpx.get(f"{world.api}/v1/apply/review", timeout=30).json()["items"]
    started = _decide(
        world,
        {"decision": "approve_submit", **target, "emailRecipient": item["emailRecipient"],
         "emailAttachmentArtifactId": item["emailAttachmentArtifactId"]},
    )  # fmt: skip
    assert started["workflowId"] and started["dryRun"] is False, started


@when("the worker is killed with SIGKILL once the submit intent is recorded and the send has begun")
def _kill(world: World) -> None:
    smtp = world.the_smtp()
    until(lambda: "ApplySubmitIntended" in world.types(), "the submit intent", log=world.log)
    until(smtp.send_started.is_set, "the send to begin", log=world.log)
    assert world.worker is not None
    world.worker.send_signal(signal.SIGKILL)
    world.worker.wait(timeout=10)
    world.worker = None


@then(parsers.parse("the SMTP server has accepted {count:d} messages"))
def _accepted(world: World, count: int) -> None:
    assert len(world.the_smtp().accepted) == count


@when("a new jobctrl worker starts and the killed apply run has ended")
def _restart(world: World) -> None:
    world.spawn_worker()

    async def closed(client: Client) -> str:
        described = await client.get_workflow_handle(apply_workflow_id("local", world.job)).describe()
        return described.status.name if described.status else ""

    # Live apply has one attempt: the killed attempt times out on its heartbeat and is not retried.
    until(lambda: world.temporal_call(closed) not in ("", "RUNNING"), "the apply workflow to close",
          timeout=240, log=world.log)  # fmt: skip
    world.the_smtp().release()


@then("the application is left for recovery: a submit intent without a result, marked needs_verification")
def _left(world: World) -> None:
    app = world.application()
    assert app is not None
    [live] = [r for r in app.state.runs.values() if not r.dry_run]
    assert live.intended and live.status is RunStatus.NEEDS_VERIFICATION  # by the workflow's recover_apply
    types = world.types()
    assert types.count("ApplySubmitIntended") == 1 and "ApplicationSubmitted" not in types
    until(lambda: (r := world.row()) is not None and r.submit_intended_at is not None, "the intent folded")
    stages = httpx.get(f"{world.api}/v1/applications/pipeline", timeout=30).json()["counts"]
    assert stages == {"needs_verification": 1}


@then(parsers.parse('a new live claim of the job is refused as "{reason}"'))
def _refused(world: World, reason: str) -> None:
    ctx = LocalContext(db=world.the_db(), store=world.the_store(), clock=SystemClock())
    facts = current_facts(ctx, world.job)
    before = len(world.types())
    with pytest.raises(ClaimRefused) as refused:
        claim_apply(world.the_store(), facts, ClaimPolicy(min_score=1.0), run_id="manual-retry",
                    worker_id="w", model="m", dry_run=False, email=True)  # fmt: skip
    assert refused.value.reason == reason
    assert len(world.types()) == before and len(world.the_smtp().accepted) == 0
