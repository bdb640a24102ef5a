"""``jobctrl contacts research JOB`` starts the real ContactResearchWorkflow through the real Temporal
adapter (the route's path), a worker with the production contact activity (politeness gateway, offline
extractor) reads the page the user named, and ``contacts list|show|confirm`` review the result."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from jobctrl.discovery.sample_board.board import source_for
from jobctrl.domain_types import registry
from jobctrl.kernel.clock import SystemClock
from jobctrl.kernel.store import Database, EventStore, open_database
from jobctrl.runtime.cli import app
from jobctrl.runtime.composition.root import Composition
from jobctrl.testing.http_server import serving
from jobctrl.testing.runtime.api_seed import beat, discover_job, project
from jobctrl.testing.runtime.harness import Harness

pytestmark = [pytest.mark.temporal, pytest.mark.integration]
TEAM = "Our team\nJane Doe — Head of Talent\njane@globex.example\nBob Smith, Engineering Manager\n"


@pytest.fixture
def careers() -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = {"/robots.txt": "User-agent: *\nAllow: /\n", "/team": TEAM}.get(self.path)
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.end_headers()
            self.wfile.write((body or "not found").encode())

        def log_message(self, *_: Any) -> None:
            pass

    with serving(Handler) as base:
        yield base


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Database]:
    monkeypatch.setenv("JOBCTRL_HOME", str(tmp_path))
    monkeypatch.delenv("JOBCTRL_DATABASE_URL", raising=False)
    monkeypatch.delenv("JOBCTRL_KEYS_DIR", raising=False)
    database = open_database()
    yield database
    database.dispose()


@pytest.mark.asyncio
async def test_cli_research_runs_on_the_worker_and_its_candidates_are_reviewed(
    temporal_address: str, db: Database, careers: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = EventStore(db, registry())
    store.create_schema()
    board = source_for("greenhouse", "globex", "Globex", careers)  # a loopback source: local policies
    comp = Composition.build(db, store, sources=lambda: [board], artifacts_root=db.identity.path.parent / "a")  # type: ignore[union-attr]
    discover_job(store, "j1", employer="Globex", title="Platform Engineer")
    project(db)
    runner = CliRunner()
    harness = Harness(temporal_address, db)
    async with harness.worker(comp.activities()) as worker:
        monkeypatch.setenv("TEMPORAL_ADDRESS", temporal_address)
        monkeypatch.setenv("JOBCTRL_TASK_QUEUE", worker.task_queue)
        no_worker = await asyncio.to_thread(runner.invoke, app, ["contacts", "research", "j1"])
        assert no_worker.exit_code == 3 and "worker" in no_worker.output  # no heartbeat yet: nothing starts
        beat(db, SystemClock().now())
        head = store.head_position()
        for bad in (["nope"], ["j1", "--source", "file:///etc/passwd"]):
            refused = await asyncio.to_thread(runner.invoke, app, ["contacts", "research", *bad])
            assert refused.exit_code in (1, 2), refused.output
        assert store.head_position() == head
        started = await asyncio.to_thread(
            runner.invoke, app, ["contacts", "research", "j1", "--source", f"{careers}/team"]
        )
        assert started.exit_code == 0, started.output
        task_id = started.output.split("research task ", 1)[1].split()[0]
        result = await worker.client.get_workflow_handle(f"contact-research-local-{task_id}").result()
        assert result["candidates"] == 2
    project(db)
    listed = runner.invoke(app, ["contacts", "list", "--job", "j1"])
    assert listed.exit_code == 0 and task_id in listed.output and "needs_review" in listed.output, (
        listed.output
    )
    shown = runner.invoke(app, ["contacts", "show", task_id])
    assert "Jane Doe" in shown.output and "Bob Smith" in shown.output, shown.output
    task = comp.contact.services.tasks.get(task_id)
    jane = next(
        c
        for c, p in task.candidates.items()
        if "Jane" in str(comp.contact.services.vault.open(c, p.sealed_candidate))
    )
    confirmed = runner.invoke(app, ["contacts", "confirm", task_id, jane])
    assert confirmed.exit_code == 0, confirmed.output
    assert comp.contact.services.contacts.get(jane).exists
    again = runner.invoke(app, ["contacts", "confirm", task_id, jane])
    assert again.exit_code == 1 and "already a contact" in again.output
