"""Shared steps for the API scenarios: a real app (in-process client) over a real database, the real
Temporal adapter on the session's dev server (nothing polls the queue, so what the API starts stays
running and is read back from the server by ``world.temporal``) and a fixed clock; state is seeded
through real events."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pytest_bdd import given, parsers, then

from jobctrl.domain_types import registry
from jobctrl.kernel.clock import FixedClock
from jobctrl.kernel.store import Database, EventStore
from jobctrl.orchestration import load_job_stages
from jobctrl.orchestration.domain.stages.states import kind_of
from jobctrl.runtime.api.app import ApiConfig, create_app
from jobctrl.runtime.api.workflow_control import TemporalWorkflowControl
from jobctrl.testing.runtime.api_seed import beat, fail_stage
from jobctrl.testing.runtime.server import shared_dev_server
from jobctrl.testing.runtime.temporal_probe import TemporalProbe

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@dataclass
class World:
    client: TestClient
    db: Database
    store: EventStore
    temporal: TemporalProbe
    head_before: int | None = None
    response: Any = None
    notes: dict[str, Any] = field(default_factory=dict)

    def call(self, method: str, url: str, **kwargs: Any) -> None:
        self.head_before = self.store.head_position()
        self.response = self.client.request(method, url, **kwargs)


@pytest.fixture(autouse=True)
def _on_both_databases(db_kind: str) -> str:
    """Pulls ``db_kind`` into every scenario so the plugin runs it on SQLite and PostgreSQL."""
    return db_kind


@pytest.fixture
def world(db_url: str, database: Database, pytestconfig: pytest.Config) -> Iterator[World]:
    address = shared_dev_server(pytestconfig)
    control = TemporalWorkflowControl(address)
    app = create_app(ApiConfig(database_url=db_url, sse_poll_s=0.05, control=control, clock=FixedClock(NOW)))
    probe = TemporalProbe(address)
    try:
        with TestClient(app, raise_server_exceptions=False) as client:
            yield World(client, database, EventStore(database, registry()), probe)
    finally:
        probe.close()


@given(parsers.parse('job "{job}" whose {stage} stage failed'))
def stage_failed(world: World, job: str, stage: Any) -> None:
    fail_stage(world.store, job, stage)


@given(parsers.parse("the last worker heartbeat was {seconds:d} seconds ago"))
def heartbeat(world: World, seconds: int) -> None:
    beat(world.db, NOW - timedelta(seconds=seconds))


@then(parsers.parse('the answer is {status:d} "{code}"'))
def answer_with_code(world: World, status: int, code: str) -> None:
    assert world.response.status_code == status, world.response.text
    assert world.response.json()["error"]["code"] == code


@then(parsers.parse("the answer is {status:d}"))
def answer(world: World, status: int) -> None:
    assert world.response.status_code == status, world.response.text


@then("the job log did not move")
def log_unchanged(world: World) -> None:
    assert world.store.head_position() == world.head_before


@then(parsers.re(r'stage "(?P<stage>\w+)" of job "(?P<job>[\w-]+)" is (still )?(?P<state>\w+)$'))
def stage_is(world: World, stage: Any, job: str, state: str) -> None:
    assert kind_of(load_job_stages(world.store, job).state(stage)).lower() == state
